"""The hint line's key text: «a: take it» for a play, «p: pass» for a pass (a does not pass)."""

import pytest

from cardtable.games.guandan import rules
from cardtable.games.guandan.state import Pass, Play, TopPlay
from cardtable.i18n import t
from cardtable.ui.guandan import ColumnsView, GuandanScreen
from tests.test_ui_guandan import cards, deal, launch, table
from tests.ui_helpers import assert_human_to_move, make_app, settle

PASS_KEY = {"en": "p: pass", "es": "p: «Paso»", "zh": "p：不要"}
TAKE_KEY = {"en": "a: take it", "es": "a: tomarla", "zh": "a：采用"}


def answer_a_big_joker(screen: GuandanScreen) -> None:
    """East (an opponent) led the big joker; the human holds no bomb, so passing is the only move."""
    deal(screen, "9S 9D 4C 5H KD", 2)
    joker = cards("BJ")
    combo = rules.classify(joker, 2)[0]
    screen.seat.match.top = TopPlay(1, tuple(joker), combo)
    screen.seat.match.actions = [None, Play(tuple(joker), combo.type, combo.key), None, None]
    screen.refresh_table()


def advice(screen: GuandanScreen) -> str:
    return str(screen.query_one("#advice").render())


@pytest.mark.parametrize("lang", ["en", "es", "zh"])
async def test_a_pass_hint_names_p_and_not_a(tmp_path, lang):
    app = make_app(tmp_path, launch=launch(), lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = table(app)
        answer_a_big_joker(screen)
        await pilot.press("a")
        await settle(pilot)
        assert isinstance(screen._hint[1].move, Pass)
        line = advice(screen)
        assert t("gd_pass_advice_key") == PASS_KEY[lang]
        assert PASS_KEY[lang] in line and TAKE_KEY[lang] not in line
        assert screen.query_one(ColumnsView).selection() == []     # a cleared the selection and said so
        assert str(screen.query_one("#gd-status").render()) == t("gd_advice_pass")
        before = len(screen.seat.match.moves)
        await pilot.press("p")                                      # and p is what passes
        await settle(pilot)
        assert screen.seat.match.moves[before] == (0, Pass())


@pytest.mark.parametrize("lang", ["en", "es", "zh"])
async def test_a_play_hint_names_a(tmp_path, lang):
    app = make_app(tmp_path, launch=launch(), lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = table(app)
        assert_human_to_move(screen, 0)           # the first lead of the deal: the hint is a play
        await pilot.press("a")
        await settle(pilot)
        assert isinstance(screen._hint[1].move, Play)
        line = advice(screen)
        assert TAKE_KEY[lang] in line and PASS_KEY[lang] not in line


async def test_the_pass_key_text_only_where_it_fits(tmp_path):
    """Like «a: take it», «p: pass» joins the line only when the line still fits the two rows of the
    hint line (a second row when needed: issue 30 found the key missing at 80 columns)."""
    from cardtable.hints import Hint, Reason

    app = make_app(tmp_path, launch=launch())
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = table(app)
        answer_a_big_joker(screen)
        fits = screen.fits
        for reason, shown, room in (("gd_why_forced_pass", True, fits), ("gd_why_over_partner_sure", True, fits),
                                    ("gd_why_forced_pass", False, lambda text, rows: False)):
            screen.fits = room
            hint = Hint(move=Pass(), reason=Reason.of(reason), gain=None, runner_up=None, evaluation=None)
            screen.show_hint(hint)
            line = advice(screen)
            assert line.startswith(screen.hint_text(hint))
            assert line.endswith(f" · {PASS_KEY['en']}") is shown, line
            assert TAKE_KEY["en"] not in line
