"""The slot list (issue 29): deleting asks first with «Keep» focused; «Open read-only» opens the table."""

from textual.widgets import DataTable

from cardtable import games
from cardtable.saves import SaveStore
from cardtable.ui.gamescreen import GameScreen
from cardtable.ui.home import HomeScreen
from cardtable.ui.screens import DeleteSlotDialog, SlotBusyDialog, SlotsScreen
from tests.ui_helpers import make_app, settle

PLAYERS = ["human", "cpu:easy", "cpu:easy", "cpu:easy"]


def saved(tmp_path, *slots):
    store = SaveStore(tmp_path / "saves")
    for seed, slot in enumerate(slots):
        store.save(slot, games.get("gongzhu").new_match(seed=seed), PLAYERS)
    return store


def listed(app) -> list[str]:
    table = app.screen.query_one(DataTable)
    return [key.value for key in table.rows]


async def open_slots(app, pilot):
    await settle(pilot)
    app.push_screen(SlotsScreen())
    await settle(pilot)
    assert isinstance(app.screen, SlotsScreen)


async def test_delete_asks_first_and_the_focused_answer_keeps_the_slot(tmp_path):
    saved(tmp_path, "a")
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_slots(app, pilot)
        for key in ("d", "delete"):
            await pilot.press(key)
            await settle(pilot)
            assert isinstance(app.screen, DeleteSlotDialog)
            assert app.screen.focused.id == "keep"
            await pilot.press("enter")              # the safe answer
            await settle(pilot)
            assert isinstance(app.screen, SlotsScreen) and listed(app) == ["a"]
        await pilot.press("d")
        await settle(pilot)
        await pilot.press("escape")                  # Esc keeps it too
        await settle(pilot)
        assert listed(app) == ["a"]
    assert (tmp_path / "saves" / "a.json").exists()


async def test_delete_typed_twice_in_a_burst_still_keeps_the_slot(tmp_path):
    saved(tmp_path, "a")
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_slots(app, pilot)
        await pilot.press("d", "d", "delete", "enter")
        await settle(pilot)
        assert isinstance(app.screen, SlotsScreen) and listed(app) == ["a"]
    assert (tmp_path / "saves" / "a.json").exists()


async def test_delete_once_confirmed_removes_only_the_chosen_slot(tmp_path):
    saved(tmp_path, "a", "b")
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_slots(app, pilot)
        chosen = listed(app)[0]
        await pilot.press("d")
        await settle(pilot)
        assert chosen in str(app.screen.query_one(".dialog-title").render())
        await pilot.press("tab", "enter")           # from «Keep» to «Delete»
        await settle(pilot)
        assert isinstance(app.screen, SlotsScreen)
        remaining = listed(app)
        assert chosen not in remaining and len(remaining) == 1
    assert not (tmp_path / "saves" / f"{chosen}.json").exists()


async def test_open_read_only_from_the_slot_list_opens_the_table(tmp_path):
    saved(tmp_path, "s")
    elsewhere = SaveStore(tmp_path / "saves")
    elsewhere.lock("s")                              # another cardtable has it open
    try:
        app = make_app(tmp_path)
        async with app.run_test(size=(80, 24)) as pilot:
            await open_slots(app, pilot)
            await pilot.press("enter")
            await settle(pilot)
            assert isinstance(app.screen, SlotBusyDialog)
            await pilot.press("r")
            await settle(pilot)
            tables = [s for s in app.screen_stack if isinstance(s, GameScreen)]
            assert len(tables) == 1 and tables[0].read_only     # (Gong Zhu's showing dialog may be on top)
            assert not any(isinstance(s, SlotsScreen) for s in app.screen_stack)
            while app.screen is not tables[0]:
                app.pop_screen()
                await settle(pilot)
            tables[0].action_continue_later()
            await settle(pilot)
            assert isinstance(app.screen, HomeScreen)
            # «Do not open» from the slot list goes back home, as before
            app.push_screen(SlotsScreen())
            await settle(pilot)
            await pilot.press("enter")
            await settle(pilot)
            await pilot.press("enter")
            await settle(pilot)
            assert isinstance(app.screen, HomeScreen)
    finally:
        elsewhere.unlock("s")
