"""Nothing is cut at 80×24 on the Gong Zhu and Guiñote tables and their dialogs, in English, Spanish and
Chinese.

The check is tests/test_truncation.py's harness (`check`, `register`). The positions are pinned: the
CPU plays every seat from a fixed game number up to the point wanted, the match is saved in the test's
own store and continued, and each screen is then a few key presses away.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from cardtable import games
from cardtable.engine import Match
from cardtable.games.gongzhu.state import GongZhuOptions
from cardtable.games.guinote.state import GuinoteOptions
from cardtable.saves import SaveStore
from cardtable.sim import next_cpu_move
from cardtable.ui.widgets import HandView
from tests.test_truncation import LANGS, _nothing, _press, check, register
from tests.ui_helpers import settle

SLOT = "pinned"
PLAYERS = ["human", "cpu:normal", "cpu:normal", "cpu:normal"]
POSITIONS: dict[str, Callable[[], Match | None]] = {}


def _register(name: str, position: Callable[[], Match | None], steps) -> None:
    """A table screen: `position()` is saved and continued (None: start a new game from the home)."""
    register(name, None, steps) if position is None else register(name, ("continue", SLOT), steps)
    POSITIONS[name] = position


def _played(game: str, options, seed: int, stop: Callable[[Match], bool]) -> Callable[[], Match]:
    def position() -> Match:
        spec = games.get(game)
        bot = spec.bot("normal")
        match = spec.new_match(options, seed)
        for _ in range(3000):
            if stop(match) or match.is_over():
                break
            seat, move = next_cpu_move(match, lambda _: bot)
            match.apply(move, seat)
        assert stop(match), "the pinned position was not reached"
        return match
    return position


def _human_to_play(tricks_done: int = 0) -> Callable[[Match], bool]:
    def stop(match: Match) -> bool:
        view = match.view(0)
        return match.to_move() == 0 and bool(view.legal) and len(view.hand) <= max(1, 13 - tricks_done) \
            and _playing(match)
    return stop


def _playing(match: Match) -> bool:
    return getattr(match, "phase", "play") in ("play", "playing", "trick")


def _last_card(match: Match) -> bool:
    return match.to_move() == 0 and len(match.view(0).hand) == 1


async def _screen(pilot, name: str) -> None:
    for _ in range(80):
        if type(pilot.app.screen).__name__ == name:
            return
        current = type(pilot.app.screen).__name__
        if current in ("ClaimScreen", "ResultsScreen", "SummaryScreen") and current != name:
            await _press(pilot, "n")
        else:
            await _press(pilot, "h")
            hands = pilot.app.screen.query(HandView)
            if hands and hands.first().lifted is not None:
                await _press(pilot, "enter")
        await settle(pilot)
    assert type(pilot.app.screen).__name__ == name


def _to(name: str):
    return lambda pilot: _screen(pilot, name)


# ---------------------------------------------------------------- Gong Zhu
async def _gongzhu_setup(pilot) -> None:
    from cardtable.ui.gongzhu import GongZhuSetup

    pilot.app.push_screen(GongZhuSetup())


async def _gongzhu_fixed_hands(pilot) -> None:
    await _gongzhu_setup(pilot)
    await settle(pilot)
    await _press(pilot, "right", "right")      # the ending's third choice: fixed hands


def _gongzhu(seed: int = 777, stop=None, **options) -> Callable[[], Match]:
    return _played("gongzhu", GongZhuOptions(**options), seed, stop or _human_to_play(2))


def _gongzhu_show() -> Match:
    from cardtable.games.gongzhu import rules

    spec = games.get("gongzhu")
    seed = next(s for s in range(100) if rules.showable_in(spec.new_match(seed=s).hands[0]))
    return spec.new_match(GongZhuOptions(), seed)


_register("gongzhu: setup", None, _gongzhu_setup)
_register("gongzhu: setup, fixed hands", None, _gongzhu_fixed_hands)
_register("gongzhu: showing cards", _gongzhu_show, _nothing)
_register("gongzhu: table", _gongzhu(showing=False), _nothing)
_register("gongzhu: table, hinted", _gongzhu(showing=False), lambda pilot: _press(pilot, "h"))
_register("gongzhu: last trick", _gongzhu(showing=False), lambda pilot: _press(pilot, "l"))
_register("gongzhu: rules", _gongzhu(showing=False), lambda pilot: _press(pilot, "r"))
_register("gongzhu: results", _gongzhu(stop=_last_card, showing=False), _to("ResultsScreen"))
_register("gongzhu: match end", _gongzhu(3, stop=_last_card, max_hands=1, target=0), _to("GongZhuMatchEnd"))


# ---------------------------------------------------------------- Guiñote
async def _guinote_setup(pilot) -> None:
    from cardtable.ui.guinote import GuinoteSetup

    pilot.app.push_screen(GuinoteSetup())


def _guinote(seed: int = 28, stop=None, **options) -> Callable[[], Match]:
    return _played("guinote", GuinoteOptions(**options), seed, stop or _human_to_play(3))


_register("guinote: setup", None, _guinote_setup)
_register("guinote: table", _guinote(), _nothing)
_register("guinote: table, hinted", _guinote(), lambda pilot: _press(pilot, "h"))
_register("guinote: last trick", _guinote(), lambda pilot: _press(pilot, "l"))
_register("guinote: rules", _guinote(), lambda pilot: _press(pilot, "r"))
_register("guinote: summary", _guinote(stop=_last_card), _to("SummaryScreen"))
_register("guinote: match end", _guinote(4, stop=_last_card, cotos=1, points_per_coto=1), _to("MatchEndScreen"))


# ---------------------------------------------------------------- the longest hint lines
# A play-test finding: «Pista: el Caballo de espadas — …» with a long reason passed 80 columns and was cut.
# The hint is the search's, so a pinned position gives whichever reason the search finds; these steps show
# the longest hints the tables can write instead: a long card name hinted, a reason naming long cards,
# and the edge over a runner-up with a long name (the table adds it only where it fits).
def _long_hint(move, reason, runner_up):
    from cardtable.hints import Hint

    return Hint(move=move, reason=reason, gain=99.0, runner_up=runner_up, evaluation=None)


async def _guinote_long_hint(pilot) -> None:
    from cardtable.cards import parse_spanish_card as card
    from cardtable.games.guinote.state import Play
    from cardtable.hints import Reason
    from cardtable.ui.gamescreen import GameScreen

    table = next(s for s in pilot.app.screen_stack if isinstance(s, GameScreen))
    longest = tuple(card(code) for code in ("11E", "10E", "12E", "1E", "3E", "7E"))   # six trumps held
    table.show_hint(_long_hint(Play(card("11E")), Reason.of("gn_why_draw_trumps", cards=longest),
                               Play(card("11B"))))


async def _gongzhu_long_hint(pilot) -> None:
    from cardtable.cards import parse_card as card
    from cardtable.games.gongzhu.state import Play
    from cardtable.hints import Reason
    from cardtable.ui.gamescreen import GameScreen

    table = next(s for s in pilot.app.screen_stack if isinstance(s, GameScreen))
    reason = Reason.of("gz_why_duck_pig", top=card("KD"), card=card("10C"))
    table.show_hint(_long_hint(Play(card("10C")), reason, Play(card("QC"))))


_register("guinote: the longest hint", _guinote(), _guinote_long_hint)
_register("gongzhu: the longest hint", _gongzhu(showing=False), _gongzhu_long_hint)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", sorted(POSITIONS))
async def test_nothing_is_cut_on_the_tables_at_80x24(tmp_path, name, lang):
    position = POSITIONS[name]
    if position is not None:
        SaveStore(tmp_path / "saves").save(SLOT, position(), PLAYERS)
    problems = await check(tmp_path, name, lang)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("width, compact", [(80, True), (120, False)])
async def test_the_footer_turns_compact_only_when_its_keys_would_be_cut(tmp_path, width, compact):
    from cardtable.ui.footer import Footer
    from tests.ui_helpers import make_app

    SaveStore(tmp_path / "saves").save(SLOT, _gongzhu(showing=False)(), PLAYERS)
    app = make_app(tmp_path, launch=("continue", SLOT), lang="es")
    async with app.run_test(size=(width, 24)) as pilot:
        await settle(pilot)
        footer = app.screen.query_one(Footer)
        assert footer.compact is compact
        assert footer.natural_width() > 80          # the Spanish keys need more than 80 cells
