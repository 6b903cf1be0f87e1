"""The question «Exchange the 7?» leaves the trick just won in sight (a play-test finding: at 120×40, and
at 80×24 too, the centred dialog covered the trick). It docks over the score and hand lines instead."""

import pytest

from cardtable.ui.guinote import ExchangeScreen
from cardtable.ui.widgets import TrickView
from tests.test_truncation import _words, truncated, visible_text
from tests.test_ui_guinote import _until_exchange_prompt, launch
from tests.ui_helpers import make_app, settle


def in_order(wanted: list[str], shown: list[str]) -> bool:
    it = iter(shown)
    return all(any(word == got for got in it) for word in wanted)


@pytest.mark.parametrize("size,lang", [((80, 24), "en"), ((80, 24), "es"), ((100, 30), "en"),
                                       ((120, 40), "en"), ((120, 40), "es")])
async def test_the_exchange_question_leaves_the_trick_in_sight(tmp_path, size, lang):
    app = make_app(tmp_path, launch=launch(), lang=lang)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        table = await _until_exchange_prompt(pilot, app)
        await settle(pilot)
        assert isinstance(app.screen, ExchangeScreen)
        trick = table.query_one(TrickView)
        wanted = _words(str(trick.render()))
        shown = _words(visible_text(app, trick.region))
        assert wanted and in_order(wanted, shown), f"{wanted} shows as {shown}"
        assert truncated(app) == []                   # the question itself is whole
