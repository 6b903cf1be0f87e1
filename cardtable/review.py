"""Hand review: a finished hand, step by step (the deal, then each trick), rebuilt by replaying its moves.

A review is a list of :class:`Step` snapshots built by the game's own ``review`` module
(``cardtable.games.<game>.review.steps``), which replays the hand's moves on the engine from the
position at its deal and notes, before each trick, every seat's cards. Step 0 is the deal and what
comes before the first lead (Gong Zhu's showing phase, Guandan's tribute and return); each later step
is one trick — in Guandan one round of plays until everyone else passes. Every step carries the score
so far, so the last one ends with the hand's score as its ``hand_end`` record gives it.

Nothing here needs a screen: the UI only draws the steps, and the tests check them against the engine.
"""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Mapping
from typing import Any

from cardtable.engine import Match


@dataclasses.dataclass(frozen=True)
class Step:
    """One step of a hand.

    ``number`` is 0 for the deal, then the trick (Guandan: round) number. ``hands`` are the four seats'
    cards at the start of the step (before any card of the trick is played). ``plays`` are the step's
    moves in order as ``(seat, what)``: the cards of a trick (Gong Zhu, Guiñote: the card; Guandan: the
    Play or Pass move), or at step 0 what was shown (Gong Zhu: the tuple of cards) or the tribute and
    return moves (Guandan). ``leader`` led the trick; ``winner`` won it (None at the deal, and for a
    Guandan round the hand ended in before it closed: its last player went out). ``after`` are the moves
    made after the trick (Guiñote's exchange, cantes and claim); ``draws`` the cards that arrived in a
    hand other than by a play, as ``(seat, card)``: Guiñote's draws after the trick, winner first;
    Guandan's tribute and returned cards at step 0, in the order of ``plays``. ``gained`` is what the trick scored: Gong Zhu the point cards taken,
    Guiñote the card points per pair (with las diez de últimas). ``score`` is the running score after the
    step, in plain values (see each game's ``review`` module)."""

    number: int
    hands: tuple[tuple[Any, ...], ...]
    leader: int | None
    plays: tuple[tuple[int, Any], ...]
    winner: int | None
    score: Mapping[str, Any]
    after: tuple[tuple[int, Any], ...] = ()
    draws: tuple[tuple[int, Any], ...] = ()
    gained: tuple[Any, ...] = ()

    @property
    def cards_played(self) -> list[Any]:
        """The cards this step took out of the hands by playing them (not shows, tributes or passes)."""
        out: list[Any] = []
        for _, what in self.plays:
            if hasattr(what, "rank"):             # a card (Gong Zhu, Guiñote)
                out.append(what)
            elif type(what).__name__ == "Play":   # a Guandan play
                out.extend(what.cards)
        return out


@dataclasses.dataclass(frozen=True)
class HandReview:
    """The review of hand ``hand``: its ``deal`` and ``hand_end`` records and the steps."""

    game: str
    hand: int
    deal: Mapping[str, Any]
    end: Mapping[str, Any]
    steps: tuple[Step, ...]
    options: Any = None


class NotReviewable(ValueError):
    """The hand was not played to its end (or never dealt)."""


def finished_hands(match: Match) -> list[dict[str, Any]]:
    """The ``hand_end`` records of the hands played to their end, in order."""
    return [record for record in match.events if record.get("type") == "hand_end"]


def _at_deal(match: Match, hand: int) -> tuple[Match, int]:
    """The match replayed to the deal of ``hand``, and how many moves come before it."""
    replay = type(match).new(match.options, match.seed)
    count = 0
    for mover, move in match.moves:
        if replay.hand >= hand:
            break
        replay.apply(move, mover)
        count += 1
    if replay.hand != hand:
        raise NotReviewable(f"hand {hand} was never dealt in this match")
    return replay, count


def review(match: Match, hand: int) -> HandReview:
    """The review of a finished hand of ``match`` (the match is not changed)."""
    end = next((r for r in finished_hands(match) if r["hand"] == hand), None)
    if end is None:
        raise NotReviewable(f"hand {hand} has not been played to its end")
    deal = next(r for r in match.events if r.get("type") == "deal" and r["hand"] == hand)
    replay, start = _at_deal(match, hand)
    # The hand's moves run up to the one that ends it (counted by replaying, not from the log's move
    # lines: a silent move such as Guiñote's declined exchange has none).
    probe, stop, mark = replay.clone(), start, len(replay.log)
    while stop < len(match.moves) and not any(r.get("type") == "hand_end" for r in probe.log[mark:]):
        mover, move = match.moves[stop]
        probe.apply(move, mover)
        stop += 1
    moves = match.moves[start:stop]
    module = importlib.import_module(f"cardtable.games.{match.game}.review")
    steps = module.steps(replay, moves)
    return HandReview(match.game, hand, deal, end, tuple(steps), match.options)


def review_history(records: list[dict[str, Any]], hand: int) -> HandReview:
    """The review of hand ``hand`` of a JSON Lines history (one match's records), checked by replay."""
    from cardtable.history import replay

    return review(replay(records), hand)
