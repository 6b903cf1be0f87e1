"""The hand review screen: from a hand summary in each game and from the saved games list for a finished
match; ←/→ step through the tricks, Home/End jump, Esc goes back; the buttons do the same."""

import io

import pytest
from rich.console import Console
from rich.text import Text

from cardtable import games
from cardtable.engine import next_auto_move
from cardtable.review import finished_hands, review
from cardtable.saves import SaveStore
from cardtable.ui.dialogs import HandEndDialog
from cardtable.ui.gamescreen import GameScreen
from cardtable.ui.numbers import signed
from cardtable.ui.review import HandPickerDialog, ReviewScreen
from cardtable.ui.screens import SlotsScreen
from tests.ui_helpers import assert_human_to_move, make_app, pinned_app, settle

PLAYERS = ["human", "cpu:easy", "cpu:easy", "cpu:easy"]


def _before_the_last_human_move(game: str, seed: int):
    """A match at the last move seat 0 makes in hand 1 (played by the easy CPU for everyone): the CPU
    players answer the same in the app, so one more move by you ends the hand. Returns the match there
    and that move."""
    spec = games.get(game)
    bot = spec.bot("easy")
    full = spec.new_match(spec.options_type(), seed)
    while not finished_hands(full):
        seat, move = next_auto_move(full, lambda _: bot)
        full.apply(move, seat)
    last = max(i for i, (seat, _) in enumerate(full.moves) if seat == 0)
    match = spec.match_type.replay(full.options, full.seed, full.moves[:last])
    return match, full.moves[last][1], full


def text_of(screen, selector: str) -> str:
    """What a Static of the screen shows, as plain text (a Rich table rendered at the screen's width)."""
    content = screen.query_one(selector).content
    if isinstance(content, Text):
        return content.plain
    console = Console(width=78, record=True, file=io.StringIO())
    console.print(content)
    return console.export_text()


async def _summary(pilot, app, move):
    """Make your last move of the hand; the CPU players finish it and its results come up."""
    table = next(s for s in app.screen_stack if isinstance(s, GameScreen))
    assert table.play(move, 0)
    for _ in range(60):
        await settle(pilot)
        if isinstance(app.screen, HandEndDialog):
            break
    assert isinstance(app.screen, HandEndDialog)
    return table


@pytest.mark.parametrize("game,seed", [("gongzhu", 3), ("guinote", 5), ("guandan", 2)])
async def test_review_steps_through_the_hand_from_the_summary(tmp_path, game, seed):
    match, move, full = _before_the_last_human_move(game, seed)
    SaveStore(tmp_path / "saves").save("hand", match, PLAYERS)
    app = make_app(tmp_path, launch=("continue", "hand"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        table = await _summary(pilot, app, move)
        assert app.screen.focused.id == "next"                # the safe forward choice keeps the focus
        expected = review(full, 1)
        assert table.seat.match.log[: len(full.log)] == full.log[: len(table.seat.match.log)]
        await pilot.press("v")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ReviewScreen) and screen.index == 0
        assert text_of(screen, "#review-heading").startswith("The deal")
        deal_hands = text_of(screen, "#review-hands")
        await pilot.press("left")                              # nothing before the deal
        await settle(pilot)
        assert screen.index == 0
        await pilot.press("right")
        await settle(pilot)
        step = expected.steps[1]
        assert screen.index == 1 and screen.step == step
        heading = text_of(screen, "#review-heading")
        assert heading.startswith(f"Trick 1 of {len(expected.steps) - 1}")
        winner_name = screen.renderer.seat_name(step.winner) if step.winner is not None else None
        if winner_name:
            assert winner_name in heading or ("You" in heading and step.winner == 0)
        plays = text_of(screen, "#review-plays")
        for seat, _ in step.plays:
            assert screen.renderer.seat_name(seat) in plays
        if game != "guandan":      # the tricks' cards, each labelled as the game draws it
            for _, card in step.plays:
                assert screen.renderer.card(card).plain in plays
        hands_1 = text_of(screen, "#review-hands")
        for seat in range(4):                                  # every hand as it was at the trick's start
            row = next(line for line in hands_1.splitlines() if line.startswith(screen.renderer.seat_name(seat)))
            if game != "guandan":
                assert " ".join(screen.renderer.card(c).plain for c in step.hands[seat]) in row
        await pilot.press("right")
        await settle(pilot)
        assert screen.index == 2 and text_of(screen, "#review-hands") != hands_1   # cards have left the hands
        await pilot.press("end")
        await settle(pilot)
        last = len(expected.steps) - 1
        assert screen.index == last
        score = text_of(screen, "#review-score")
        assert "End of the hand" in score
        record = expected.end
        if game == "gongzhu":
            for seat, line in enumerate(record["lines"]):
                assert signed(line["hand"], "colour", 5) in score.splitlines()[seat + 1]
        elif game == "guinote":
            assert f"= {record['totals'][0]}" in score and f"= {record['totals'][1]}" in score
        else:
            assert ("+" in score) or ("no rise" in score) or ("Aces" in score)
        assert screen.query_one("#review-next").disabled and screen.query_one("#review-last").disabled
        await pilot.press("right")
        await settle(pilot)
        assert screen.index == last                            # nothing after the last trick
        await pilot.press("home")
        await settle(pilot)
        assert screen.index == 0 and text_of(screen, "#review-hands") == deal_hands
        await pilot.click("#review-next")                      # the mouse does the same
        await settle(pilot)
        assert screen.index == 1
        await pilot.click("#review-last")
        await settle(pilot)
        assert screen.index == last
        await pilot.click("#review-previous")
        await settle(pilot)
        assert screen.index == last - 1
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, HandEndDialog)           # back to the hand's results
        assert app.screen.focused.id == "next"
        await pilot.click("#review")                           # the button opens it too
        await settle(pilot)
        assert isinstance(app.screen, ReviewScreen)
        await pilot.click("#review-back")
        await settle(pilot)
        assert isinstance(app.screen, HandEndDialog)


