"""Guiñote hand review: the deal (the pinta sets the trumps), then each trick with what came after it —
an exchange of the 7 (before the draw), the draws, cantes, a claim (see :mod:`cardtable.review`). A
keep (``KeepSeven``, a silent move: the holder declining, or a seat of the pair asked without the 7) is
not among the moves after the trick; the draw the pair's last keep lets happen is.

``score`` of each step, per pair: ``points`` (card points of the tricks won, with las diez de últimas
after trick 10), ``cantes`` (points sung) and ``totals`` (with the carry of a hand de vueltas); after
the last step they are the hand_end record's."""

from __future__ import annotations

from collections import Counter
from typing import Any

from cardtable.games.guinote import rules
from cardtable.games.guinote.state import Cante, Exchange, GuinoteMatch, KeepSeven, Play
from cardtable.review import Step


def _hands(match: GuinoteMatch) -> tuple[tuple[Any, ...], ...]:
    return tuple(tuple(h) for h in match.hands)


def _score(carry: tuple[int, ...], points: list[int], cantes: list[int]) -> dict[str, Any]:
    return {"points": list(points), "cantes": list(cantes),
            "totals": [carry[pair] + points[pair] + cantes[pair] for pair in (0, 1)]}


def _drawn(before: tuple[tuple[Any, ...], ...], match: GuinoteMatch, winner: int) -> tuple[tuple[int, Any], ...]:
    """The cards each seat drew (winner first) between the hands ``before`` and the match's hands now."""
    draws: list[tuple[int, Any]] = []
    for step in range(4):
        drawer = (winner + step) % 4
        new = Counter(match.hands[drawer]) - Counter(before[drawer])
        draws.extend((drawer, card) for card in new.elements())
    return tuple(draws)


def steps(match: GuinoteMatch, moves: list[tuple[int, Any]]) -> list[Step]:
    """Replay ``moves`` (one whole hand) on ``match``, at the hand's deal."""
    hand, trump, carry = match.hand, match.trump, tuple(match.carry)
    points, cantes = [0, 0], [0, 0]
    out = [Step(0, _hands(match), match.mano, (), None, _score(carry, points, cantes))]
    trick: list[tuple[int, Any]] = []
    hands = _hands(match)
    for seat, move in moves:
        if not isinstance(move, Play):
            before = _hands(match)
            if isinstance(move, Exchange):      # the swap is no draw: count from the hands after it
                mine = list(before[seat])
                mine.remove(move.card)
                before = tuple(tuple(mine) + (match.pinta,) if s == seat else h for s, h in enumerate(before))
            match.apply(move, seat)
            if isinstance(move, Cante):
                cantes[seat % 2] += rules.cante_value(move.suit, trump)
            last = out[-1]
            drawn = last.draws
            if isinstance(move, Exchange | KeepSeven) and last.winner is not None:   # then the draw
                drawn = _drawn(before, match, last.winner)
            after = last.after if isinstance(move, KeepSeven) else last.after + ((seat, move),)
            out[-1] = Step(last.number, last.hands, last.leader, last.plays, last.winner,
                           _score(carry, points, cantes), after, drawn, last.gained)
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
        draws: tuple[tuple[int, Any], ...] = ()
        # The hand goes on and nobody is deciding on the exchange of the 7: the draw was made now.
        if match.hand == hand and not match.finished and match.pending_draw is None:
            draws = _drawn(before, match, winner)
        out.append(Step(number, hands, trick[0][0], tuple(trick), winner, _score(carry, points, cantes),
                        draws=draws, gained=gained))
        trick = []
    return out
