"""Guiñote rules, from docs/rules/guinote.md and the source document."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardtable.cards import parse_spanish_card, spanish_deck
from cardtable.engine import IllegalMove, MoveError
from cardtable.games.guinote import rules
from cardtable.games.guinote.state import (
    Cante,
    Claim,
    Exchange,
    GuinoteMatch,
    GuinoteOptions,
    KeepSeven,
    Play,
    decode_move,
)
from cardtable.tricks import partner


def C(text):
    return [parse_spanish_card(code) for code in text.split()]


def trick(text, first=0):
    return tuple(((first + i) % 4, card) for i, card in enumerate(C(text)))


# -- cards
def test_strength_order_and_points():
    order = C("1E 3E 12E 10E 11E 7E 6E 5E 4E 2E")
    assert sorted(order, key=rules.strength, reverse=True) == order
    assert [rules.points(c) for c in order] == [11, 10, 4, 3, 2, 0, 0, 0, 0, 0]
    assert sum(rules.points(c) for c in spanish_deck()) == 120
    # Sota beats Caballo: the reverse of Tute.
    assert rules.strength(parse_spanish_card("10O")) > rules.strength(parse_spanish_card("11O"))


# -- Scenario 1: trick winners
def test_trick_winners():
    assert trick("7E 12E 10E 11E")[rules.winner_index(trick("7E 12E 10E 11E"), "O")][1].code == "12E"
    t = trick("2O 1E 7O 11O")
    assert t[rules.winner_index(t, "O")][1].code == "11O"
    t = trick("5C 1C 2O 3C")
    assert t[rules.winner_index(t, "O")][1].code == "2O"          # any trump beats the suit led
    t = trick("5C 1E 1B 4C")
    assert t[rules.winner_index(t, "O")][1].code == "5C"          # discards never win


# -- Scenarios 2-5: arrastre obligations
def plays(hand, tr, seat, trump="O"):
    return {c.code for c in rules.arrastre_plays(C(hand), tr, seat, trump)}


def test_scenario_2_follow_and_beat_or_trump():
    t = trick("7E", 0)
    assert plays("12E 5E 2B 1O", t, 1) == {"12E"}
    assert plays("6E 5E 1O", t, 1) == {"6E", "5E"}
    assert plays("2B 4C 1O 7O", t, 1) == {"1O", "7O"}
    assert plays("2B 4C", t, 1) == {"2B", "4C"}


def test_scenario_3_partner_winning_only_follow():
    t = trick("1E 3E", 0)
    assert plays("12E 2E 5O 4B", t, 2) == {"12E", "2E"}


def test_scenario_4_may_not_trump_while_holding_the_suit():
    t = trick("4E 12E 2O", 0)
    assert plays("3E 5E 6O 1C", t, 3) == {"3E", "5E"}


def test_scenario_5_no_obligation_to_under_trump():
    t = trick("4E 12E 7O", 0)
    assert plays("5O 4O 1C", t, 3) == {"5O", "4O", "1C"}


def test_partner_winning_and_void_plays_anything():
    t = trick("1E 3E", 0)
    assert plays("5O 4B", t, 2) == {"5O", "4B"}


def test_must_overtrump_when_void_and_able():
    t = trick("4E 12E 5O", 0)
    assert plays("7O 2O 1C", t, 3) == {"7O"}


def test_trump_led_must_beat_with_higher_trump():
    t = trick("5O", 0)
    assert plays("4O 7O 1E", t, 1) == {"7O"}
    assert plays("4O 2O 1E", t, 1) == {"4O", "2O"}


def test_refusal_reasons():
    t = trick("7E", 0)
    assert rules.refusal_reason(parse_spanish_card("2B"), C("12E 5E 2B"), t, 1, "O")[1] == "gn_must_follow"
    assert rules.refusal_reason(parse_spanish_card("5E"), C("12E 5E 2B"), t, 1, "O")[1] == "gn_must_beat"
    assert rules.refusal_reason(parse_spanish_card("2B"), C("2B 1O"), t, 1, "O")[1] == "gn_must_trump"
    t = trick("4E 12E 5O", 0)
    assert rules.refusal_reason(parse_spanish_card("2O"), C("7O 2O"), t, 3, "O")[1] == "gn_must_overtrump"


def legal_by_rules_page(hand, tr, seat, trump):
    """A second, literal reading of the rules page, to check arrastre_plays on random states."""
    if not tr:
        return set(hand)
    lead = tr[0][1].suit
    best = tr[0]
    for s, c in tr[1:]:
        if (c.suit == best[1].suit and rules.strength(c) > rules.strength(best[1])) or (
                c.suit == trump and best[1].suit != trump):
            best = (s, c)
    w_seat, w = best
    has_lead = [c for c in hand if c.suit == lead]
    if w_seat == (seat + 2) % 4:
        return set(has_lead) if has_lead else set(hand)
    if has_lead:
        if w.suit == trump and lead != trump:
            return set(has_lead)
        higher = [c for c in has_lead if c.suit == w.suit and rules.strength(c) > rules.strength(w)]
        return set(higher) if higher else set(has_lead)
    if w.suit != trump:
        trumps = [c for c in hand if c.suit == trump]
        return set(trumps) if trumps else set(hand)
    higher_trumps = [c for c in hand if c.suit == trump and rules.strength(c) > rules.strength(w)]
    return set(higher_trumps) if higher_trumps else set(hand)


@given(st.permutations(spanish_deck()), st.integers(0, 3), st.integers(1, 6), st.integers(0, 3),
       st.sampled_from("OCEB"))
def test_arrastre_legality_matches_a_literal_reading(deck, played, hand_size, leader, trump):
    tr = tuple(((leader + i) % 4, deck[i]) for i in range(played))
    seat = (leader + played) % 4
    hand = deck[10:10 + hand_size]
    assert set(rules.arrastre_plays(hand, tr, seat, trump)) == legal_by_rules_page(hand, tr, seat, trump)


# -- Scenario 7: cantes
def test_cantes_need_rey_and_sota():
    assert not rules.can_sing(C("12C 11C"), "C")
    assert rules.can_sing(C("12C 10C 1O"), "C")
    assert rules.cante_value("O", "O") == 40 and rules.cante_value("C", "O") == 20


# -- Scenarios 8-9: deciding a hand
def test_scenario_8_one_pair_over_100():
    assert rules.decide_hand([105, 85], [85, 45], ultimas=0, thirty_rule=True) == 0


def test_scenario_9_both_over_100_ultimas_decide():
    assert rules.decide_hand([120, 110], [60, 70], ultimas=1, thirty_rule=True) == 1


def test_thirty_rule():
    assert rules.decide_hand([105, 150], [25, 105], ultimas=0, thirty_rule=True) == 1
    assert rules.decide_hand([105, 150], [25, 105], ultimas=0, thirty_rule=False) == 0
    assert rules.decide_hand([100, 90], [70, 60], ultimas=0, thirty_rule=True) is None   # exactly 100: no


# -- the match
def play_until(match, predicate, bot_level="easy"):
    from cardtable import games
    from cardtable.sim import next_cpu_move

    spec = games.get("guinote")
    bot = spec.bot(bot_level)
    steps = 0
    while not predicate(match) and not match.is_over() and steps < 5000:
        seat, move = next_cpu_move(match, lambda s: bot)
        match.apply(move, seat)
        steps += 1
    return match


def test_deal_six_each_from_mano_pinta_and_stock():
    match = GuinoteMatch(GuinoteOptions(), 7)
    deal = match.log[0]
    assert deal["type"] == "deal" and deal["mano"] == (deal["dealer"] + 1) % 4
    assert [len(h) for h in deal["hands"]] == [6, 6, 6, 6] and len(deal["stock"]) == 15
    every = [c for h in deal["hands"] for c in h] + deal["stock"] + [deal["pinta"]]
    assert sorted(every) == sorted(c.code for c in spanish_deck())
    assert match.trump == deal["pinta"][-1]
    assert match.to_move() == deal["mano"]
    assert deal["vueltas"] is False and deal["carry"] == [0, 0]


def test_draws_follow_the_trick_winner_and_last_drawer_takes_the_pinta():
    match = GuinoteMatch(GuinoteOptions(), 11)
    deal = match.log[0]
    stock = deal["stock"]
    play_until(match, lambda m: len(m.tricks) == 1 and m.pending_draw is None)
    winner = match.winners[0]
    for j in range(4):
        assert stock[j] in [c.code for c in match.hands[(winner + j) % 4]]
    play_until(match, lambda m: len(m.tricks) == 4 and m.pending_draw is None)
    last_drawer = (match.winners[3] + 3) % 4
    assert match.pinta_taker == last_drawer
    assert match.pinta in match.hands[last_drawer] or match.exchange is not None
    assert all(len(h) == 6 for h in match.hands) and not match.stock


def test_phase_one_has_no_obligations():
    match = GuinoteMatch(GuinoteOptions(), 3)
    seat = match.to_move()
    match.apply(Play(match.hands[seat][0]))
    nxt = match.to_move()
    assert {m.card for m in match.legal_moves() if isinstance(m, Play)} == set(match.hands[nxt])


def find_state(predicate, seeds=range(400), level="easy"):
    for seed in seeds:
        match = GuinoteMatch(GuinoteOptions(), seed)
        play_until(match, lambda m: predicate(m) or m.hand > 1, level)
        if match.hand == 1 and predicate(match):
            return match
    raise AssertionError("no such state found")


def find_exchange(predicate=lambda m: True, seeds=range(600), holding=True):
    """A hand-1 state where a seat of the pair that won the trick is asked about the exchange (before
    the draw): with ``holding``, a seat holding the 7 (else a seat without it)."""
    for seed in seeds:
        match = GuinoteMatch(GuinoteOptions(), seed)
        while match.hand == 1 and len(match.tricks) <= 4 and not match.is_over():
            if match.pending_draw is not None:
                seven = parse_spanish_card(f"7{match.trump}")
                if predicate(match) and (seven in match.hands[match.exchange_seat]) == holding:
                    return match
                match.apply(KeepSeven(seven), match.exchange_seat)
                continue
            seat = match.to_move()
            match.apply(next(m for m in match.legal_moves(seat) if isinstance(m, Play)), seat)
    raise AssertionError("no exchange found")


def test_exchange_is_a_phase_before_the_draw():
    match = find_exchange()
    holder, (winner, number) = match.exchange_seat, match.pending_draw
    seven = parse_spanish_card(f"7{match.trump}")
    assert rules.points(match.pinta) > 0 and seven in match.hands[holder]
    assert holder % 2 == match.winners[-1] % 2 and winner == match.winners[-1] and number == len(match.tricks)
    # Nobody has drawn yet: five cards each, the stock untouched.
    assert [len(h) for h in match.hands] == [5, 5, 5, 5]
    assert len(match.stock) == 15 - 4 * (number - 1)
    # Only the holder moves, and only to exchange or keep: no lead, no cante, no claim yet.
    assert match.to_move() == holder and match.optional_movers() == []
    assert set(match.legal_moves(holder)) == {Exchange(seven), KeepSeven(seven)}
    for seat in range(4):
        if seat != holder:
            assert match.legal_moves(seat) == []
            assert match.why_illegal(Exchange(seven), seat) is not None
    lead = match.why_illegal(Play(match.hands[winner][0]), winner)
    assert lead is not None
    pinta, stock = match.pinta, list(match.stock)
    match.apply(Exchange(seven), holder)
    # Exchanged first, then everybody drew from the stock starting with the trick winner.
    assert pinta in match.hands[holder] and match.exchange == (holder, pinta)
    for j in range(4):
        drawn = match.pinta if number == 4 and j == 3 else stock[j]
        assert drawn in match.hands[(winner + j) % 4]
    assert all(len(h) == 6 for h in match.hands)
    assert match.to_move() == winner and match.pending_draw is None
    assert Exchange(seven) not in match.legal_moves(holder)


def test_declining_the_exchange_draws_and_writes_no_history_line():
    match = find_exchange()
    holder, (winner, number) = match.exchange_seat, match.pending_draw
    seven = parse_spanish_card(f"7{match.trump}")
    pinta, stock, log = match.pinta, list(match.stock), len(match.log)
    match.apply(KeepSeven(seven), holder)
    assert match.moves[-1] == (holder, KeepSeven(seven))
    if holder == winner:            # the partner is asked too (it has no 7: keeping is its only move)
        partner_seat = (winner + 2) % 4
        assert match.pending_draw is not None and match.to_move() == partner_seat
        assert match.legal_moves(partner_seat) == [KeepSeven(seven)]
        assert match.automatic_move(partner_seat) == KeepSeven(seven)
        match.apply(KeepSeven(seven), partner_seat)
    assert len(match.log) == log                      # the history has no line for a decline
    assert seven in match.hands[holder] and match.exchange is None
    assert stock[0] in match.hands[winner] and match.pending_draw is None
    if number < 4:
        assert match.pinta == pinta
    # The chance is gone for this trick (it comes back only after another trick won by the pair).
    assert match.why_illegal(Exchange(seven), holder) is not None


def test_exchange_after_the_fourth_trick_gives_the_last_drawer_the_seven():
    match = find_exchange(lambda m: m.pending_draw[1] == 4)
    holder, (winner, _) = match.exchange_seat, match.pending_draw
    seven = parse_spanish_card(f"7{match.trump}")
    pinta = match.pinta
    match.apply(Exchange(seven), holder)
    last = (winner + 3) % 4          # always an opponent: the exchanger never takes the 7 back
    assert last % 2 != holder % 2
    assert seven in match.hands[last] and match.pinta_taker == last and pinta in match.hands[holder]


def test_seed_1084_history_exchanges_before_the_draw_and_the_cantes():
    """The issue's case: `cardtable sim guinote --games 1 --seed 1084 --players normal --legal` had the
    partner sing with a card just drawn, then the trick winner exchange the 7."""
    import io

    from cardtable import games, sim
    from cardtable.history import read_records, replay

    spec = games.get("guinote")
    out = io.StringIO()
    sim.run(spec, spec.options_type(), 1, 1084, ["normal"] * 4, history=out, legal=True)
    records = list(read_records(out.getvalue().splitlines()))
    replay(records)
    moves = [r for r in records if r["type"] == "move"]
    exchanges = [i for i, r in enumerate(moves) if "exchange" in r["move"]]
    assert exchanges
    for i in exchanges:
        assert "play" in moves[i - 1]["move"], "the exchange is the first thing after the trick"
    # Hand 1, trick 1: seat 1 exchanges the 7 of copas, then seat 3 sings (with the cards drawn).
    assert [(r["seat"], r["move"]) for r in moves[4:6]] == [(1, {"exchange": "7C"}), (3, {"cante": "O"})]


def test_version_0_1_save_with_the_exchange_after_a_cante_still_loads(tmp_path):
    """cardtable 0.1 wrote seed 1084's first window as: cante, then exchange. It loads, with the exchange
    moved first; hands and results are those of today's rules."""
    import json

    from cardtable.saves import SaveStore

    old = [(2, "play", "2O"), (3, "play", "7O"), (0, "play", "2E"), (1, "play", "3O"), (3, "cante", "O"),
           (1, "exchange", "7C"), (1, "play", "5O")]
    envelope = {"format": "cardtable-save", "schema": 1, "app_version": "0.1.0", "game": "guinote",
                "summary": "", "options": GuinoteOptions().to_dict(), "seed": 1084,
                "players": ["human", "cpu:normal", "cpu:normal", "cpu:normal"],
                "moves": [{"seat": s, "move": {k: v}} for s, k, v in old]}
    (tmp_path / "old.json").write_text(json.dumps(envelope))
    match, _ = SaveStore(tmp_path).load("old")
    assert [(s, m.to_json()) for s, m in match.moves][4:6] == [(1, {"exchange": "7C"}), (3, {"cante": "O"})]
    assert len(match.trick) == 1 and match.exchange == (1, parse_spanish_card(match.log[0]["pinta"]))


