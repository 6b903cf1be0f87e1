"""Pilot tests of the Guiñote table, keyboard only: a whole hand with the exchange and a cante."""

import pytest

from cardtable import games
from cardtable.games.guinote.state import Cante, Claim, Exchange, GuinoteOptions
from cardtable.saves import SaveStore
from cardtable.ui.guinote import (
    ClaimScreen,
    ExchangeScreen,
    GuinoteScreen,
    GuinoteSetup,
    MatchEndScreen,
    SummaryScreen,
)
from cardtable.ui.widgets import HandView, TrickView
from tests.ui_helpers import assert_human_to_move, make_app, pinned_app, settle

# With the human playing the normal CPU's choices and arming the pinta and every cante, seed 28 gives the human
# both the exchange of the 7 and a cante in the first hand.
SEED = 28
NORMAL = games.get("guinote").bot("normal")       # plays the hands of tests that are not about hints


def launch(seed=SEED, **options):
    return ("new", "guinote", GuinoteOptions(**options), seed, "normal")


def table(app) -> GuinoteScreen:
    return next(s for s in app.screen_stack if isinstance(s, GuinoteScreen))


async def play_a_card(pilot, app):
    """Keyboard only, with the `normal` CPU's choice instead of the search's hint (cheap, and a sensible
    game): its cante or exchange by its key, or the cursor walks (→, ←) to its card, Enter lifts it and
    Enter plays it. For tests that need a hand played well, not a hint judged."""
    screen = table(app)
    hand = screen.query_one(HandView)
    before = len(screen.seat.match.moves)
    move = NORMAL.choose(screen.seat.match.view(0))
    if isinstance(move, (Exchange, Cante)):
        await pilot.press("p" if isinstance(move, Exchange) else move.suit.lower())
        await settle(pilot)
        return
    target = hand.cards.index(move.card)
    while hand.cursor != target:
        await pilot.press("right" if hand.cursor < target else "left")
    await pilot.press("enter", "enter")
    await settle(pilot)
    assert len(screen.seat.match.moves) > before


async def play_hint(pilot, app):
    screen = table(app)
    before = len(screen.seat.match.moves)
    await pilot.press("h")
    await settle(pilot)              # the hint is the search's, computed in a worker
    hand = screen.query_one(HandView)
    if hand.lifted is None:          # the hint was a cante or the exchange, not a card: make it
        hint = screen._hint[1].move if screen._hint is not None else None
        if isinstance(hint, (Exchange, Cante)):
            await pilot.press("p" if isinstance(hint, Exchange) else hint.suit.lower())
            await settle(pilot)
        return
    await pilot.press("enter")
    await settle(pilot)
    assert len(screen.seat.match.moves) > before


async def test_new_game_from_home(tmp_path):
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.screen.query_one("#game-list").highlighted = 2
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, GuinoteSetup)
        await pilot.press("enter")
        await settle(pilot)
        assert any(isinstance(s, GuinoteScreen) for s in app.screen_stack)


async def test_whole_hand_with_keyboard_exchange_and_cante(tmp_path):
    app = make_app(tmp_path, launch=launch())
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = table(app)
        # Arm the exchange (press the pinta) and every cante before they are possible.
        for key in ("p", "o", "c", "e", "b"):
            await pilot.press(key)
        assert screen.armed_exchange and screen.armed_cantes == set("OCEB")
        for _ in range(300):
            if isinstance(app.screen, SummaryScreen):
                break
            if isinstance(app.screen, ClaimScreen):
                await pilot.press("n")
            elif screen.seat.match.to_move() == 0:
                await play_a_card(pilot, app)
            await settle(pilot)
        assert isinstance(app.screen, SummaryScreen)
        mine = [move for seat, move in screen.seat.match.moves if seat == 0]
        assert any(isinstance(m, Exchange) for m in mine), "the armed exchange fired"
        assert any(isinstance(m, Cante) for m in mine), "an armed cante fired"
        record = app.screen.record
        assert record["hand"] == 1 and sum(record["points"]) in range(131)
        await pilot.press("n")
        await settle(pilot)
        assert screen.seat.match.hand == 2


async def test_illegal_card_in_arrastre_is_explained(tmp_path):
    app = make_app(tmp_path, launch=launch(3))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = table(app)
        for _ in range(200):
            match = screen.seat.match
            if (match.to_move() == 0 and len(match.tricks) >= 4 and match.trick
                    and len(match.view(0).legal) < len(match.hands[0])):
                break
            if isinstance(app.screen, (SummaryScreen, ClaimScreen, ExchangeScreen)):
                await pilot.press("n")
            elif match.to_move() == 0:
                await play_a_card(pilot, app)
            await settle(pilot)
        hand = screen.query_one(HandView)
        legal = {m.card for m in screen.seat.match.view(0).legal if hasattr(m, "card")}
        while hand.current in legal:
            await pilot.press("right")
        moves = len(screen.seat.match.moves)
        await pilot.press("enter", "enter")
        await settle(pilot)
        assert len(screen.seat.match.moves) == moves
        assert "must" in str(screen.query_one("#gn-status").render())


