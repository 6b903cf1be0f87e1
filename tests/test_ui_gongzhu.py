"""Pilot tests of the Gong Zhu table, played with the keyboard only."""

from textual.widgets import Checkbox

from cardtable.games.gongzhu.state import GongZhuOptions
from cardtable.saves import SaveStore
from cardtable.ui.gongzhu import GongZhuScreen, GongZhuSetup, MatchEndScreen, ResultsScreen, ShowPanel
from cardtable.ui.home import HomeScreen
from cardtable.ui.widgets import HandView
from tests.ui_helpers import make_app, settle


def launch(seed, **options):
    return ("new", "gongzhu", GongZhuOptions(**options), seed, "normal")


def table(app) -> GongZhuScreen:
    return next(s for s in app.screen_stack if isinstance(s, GongZhuScreen))


async def play_my_turn(pilot, app):
    """Keyboard only: the cursor starts on a playable card; Enter lifts it, Enter plays it."""
    screen = table(app)
    hand = screen.query_one(HandView)
    before = len(screen.match.moves)
    await pilot.press("enter")
    assert hand.lifted == hand.cursor
    await pilot.press("enter")
    await settle(pilot)
    assert len(screen.match.moves) > before


async def test_new_game_from_home_with_the_keyboard(tmp_path):
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        options = app.screen.query_one("#game-list")
        options.highlighted = 1  # Gong Zhu
        await pilot.press("n")
        await settle(pilot)
        assert isinstance(app.screen, GongZhuSetup)
        await pilot.press("enter")   # «Deal» has the focus
        await settle(pilot)
        assert any(isinstance(s, GongZhuScreen) for s in app.screen_stack)


async def test_play_a_whole_hand_with_the_keyboard(tmp_path):
    app = make_app(tmp_path, launch=launch(12345))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = table(app)
        hands_seen = set()
        for _ in range(200):
            if isinstance(app.screen, ShowPanel):
                await pilot.press("escape")      # «No, play»
                await settle(pilot)
                continue
            if isinstance(app.screen, ResultsScreen):
                break
            if screen.match.to_move() == 0 and screen.match.phase == "play":
                hands_seen.add(screen.match.hand)
                await play_my_turn(pilot, app)
            else:
                await settle(pilot)
        assert isinstance(app.screen, ResultsScreen)
        record = app.screen.record
        assert record["hand"] == 1 and len(record["lines"]) == 4
        assert sum(len(m) for m in record["taken"]) == 16
        await pilot.press("n")                   # «Next hand»
        await settle(pilot)
        assert screen.match.hand == 2
        assert isinstance(app.screen, (GongZhuScreen, ShowPanel))


async def test_illegal_card_is_explained_and_not_played(tmp_path):
    app = make_app(tmp_path, launch=launch(12345, showing=False))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = table(app)
        for _ in range(50):
            if screen.match.to_move() == 0 and len(screen.match.view(0).legal) < len(screen.match.hands[0]):
                break
            if screen.match.to_move() == 0:
                await play_my_turn(pilot, app)
            await settle(pilot)
        hand = screen.query_one(HandView)
        playable = {m.card for m in screen.match.view(0).legal}
        moves = len(screen.match.moves)
        while hand.current in playable:
            await pilot.press("right")
        await pilot.press("enter")
        await pilot.press("enter")
        await settle(pilot)
        assert len(screen.match.moves) == moves
        status = str(screen.query_one("#gz-status").render())
        assert "must" in status or "first" in status


async def test_showing_panel_shows_the_chosen_cards(tmp_path):
    # Find a seed whose first hand gives the human a showable card.
    from cardtable import games
    from cardtable.games.gongzhu import rules

    spec = games.get("gongzhu")
    seed = next(s for s in range(100) if rules.showable_in(spec.new_match(seed=s).hands[0]))
    app = make_app(tmp_path, launch=launch(seed))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, ShowPanel)
        first = app.screen.query(Checkbox).first()
        await pilot.press("space")             # tick the first card
        await settle(pilot)
        assert first.value
        assert "Show 1 and play" in str(app.screen.query_one("#do-show").label)
        await pilot.press("enter")                # Enter plays with the ticked card shown
        await settle(pilot)
        screen = table(app)
        assert len(screen.match.shown[0]) == 1


async def test_continue_later_saves_and_resume_is_exact(tmp_path):
    app = make_app(tmp_path, launch=launch(99, showing=False))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = table(app)
        for _ in range(3):
            for _ in range(50):               # bounded: a crashed app must fail, not hang
                if screen.match.to_move() == 0:
                    break
                await settle(pilot)
            await play_my_turn(pilot, app)
        moves = list(screen.match.moves)
        slot = screen.slot
        await pilot.press("escape")              # Esc continues later on every table
        await settle(pilot)
        assert isinstance(app.screen, HomeScreen)
    match, _ = SaveStore(tmp_path / "saves").load(slot)
    assert match.moves == moves
    app = make_app(tmp_path, launch=("continue", slot))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert table(app).match.moves[: len(moves)] == moves


async def test_quit_autosaves(tmp_path):
    app = make_app(tmp_path, launch=launch(5, showing=False))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        slot = table(app).slot
        moves = len(table(app).match.moves)
        await pilot.press("ctrl+q")
    match, _ = SaveStore(tmp_path / "saves").load(slot)
    assert len(match.moves) == moves
    assert app.exit_message and slot in app.exit_message


async def test_match_end_screen_names_winner_and_pig(tmp_path):
    from cardtable import games

    spec = games.get("gongzhu")
    match = spec.new_match(GongZhuOptions(max_hands=1), 3)
    bot = spec.bot("easy")
    while not (match.to_move() == 0 and len(match.hands[0]) == 1):
        match.apply(bot.choose(match.view(match.to_move())))
    store = SaveStore(tmp_path / "saves")
    store.save("almost", match, ["human", "cpu:easy", "cpu:easy", "cpu:easy"])
    app = make_app(tmp_path, launch=("continue", "almost"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        for _ in range(20):
            if isinstance(app.screen, ResultsScreen):
                await pilot.press("n")
            elif isinstance(app.screen, MatchEndScreen):
                break
            elif table(app).match.to_move() == 0:
                await play_my_turn(pilot, app)
            await settle(pilot)
        assert isinstance(app.screen, MatchEndScreen)
        text = " ".join(str(w.render()) for w in app.screen.query("Label"))
        assert "Winner" in text and "el Cerdo" in text


def test_table_snapshot(snap_compare, tmp_path):
    async def run_before(pilot):
        await settle(pilot)
        screen = table(pilot.app)
        for _ in range(30):
            if screen.match.to_move() == 0 and len(screen.match.tricks) >= 2:
                break
            if screen.match.to_move() == 0:
                await play_my_turn(pilot, pilot.app)
            await settle(pilot)
        await pilot.press("right")
        await pilot.press("up")
        await settle(pilot)

    assert snap_compare(make_app(tmp_path, launch=launch(777, showing=False)), terminal_size=(80, 24),
                        run_before=run_before)


def test_results_snapshot(snap_compare, tmp_path):
    async def run_before(pilot):
        await settle(pilot)
        for _ in range(200):
            if isinstance(pilot.app.screen, ResultsScreen):
                break
            if table(pilot.app).match.to_move() == 0:
                await play_my_turn(pilot, pilot.app)
            await settle(pilot)

    assert snap_compare(make_app(tmp_path, launch=launch(2024, showing=False)), terminal_size=(80, 24),
                        run_before=run_before)