def test_version_0_1_save_without_a_decision_gets_a_decline(tmp_path):
    """0.1 had no move for declining: a window where the holder of the 7 made no exchange replays with
    a decline supplied."""
    match = find_exchange()
    seven = parse_spanish_card(f"7{match.trump}")
    prefix = list(match.moves)
    while match.pending_draw is not None:
        match.apply(KeepSeven(seven), match.exchange_seat)
    lead = next(m for m in match.legal_moves() if isinstance(m, Play))
    match.apply(lead)
    old = [(s, m) for s, m in prefix if not isinstance(m, KeepSeven)] + [match.moves[-1]]
    again = GuinoteMatch.replay(match.options, match.seed, old)
    assert again.moves == match.moves and again.log == match.log


def test_exchange_only_for_a_counting_pinta_unless_the_option():
    assert rules.exchange_allowed(parse_spanish_card("3O"), False)
    assert not rules.exchange_allowed(parse_spanish_card("4O"), False)
    assert rules.exchange_allowed(parse_spanish_card("4O"), True)
    assert not rules.exchange_allowed(parse_spanish_card("7O"), True)


def test_cante_only_after_own_pair_wins_and_each_suit_once():
    def singable(m):
        return any(isinstance(x, Cante) for s in range(4) for x in m.legal_moves(s)) if m.window_pair is not None else False

    for seed in range(400):
        match = GuinoteMatch(GuinoteOptions(), seed)
        while match.hand == 1 and not match.is_over():
            if singable(match):
                break
            seat = match.to_move()
            match.apply(next(m for m in match.legal_moves(seat) if isinstance(m, Play)), seat)
        if singable(match):
            break
    else:
        raise AssertionError("no cante found")
    singer = next(s for s in range(4) if any(isinstance(x, Cante) for x in match.legal_moves(s)))
    assert singer % 2 == match.window_pair
    cante = next(x for x in match.legal_moves(singer) if isinstance(x, Cante))
    for other in range(4):
        if other % 2 != match.window_pair:
            with pytest.raises(IllegalMove):
                match.apply(cante, other)
    match.apply(cante, singer)
    assert cante not in match.legal_moves(singer)
    before = match.view(singer).cante_points(singer % 2)
    assert before == rules.cante_value(cante.suit, match.trump)


