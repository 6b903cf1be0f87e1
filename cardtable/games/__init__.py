"""The game registry: the home screen, the CLI and ``sim`` learn the games from here only."""

from __future__ import annotations

import dataclasses
import importlib
import importlib.util
from collections.abc import Callable, Mapping
from typing import Any

from cardtable.engine import Bot, Match, Options


@dataclasses.dataclass(frozen=True)
class HandResult:
    """What one finished hand counts for one seat in the player's statistics (cardtable.stats):
    ``points`` of the hand, whether it was ``won`` (None: no winner for that seat) and the running
    ``total`` after it (None where the game keeps none)."""

    points: float
    won: bool | None
    total: float | None


@dataclasses.dataclass(frozen=True)
class GameSpec:
    """How a game plugs in. ``ui`` names the Textual screen as ``module:Class`` so the core never
    imports Textual; the package of that module also holds ``review`` (the hand review's drawing,
    cardtable.ui.review). ``hand_scores`` turns a ``hand_end`` record into one number per seat (for sim
    statistics: points for Gong Zhu, hands won for the partnership games); ``hand_result`` turns it into
    what the hand counts for a seat in the player's statistics; ``running_scores`` turns the match's
    ``hand_end`` records into the match-end chart's series, one ``(label key, score after each hand)``
    per seat or side. The last two raise KeyError, IndexError, TypeError or ValueError on a record
    they cannot read."""

    name: str
    title: str
    match_type: type[Match]
    options_type: type[Options]
    bots: Mapping[str, Callable[[], Bot]]
    hand_scores: Callable[[dict[str, Any]], list[float]]
    hand_result: Callable[[dict[str, Any], int], HandResult]
    running_scores: Callable[[list[dict[str, Any]]], list[tuple[str, list[float]]]]
    score_label: str
    ui: str
    rules_package: str
    partnerships: bool
    extra_bench: Callable[[], list[str]] | None = None   # game-specific timings for `cardtable bench`
    # Hints and the play checker (cardtable.hints): a module with ``hint(view)``, ``check(view, move)``,
    # ``explain(view, move)``, ``cost_text``/``gain_text``, ``GAIN_MIN`` and its ``ADVICE``
    # (a hints.GameAdvice); None: no hints from the search.
    advice: Any = None
    # The source's partner rule: the CPU partner of a human never beats the human's plays. True: the
    # game's bots take ``spare_partner`` (never beat the partner's plays), given for that seat.
    partner_rule: bool = False

    def new_match(self, options: Options | None = None, seed: int = 0) -> Match:
        return self.match_type(options if options is not None else self.options_type(), seed)

    def wire(self) -> Any:
        """The game's view codec for the table hub's wire (``cardtable.games.<name>.wire.CODEC``, a
        ``cardtable.wire.ViewCodec``), imported when first asked for."""
        return importlib.import_module(f"cardtable.games.{self.name}.wire").CODEC

    def bot(self, level: str, partner_human: bool = False) -> Bot:
        """A CPU player of ``level``; ``partner_human``: its partner is a human (the partner rule)."""
        try:
            factory = self.bots[level]
        except KeyError:
            raise ValueError(f"unknown CPU level {level!r} for {self.name}; "
                             f"levels: {', '.join(self.bots)}") from None
        if partner_human and self.partner_rule:
            return factory(spare_partner=True)      # type: ignore[call-arg]
        return factory()


GAME_MODULES = ("guandan", "gongzhu", "guinote")
_REGISTRY: dict[str, GameSpec] = {}


def _load() -> dict[str, GameSpec]:
    if not _REGISTRY:
        for name in GAME_MODULES:
            try:
                module = importlib.import_module(f"cardtable.games.{name}")
            except ModuleNotFoundError as exc:
                if exc.name != f"cardtable.games.{name}":
                    raise
                continue
            _REGISTRY[name] = module.SPEC
    return _REGISTRY


def is_available(name: str) -> bool:
    """Whether a game package is installed, without importing it (the home screen's first frame)."""
    if name in _REGISTRY:
        return True
    if name not in GAME_MODULES:
        return False
    try:
        return importlib.util.find_spec(f"cardtable.games.{name}") is not None
    except (ImportError, ValueError):
        return False


def games() -> dict[str, GameSpec]:
    """The playable games, in menu order."""
    return dict(_load())


def get(name: str) -> GameSpec:
    registry = _load()
    if name not in registry:
        known = ", ".join(registry) or "none"
        raise KeyError(f"unknown game {name!r}; games: {known}")
    return registry[name]
