"""Guandan hand review: the deal with the tribute and its return, then each round of plays — a lead and
the plays and passes after it until everyone else passes, or until the hand ends (see
:mod:`cardtable.review`). Step 0's ``plays`` are the tribute and return moves and its ``draws`` who
received each of those cards, in the same order.

``score`` of each step: ``finish`` — the seats gone out so far, in order; after the last step the
seats still holding cards follow, as in the hand_end record."""

from __future__ import annotations

from typing import Any

from cardtable.games.guandan.state import GuandanMatch, Return, Tribute
from cardtable.review import Step


def _hands(match: GuandanMatch) -> tuple[tuple[Any, ...], ...]:
    return tuple(tuple(h) for h in match.hands)


def steps(match: GuandanMatch, moves: list[tuple[int, Any]]) -> list[Step]:
    """Replay ``moves`` (one whole hand) on ``match``, at the hand's deal."""
    hand = match.hand
    dealt = _hands(match)
    tribute: list[tuple[int, Any]] = []
    index = 0
    while index < len(moves) and isinstance(moves[index][1], (Tribute, Return)):
        seat, move = moves[index]
        match.apply(move, seat)
        tribute.append((seat, move))
        index += 1
    # who received each tribute or returned card, in the order of the moves
    received = tuple((taker, card) for _, _, taker, card in match.tribute_moves)
    out = [Step(0, dealt, match.leader, tuple(tribute), None, {"finish": []}, draws=received)]
    plays: list[tuple[int, Any]] = []
    hands = _hands(match)
    for seat, move in moves[index:]:
        if not plays:
            hands = _hands(match)
        plays.append((seat, move))
        finish = list(match.finish)
        match.apply(move, seat)
        if match.hand != hand or match.finished:       # this play ended the hand: its player went out
            finish.append(seat)
            finish += [s for s in range(4) if s not in finish]
            out.append(Step(len(out), hands, plays[0][0], tuple(plays), None, {"finish": finish}))
            break
        if not match.trick:                            # everyone else passed: the round is over
            out.append(Step(len(out), hands, plays[0][0], tuple(plays), match.last_winner,
                            {"finish": list(match.finish)}))
            plays = []
    return out