def test_cantes_per_win_option_limits_each_player():
    options = GuinoteOptions(cantes_per_win="one_per_player")
    match = GuinoteMatch(options, 1)
    match.window_pair = 0
    match.hands[0] = C("12C 10C 12E 10E 2B 4B")
    assert len([m for m in match._optional(0) if isinstance(m, Cante)]) == 2
    match.apply(Cante("C"), 0)
    assert not [m for m in match._optional(0) if isinstance(m, Cante)]


def test_hidden_twenty_in_arrastre():
    match = GuinoteMatch(GuinoteOptions(), 1)
    match.cantes += ((1, "C" if match.trump != "C" else "E", 20, 6),)
    assert match.view(0).cantes[0].suit is None           # opponent: hidden
    assert match.view(3).cantes[0].suit is not None       # partner may see it
    assert match.view(1).cantes[0].suit is not None


# -- whole hands
def test_card_points_plus_ultimas_total_130_in_every_full_hand():
    from cardtable import games
    from cardtable.sim import next_cpu_move

    spec = games.get("guinote")
    bot = spec.bot("normal")
    for seed in range(30):
        match = spec.new_match(seed=seed)
        while not match.is_over():
            seat, move = next_cpu_move(match, lambda s: bot)
            match.apply(move, seat)
        for record in (r for r in match.log if r["type"] == "hand_end"):
            if record["ultimas"] is not None:
                assert sum(record["points"]) == 130
                assert record["totals"] == [record["points"][p] + record["cantes"][p] + carry
                                            for p, carry in enumerate(_carry_of(match.log, record["hand"]))]