def _finished_match(game: str, seed: int):
    spec = games.get(game)
    options = spec.options_type(target=500, max_hands=2) if game == "gongzhu" else spec.options_type()
    match = spec.new_match(options, seed)
    bot = spec.bot("easy")
    while not match.is_over():
        seat, move = next_auto_move(match, lambda _: bot)
        match.apply(move, seat)
    return match


async def test_review_a_hand_of_a_finished_match_from_the_saves_list(tmp_path):
    finished = _finished_match("gongzhu", 6)
    store = SaveStore(tmp_path / "saves")
    store.save("done", finished, PLAYERS)
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("c")
        await settle(pilot)
        assert isinstance(app.screen, SlotsScreen)
        await pilot.press("v")
        await settle(pilot)
        picker = app.screen
        assert isinstance(picker, HandPickerDialog)
        hands = finished_hands(finished)
        assert [r["hand"] for r in picker.records] == [r["hand"] for r in hands] == [1, 2]
        await pilot.press("up")                                # from the last hand to the first
        await pilot.press("enter", "enter")                    # (a second Enter typed ahead opens nothing more)
        await settle(pilot)
        assert [type(s) for s in app.screen_stack].count(ReviewScreen) == 1
        screen = app.screen
        assert isinstance(screen, ReviewScreen) and screen.review.hand == 1
        assert screen.review == review(finished, 1)
        await pilot.press("end")
        await settle(pilot)
        assert screen.index == 13
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is picker                            # choose another hand
        await pilot.press("down")
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, ReviewScreen) and app.screen.review.hand == 2
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is picker
        await pilot.click("#picker-back")                      # the mouse way back
        await settle(pilot)
        assert isinstance(app.screen, SlotsScreen)
        assert (tmp_path / "saves" / "done.json").read_bytes() == store.path("done").read_bytes()


async def test_an_unfinished_match_is_not_reviewed_from_the_list(tmp_path):
    match, _move, _full = _before_the_last_human_move("guinote", 5)
    SaveStore(tmp_path / "saves").save("going", match, PLAYERS)
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("c")
        await settle(pilot)
        await pilot.press("v")
        await settle(pilot)
        assert isinstance(app.screen, SlotsScreen)
        assert any("finished match" in str(n.message) for n in app._notifications)


# ---------------------------------------------------------------- how it looks (80×24)
# Pinned positions (saves/examples): your move ends the first hand, so no CPU plays after it.
# game: (example save, its moves, your last move, steps to the trick shown)
SNAPSHOT_POSITIONS = {"gongzhu": ("gongzhu-last-card", 55, "3H", 4),
                      "guinote": ("guinote-last-card", 40, "12E", 3),
                      "guandan": ("guandan-last-play", 103, "10S as single 10", 2)}


