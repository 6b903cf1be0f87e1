"""Pilot tests of the Guandan table, keyboard only: a wild-card choice, a whole hand and a tribute."""

from cardtable.games.guandan import rules
from cardtable.games.guandan.state import GuandanOptions, Play, Return, Tribute
from cardtable.saves import SaveStore
from cardtable.ui.guandan import ChooserScreen, ColumnsView, GuandanScreen, GuandanSetup, SummaryScreen
from tests.ui_helpers import make_app, settle

# Seed 5: the human's first hand holds one wild (2♥), no other 2, and several exact pairs, so two pairs
# and the wild read as a full house of either rank: the chooser must appear.
SEED = 5


def launch(seed=SEED, **options):
    return ("new", "guandan", GuandanOptions(**options), seed, "normal")


def table(app) -> GuandanScreen:
    return next(s for s in app.screen_stack if isinstance(s, GuandanScreen))


async def take_column(pilot, screen, index, count):
    columns = screen.query_one(ColumnsView)
    while columns.cursor != index:
        await pilot.press("right")
    for _ in range(count):
        await pilot.press("space")


async def my_turn(pilot, app):
    """Keyboard only: the hint, then Enter (choosing the strongest reading if asked), or pass."""
    screen = table(app)
    before = len(screen.match.moves)
    if screen.match.phase == "tribute":
        await pilot.press("enter")           # the recommended return (or the tribute) is preselected
    else:
        await pilot.press("h")
        if not screen.query_one(ColumnsView).selection():
            await pilot.press("p")
        else:
            await pilot.press("enter")
            await settle(pilot)
            if isinstance(app.screen, ChooserScreen):
                await pilot.press("enter")
    await settle(pilot)
    assert len(screen.match.moves) > before


async def test_new_game_from_home(tmp_path):
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.screen.query_one("#game-list").highlighted = 0
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, GuandanSetup)
        await pilot.press("enter")
        await settle(pilot)
        assert any(isinstance(s, GuandanScreen) for s in app.screen_stack)


async def test_columns_take_and_empty(tmp_path):
    app = make_app(tmp_path, launch=launch())
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = table(app)
        columns = screen.query_one(ColumnsView)
        index = next(i for i, c in enumerate(columns.columns) if len(c) == 2)
        await take_column(pilot, screen, index, 1)
        assert columns.taken[index] == 1 and "1/2" in str(columns.render())
        await pilot.press("space")
        assert columns.taken[index] == 2
        await pilot.press("space")                  # the whole column was taken: the next press empties it
        assert columns.taken[index] == 0
        await pilot.press("space", "space", "x")
        assert columns.selection() == []


async def test_whole_hand_with_wild_choice_and_tribute(tmp_path):
    app = make_app(tmp_path, launch=launch())
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = table(app)
        level = screen.match.level
        columns = screen.query_one(ColumnsView)
        pairs = [i for i, c in enumerate(columns.columns) if len(c) == 2 and c[0].rank != level
                 and not c[0].is_joker][:2]
        wild = next(i for i, c in enumerate(columns.columns) if c and rules.is_wild(c[0], level))
        for index in sorted(pairs + [wild]):
            await take_column(pilot, screen, index, 1 if index == wild else 2)
        assert "2 readings" in str(screen.query_one("#gd-status").render())
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, ChooserScreen)
        assert [c.type for c in app.screen.readings] == ["full_house", "full_house"]
        chosen = app.screen.readings[1]
        await pilot.press("2")
        await settle(pilot)
        first = screen.match.moves[0][1]
        assert isinstance(first, Play) and (first.type, first.key) == (chosen.type, chosen.key)
        # Play the rest of the hand with hints and passes.
        for _ in range(400):
            if isinstance(app.screen, SummaryScreen):
                break
            if screen.match.to_move() == 0 and not isinstance(app.screen, ChooserScreen):
                await my_turn(pilot, app)
            await settle(pilot)
        assert isinstance(app.screen, SummaryScreen)
        await pilot.press("n")
        await settle(pilot)
        assert screen.match.hand == 2
        for _ in range(20):
            if screen.match.phase != "tribute":
                break
            if screen.match.to_move() == 0:
                await my_turn(pilot, app)
            await settle(pilot)
        assert screen.match.tribute in ("single", "double")
        assert any(isinstance(m, Tribute) for _, m in screen.match.moves)
        assert any(isinstance(m, Return) for _, m in screen.match.moves)
        assert screen.match.phase == "play"


async def test_escape_saves_and_resume(tmp_path):
    app = make_app(tmp_path, launch=launch(9))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = table(app)
        for _ in range(3):
            for _ in range(50):               # bounded: a crashed app must fail, not hang
                if screen.match.to_move() == 0:
                    break
                await settle(pilot)
            await my_turn(pilot, app)
        slot, moves = screen.slot, list(screen.match.moves)
        await pilot.press("escape")
        await settle(pilot)
    match, _ = SaveStore(tmp_path / "saves").load(slot)
    assert match.moves == moves


def test_columns_snapshot_while_answering(snap_compare, tmp_path):
    async def run_before(pilot):
        await settle(pilot)
        screen = table(pilot.app)
        for _ in range(60):
            if screen.match.to_move() == 0 and screen.match.top is not None:
                break
            if screen.match.to_move() == 0:
                await my_turn(pilot, pilot.app)
            await settle(pilot)
        await pilot.press("h")
        await settle(pilot)

    assert snap_compare(make_app(tmp_path, launch=launch(7)), terminal_size=(80, 24), run_before=run_before)


def test_chooser_snapshot(snap_compare, tmp_path):
    async def run_before(pilot):
        await settle(pilot)
        screen = table(pilot.app)
        level = screen.match.level
        columns = screen.query_one(ColumnsView)
        pairs = [i for i, c in enumerate(columns.columns) if len(c) == 2 and c[0].rank != level
                 and not c[0].is_joker][:2]
        wild = next(i for i, c in enumerate(columns.columns) if c and rules.is_wild(c[0], level))
        for index in sorted(pairs + [wild]):
            await take_column(pilot, screen, index, 1 if index == wild else 2)
        await pilot.press("enter")
        await settle(pilot)

    assert snap_compare(make_app(tmp_path, launch=launch()), terminal_size=(80, 24), run_before=run_before)


def test_summary_snapshot(snap_compare, tmp_path):
    async def run_before(pilot):
        await settle(pilot)
        for _ in range(400):
            if isinstance(pilot.app.screen, SummaryScreen):
                break
            if table(pilot.app).match.to_move() == 0 and not isinstance(pilot.app.screen, ChooserScreen):
                await my_turn(pilot, pilot.app)
            await settle(pilot)

    assert snap_compare(make_app(tmp_path, launch=launch(9)), terminal_size=(80, 24), run_before=run_before)


async def test_sort_by_play_groups_the_hand(tmp_path):
    from cardtable.i18n import t

    app = make_app(tmp_path, launch=launch())
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        columns = table(app).query_one(ColumnsView)
        by_rank = [list(c) for c in columns.columns]
        await pilot.press("s")
        await settle(pilot)
        assert sorted(c for col in columns.columns for c in col) == sorted(c for col in by_rank for c in col)
        shorts = {t(f"gd_short_{kind}") for kind in rules.TYPES}
        assert set(columns.labels) <= shorts and columns.columns != by_rank
        await pilot.press("s")
        await settle(pilot)
        assert [list(c) for c in columns.columns] == by_rank
