"""Hints and the play checker, from the search (the `hard` level): what they return, the rule that
turns a search into a flagged play, and the one hint and one checker every game shares
(:func:`search_hint`, :func:`check_play`). Each game's ``advice`` module supplies what is its own in a
:class:`GameAdvice` (its search, which moves the checker rates, its unit and how a line words it, and the
one-line reasons from the game's knowledge) and offers ``hint(view)`` (the hard level's move with its
reason) and ``check(view, move)`` (a :class:`Flag` when the move is clearly worse than the search's
choice). Both take the PlayerView only and are deterministic (the search's budget is counted in rollout
moves, its random numbers come from the view's seed); the screens run them off the event loop.

Reasons are language-free: an i18n key and its parameters; the screen renders cards and plays in its
own style (:func:`render`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from cardtable import search
from cardtable.i18n import t
from cardtable.search import Budget, Evaluation


@dataclasses.dataclass(frozen=True)
class Reason:
    """Why: an i18n key and its parameters (cards, plays, numbers, already translated words, or a
    Reason for a part of the sentence). A reason says what the play does given what the view shows:
    a trick is «taken» only when nobody after the seat can beat the card, a later player's answer is
    only «may», points are those on the table (signed, never a 0 that reads as a gain), and a trick the
    partner is winning is named as the partner's."""

    key: str
    params: tuple[tuple[str, Any], ...] = ()

    @classmethod
    def of(cls, key: str, **params: Any) -> Reason:
        return cls(key, tuple(sorted(params.items())))


@dataclasses.dataclass(frozen=True)
class Hint:
    """The search's move for the view, why, and its statistics (``gain``: the expected edge over the
    runner-up ``runner_up`` in the game's unit; None when there was nothing to compare).
    ``spared_partner``: the move is the pass the partner rule gives over the partner's play, and the
    next hint (asked again) is the search's own choice there."""

    move: Any
    reason: Reason
    gain: float | None
    runner_up: Any
    evaluation: Evaluation
    spared_partner: bool = False


@dataclasses.dataclass(frozen=True)
class Flag:
    """A play the search rates clearly worse than its own choice: ``cost`` is the expected loss in the
    game's unit (points in Gong Zhu, levels in Guandan, hands in Guiñote), ``stderr`` its standard error
    over the sampled worlds."""

    hand: int
    played: Any
    better: Any
    cost: float
    stderr: float


def may_be_held(cards, seats, owner: dict, lacks: Callable[[int, Any], bool]) -> bool:
    """Could one of ``seats`` hold one of ``cards`` (cards the viewer has not seen), as far as the view
    knows: a card known to be in a seat's hand (``owner``: card -> seat) counts only for that seat, any
    other for a seat not known to lack it (``lacks(seat, card)``: a void in its suit, say)."""
    for card in cards:
        if card in owner:
            if owner[card] in seats:
                return True
        elif any(not lacks(seat, card) for seat in seats):
            return True
    return False


def runner_up(evaluation: Evaluation) -> tuple[Any, float | None]:
    """The best move other than the chosen one, and how much the chosen one gains over it."""
    table = dict(evaluation.scores)
    others = [(move, score) for move, score in evaluation.scores if move != evaluation.move]
    if not others or evaluation.move not in table:
        return None, None
    move, score = others[0]
    return move, table[evaluation.move] - score