def _carry_of(log, hand):
    return next(r["carry"] for r in log if r["type"] == "deal" and r["hand"] == hand)


def test_vueltas_carry_and_claims():
    from cardtable import games
    from cardtable.sim import next_cpu_move

    spec = games.get("guinote")
    bot = spec.bot("normal")
    seen_vueltas = seen_claim = False
    for seed in range(40):
        match = spec.new_match(seed=seed)
        while not match.is_over():
            seat, move = next_cpu_move(match, lambda s: bot)
            match.apply(move, seat)
        deals = {r["hand"]: r for r in match.log if r["type"] == "deal"}
        for record in (r for r in match.log if r["type"] == "hand_end"):
            nxt = deals.get(record["hand"] + 1)
            if record["winner"] is None:
                assert nxt["vueltas"] and nxt["carry"] == record["totals"]
                seen_vueltas = True
            elif nxt is not None:
                assert not nxt["vueltas"] and nxt["carry"] == [0, 0]
            if record["claim"] is not None:
                seen_claim = True
                assert record["claim"]["right"]               # the CPU claims exactly when right
                assert record["totals"][record["claim"]["pair"]] > 100
                assert record["ultimas"] is None
    assert seen_vueltas and seen_claim


def test_scenario_10_wrong_claim_loses():
    match = GuinoteMatch(GuinoteOptions(), 5)
    match.vueltas, match.carry = True, (90, 60)
    play_until(match, lambda m: m.window_pair == 0)
    assert match.window_pair == 0
    total = match._total(0)
    seat = 0 if Claim() in match.legal_moves(0) else 2
    match.apply(Claim(), seat)
    end = next(r for r in reversed(match.log) if r["type"] == "hand_end")
    assert end["claim"] == {"pair": 0, "right": total > 100}
    assert end["winner"] == (0 if total > 100 else 1)


