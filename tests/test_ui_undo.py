"""Taking a move back at the three tables: the save's move list shrinks, the position is the one before."""

import json

import pytest

from cardtable import games
from cardtable.games.gongzhu.state import GongZhuOptions
from cardtable.saves import SaveStore
from cardtable.sim import next_cpu_move
from cardtable.ui.gamescreen import GameScreen
from tests.ui_helpers import make_app, settle


def _position(game: str, seed: int):
    """A saved match where seat 0 is to play a card and may take it back afterwards: Gong Zhu after the
    showing, Guiñote in the arrastre (no draw left to see), Guandan in the first deal."""
    spec = games.get(game)
    options = GongZhuOptions(showing=False) if game == "gongzhu" else spec.options_type()
    match = spec.new_match(options, seed)
    bot = spec.bot("easy")

    def ready() -> bool:
        if match.to_move() != 0:
            return False
        if game == "guinote":
            return not match.stock and len(match.hands[0]) >= 3
        if game == "guandan":
            return len(match.moves) > 8
        return match.phase == "play" and len(match.hands[0]) >= 3

    while not ready():
        seat, move = next_cpu_move(match, lambda s: bot)
        match.apply(move, seat)
    return spec, match


def _table(app) -> GameScreen:
    return next(s for s in app.screen_stack if isinstance(s, GameScreen))


def _saved_moves(tmp_path, slot):
    return json.loads((tmp_path / "saves" / f"{slot}.json").read_text(encoding="utf-8"))["moves"]


@pytest.mark.parametrize("game,seed", [("gongzhu", 4), ("guinote", 8), ("guandan", 3)])
async def test_take_back_restores_the_position_and_the_save(tmp_path, game, seed):
    spec, match = _position(game, seed)
    SaveStore(tmp_path / "saves").save("undo-me", match, ["human", "cpu:easy", "cpu:easy", "cpu:easy"])
    app = make_app(tmp_path, launch=("continue", "undo-me"))
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(pilot)
        screen = _table(app)
        before = list(screen.seat.match.moves)
        hand_before = sorted(map(str, screen.seat.match.view(0).hand))
        move = spec.bot("easy").choose(screen.seat.match.view(0))
        assert screen.play(move, 0)
        for _ in range(40):                     # the CPUs answer until it is your turn again
            await settle(pilot)
            if screen.seat.match.to_move() == 0 or screen.pending_results is not None:
                break
        assert screen.seat.match.to_move() == 0 and screen.pending_results is None
        grown = len(_saved_moves(tmp_path, "undo-me"))
        assert grown > len(before)
        await pilot.press("u")
        await settle(pilot)
        assert screen.seat.match.moves == before                      # the position is the one before
        assert sorted(map(str, screen.seat.match.view(0).hand)) == hand_before
        assert len(_saved_moves(tmp_path, "undo-me")) == len(before) < grown
        assert json.loads((tmp_path / "saves" / "undo-me.json").read_text())["undo"] is True
        assert "taken back" in screen.status
        # The same play gets the same answers (the CPUs are deterministic).
        assert screen.play(move, 0)


async def test_nothing_to_take_back_says_so_and_changes_nothing(tmp_path):
    app = make_app(tmp_path, launch=("new", "gongzhu", GongZhuOptions(showing=False), 31, "easy"))
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(pilot)
        screen = _table(app)
        for _ in range(20):
            if screen.seat.match.to_move() == 0:
                break
            await settle(pilot)
        moves = list(screen.seat.match.moves)
        await pilot.press("u")
        await settle(pilot)
        assert screen.seat.match.moves == moves
        assert screen.status in ("Nothing of yours to take back in this hand.",
                                 ("You cannot take back past cards you have seen (a new deal, a draw, a "
                                 "tribute or shown cards)."))


async def test_take_back_can_be_turned_off(tmp_path):
    spec, match = _position("gongzhu", 4)
    SaveStore(tmp_path / "saves").save("s", match, ["human", "cpu:easy", "cpu:easy", "cpu:easy"])
    app = make_app(tmp_path, launch=("continue", "s"), undo="off", lang="es")
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(pilot)
        screen = _table(app)
        assert screen.play(spec.bot("easy").choose(screen.seat.match.view(0)), 0)
        for _ in range(40):
            await settle(pilot)
            if screen.seat.match.to_move() == 0:
                break
        moves = list(screen.seat.match.moves)
        await pilot.press("u")
        await settle(pilot)
        assert screen.seat.match.moves == moves
        assert screen.status == "Retirar jugadas está desactivado (ver Ajustes)."


async def test_a_resumed_match_keeps_its_take_back_mark(tmp_path):
    _spec, match = _position("guandan", 3)
    SaveStore(tmp_path / "saves").save("u", match, ["human", "cpu:easy", "cpu:easy", "cpu:easy"], undo=True)
    app = make_app(tmp_path, launch=("continue", "u"))
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(pilot)
        assert _table(app).undo_used is True
