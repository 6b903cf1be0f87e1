"""The save slots in the app (issue 10): locks, read-only, hostile text, failing saves."""

import json

from rich.text import Text
from textual.widgets import DataTable
from textual.widgets._data_table import default_cell_formatter
from textual.widgets._toast import Toast

from cardtable import games
from cardtable.saves import SaveStore
from cardtable.ui.gamescreen import GameScreen
from cardtable.ui.home import HomeScreen
from cardtable.ui.screens import SlotBusyDialog, SlotsScreen
from tests.ui_helpers import make_app, settle

PLAYERS = ["human", "cpu:easy", "cpu:easy", "cpu:easy"]
HOSTILE = "\u001b]0;OWNED\u0007\u001b[2J[bold red]RED[/] [link=https://evil.example]LINK[/link]"


def shown_in_cell(value) -> Text:
    """What the DataTable draws for a cell value (a string cell is read as Rich markup)."""
    return default_cell_formatter(value)


def toasts(app) -> list[str]:
    """The text of the notifications on screen, as the Toast widget renders them."""
    return [str(toast.render()) for toast in app.screen.query(Toast)]


def saved(tmp_path, slot="s", seed=3):
    store = SaveStore(tmp_path / "saves")
    store.save(slot, games.get("gongzhu").new_match(seed=seed), PLAYERS)
    return store


async def test_a_slot_open_elsewhere_asks_and_defaults_to_not_opening(tmp_path):
    saved(tmp_path)
    elsewhere = SaveStore(tmp_path / "saves")
    elsewhere.lock("s")
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.resume("s")
        await settle(pilot)
        assert isinstance(app.screen, SlotBusyDialog)
        assert app.screen.focused.id == "dont_open"
        await pilot.press("enter")                  # the safe choice
        await settle(pilot)
        assert isinstance(app.screen, HomeScreen)
        app.resume("s")
        await settle(pilot)
        await pilot.press("r")                      # read-only
        await settle(pilot)
        assert isinstance(app.screen, GameScreen) and app.screen.read_only
        assert "read-only" in app.screen.title
        before = (tmp_path / "saves" / "s.json").read_bytes()
        assert app.screen.autosave() is False
        await app.action_quit()
    assert (tmp_path / "saves" / "s.json").read_bytes() == before
    assert app.exit_message == "Slot s was open read-only: nothing was saved."
    elsewhere.unlock("s")


async def test_an_open_game_holds_the_lock_until_it_is_closed(tmp_path):
    from cardtable.saves import SlotBusy

    saved(tmp_path)
    app = make_app(tmp_path, launch=("continue", "s"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, GameScreen)
        try:
            SaveStore(tmp_path / "saves").lock("s")
            raise AssertionError("a second cardtable could take the slot")
        except SlotBusy:
            pass
        app.screen.action_continue_later()
        await settle(pilot)
        assert isinstance(app.screen, HomeScreen)
        other = SaveStore(tmp_path / "saves")
        assert other.lock("s")
        other.unlock("s")


async def test_continue_from_the_command_line_is_not_loaded_twice(tmp_path, monkeypatch):
    store = saved(tmp_path)
    loaded = store.load("s")
    calls = []
    app = make_app(tmp_path, launch=("continue", "s", loaded, False))
    monkeypatch.setattr(app.store, "load", lambda slot: calls.append(slot))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, GameScreen)
        assert app.screen.seat.match is loaded[0]
    assert calls == []