def test_auto_vueltas_end():
    match = GuinoteMatch(GuinoteOptions(vueltas_end="auto"), 5)
    match.vueltas, match.carry = True, (99, 60)
    assert Claim() not in match.legal_moves()
    play_until(match, lambda m: m.hand > 1)
    end = next(r for r in match.log if r["type"] == "hand_end")
    assert end["claim"] is None
    assert end["winner"] is not None and end["totals"][end["winner"]] > 100


def test_cotos_and_match_end():
    from cardtable import games
    from cardtable.sim import next_cpu_move

    spec = games.get("guinote")
    bot = spec.bot("easy")
    match = spec.new_match(GuinoteOptions(cotos=1), 9)
    while not match.is_over():
        seat, move = next_cpu_move(match, lambda s: bot)
        match.apply(move, seat)
    end = match.log[-1]
    assert end["type"] == "match_end" and end["cotos"][end["winner"]] == 1
    ends = [r for r in match.log if r["type"] == "hand_end"]
    assert ends[-1]["score"][end["winner"]] == 3


def test_next_dealer_is_the_last_trick_winner():
    match = GuinoteMatch(GuinoteOptions(), 2)
    play_until(match, lambda m: m.hand == 2)
    assert match.dealer == match.log[-1]["dealer"]
    ends = [i for i, r in enumerate(match.log) if r["type"] == "hand_end"]
    moves = [r for r in match.log[: ends[0]] if r["type"] == "move" and "play" in r["move"]]
    last_trick = moves[-4:]
    from cardtable.cards import parse_spanish_card as p

    plays_ = tuple((r["seat"], p(r["move"]["play"])) for r in last_trick)
    trump = match.log[0]["pinta"][-1]
    # An exchange changes nothing about the suit of trumps.
    assert match.dealer == plays_[rules.winner_index(plays_, trump)][0]


