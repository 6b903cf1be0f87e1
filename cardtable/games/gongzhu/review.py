"""Gong Zhu hand review: the deal with the showing phase, then the thirteen tricks (see
:mod:`cardtable.review`).

``score`` of each step: ``hand`` — per seat, what the cards taken so far score (the hand line, with
everything shown this hand; after trick 13 it is the hand_end record's); ``taken`` — per seat, the
point cards taken so far (codes, in the game's order)."""

from __future__ import annotations

from typing import Any

from cardtable.games.gongzhu import rules
from cardtable.games.gongzhu.state import GongZhuMatch, Show
from cardtable.review import Step


def _score(match: GongZhuMatch, taken: list[list[Any]], shown: list[Any]) -> dict[str, Any]:
    lines = match.options.score_hand(taken, shown)
    return {"hand": [line.hand for line in lines],
            "taken": [[c.code for c in sorted(pile, key=rules.sort_key)] for pile in taken]}


def steps(match: GongZhuMatch, moves: list[tuple[int, Any]]) -> list[Step]:
    """Replay ``moves`` (one whole hand) on ``match``, at the hand's deal."""
    hands = tuple(tuple(h) for h in match.hands)
    shows: list[tuple[int, tuple[Any, ...]]] = []
    index = 0
    while index < len(moves) and isinstance(moves[index][1], Show):
        seat, move = moves[index]
        match.apply(move, seat)
        shows.append((seat, tuple(move.cards)))
        index += 1
    shown = [card for _, cards in shows for card in cards]
    taken: list[list[Any]] = [[], [], [], []]
    out = [Step(0, hands, match.leader, tuple(shows), None, _score(match, taken, shown))]
    trick: list[tuple[int, Any]] = []
    for seat, move in moves[index:]:
        if not trick:
            hands = tuple(tuple(h) for h in match.hands)
        trick.append((seat, move.card))
        match.apply(move, seat)
        if len(trick) < 4:
            continue
        winner = trick[rules.trick_winner_index(trick)][0]
        points = tuple(card for _, card in trick if rules.is_point_card(card))
        taken[winner].extend(points)
        out.append(Step(len(out), hands, trick[0][0], tuple(trick), winner, _score(match, taken, shown),
                        gained=points))
        trick = []
    return out