async def test_vueltas_claim_prompt(tmp_path):
    """In a hand de vueltas the human is asked to claim after each trick the pair wins."""
    from cardtable import games

    spec = games.get("guinote")
    seed = next(s for s in range(200) if _first_hand_goes_de_vueltas(spec, s))
    app = make_app(tmp_path, launch=launch(seed))
    asked = False
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = table(app)
        for _ in range(400):
            if isinstance(app.screen, ClaimScreen):
                asked = True
                total = screen.seat.match.view(0).total(0)
                await pilot.press("y" if total > 100 else "n")
                await settle(pilot)
                if total > 100:
                    break
            elif isinstance(app.screen, SummaryScreen):
                await pilot.press("n")
            elif screen.seat.match.to_move() == 0:
                await play_a_card(pilot, app)
            if screen.seat.match.hand > 2:
                break
            await settle(pilot)
    assert asked
    claims = [m for s, m in screen.seat.match.moves if isinstance(m, Claim)]
    ends = [r for r in screen.seat.match.log if r["type"] == "hand_end"]
    assert ends[0]["winner"] is None
    if claims:
        assert any(r["claim"] is not None for r in ends)


def _first_hand_goes_de_vueltas(spec, seed):
    """Hand 1 has no winner, and in hand 2 (de vueltas) our pair wins a trick while claims are open."""
    from cardtable.sim import next_cpu_move

    match = spec.new_match(seed=seed)
    bot = spec.bot("normal")
    while match.hand == 1:
        s, move = next_cpu_move(match, lambda _: bot)
        match.apply(move, s)
    if not match.vueltas:
        return False
    while match.hand == 2:
        if Claim() in match.legal_moves(0):
            return True
        s, move = next_cpu_move(match, lambda _: bot)
        match.apply(move, s)
    return False


async def test_escape_saves_and_resume_continues_the_trick(tmp_path):
    app = make_app(tmp_path, launch=launch(5))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = table(app)
        for _ in range(3):
            for _ in range(50):               # bounded: a crashed app must fail, not hang
                if screen.seat.match.to_move() == 0:
                    break
                await settle(pilot)
            await play_a_card(pilot, app)
        slot, moves = screen.slot, list(screen.seat.match.moves)
        await pilot.press("escape")
        await settle(pilot)
    match, _ = SaveStore(tmp_path / "saves").load(slot)
    assert match.moves == moves
    app = make_app(tmp_path, launch=("continue", slot))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert table(app).seat.match.moves[: len(moves)] == moves


