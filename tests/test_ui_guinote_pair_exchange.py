"""The Guiñote table and the exchange phase that asks the pair (issue 9): a human asked without the 7 is
never stopped (the table keeps for them), and the human's screen is the same wherever the 7 is."""

from cardtable import games
from cardtable.games.guinote.state import KeepSeven
from cardtable.saves import SaveStore
from cardtable.sim import next_cpu_move
from cardtable.ui.guinote import ExchangeScreen, GuinoteScreen
from tests.test_guinote_exchange_fairness import STOCK, keep_through_the_phase, seven_of, swapped
from tests.test_ui_views import screen_text
from tests.ui_helpers import ViewOnlySeat, make_app, settle

SPEC = games.get("guinote")
PLAYERS = ["human", "cpu:normal", "cpu:normal", "cpu:normal"]


def phase_where(predicate, seeds=range(300)):
    """A hand-1 match of `normal` bots stopped at an exchange phase (any seat asked) that ``predicate``
    accepts."""
    bot = SPEC.bot("normal")
    for seed in seeds:
        match = SPEC.new_match(seed=seed)
        while match.hand == 1 and not match.is_over():
            if match.pending_draw is not None and predicate(match):
                return match
            seat, move = next_cpu_move(match, lambda _: bot)
            match.apply(move, seat)
    raise AssertionError("no such phase")


async def test_a_human_asked_without_the_seven_is_not_stopped(tmp_path):
    """You are asked (your pair won the trick) but hold no 7: the table keeps for you at once — no
    question, no wait — and the play goes on through the draw."""
    match = phase_where(lambda m: m.exchange_seat == 0 and seven_of(m) not in m.hands[0])
    before = len(match.moves)
    SaveStore(tmp_path / "saves").save("s", match, PLAYERS)
    app = make_app(tmp_path, launch=("continue", "s"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        table = app.screen
        assert isinstance(table, GuinoteScreen) and not isinstance(app.screen, ExchangeScreen)
        played = table.seat.match.moves[before:]
        assert played[0] == (0, KeepSeven(seven_of(match)))
        assert table.seat.match.pending_draw is None and len(table.seat.match.tricks) >= len(match.tricks)
        assert table._exchange_asked is None and not table.exchange_open       # never asked
        assert table.seat.match.to_move() == 0                                      # waiting on your card


async def test_your_screen_is_the_same_wherever_the_seven_is(tmp_path):
    """The other pair won the trick and is asked about the 7: whether the winner holds it (A), its
    partner (B), or it lies in the stock (C), your table reads the same at every step, everybody
    keeping, and after the draw."""
    a = phase_where(lambda m: m.exchange_seat in (1, 3) and m.exchange_seat == m.winners[-1]
                    and seven_of(m) in m.hands[m.exchange_seat])
    winner = a.winners[-1]
    partner = (winner + 2) % 4
    b = swapped(a, seven_of(a), partner, a.hands[partner][-1])
    c = swapped(a, seven_of(a), STOCK, a.stock[0])
    app = make_app(tmp_path, launch=("new", "guinote", None, a.seed, "normal"))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        table = app.screen
        assert isinstance(table, GuinoteScreen)
        real = table.seat
        try:
            steps = 0
            for _ in keep_through_the_phase(a, b, c):
                texts = []
                for match in (a, b, c):
                    table.seat = ViewOnlySeat(match)
                    table.refresh_table()
                    table.refresh_bindings()
                    await settle(pilot)
                    texts.append(screen_text(app))
                assert texts[0] == texts[1] == texts[2]
                steps += 1
            assert steps == 3
        finally:
            table.seat = real
