"""Helpers for the Pilot tests."""

from cardtable.saves import SaveStore
from cardtable.settings import Settings
from cardtable.ui.app import CardTableApp


def make_app(tmp_path, launch=None, lang="en", **settings):
    settings.setdefault("cpu_speed", "instant")
    settings.setdefault("checker", "off")     # the play checker's searches only where a test asks for them
    return CardTableApp(store=SaveStore(tmp_path / "saves"), settings=Settings(**settings), launch=launch,
                        language_override=lang)


async def settle(pilot, rounds=3):
    for _ in range(rounds):
        await pilot.pause()
        await pilot.app.workers.wait_for_complete()
    await pilot.pause()
