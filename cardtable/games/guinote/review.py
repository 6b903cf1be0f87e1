"""Guiñote hand review: the deal (the pinta sets the trumps), then each trick with what came after it —
the draws, an exchange of the 7, cantes, a claim (see :mod:`cardtable.review`).

``score`` of each step, per pair: ``points`` (card points of the tricks won, with las diez de últimas
after trick 10), ``cantes`` (points sung) and ``totals`` (with the carry of a hand de vueltas); after
the last step they are the hand_end record's."""

from __future__ import annotations

from collections import Counter
from typing import Any

from cardtable.games.guinote import rules
from cardtable.games.guinote.state import Cante, GuinoteMatch, Play
from cardtable.review import Step


def _hands(match: GuinoteMatch) -> tuple[tuple[Any, ...], ...]:
    return tuple(tuple(h) for h in match.hands)


def _score(carry: tuple[int, ...], points: list[int], cantes: list[int]) -> dict[str, Any]:
    return {"points": list(points), "cantes": list(cantes),
            "totals": [carry[pair] + points[pair] + cantes[pair] for pair in (0, 1)]}


def steps(match: GuinoteMatch, moves: list[tuple[int, Any]]) -> list[Step]:
    """Replay ``moves`` (one whole hand) on ``match``, at the hand's deal."""
    hand, trump, carry = match.hand, match.trump, tuple(match.carry)
    points, cantes = [0, 0], [0, 0]
    out = [Step(0, _hands(match), match.mano, (), None, _score(carry, points, cantes))]
    trick: list[tuple[int, Any]] = []
    hands = _hands(match)
    for seat, move in moves:
        if not isinstance(move, Play):
            match.apply(move, seat)
            if isinstance(move, Cante):
                cantes[seat % 2] += rules.cante_value(move.suit, trump)
            last = out[-1]
            out[-1] = Step(last.number, last.hands, last.leader, last.plays, last.winner,
                           _score(carry, points, cantes), last.after + ((seat, move),), last.draws, last.gained)
            continue
        if not trick:
            hands = _hands(match)
        trick.append((seat, move.card))
        before = _hands(match)
        match.apply(move, seat)
        if len(trick) < 4:
            continue
        winner = trick[rules.winner_index(trick, trump)][0]
        number = len(out)
        won = sum(rules.points(card) for _, card in trick) + (rules.ULTIMAS if number == rules.TRICKS else 0)
        points[winner % 2] += won
        gained = (won, 0) if winner % 2 == 0 else (0, won)
        draws: list[tuple[int, Any]] = []
        if match.hand == hand and not match.finished:      # the hand goes on: who drew what
            for step in range(4):
                drawer = (winner + step) % 4
                new = Counter(match.hands[drawer]) - Counter(before[drawer])
                draws.extend((drawer, card) for card in new.elements())
        out.append(Step(number, hands, trick[0][0], tuple(trick), winner, _score(carry, points, cantes),
                        draws=tuple(draws), gained=gained))
        trick = []
    return out
