"""The source's house variants of Gong Zhu, played as options (rules page «Common variants»).

The worked numbers are the rules page's scenarios, re-scored under each variant.
"""

import io
import json

import pytest

from cardtable import games
from cardtable.cards import parse_card
from cardtable.engine import IllegalMove, OptionError
from cardtable.games.gongzhu.state import GongZhuMatch, GongZhuOptions, Show
from cardtable.history import HistoryWriter
from cardtable.saves import SaveStore

SPEC = games.get("gongzhu")
ALL_H = "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH"


def C(text):
    return [parse_card(code) for code in text.split()]


def score(taken, shown="", others=(), **options):
    """The hand score of the player who took ``taken`` (seat 0), the others taking ``others``."""
    opts = GongZhuOptions(**options)
    piles = [C(taken)] + [C(pile) for pile in others] + [[]] * (3 - len(others))
    return opts.score_hand(piles, C(shown))[0].hand


# ---------------------------------------------------------------- all hearts +400
def test_all_hearts_plus_400_rescores_scenarios_4_and_5():
    assert score(ALL_H) == 200                                   # default: every heart turned positive
    assert score(ALL_H, all_hearts=400) == 400
    assert score(ALL_H, shown="AH", all_hearts=400) == 800       # the shown ♥A still doubles it
    assert score(ALL_H + " QS", all_hearts=400) == 500           # swap on: the Pig +100
    assert score(ALL_H + " QS", all_hearts=400, swap=False) == 300
    assert score(ALL_H + " 10C", all_hearts=400) == 800          # the Transformer doubles the +400
    assert score(ALL_H + " 10C QS JD", all_hearts=400) == 1200   # grand slam (400+100+100)×2
    assert score(ALL_H + " 10C QS JD", shown="JD", all_hearts=400) == 1400
    assert score(ALL_H + " 10C QS JD", shown="QS JD 10C AH", all_hearts=400) == 4800


def test_all_hearts_plus_400_leaves_ordinary_hands_alone():
    # Scenario 1, the source's example, has no full hearts: the same four numbers.
    opts = GongZhuOptions(all_hearts=400)
    lines = opts.score_hand([C("5H 6H JH JD"), C("QS KH AH 2H"), C("10C 3H"), C("4H 7H 8H 9H 10H QH")], [])
    assert [line.hand for line in lines] == [60, -190, 50, -70]
    assert score("10C KH 7H", all_hearts=400) == -100            # scenario 2
    twelve = " ".join(ALL_H.split()[:-1])
    assert score(twelve, all_hearts=400) == -150                 # twelve hearts are no pleno


def test_all_hearts_swap_follows_the_pig_and_goat_under_plus_400():
    opts = GongZhuOptions(all_hearts=400)
    lines = opts.score_hand([C(ALL_H), C("QS"), C("JD"), C("10C")], [])
    assert [line.hand for line in lines] == [400, 100, -100, 50]


def test_all_hearts_plus_400_in_the_match_record():
    """The engine's hand_end line and totals use the option (the taken piles are set, then scored)."""
    match = GongZhuMatch(GongZhuOptions(all_hearts=400, max_hands=1), 0)
    match.taken = [C(ALL_H), C("QS"), C("JD"), C("10C")]
    match._end_hand()
    end = next(r for r in match.log if r["type"] == "hand_end")
    assert [line["hand"] for line in end["lines"]] == [400, 100, -100, 50]
    assert match.totals == [400, 100, -100, 50] and match.is_over()


def test_all_hearts_option_is_checked():
    with pytest.raises(OptionError):
        GongZhuOptions(all_hearts=300)
    assert GongZhuOptions.from_strings(["all_hearts=400"]).all_hearts == 400


# ---------------------------------------------------------------- showing only ♠Q and ♣10
def _seed_with_all_four_showable():
    for seed in range(2000):
        match = GongZhuMatch(GongZhuOptions(), seed)
        for seat in range(4):
            if all(card in match.hands[seat] for card in C("QS JD")) and any(
                    card in match.hands[seat] for card in C("10C AH")):
                return seed, seat
    raise AssertionError("no seed found")