@pytest.mark.parametrize("game,lang", [("gongzhu", "en"), ("guinote", "es"), ("guandan", "en")])
def test_review_snapshot(snap_compare, tmp_path, game, lang):
    """A trick in the middle of the hand: the four hands with this trick's cards marked, the trick in
    order, what it scored and the score so far; the buttons and the footer keys."""
    example, moves, last, steps = SNAPSHOT_POSITIONS[game]

    async def run_before(pilot):
        await settle(pilot)
        table = next(s for s in pilot.app.screen_stack if isinstance(s, GameScreen))
        assert_human_to_move(table, moves)
        assert table.play(table.seat.match.parse_move(last), 0)
        await settle(pilot)
        assert isinstance(pilot.app.screen, HandEndDialog)
        await pilot.press("v")
        await settle(pilot)
        for _ in range(steps):
            await pilot.press("right")
        await settle(pilot)

    assert snap_compare(pinned_app(tmp_path, example, lang), terminal_size=(80, 24), run_before=run_before)


@pytest.mark.parametrize("game,seed", [("gongzhu", 3), ("guinote", 5), ("guandan", 2)])
def test_the_cards_of_each_step_are_marked_in_the_hands(game, seed):
    """In the hands as they were, the cards each seat plays in the step are drawn reversed (at the deal:
    the cards shown in Gong Zhu, the tribute and the return in Guandan)."""
    from cardtable.ui.review import renderer_for

    _match, _move, full = _before_the_last_human_move(game, seed)
    rv = review(full, 1)
    renderer = renderer_for(rv, "colour")
    for step in rv.steps:
        for seat in range(4):
            text = renderer.cards(step.hands[seat], renderer.played_by(step, seat))
            marked = sorted(text.plain[span.start:span.end] for span in text.spans
                            if getattr(span.style, "reverse", False))
            expected = []
            for mover, what in step.plays:
                if mover != seat:
                    continue
                if hasattr(what, "rank"):
                    expected.append(what)
                elif hasattr(what, "cards"):
                    expected.extend(what.cards)
                elif hasattr(what, "card"):
                    expected.append(what.card)
                elif isinstance(what, tuple):
                    expected.extend(what)
            assert marked == sorted(renderer.card(card).plain for card in expected), (step.number, seat)
            if step.number:       # in a trick, whoever played (not passed) has its cards marked
                played = any(m == seat and not (hasattr(w, "to_json") and "pass" in w.to_json())
                             for m, w in step.plays)
                assert bool(marked) == played


@pytest.mark.parametrize("game,seed", [("gongzhu", 3), ("guinote", 5), ("guandan", 2)])
async def test_ascii_card_style_draws_the_review_in_latin_1(tmp_path, game, seed):
    """The ASCII card style is for terminals that mis-measure symbols: the review's cards, arrows, marks
    and buttons stay within Latin-1 there (the «·» separator is Latin-1)."""
    _match, _move, full = _before_the_last_human_move(game, seed)
    app = make_app(tmp_path, card_style="ascii")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = ReviewScreen(review(full, 1), "ascii")
        app.push_screen(screen)
        await settle(pilot)
        for index in range(len(screen.review.steps)):
            screen.go(index)
            await pilot.pause()
            shown = "".join(text_of(screen, f"#review-{part}")
                            for part in ("heading", "hands", "plays", "notes", "score"))
            shown += "".join(str(button.label) for button in screen.query("Button"))
            # (the en dash of the game's own words, «Tube A–3», is text the tables use in ASCII mode too)
            odd = {ch for ch in shown if ord(ch) >= 256} - {"–"}
            assert not odd, sorted(odd)


def test_the_review_of_a_game_never_opened_in_this_process_has_its_words():
    """From the saved games list no table of the game may have been opened yet (its module registers
    its strings): the hand list and the review still show words, never catalogue keys."""
    import subprocess
    import sys

    script = (
        "from tests.test_ui_review import _finished_match\n"
        "from cardtable.review import finished_hands, review\n"
        "from cardtable.ui.review import hand_result, renderer_for\n"
        "m = _finished_match('guinote', 6)\n"
        "rows = [hand_result('guinote', r) for r in finished_hands(m)]\n"
        "rv = review(m, 1)\n"
        "r = renderer_for(rv, 'colour')\n"
        "texts = [r.heading(s).plain + r.notes(s).plain + r.score(s).plain for s in rv.steps]\n"
        "print('\\n'.join(rows + texts))\n")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True,
                         cwd=str(__import__("pathlib").Path(__file__).resolve().parent.parent)).stdout
    assert "win" in out or "Nobody" in out
    assert "gn_" not in out and "review_" not in out
