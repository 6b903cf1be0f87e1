"""Taking a move back: how far a player may go, and the position there.

A seat may take back its last card play or pass, and the CPU moves that followed it, again and again,
back to the start of the current hand — but never across anything that showed it hidden information it
would keep:

- the end of a hand or a new deal (every card is known then);
- a card arriving in its hand from elsewhere (Guiñote's draw, Guandan's tribute or return);
- any move that is not a plain card play or pass (Gong Zhu's showing, Guiñote's exchange, cantes and
  claims, Guandan's tribute and return), since those show or move hidden cards.

The CPU players are deterministic, so replaying the same play gets the same answers: that is honest.
The position is rebuilt by replaying the kept moves from the seed (the engine's own ``replay``).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from cardtable.engine import Match

PLAIN_MOVE_KEYS = frozenset({"play", "pass", "as"})


def _plain(move: Any) -> bool:
    data = move.to_json()
    return isinstance(data, dict) and set(data) <= PLAIN_MOVE_KEYS


def undo_floor(match: Match, seat: int) -> int:
    """The number of moves an undo by ``seat`` must keep (see the module docstring)."""
    spec_type = type(match)
    replay = spec_type.new(match.options, match.seed)
    floor = 0
    hand = Counter(replay.view(seat).hand)
    events = len(replay.events)
    for count, (mover, move) in enumerate(match.moves, 1):
        replay.apply(move, mover)
        now = Counter(replay.view(seat).hand)
        if len(replay.events) != events or not _plain(move) or now - hand:
            floor = count
        hand, events = now, len(replay.events)
    return floor


def undo_target(match: Match, seat: int) -> int | None:
    """How many moves to keep so that ``seat``'s last move is taken back, or None when it may not be
    (nothing of its own to take back since the floor)."""
    floor = undo_floor(match, seat)
    for index in range(len(match.moves) - 1, floor - 1, -1):
        if match.moves[index][0] == seat:
            return index
    return None


def take_back(match: Match, seat: int) -> Match | None:
    """The match as it was just before ``seat``'s last move, or None when it may not be taken back."""
    keep = undo_target(match, seat)
    if keep is None:
        return None
    return type(match).replay(match.options, match.seed, match.moves[:keep])


def hand_start(match: Match, hand: int) -> int:
    """How many of the match's moves come before hand ``hand`` is dealt (for replaying a deal)."""
    replay = type(match).new(match.options, match.seed)
    if replay.hand >= hand:
        return 0
    for count, (mover, move) in enumerate(match.moves, 1):
        replay.apply(move, mover)
        if replay.hand >= hand:
            return count
    raise ValueError(f"hand {hand} was never dealt in this match")


def deal_again(match: Match, hand: int) -> Match:
    """A copy of the match at the deal of hand ``hand``: the same cards, to be played again."""
    return type(match).replay(match.options, match.seed, match.moves[:hand_start(match, hand)])


def finished_hand(match: Match) -> Match | None:
    """The table as the last move left it, when that move ended a hand and the next one was dealt at once
    (every game deals the next hand in the same ``apply``): the match replayed up to that move and the
    move made again with the next deal held back (``Match.hold_deals``: «hand over, next deal
    pending»), so the finished hand's last trick, counts and number can stay on the table behind its
    results. None when no deal followed the hand's end (the move did not end a hand, or the match is
    over)."""
    if not match.moves:
        return None
    seat, move = match.moves[-1]
    before = match.undone(1)
    before.hold_deals = True
    before.apply(move, seat)
    return before if before.hand_over else None