@pytest.mark.parametrize("data", [{"play": "8O"}, {"cante": "X"}, {"claim": False}, {"exchange": 7},
                                  {"pass": True}, [], None])
def test_bad_move_encodings(data):
    with pytest.raises(MoveError):
        decode_move(data)


def test_move_encodings():
    assert decode_move({"play": "12E"}) == Play(parse_spanish_card("12E"))
    assert Cante("O").to_json() == {"cante": "O"} and Claim().to_json() == {"claim": True}
    assert decode_move({"exchange": "7B"}).to_json() == {"exchange": "7B"}
    assert partner(1) == 3


def test_hand_reasons():
    base = {"claim": None, "winner": 0, "totals": [105, 85], "points": [85, 45], "ultimas": 0}
    assert rules.hand_reason(base) == "over_100"
    assert rules.hand_reason({**base, "totals": [120, 110], "points": [60, 70], "ultimas": 1, "winner": 1}) == "ultimas"
    thirty = {**base, "totals": [105, 150], "points": [25, 105], "winner": 1}
    assert rules.hand_reason(thirty) == "thirty"
    assert rules.hand_reason({**thirty, "winner": 0}, vueltas=True) == "ultimas"
    assert rules.hand_reason({**base, "winner": None, "totals": [90, 60]}) == "vueltas"
    assert rules.hand_reason({**base, "claim": {"pair": 0, "right": False}, "winner": 1}) == "claim_wrong"
    assert rules.hand_reason({**base, "claim": {"pair": 0, "right": True}}) == "claim_right"