async def test_match_end(tmp_path):
    from cardtable import games
    from cardtable.games.guinote.state import Play
    from cardtable.sim import next_cpu_move

    spec = games.get("guinote")
    options = GuinoteOptions(cotos=1, points_per_coto=1)
    full = spec.new_match(options, 4)
    bot = spec.bot("normal")
    while not full.is_over():
        s, move = next_cpu_move(full, lambda _: bot)
        full.apply(move, s)
    last_human = max(i for i, (seat, move) in enumerate(full.moves) if seat == 0 and isinstance(move, Play))
    match = spec.match_type.replay(options, 4, full.moves[:last_human])
    SaveStore(tmp_path / "saves").save("late", match, ["human", "cpu:normal", "cpu:normal", "cpu:normal"])
    app = make_app(tmp_path, launch=("continue", "late"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        for _ in range(40):
            if isinstance(app.screen, MatchEndScreen):
                break
            if isinstance(app.screen, (SummaryScreen, ClaimScreen, ExchangeScreen)):
                await pilot.press("n")
            elif table(app).seat.match.to_move() == 0:
                await play_a_card(pilot, app)
            await settle(pilot)
        assert isinstance(app.screen, MatchEndScreen)


# ---------------------------------------------------------------- how it looks (80×24), per language
# Pinned positions (saves/examples): the human is to move, so no CPU decides anything on screen.
SNAPSHOT_LANGS = ["en", "es", "zh"]


async def play_my_card(pilot, app):
    """Keyboard only: Enter lifts the card under the cursor, Enter plays it."""
    screen = table(app)
    before = len(screen.seat.match.moves)
    await pilot.press("enter", "enter")
    await settle(pilot)
    assert len(screen.seat.match.moves) == before + 1


@pytest.mark.parametrize("lang", SNAPSHOT_LANGS)
def test_table_snapshot(snap_compare, tmp_path, lang):
    """Trick 6 of the first hand, in the arrastre (guinote-mid-hand): Left led the sota of bastos, you are
    to play; the cursor on your second playable card, named on the status line."""
    async def run_before(pilot):
        await settle(pilot)
        assert_human_to_move(table(pilot.app), 23)
        await pilot.press("right")
        await settle(pilot)

    assert snap_compare(pinned_app(tmp_path, "guinote-mid-hand", lang), terminal_size=(80, 24),
                        run_before=run_before)


@pytest.mark.parametrize("lang", SNAPSHOT_LANGS)
def test_summary_snapshot(snap_compare, tmp_path, lang):
    """The hand's summary (guinote-last-card): your last card, played with the keyboard, ends the hand."""
    async def run_before(pilot):
        await settle(pilot)
        assert_human_to_move(table(pilot.app), 40)
        await play_my_card(pilot, pilot.app)
        assert isinstance(pilot.app.screen, SummaryScreen)

    assert snap_compare(pinned_app(tmp_path, "guinote-last-card", lang), terminal_size=(80, 24),
                        run_before=run_before)


async def _until_exchange_prompt(pilot, app):
    screen = table(app)
    for _ in range(120):
        if isinstance(app.screen, ExchangeScreen):
            return screen
        if isinstance(app.screen, (SummaryScreen, ClaimScreen)):
            await pilot.press("n")
        elif screen.seat.match.to_move() == 0:
            await play_a_card(pilot, app)
        await settle(pilot)
    raise AssertionError("the exchange was never offered")


async def test_exchange_prompted_before_the_draw(tmp_path):
    """Not armed: right after the pair wins a trick, before anyone draws, the human holding the 7 is
    asked; «Exchange» has the focus, and the draw follows the answer."""
    app = make_app(tmp_path, launch=launch())
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = await _until_exchange_prompt(pilot, app)
        match = screen.seat.match
        assert match.pending_draw is not None and [len(h) for h in match.hands] == [5, 5, 5, 5]
        assert app.screen.focused.id == "yes"
        stock, pinta, winner = list(match.stock), match.pinta, match.winners[-1]
        await pilot.press("enter")
        await settle(pilot)
        assert match.exchange == (0, pinta)
        drawn = {c for s, c in match.trick if s == winner} | set(match.hands[winner])
        drawn |= {c for t in match.tricks for s, c in t if s == winner}
        assert stock[0] in drawn, "the trick winner drew after the exchange"
        assert "exchanged the 7" in str(screen.query_one("#gn-table").render())


async def test_exchange_prompt_keep_and_later(tmp_path):
    """«Keep the 7» declines (and the draw follows); Escape closes the question and leaves the decision
    on the table (p or k), the CPU waiting meanwhile."""
    app = make_app(tmp_path, launch=launch())
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = await _until_exchange_prompt(pilot, app)
        match = screen.seat.match
        await pilot.press("escape")
        await settle(pilot)
        assert not isinstance(app.screen, ExchangeScreen) and match.pending_draw is not None
        assert "k: keep it" in str(screen.query_one(TrickView).render())
        moves = len(match.moves)
        await settle(pilot)
        assert len(match.moves) == moves               # nobody moves while the human decides
        await pilot.press("k")
        await settle(pilot)
        from cardtable.games.guinote.state import KeepSeven

        assert any(s == 0 and isinstance(m, KeepSeven) for s, m in match.moves)
        assert match.pending_draw is None or match.exchange_seat != 0


async def test_armed_exchange_fires_before_the_draw(tmp_path):
    app = make_app(tmp_path, launch=launch())
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = table(app)
        await pilot.press("p")
        assert screen.armed_exchange
        for _ in range(120):
            if any(s == 0 and isinstance(m, Exchange) for s, m in screen.seat.match.moves):
                break
            assert not isinstance(app.screen, ExchangeScreen), "armed: no question"
            if isinstance(app.screen, (SummaryScreen, ClaimScreen)):
                await pilot.press("n")
            elif screen.seat.match.to_move() == 0:
                await play_a_card(pilot, app)
            await settle(pilot)
        index = next(i for i, (s, m) in enumerate(screen.seat.match.moves) if s == 0 and isinstance(m, Exchange))
        replay = type(screen.seat.match).replay(screen.seat.match.options, screen.seat.match.seed, screen.seat.match.moves[:index])
        assert replay.pending_draw is not None and replay.exchange_seat == 0   # fired before the draw