def test_showing_limited_to_pig_and_transformer():
    seed, seat = _seed_with_all_four_showable()
    full = GongZhuMatch(GongZhuOptions(), seed)
    limited = GongZhuMatch(GongZhuOptions(showable="pig_transformer"), seed)
    for match in (full, limited):
        for earlier in range(seat):
            match.apply(Show(()))
    full_sets = {move.cards for move in full.legal_moves()}
    limited_sets = {move.cards for move in limited.legal_moves()}
    assert any(parse_card("JD") in cards for cards in full_sets)
    assert limited_sets == {cards for cards in full_sets if set(cards) <= set(C("QS 10C"))}
    assert len(limited_sets) in (2, 4)
    with pytest.raises(IllegalMove) as refused:
        limited.apply(Show(tuple(C("JD"))))
    assert refused.value.key == "gz_not_showable_here"
    limited.apply(Show(tuple(C("QS"))))          # the Pig may still be shown
    assert limited.shown[seat] == tuple(C("QS"))


def test_limited_showing_keeps_scenarios_3_and_6():
    # Scenario 3: ♣10 ♠Q both shown → −800; the limited table can show exactly those two.
    assert score("10C QS", shown="10C QS", showable="pig_transformer") == -800
    seed, seat = _seed_with_all_four_showable()
    match = GongZhuMatch(GongZhuOptions(showable="pig_transformer"), seed)
    for s in range(4):
        match.apply(Show(tuple(C("QS"))) if s == seat else Show(()))
    assert match.shown[seat] == tuple(C("QS"))
    end = match.clone()
    end.taken = [C("QS 10C"), [], [], []]
    end._end_hand()
    # Only the Pig was shown here: ♣10 ♠Q → −200 × 2.
    record = next(r for r in reversed(end.log) if r["type"] == "hand_end")
    assert record["lines"][0]["hand"] == -400


def test_cpu_shows_only_what_the_table_allows():
    bot = SPEC.bot("normal")
    for seed in range(60):
        match = GongZhuMatch(GongZhuOptions(showable="pig_transformer"), seed)
        while match.phase == "show":
            move = bot.choose(match.view(match.to_move()))
            assert set(move.cards) <= set(C("QS 10C"))
            match.apply(move)


# ---------------------------------------------------------------- a fixed number of hands
def _bot_match(options, seed):
    match = GongZhuMatch(options, seed)
    bot = SPEC.bot("normal")
    while not match.is_over():
        match.apply(bot.choose(match.view(match.to_move())))
    return match


def test_fixed_number_of_hands_ignores_the_target():
    # Find a Quick match that ends early on the ±500 line, then play the same deals for a fixed length.
    seed, quick = next((s, m) for s in range(40) if (m := _bot_match(GongZhuOptions(), s)).hand < 30)
    assert any(abs(t) >= 500 for t in quick.totals)
    fixed = _bot_match(GongZhuOptions(target=0, max_hands=quick.hand + 2), seed)
    assert fixed.hand == quick.hand + 2
    end = fixed.log[-1]
    assert end["type"] == "match_end" and end["hands"] == quick.hand + 2
    assert end["winners"] == [s for s in range(4) if fixed.totals[s] == max(fixed.totals)]
    assert end["pig"] == [s for s in range(4) if fixed.totals[s] == min(fixed.totals)]
    # The same deals and the same CPU: the first hands are the Quick match's hands.
    quick_ends = [r["lines"] for r in quick.log if r["type"] == "hand_end"]
    fixed_ends = [r["lines"] for r in fixed.log if r["type"] == "hand_end"]
    assert fixed_ends[: len(quick_ends)] == quick_ends


def test_fixed_hands_options_from_the_command_line_and_checked():
    options = GongZhuOptions.from_strings(["target=0", "max_hands=8"])
    assert options.fixed_hands and options.max_hands == 8
    with pytest.raises(OptionError):
        GongZhuOptions(target=250)


# ---------------------------------------------------------------- saves and history
def test_variants_survive_saves_and_reach_the_history(tmp_path):
    options = GongZhuOptions(all_hearts=400, showable="pig_transformer", target=0, max_hands=4)
    match = GongZhuMatch(options, 7)
    bot = SPEC.bot("normal")
    out = io.StringIO()
    writer = HistoryWriter(out, match, ["cpu:normal"] * 4)
    for _ in range(20):
        writer.apply(bot.choose(match.view(match.to_move())))
    head = json.loads(out.getvalue().splitlines()[0])
    assert head["options"]["all_hearts"] == 400
    assert head["options"]["showable"] == "pig_transformer"
    assert head["options"]["target"] == 0 and head["options"]["max_hands"] == 4
    store = SaveStore(tmp_path)
    store.save("variants", match, ["human", "cpu:normal", "cpu:normal", "cpu:normal"])
    loaded, _ = store.load("variants")
    assert loaded.options == options and loaded.moves == match.moves