def searched(evaluation: Evaluation | None) -> Reason | None:
    """The search's own reason, where the game's knowledge has nothing sharper: the best of how many
    moves over how many sampled deals (None without a real search)."""
    if evaluation is None or evaluation.playouts == 0 or len(evaluation.scores) < 2:
        return None
    return Reason.of("why_searched", n=len(evaluation.scores),
                     deals=max(1, evaluation.playouts // len(evaluation.scores)))


def flag_of(hand: int, played: Any, better: Any, paired: tuple[float, float], threshold: float,
            z: float = 1.5) -> Flag | None:
    """A flag when the paired cost is above ``threshold`` and above ``z`` standard errors (noise
    alone never flags a play)."""
    mean, stderr = paired
    if mean <= threshold or mean <= z * stderr:
        return None
    return Flag(hand, played, better, mean, stderr)


def render(reason: Reason, fmt: Callable[[Any], str]) -> str:
    """The reason in the current language; ``fmt`` writes the cards and plays among the parameters, and
    a parameter that is itself a :class:`Reason` (a part of the sentence, «trumps in») is rendered first."""
    params = {name: value if isinstance(value, (str, int, float)) else
              render(value, fmt) if isinstance(value, Reason) else fmt(value) for name, value in reason.params}
    return t(reason.key, **params)


def signed(points: int) -> str:
    """Points as a reason writes them: «+100», «−30» (a true minus sign), «0»."""
    return f"{points:+d}".replace("-", "\u2212") if points else "0"


@dataclasses.dataclass(frozen=True)
class GameAdvice:
    """What a game's hints and checker are made of; the rest is :func:`search_hint` and
    :func:`check_play`.

    The search: ``bot(budget)`` is the `hard` bot (its ``evaluate(view)`` gives an :class:`Evaluation`),
    ``world``/``policy()``/``value`` are its sampled worlds, rollout policy and the seat's return, as
    :func:`cardtable.search.compare` takes them, and ``moves_left(view)`` about how many moves remain in
    the hand. ``checked(move)``: the moves the checker rates (never the others, nor a move that was the
    only one of them). ``explain(view, move, evaluation)``: the one-line reason.

    The unit: a play costing more than ``threshold`` on average (and more than 1.5 standard errors) is
    flagged; the hint shows its edge over the runner-up from ``gain_min``. An amount is written as
    ``|value| × scale`` with ``digits`` decimals, and put in words by ``cost_line(move, cost)`` (the
    checker's line) and ``gain_line(gain, other)`` (the hint's statistics)."""

    bot: Callable[[Budget], Any]
    world: Callable[[Any, Any], Any]
    policy: Callable[[], Any]
    value: Callable[[dict, Any, int], float]
    moves_left: Callable[[Any], int]
    checked: Callable[[Any], bool]
    explain: Callable[[Any, Any, Evaluation | None], Reason]
    threshold: float
    gain_min: float
    scale: float
    digits: int
    cost_line: Callable[[str, str], str]
    gain_line: Callable[[str, str], str]

    def amount(self, value: float) -> str:
        """An expected value as the hint and the checker write it."""
        return f"{abs(value) * self.scale:.{self.digits}f}"

    def cost_text(self, move: str, cost: float) -> str:
        """The checker's line: the better play (already written by the table) and the expected cost."""
        return self.cost_line(move, self.amount(cost))

    def gain_text(self, gain: float, other: str) -> str:
        """The hint's statistics: its expected edge over the runner-up ``other`` (written by the table)."""
        return self.gain_line(self.amount(gain), other)


def search_hint(view: Any, game: GameAdvice, budget: Budget) -> Hint:
    """What the `hard` search plays here, why, and by how much it beats the runner-up."""
    evaluation = game.bot(budget).evaluate(view)
    other, gain = runner_up(evaluation)
    move = evaluation.move
    return Hint(move, game.explain(view, move, evaluation), gain, other, evaluation)


def check_play(view: Any, move: Any, game: GameAdvice, budget: Budget) -> Flag | None:
    """The play checker: a :class:`Flag` when ``move`` (the seat's real move, legal in ``view``) is
    clearly worse than the search's choice, measured in the same sampled worlds (:func:`flag_of`); None
    for a move the game does not check, for a forced one and when the search agrees."""
    if not game.checked(move) or sum(1 for m in view.legal if game.checked(m)) <= 1:
        return None
    better = game.bot(budget).evaluate(view).move
    if better == move or not game.checked(better):
        return None
    policy = game.policy()
    paired = search.compare(view, better, move, game.world, lambda _seat: policy, game.value, budget,
                            game.moves_left(view))
    return flag_of(view.hand_number, move, better, paired, game.threshold)
