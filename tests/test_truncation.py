"""Nothing is cut at 80×24: every screen and dialog, in English, Spanish and Chinese.

A reusable harness. `SCREENS` maps a name to an async function that brings the app (started with
`make_app(tmp_path, launch=..., lang=...)`) to the screen to check; `truncated(app)` compares what is on
the terminal with the full text each widget was given: every Label, Static, Button, radio button and
footer key must show all of its words, in order, inside the part of the screen it really occupies.
Text that scrolls (a Markdown page, a list longer than its box) is not truncation and is skipped. The
other tables add their screens with `register("gongzhu: …", launch, steps)`.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable

import pytest
from rich.text import Text
from textual.containers import ScrollableContainer
from textual.content import Content
from textual.widget import Widget
from textual.widgets import Button, Label, Markdown, MarkdownViewer, RadioButton, Static
from textual.widgets._footer import FooterKey

from cardtable.cards import Card
from cardtable.games.guandan.state import GuandanOptions
from tests.ui_helpers import make_app, settle

Steps = Callable[..., Awaitable[None]]
SCREENS: dict[str, tuple[tuple | None, Steps]] = {}


def register(name: str, launch: tuple | None, steps: Steps) -> None:
    """A screen to check: the app's launch argument and the steps (``await steps(pilot)``) to reach it."""
    SCREENS[name] = (launch, steps)


# ---------------------------------------------------------------- the check
def _plain(widget: Widget) -> str | None:
    """The full text a widget was given, or None when it is not plain text (a table, a drawing)."""
    if isinstance(widget, FooterKey):
        return f"{widget.key_display} {widget.description}".strip()
    if isinstance(widget, Button | RadioButton):
        label = widget.label
        return label.plain if isinstance(label, Text | Content) else str(label)
    if isinstance(widget, Label | Static) and type(widget).render is Static.render:
        visual = widget.visual if hasattr(widget, "visual") else None
        content = getattr(widget, "_content", None)
        for value in (content, visual):
            if isinstance(value, str):
                return value
            if isinstance(value, Text | Content):
                return value.plain
    return None


def _scrolls(widget: Widget) -> bool:
    for node in widget.ancestors_with_self:
        if isinstance(node, Markdown | MarkdownViewer):
            return True
        if isinstance(node, ScrollableContainer) and not isinstance(node, Widget.__class__) and \
                node.virtual_size.height > node.content_region.height:
            return True
    return False


# A CJK character (and CJK punctuation) is a word of its own: Chinese has no spaces and wraps anywhere.
_CJK = "\u2e80-\u9fff\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef"
_WORD = re.compile(f"[{_CJK}]|[^\\s▏{_CJK}]+")


def _words(text: str) -> list[str]:
    return _WORD.findall(text.replace("…", " "))


def visible_text(app, region, strips=None) -> str:
    """The text on the terminal inside ``region`` (``strips``: the screen as rendered, if already done)."""
    if strips is None:
        strips = app.screen._compositor.render_strips()
    lines = []
    for y in range(region.y, region.bottom):
        if 0 <= y < len(strips):
            lines.append(strips[y].crop(region.x, region.right).text)
    return " ".join(lines)


def truncated(app) -> list[str]:
    """What is cut: one line per widget that does not show all of its words in order."""
    problems = []
    compositor = app.screen._compositor
    strips = compositor.render_strips()      # the whole screen once, not once per widget
    for widget, geometry in compositor.full_map.items():
        if not widget.display or not widget.visible:
            continue
        expected = _plain(widget)
        if not expected or not expected.strip() or _scrolls(widget):
            continue
        region = geometry.region.intersection(geometry.clip)
        shown = _words(visible_text(app, region, strips)) if region.area else []
        want = _words(expected)
        it = iter(shown)
        if not all(any(word == got for got in it) for word in want):
            problems.append(f"{type(widget).__name__}#{widget.id}: {expected!r} shows as {' '.join(shown)!r}")
    return problems


_PLACEHOLDER = re.compile(r"\{[A-Za-z_][A-Za-z0-9_]*(?:[:!][^{}]*)?\}")


