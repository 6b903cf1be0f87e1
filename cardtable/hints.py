"""Hints and the play checker, from the search (the `hard` level): what they return, and the rule that
turns a search into a flagged play. Each game's ``advice`` module supplies ``hint(view)`` (the hard
level's move with a one-line reason from the game's own knowledge) and ``check(view, move)`` (a
:class:`Flag` when the move is clearly worse than the search's choice). Both take the PlayerView only
and are deterministic (the search's budget is counted in rollout moves, its random numbers come from the
view's seed); the screens run them in a worker thread, never on the event loop.

Reasons are language-free: an i18n key and its parameters; the screen renders cards and plays in its
own style (:func:`render`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from cardtable.i18n import t
from cardtable.search import Evaluation


@dataclasses.dataclass(frozen=True)
class Reason:
    """Why: an i18n key and its parameters (cards, plays, numbers, already translated words)."""

    key: str
    params: tuple[tuple[str, Any], ...] = ()

    @classmethod
    def of(cls, key: str, **params: Any) -> Reason:
        return cls(key, tuple(sorted(params.items())))


@dataclasses.dataclass(frozen=True)
class Hint:
    """The search's move for the view, why, and its statistics (``gain``: the expected edge over the
    runner-up ``runner_up`` in the game's unit; None when there was nothing to compare)."""

    move: Any
    reason: Reason
    gain: float | None
    runner_up: Any
    evaluation: Evaluation


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
    """The reason in the current language; ``fmt`` writes the cards and plays among the parameters."""
    params = {name: value if isinstance(value, (str, int, float)) else fmt(value) for name, value in reason.params}
    return t(reason.key, **params)
