"""Older Guiñote move lists, brought to today's order (read by ``GuinoteMatch.replay``)."""

from __future__ import annotations

from typing import Any

from cardtable.games.guinote.moves import Exchange, KeepSeven, Play, rules_seven
from cardtable.games.guinote.options import GuinoteOptions


def upgrade_moves(options: GuinoteOptions, seed: int, moves: list[tuple[int, Any]]) -> list[tuple[int, Any]]:
    """The move list in today's order (see :meth:`GuinoteMatch.replay`); a list already in it comes back
    unchanged. Stops at the first move that does not fit and leaves the rest as it is, so the replay
    reports that move."""
    from cardtable.games.guinote.state import GuinoteMatch

    match = GuinoteMatch(options, seed)
    out: list[tuple[int, Any]] = []
    rest = list(moves)
    while rest:
        asked = match.exchange_seat
        if match.pending_draw is not None and asked is not None:
            seat, move = rest[0]
            if not (seat == asked and isinstance(move, Exchange | KeepSeven)):
                window = next((i for i, (_, m) in enumerate(rest) if isinstance(m, Play)), len(rest))
                found = next((i for i in range(window) if rest[i][0] == asked
                              and isinstance(rest[i][1], Exchange)), None)
                decision = rest.pop(found) if found is not None else (asked, KeepSeven(rules_seven(match.trump)))
                rest.insert(0, decision)
        seat, move = rest.pop(0)
        if match.why_illegal(move, seat) is not None:
            return out + [(seat, move)] + rest
        match.apply(move, seat)
        out.append((seat, move))
    return out

