"""Cards are readable in light themes too (issue 15): Textual turns the terminal's bright colours into its
light ANSI palette, where ♠/♣ in «bright white» were #f7f7f7 on #e0e0e0. Light themes get dark inks,
measured here against every light theme's backgrounds; a theme can set its own inks."""

import pytest
from rich.color import Color as RichColor
from rich.style import Style
from textual._ansi_theme import ALABASTER, MONOKAI
from textual.color import Color
from textual.theme import BUILTIN_THEMES, Theme

from cardtable import games
from cardtable.games.gongzhu.state import GongZhuOptions
from cardtable.saves import SaveStore
from cardtable.ui import cardart
from cardtable.ui.gongzhu import GongZhuScreen
from cardtable.ui.widgets import HandView
from tests.ui_helpers import assert_human_to_move, make_app, settle

# (The ansi-* themes take the terminal's own background, which cannot be known here.)
LIGHT_THEMES = [name for name, theme in BUILTIN_THEMES.items() if not theme.dark and not name.startswith("ansi")]
PLAYABLE_INKS = ["black", "red", "blue", "green", "gold", "big_joker", "small_joker"]


def shown(colour: str, dark: bool) -> Color:
    """The colour the terminal gets for an ink: ANSI names go through Textual's ANSI palette for the
    theme's brightness (as its ANSIToTruecolor filter does), hex colours as they are."""
    rich = RichColor.parse(colour)
    if rich.is_system_defined or rich.number is not None and rich.number < 16:
        triplet = rich.get_truecolor(MONOKAI if dark else ALABASTER)
        return Color(*triplet)
    return Color.parse(colour)


def luminance(colour: Color) -> float:
    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = colour.rgb
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def contrast(a: Color, b: Color) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


@pytest.fixture(autouse=True)
def dark_again():
    yield
    cardart.use_theme(True)


@pytest.mark.parametrize("theme_name", LIGHT_THEMES)
def test_every_ink_is_readable_on_every_light_theme(theme_name):
    theme = BUILTIN_THEMES[theme_name]
    system = theme.to_color_system().generate()
    cardart.use_theme(theme.dark, theme.variables)
    for background in ("background", "surface", "panel"):
        ground = Color.parse(system[background])
        for ink in PLAYABLE_INKS:
            assert contrast(shown(cardart.ink(ink), dark=False), ground) >= 4.5, (ink, background)
        # Unplayable cards are dimmed, yet still legible and unlike the playable black.
        dim = shown(cardart.ink("dim"), dark=False)
        assert contrast(dim, ground) >= 2.0, background
        assert contrast(dim, shown(cardart.ink("black"), dark=False)) >= 2.0


def test_a_theme_can_set_its_own_inks():
    cardart.use_theme(False, {"card-red": "#ff00aa"})
    assert cardart.ink("red") == "#ff00aa" and cardart.ink("black") == cardart.LIGHT_INKS["black"]
    cardart.use_theme(True)
    assert cardart.ink("red") == cardart.DARK_INKS["red"]


async def test_switching_the_theme_redraws_the_cards(tmp_path):
    app = make_app(tmp_path, launch=("new", "gongzhu", GongZhuOptions(swap=False, showing=False), 5, "normal"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        hand = app.screen.query_one(HandView)
        dark = {RichColor.parse(cardart.DARK_INKS[ink]) for ink in ("black", "red", "dim")}
        assert ink_colours(hand) and ink_colours(hand) <= dark
        inks = {f"card-{ink}": "#123456" for ink in cardart.DARK_INKS}
        app.register_theme(Theme("inks", primary="#004578", dark=False, variables=inks))
        app.theme = "inks"
        await settle(pilot)
        assert ink_colours(hand) == {RichColor.parse("#123456")}


def ink_colours(hand) -> set:
    """The colours of the cards the hand shows."""
    text = hand.render()
    return {Style.parse(str(span.style)).color for span in text.spans if Style.parse(str(span.style)).color}


# A pinned deal (seed 5, no swap, no showing) replayed to your first turn: West led the 2♣, North and East
# followed, so your clubs are playable black cards and the rest are dimmed.
PINNED_DEAL = GongZhuOptions(swap=False, showing=False), 5, [(1, "2C"), (2, "10C"), (3, "9C")]


def pinned_table(tmp_path, theme: str):
    """The Gong Zhu table at the pinned deal's first turn of yours, in the given theme."""
    options, seed, moves = PINNED_DEAL
    match_type = games.get("gongzhu").match_type
    match = match_type.replay(options, seed, [(seat, match_type.parse_move(move)) for seat, move in moves])
    SaveStore(tmp_path / "saves").save("pinned", match, ["human", "cpu:normal", "cpu:normal", "cpu:normal"])

    async def run_before(pilot):
        pilot.app.theme = theme
        await settle(pilot)
        assert_human_to_move(next(s for s in pilot.app.screen_stack if isinstance(s, GongZhuScreen)), 3)

    return make_app(tmp_path, launch=("continue", "pinned")), run_before


@pytest.mark.parametrize("theme", ["textual-dark", "textual-light"])
def test_gongzhu_table_snapshot_per_theme(snap_compare, tmp_path, theme):
    app, run_before = pinned_table(tmp_path, theme)
    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)