async def test_hostile_text_is_shown_as_text_on_home_and_in_the_slot_list(tmp_path):
    saves = tmp_path / "saves"
    saves.mkdir()
    base = {"format": "cardtable-save", "schema": 1, "game": "gongzhu", "options": {}, "seed": 1,
            "moves": [], "players": PLAYERS}
    (saves / "a.json").write_text(json.dumps({**base, "summary": HOSTILE, "saved_at": HOSTILE * 1000,
                                              "progress": {"hand": HOSTILE[:30]}}))
    (saves / "b.json").write_text(json.dumps({**base, "game": HOSTILE + "G" * 3_000_000}))
    (saves / "c.json").write_text(json.dumps({**base, "players": ["human", "cpu:evil", "cpu:easy", "cpu:easy"]}))
    (saves / "\x1b[2Jd.json").write_text(json.dumps(base))
    app = make_app(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        home = str(app.screen.query_one("#home-saves").render())
        assert "\x1b" not in home and "\x07" not in home and "OWNED" in home
        assert "[bold red]RED[/]" in home
        await pilot.press("c")
        await settle(pilot)
        assert isinstance(app.screen, SlotsScreen)
        table = app.screen.query_one(DataTable)
        assert table.row_count == 4
        for row in range(table.row_count):
            for column in range(4):
                cell = str(table.get_cell_at((row, column)))
                assert "\x1b" not in cell and "\x07" not in cell and len(cell) < 300
        # the cells are shown as text: the brackets are shown, not obeyed
        [summary] = [shown_in_cell(table.get_cell_at((row, 2))) for row in range(table.row_count)
                     if "OWNED" in str(table.get_cell_at((row, 2)))
                     and "damaged" not in str(table.get_cell_at((row, 2)))]
        assert not summary.spans and "[bold red]RED[/]" in summary.plain
        # opening the slot with the evil player says why, briefly; nothing crashes
        app.resume("c")
        await settle(pilot)
        assert isinstance(app.screen, SlotsScreen)


async def test_backslashes_brackets_and_emoji_codes_from_a_file_are_shown_verbatim(tmp_path):
    """A backslash before «[» (eaten by the markup parsers), a final backslash (which Rich's escape
    doubles), «:smile:» (an emoji to Rich) and «[$accent]» (a style to Textual) are data like the rest."""
    tricky = "\\[b]x\\ :smile: [$accent]y \\\\[i]z end\\"
    saves = tmp_path / "saves"
    saves.mkdir()
    base = {"format": "cardtable-save", "schema": 1, "game": "gongzhu", "options": {}, "seed": 1,
            "moves": [], "players": PLAYERS}
    (saves / "a.json").write_text(json.dumps({**base, "summary": tricky}))
    (saves / "b.json").write_text(json.dumps({**base, "players": ["human", "cpu:easy", "cpu:[b]x", "cpu:\\"]}))
    app = make_app(tmp_path)
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await settle(pilot)
        assert tricky in str(app.screen.query_one("#home-saves").render())
        await pilot.press("c")
        await settle(pilot)
        table = app.screen.query_one(DataTable)
        cells = [shown_in_cell(table.get_cell_at((row, 3))) for row in range(table.row_count)]   # the summary, last
        assert tricky in [cell.plain for cell in cells]
        assert not any(cell.spans for cell in cells)
        app.resume("b")                    # damaged: the notification quotes the players as they are
        await settle(pilot)
        assert any("cpu:[b]x, cpu:\\" in toast for toast in toasts(app)), toasts(app)


async def test_quitting_says_plainly_when_the_game_could_not_be_saved(tmp_path):
    saved(tmp_path)
    app = make_app(tmp_path, launch=("continue", "s"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, GameScreen)
        # The save directory turns into a file: every save from now on fails.
        saves = tmp_path / "saves"
        for path in saves.iterdir():
            path.unlink()
        saves.rmdir()
        saves.write_text("not a directory any more")
        assert app.screen.autosave() is False
        await app.action_quit()
    assert "NOT saved" in app.exit_message and "Game saved" not in app.exit_message


async def test_quitting_from_a_practice_table_does_not_claim_a_failed_save(tmp_path):
    saved(tmp_path)
    app = make_app(tmp_path, launch=("continue", "s"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, GameScreen)
        app.screen.practice = True          # what «Replay this deal» opens: never saved, by design
        await app.action_quit()
    assert app.exit_message is None