def unfilled(app) -> list[str]:
    """An unfilled ``{placeholder}`` or a raw catalogue key (``gd_pass``) anywhere on the screen."""
    from cardtable import i18n

    text = visible_text(app, app.screen.region)
    keys = {k for k in i18n.catalog("en") if "_" in k}
    problems = [f"unfilled placeholder {m!r}" for m in _PLACEHOLDER.findall(text)]
    problems += [f"raw key {w!r}" for w in re.findall(r"[A-Za-z0-9_]+", text) if w in keys]
    return problems


async def check(tmp_path, name: str, lang: str) -> list[str]:
    launch, steps = SCREENS[name]
    app = make_app(tmp_path, launch=launch, lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await steps(pilot)
        await settle(pilot)
        return truncated(app) + unfilled(app)


# ---------------------------------------------------------------- the shell
async def _nothing(pilot) -> None:
    return None


async def _press(pilot, *keys) -> None:
    for key in keys:
        await pilot.press(key)
        await settle(pilot)


register("home", None, _nothing)
register("settings", None, lambda pilot: _press(pilot, "s"))
register("keys", None, lambda pilot: _press(pilot, "question_mark"))
register("saved games", None, lambda pilot: _press(pilot, "c"))


# ---------------------------------------------------------------- Guandan
def _guandan(seed=5, **options):
    return ("new", "guandan", GuandanOptions(**options), seed, "normal")


async def _guandan_setup(pilot) -> None:
    from cardtable.ui.guandan import GuandanSetup

    pilot.app.push_screen(GuandanSetup())


def _table(pilot):
    from cardtable.ui.guandan import GuandanScreen

    return next(s for s in pilot.app.screen_stack if isinstance(s, GuandanScreen))


async def _guandan_answering(pilot) -> None:
    from tests.test_ui_guandan import deal

    screen = _table(pilot)
    deal(screen, "5S 5H 7S 7H 7H 7D 9C 10D KS BJ BJ", 5, top=(1, "6S 6D", "pair", 6))
    await _press(pilot, "home", "right", "up", "up")


async def _guandan_not_beating(pilot) -> None:
    from tests.test_ui_guandan import deal

    deal(_table(pilot), "3S 9D KS KH", 2, top=(1, "QS QD", "pair", 12))
    await _press(pilot, "home", "up", "enter")


async def _guandan_tribute(pilot) -> None:
    screen = _table(pilot)
    match = screen.seat.match
    match.tribute = "double"
    match.tribute_moves = [("tribute", 1, 0, Card(16, "*")), ("tribute", 3, 2, Card(14, "D")),
                           ("return", 0, 1, Card(3, "D"))]
    match.pending, match.receiver_of = [("return", 2)], {1: 0, 3: 2}
    screen.refresh_table()


async def _guandan_return(pilot) -> None:
    from tests.test_ui_guandan import deal

    screen = _table(pilot)
    deal(screen, "3S 3D 4C 9H JS QS", 2)
    screen.seat.match.tribute = "single"
    screen.seat.match.tribute_moves = [("tribute", 3, 0, Card(14, "S"))]
    screen.seat.match.pending, screen.seat.match.receiver_of = [("return", 0)], {3: 0}
    screen.advance()
    screen.refresh_table()
    await _press(pilot, "h")


async def _guandan_anti(pilot) -> None:
    screen = _table(pilot)
    screen.seat.match.tribute, screen.seat.match.anti_holders = "anti", (1, 3)
    screen.refresh_table()


async def _guandan_chooser(pilot) -> None:
    from tests.test_ui_guandan import deal

    deal(_table(pilot), "9S 9D KS KD 2H", 2)
    await _press(pilot, "home", "up", "up", "right", "up", "up", "end", "up", "enter")


async def _guandan_hint_partner(pilot) -> None:
    from tests.test_ui_guandan import deal

    deal(_table(pilot), "9S 9D 9C KS KD 4C", 2, top=(2, "7S 7D 7C 8S 8D", "full_house", 7))
    await _press(pilot, "h")


async def _guandan_long_hint(pilot) -> None:
    """The longest hint line (a play-test finding: a long Spanish hint passed 80 columns): a straight
    flush with its reason and the edge over a runner-up, on the line below the table."""
    from cardtable.games.guandan.state import Play
    from cardtable.hints import Hint, Reason
    from tests.test_ui_guandan import cards, deal

    table = _table(pilot)
    deal(table, "9S 10S JS QS KS 9D 9C KD 4C", 2, top=(2, "7S 7D 7C 8S 8D", "full_house", 7))
    flush = Play(tuple(cards("9S 10S JS QS KS")), "straight_flush", 13)
    house = Play(tuple(cards("9S 9D 9C KS KD")), "full_house", 9)
    table.show_hint(Hint(move=flush, reason=Reason.of("gd_why_over_partner_sure"), gain=9.0, runner_up=house,
                         evaluation=None))


async def _guandan_summary(pilot) -> None:
    from cardtable.ui.guandan import GuandanSummary

    record = {"type": "hand_end", "hand": 9, "finish": [1, 0, 3, 2], "winner_team": 1, "level_up": 0,
              "levels": ["A", "A"], "a_failures": [2, 0], "match_won": False}
    pilot.app.push_screen(GuandanSummary(record, False, GuandanOptions(aces="three_strikes")))


async def _guandan_summary_won(pilot) -> None:
    from cardtable.ui.guandan import GuandanSummary

    record = {"type": "hand_end", "hand": 9, "finish": [0, 1, 2, 3], "winner_team": 0, "level_up": 0,
              "levels": ["A", "9"], "a_failures": [1, 0], "match_won": True}
    pilot.app.push_screen(GuandanSummary(record, True, GuandanOptions()))


async def _guandan_match_end(pilot) -> None:
    from cardtable.ui.guandan import GuandanMatchEnd

    pilot.app.push_screen(GuandanMatchEnd({"type": "match_end", "winner_team": 0, "hands": 9}))


async def _guandan_last_trick(pilot) -> None:
    from cardtable.games.guandan.state import Pass, Play

    screen = _table(pilot)
    match = screen.seat.match
    match.last_trick = ((0, Play((Card(9, "S"), Card(9, "D")), "pair", 9)), (1, Pass()),
                        (2, Pass()), (3, Pass()))
    match.last_winner = 0
    await _press(pilot, "l")


async def _guandan_empty_last_trick(pilot) -> None:
    await _press(pilot, "l")


async def _guandan_rules(pilot) -> None:
    await _press(pilot, "r")


register("guandan: setup", None, _guandan_setup)
register("guandan: table, leading", _guandan(), _nothing)
register("guandan: table, three failures rule", _guandan(aces="three_strikes"), _nothing)
register("guandan: table, answering with a selection", _guandan(), _guandan_answering)
register("guandan: table, a play that does not beat", _guandan(), _guandan_not_beating)
register("guandan: tribute panel", _guandan(), _guandan_tribute)
register("guandan: your return, hinted", _guandan(), _guandan_return)
register("guandan: no tribute (anti-tribute)", _guandan(), _guandan_anti)
register("guandan: readings chooser", _guandan(), _guandan_chooser)
register("guandan: hint with the partner winning", _guandan(), _guandan_hint_partner)
register("guandan: the longest hint", _guandan(), _guandan_long_hint)
register("guandan: hand summary", _guandan(), _guandan_summary)
register("guandan: summary of the winning hand", _guandan(), _guandan_summary_won)
register("guandan: match end", _guandan(), _guandan_match_end)
register("guandan: last trick", _guandan(), _guandan_last_trick)
register("guandan: no last trick yet", _guandan(), _guandan_empty_last_trick)
register("guandan: rules", _guandan(), _guandan_rules)


# ---------------------------------------------------------------- more of the shell, the Guiñote claim
# (tests/test_truncation_tables.py pins the other Gong Zhu and Guiñote screens)
def _guinote(seed=11, **options):
    from cardtable.games.guinote.state import GuinoteOptions

    return ("new", "guinote", GuinoteOptions(**options), seed, "normal")


async def _guinote_claim(pilot) -> None:
    from cardtable.ui.gamescreen import HUMAN, GameScreen
    from cardtable.ui.guinote import ClaimScreen

    screen = next(s for s in pilot.app.screen_stack if isinstance(s, GameScreen))
    pilot.app.push_screen(ClaimScreen(screen.seat.match.view(HUMAN)))


async def _slot_busy(pilot) -> None:
    from cardtable.ui.screens import SlotBusyDialog

    pilot.app.push_screen(SlotBusyDialog("guandan-20261201-053719"))


def _finished_match(game: str, seed: int):
    from cardtable import games
    from cardtable.sim import next_cpu_move

    spec = games.get(game)
    options = spec.options_type(target=500, max_hands=2) if game == "gongzhu" else spec.options_type()
    match = spec.new_match(options, seed)
    bot = spec.bot("easy")
    while not match.is_over():
        seat, move = next_cpu_move(match, lambda _: bot)
        match.apply(move, seat)
    return match


def _review(game: str, seed: int, step: int):
    async def steps(pilot) -> None:
        from cardtable.review import review
        from cardtable.ui.review import ReviewScreen

        screen = ReviewScreen(review(_finished_match(game, seed), 1), "colour")
        pilot.app.push_screen(screen)
        await settle(pilot)
        screen.go(min(step, len(screen.review.steps) - 1))
    return steps


def _hand_picker(game: str, seed: int):
    async def steps(pilot) -> None:
        from cardtable.ui.review import HandPickerDialog

        pilot.app.push_screen(HandPickerDialog(_finished_match(game, seed), "colour", t_("review_a_hand")))
    return steps


def t_(key: str) -> str:
    from cardtable.i18n import t

    return t(key)


for _game, _seed in (("gongzhu", 3), ("guinote", 5), ("guandan", 2)):
    register(f"{_game}: hand review, the deal", None, _review(_game, _seed, 0))
    register(f"{_game}: hand review, a trick", None, _review(_game, _seed, 3))
    register(f"{_game}: hand review, the end", None, _review(_game, _seed, 999))
register("gongzhu: choose a hand to review", None, _hand_picker("gongzhu", 6))
register("statistics", None, lambda pilot: _press(pilot, "t"))
register("slot busy", None, _slot_busy)
register("guandan: keys", _guandan(), lambda pilot: _press(pilot, "question_mark"))
register("rules from home", None, lambda pilot: _press(pilot, "r"))
register("guinote: claim", _guinote(), _guinote_claim)


LANGS = ["en", "es", "zh"]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", sorted(SCREENS))
async def test_nothing_is_cut_at_80x24(tmp_path, name, lang):
    problems = await check(tmp_path, name, lang)
    assert not problems, "\n".join(problems)


async def test_the_harness_sees_a_cut_label(tmp_path):
    """The check itself: a label wider than its box is reported."""
    async def steps(pilot):
        from textual.screen import ModalScreen

        class Narrow(ModalScreen):
            DEFAULT_CSS = "Narrow Label { width: 12; height: 1; }"

            def compose(self):
                yield Label("Número de partida", id="narrow")

        pilot.app.push_screen(Narrow())

    register("__narrow", None, steps)
    try:
        problems = await check(tmp_path, "__narrow", "es")
    finally:
        del SCREENS["__narrow"]
    assert any("Número de partida" in p for p in problems)


async def test_the_harness_sees_a_cut_chinese_label_and_an_unfilled_placeholder(tmp_path):
    """CJK characters are two cells wide: «牌局编号» needs 8 cells, a box of 6 cuts it."""
    async def steps(pilot):
        from textual.screen import ModalScreen

        class Narrow(ModalScreen):
            DEFAULT_CSS = "Narrow #narrow { width: 6; height: 1; }"

            def compose(self):
                yield Label("牌局编号", id="narrow")
                yield Label("已保存到存档位 {slot}", id="raw")

        pilot.app.push_screen(Narrow())

    register("__narrow_zh", None, steps)
    try:
        problems = await check(tmp_path, "__narrow_zh", "zh")
    finally:
        del SCREENS["__narrow_zh"]
    assert any("牌局编号" in p for p in problems), problems
    assert any("unfilled placeholder '{slot}'" in p for p in problems), problems
