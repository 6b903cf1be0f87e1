"""Hint reasons that are true: every reason a game's ``explain`` gives, for every legal play of many
positions from real play (normal and easy bots, first hands of seeded matches), is checked against the
position: a reason that says the trick is taken (or lost, or the partner's) holds in every way the
trick can still be played out, in the true deal and in other deals consistent with the view; a count of
points is the one on the table and is never 0 or negative where it reads as a gain; a trick the partner
is winning is named as the partner's; a forced move gets the forced reason and only it does; a reason
that says «may» has an unseen card to back it. And each reason is one short line in en, es and zh.

Play tests found «fallas: te llevas 0 puntos» and «takes the trick with J♣» when later players beat the
J♣; these tests fail on those reasons."""

from __future__ import annotations

import functools

import pytest
from rich.cells import cell_len

from cardtable import games, hints, i18n, sim
from cardtable.rng import Rng

MAX_CELLS = 64          # a reason's width at most, about 60 (the hint line adds «Hint: <card> — »)


# ---------------------------------------------------------------- positions and worlds
def positions(game: str, seeds, levels=("normal", "easy")):
    """(match, seat, view) at every decision of the first hand of each seeded match (bots of ``levels``
    in turn by seed), where the seat to move has more than one legal move, and the forced ones too."""
    spec = games.get(game)
    for seed in seeds:
        bot = spec.bot(levels[seed % len(levels)])
        match = spec.new_match(seed=seed)
        for _ in range(600):
            if match.is_over() or match.hand > 1:
                break
            seat = match.to_move()
            if seat is None:
                break
            view = match.view(seat)
            if view.to_move == seat:
                yield match.clone(), seat, view
            step = sim.next_cpu_move(match, lambda _, bot=bot: bot)
            match.apply(step[1], step[0])


def worlds(match, seat, n=2):
    """The true deal and ``n`` others that the seat's view cannot tell from it."""
    return [match] + [match.redeal_hidden(seat, Rng(1000 + k)) for k in range(n)]


def trick_winners(match, seat, move, is_play):
    """Every seat that can win the current trick once ``seat`` plays ``move``, over every legal way
    the later players can finish it (Gong Zhu and Guiñote)."""
    done = len(match.view(seat).tricks)
    first = match.clone()
    first.apply(move, seat)
    found = set()

    def walk(m):
        view = m.view(seat)
        if len(view.tricks) > done:
            found.add(view.winners[done])
            return
        mover = m.to_move()
        for step in m.legal_moves():
            if is_play(step):
                nxt = m.clone()
                nxt.apply(step, mover)
                walk(nxt)

    walk(first)
    return found


def rendered(reason, fmt, lang):
    i18n.set_language(lang)
    try:
        return hints.render(reason, fmt)
    finally:
        i18n.set_language("en")


def check_lines(reason, fmt):
    """The reason reads in every language, filled, on one short line."""
    for lang in i18n.LANGUAGES:
        text = rendered(reason, fmt, lang)
        assert text and "{" not in text and text != reason.key and "\n" not in text, (lang, reason)
        assert cell_len(text) <= MAX_CELLS, (lang, text)


# ---------------------------------------------------------------- Gong Zhu
GZ_TAKES = {"gz_why_take_clean", "gz_why_take_zero", "gz_why_take_plus", "gz_why_take_transformer",
            "gz_why_take_transformer_with", "gz_why_must_take_high", "gz_why_must_take", "gz_why_take_cost",
            "gz_why_take_minus", "gz_why_take_sure"}
GZ_LAST = GZ_TAKES - {"gz_why_take_sure"}            # «you play last» (or «you must take it»)


def gz_points(cards, shown):
    """The cards' points as scored (the Transformer apart): the score of a pile holding only them."""
    from cardtable.games.gongzhu import rules

    pile = [c for c in cards if c != rules.TRANSFORMER]
    return rules.score_taken(pile, shown, swap=False, zero_hearts_alone=True, someone_took_all_hearts=False).base


def gz_format(value):
    from cardtable.ui.cardart import card_label

    if type(value) is tuple:
        return " ".join(card_label(c) for c in value)
    return card_label(value)


@functools.cache
def gz_positions():
    return list(positions("gongzhu", range(1, 13)))


def test_gongzhu_reasons_hold_in_every_world():
    from cardtable.games.gongzhu import rules
    from cardtable.games.gongzhu.state import Play, Show

    seen = set()
    for match, seat, view in gz_positions():
        for move in view.legal:
            reason = games.get("gongzhu").advice.explain(view, move)
            key, params = reason.key, dict(reason.params)
            seen.add(key)
            check_lines(reason, gz_format)
            plays = [m for m in view.legal if isinstance(m, Play)]
            if isinstance(move, Show):
                assert key.startswith("gz_why_show"), key
                continue
            assert (key == "gz_why_forced") == (len(view.legal) == 1), (key, view.legal)
            card = move.card
            trick = [c for _, c in view.trick]
            top = view.trick[rules.trick_winner_index(view.trick)][1] if view.trick else None
            if key in GZ_TAKES:
                assert top is not None and card.suit == top.suit and card.rank > top.rank
                for world in worlds(match, seat):
                    assert trick_winners(world, seat, move, lambda m: isinstance(m, Play)) == {seat}, \
                        (key, view.trick, card)
            if key in GZ_LAST:
                assert len(view.trick) == 3
            if "points" in params:
                points = gz_points(trick + [card], view.all_shown)
                assert params["points"] == hints.signed(points), (key, trick, card)
                assert points != 0 or key in ("gz_why_must_take", "gz_why_must_take_high")
                if key == "gz_why_take_plus":
                    assert points > 0
                if key in ("gz_why_take_cost", "gz_why_take_minus", "gz_why_must_take", "gz_why_must_take_high"):
                    assert points <= 0
            if key in ("gz_why_must_take", "gz_why_must_take_high"):
                assert all(m.card.rank > top.rank for m in plays)
            if key == "gz_why_take_clean":
                assert not any(rules.is_point_card(c) for c in trick + [card])
            if key in ("gz_why_take_transformer", "gz_why_take_transformer_with"):
                assert rules.TRANSFORMER in trick + [card]
            if key in ("gz_why_over", "gz_why_over_low"):
                # «a higher card may still come»: one is unseen, and the play is over the top
                assert card.rank > top.rank and len(view.trick) < 3
                assert any(c.suit == card.suit and c.rank > card.rank for c in view.unseen)
            if key in ("gz_why_lead_pig_back", "gz_why_lead_goat_back"):
                assert not view.trick and card in (rules.PIG, rules.GOAT)
                for world in worlds(match, seat):
                    assert trick_winners(world, seat, move, lambda m: isinstance(m, Play)) == {seat}
            if key in ("gz_why_lead_pig", "gz_why_lead_goat"):
                assert any(c.suit == card.suit and c.rank > card.rank for c in view.unseen)
            if key == "gz_why_lead_master":
                assert not view.trick
                for world in worlds(match, seat):
                    others = [c for s in range(4) if s != seat for c in world.view(s).hand]
                    assert not any(c.suit == card.suit and c.rank > card.rank for c in others), card
            if key in ("gz_why_duck", "gz_why_duck_pig"):
                kept = params["card"]
                assert card.rank < top.rank < kept.rank and kept in view.hand
            if key in ("gz_why_under", "gz_why_pig_under"):
                assert card.suit == top.suit and card.rank < top.rank
            if key in ("gz_why_dump", "gz_why_dump_pig", "gz_why_dump_goat", "gz_why_discard"):
                assert card.suit != view.trick[0][1].suit
                assert not any(c.suit == view.trick[0][1].suit for c in view.hand)
            if key == "gz_why_lead_low":
                same = [c for c in view.hand if c.suit == card.suit]
                assert not view.trick and len(same) > 1 and card == min(same, key=lambda c: c.rank)
            if key == "gz_why_lead_void":
                assert not view.trick and [c for c in view.hand if c.suit == card.suit] == [card]
    assert {"gz_why_take_sure", "gz_why_over", "gz_why_take_clean", "gz_why_duck", "gz_why_forced"} <= seen, seen


def test_gongzhu_a_high_card_that_later_players_may_beat_is_not_said_to_take_the_trick():
    """The play test's case: J♣ played second to a club trick with ♣Q ♣K ♣A unseen: «takes the trick
    with J♣» was shown and the ♣J did not take it. The reason now says a higher club may still come."""
    from cardtable.cards import parse_card
    from cardtable.games.gongzhu.state import Play
    from tests.test_gongzhu_hint import view_for

    view = view_for("JC 3C 5H", trick=[(3, "9C")], played="")
    reason = games.get("gongzhu").advice.explain(view, Play(parse_card("JC")))
    assert reason.key == "gz_why_over"
    assert rendered(reason, gz_format, "en") == "goes over 9♣: a higher ♣ may still come"
    # With every higher club already played, nobody can beat it: that is said.
    view = view_for("JC 3C 5H", trick=[(3, "9C")], played="QC KC AC 2C")
    assert games.get("gongzhu").advice.explain(view, Play(parse_card("JC"))).key == "gz_why_take_sure"


@pytest.mark.parametrize("codes, key, en, es", [
    ("", "gz_why_show_none", "nothing is worth showing", "no merece la pena mostrar nada"),
    ("JD", "gz_why_show_one", "show J♦: it counts double for whoever takes it",
     "muestra J♦: cuenta doble para quien se la lleve"),
    ("QS JD", "gz_why_show", "show Q♠ J♦: they count double for whoever takes them",
     "muestra Q♠ J♦: cuentan doble para quien se las lleve"),
    ("AH", "gz_why_show_hearts", "show A♥: every heart counts double for whoever takes it",
     "muestra A♥: cada corazón cuenta doble para quien se lo lleve"),
    ("10C AH", "gz_why_show_hearts_too",
     "show 10♣ A♥: they and every heart count double when taken",
     "muestra 10♣ A♥: cuentan doble, y también cada corazón"),
])
def test_gongzhu_show_reasons_say_what_showing_does(codes, key, en, es):
    """One shown card «counts» (singular), several «count»; a shown ♥A doubles every heart (rules page)."""
    from cardtable.cards import parse_card
    from cardtable.games.gongzhu.state import Show

    view = games.get("gongzhu").new_match(seed=1).view(0)
    reason = games.get("gongzhu").advice.explain(view, Show(tuple(parse_card(c) for c in codes.split())))
    assert reason.key == key
    assert rendered(reason, gz_format, "en") == en
    assert rendered(reason, gz_format, "es") == es


# ---------------------------------------------------------------- Guiñote
GN_TAKES = {"gn_why_takes", "gn_why_takes_lead", "gn_why_sure", "gn_why_over_partner_lead", "gn_why_lead_sure"}
GN_PAIR = {"gn_why_pair_sure", "gn_why_over_partner_safe", "gn_why_load_safe", "gn_why_partner_safe",
           "gn_why_partner_plain_safe"}
GN_LOST = {"gn_why_lost", "gn_why_give", "gn_why_let_go", "gn_why_let_go_empty"}
GN_PARTNER = {"gn_why_over_partner_lead", "gn_why_over_partner_safe", "gn_why_over_partner", "gn_why_load_safe",
              "gn_why_load", "gn_why_partner_safe", "gn_why_partner", "gn_why_partner_plain_safe",
              "gn_why_partner_plain"}
GN_MAY = {"gn_why_open", "gn_why_over_partner"}


def gn_format(value):
    from cardtable.ui.guinote.text import the_card

    if type(value) is tuple:
        names = [the_card(c) for c in value]
        return names[0] if len(names) == 1 else i18n.t("list_and", first=", ".join(names[:-1]), last=names[-1])
    return the_card(value)


@functools.cache
def gn_positions():
    return list(positions("guinote", range(1, 16)))


def test_guinote_reasons_hold_in_every_world():
    from cardtable.games.guinote import rules
    from cardtable.games.guinote.state import Claim, Play
    from cardtable.tricks import team_of

    advice = games.get("guinote").advice
    seen = set()
    for match, seat, view in gn_positions():
        plays = [m for m in view.legal if isinstance(m, Play)]
        for move in view.legal:
            reason = advice.explain(view, move)
            key, params = reason.key, dict(reason.params)
            seen.add(key)
            check_lines(reason, gn_format)
            if isinstance(move, Claim):
                total = view.total(team_of(seat))
                assert params["points"] == total and (key == "gn_why_claim") == (total > rules.WIN_LINE)
            if not isinstance(move, Play):
                continue
            card = move.card
            assert (key == "gn_why_forced") == (len(plays) == 1), (key, plays)
            if key == "gn_why_forced":
                continue
            if view.trick:
                wseat, top = view.trick[rules.winner_index(view.trick, view.trump)]
                partner_wins = team_of(wseat) == team_of(seat)
                # A trick the partner is winning is always named so, and only then.
                assert (key in GN_PARTNER) == partner_wins, (key, view.trick, card)
                assert ("partner" in rendered(reason, gn_format, "en") or "your pair" in
                        rendered(reason, gn_format, "en")) or not partner_wins
            points = sum(rules.points(c) for _, c in view.trick) + rules.points(card)
            for name in ("points",):
                if name in params and key not in ("gn_why_cante",):
                    assert params[name] > 0, (key, params)      # never «takes 0 points»
            if key == "gn_why_takes":
                assert len(view.trick) == 3 and params["points"] == points
            if key == "gn_why_let_go":
                assert params["points"] == points
            if key in ("gn_why_load", "gn_why_load_safe", "gn_why_load_last"):
                assert params["points"] == rules.points(card)
            if key == "gn_why_takes_lead":
                assert len(view.trick) == 3 and points == 0
            if key in GN_TAKES | GN_PAIR | GN_LOST:
                for world in worlds(match, seat):
                    winners = trick_winners(world, seat, move, lambda m: isinstance(m, Play))
                    if key in GN_TAKES:
                        assert winners == {seat}, (key, view.trick, card, winners)
                    elif key in GN_PAIR:
                        assert {team_of(s) for s in winners} == {team_of(seat)}, (key, view.trick, card)
                    else:
                        assert team_of(seat) not in {team_of(s) for s in winners}, (key, view.trick, card)
            if key in GN_MAY:
                unseen = advice._unseen(view)
                assert any(rules.beats(c, card, view.trump) for c in unseen), (key, card)
            if key == "gn_why_lead_master":
                assert not view.trick
                for world in worlds(match, seat):
                    others = [c for s in range(4) if s != seat for c in world.view(s).hand]
                    assert not any(c.suit == card.suit and rules.strength(c) > rules.strength(card)
                                   for c in others), card
            if key == "gn_why_draw_trumps":
                assert view.arrastre and card.suit == view.trump
                assert all(c in view.hand and c.suit == view.trump for c in params["cards"])
            if key in ("gn_why_load_last", "gn_why_partner_last"):
                assert len(view.trick) == 1 and not rules.beats(card, top, view.trump)
            if key in ("gn_why_lost", "gn_why_give"):
                assert not any(rules.beats(m.card, top, view.trump) for m in plays)
            if key in ("gn_why_let_go", "gn_why_let_go_empty"):
                assert any(rules.beats(m.card, top, view.trump) for m in plays)
    assert {"gn_why_open", "gn_why_takes", "gn_why_lost", "gn_why_partner", "gn_why_lead_low"} <= seen, seen


def test_guinote_trumping_a_trick_of_no_points_does_not_read_as_a_gain():
    """«fallas: te llevas 0 puntos»: a trump on a trick with no points said it took 0 points. Found in
    real play: every trump-in on a trick without points, last to play, now reads «falla: gana la baza y
    la salida»; never a number of points."""
    from cardtable.games.guinote import rules
    from cardtable.games.guinote.state import Play

    advice = games.get("guinote").advice
    found = 0
    for _match, seat, view in gn_positions():
        if len(view.trick) != 3:
            continue
        wseat, top = view.trick[rules.winner_index(view.trick, view.trump)]
        for move in view.legal:
            if not isinstance(move, Play) or len([m for m in view.legal if isinstance(m, Play)]) < 2:
                continue
            card = move.card
            if (card.suit == view.trump and top.suit != view.trump and (wseat - seat) % 2
                    and sum(rules.points(c) for _, c in view.trick) + rules.points(card) == 0):
                reason = advice.explain(view, move)
                assert reason == hints.Reason.of("gn_why_takes_lead", how=hints.Reason.of("gn_how_trump_in"))
                assert rendered(reason, gn_format, "es") == "falla: gana la baza y la salida"
                found += 1
    assert found


# ---------------------------------------------------------------- Guandan
GD_SURE = {"gd_why_beat_sure", "gd_why_lead_sure", "gd_why_bomb_sure", "gd_why_over_partner_sure"}


@functools.cache
def gd_positions():
    return list(positions("guandan", range(1, 5)))


def nobody_answers(match, seat, move):
    """After ``move`` every other seat, in turn, has only Pass: the trick comes back to ``seat``."""
    from cardtable.games.guandan.state import Pass, Play

    m = match.clone()
    m.apply(move, seat)
    for _ in range(4):
        mover = m.to_move()
        if mover is None or mover == seat or m.view(seat).top is None:
            return True
        if any(isinstance(step, Play) for step in m.legal_moves()):
            return False
        m.apply(Pass(), mover)
    return True


def test_guandan_reasons_hold_in_every_world():
    from cardtable.games.guandan import rules
    from cardtable.games.guandan.state import Pass, Play
    from cardtable.tricks import team_of

    advice = games.get("guandan").advice
    seen = set()
    count = 0
    for match, seat, view in gd_positions():
        count += 1
        if count % 3:            # every third decision: Guandan offers dozens of plays at each
            continue
        plays = [m for m in view.legal if isinstance(m, Play)]
        for move in list(view.legal)[:25]:
            reason = advice.explain(view, move)
            key = reason.key
            seen.add(key)
            check_lines(reason, str)
            assert (key in ("gd_why_forced", "gd_why_forced_pass")) == (len(view.legal) == 1), (key, view.legal)
            if key == "gd_why_forced_pass":
                assert isinstance(move, Pass)
            if len(view.legal) == 1 or view.phase != "play":
                continue
            partner_top = view.top is not None and team_of(view.top.seat) == team_of(seat)
            if isinstance(move, Pass):
                assert (key == "gd_why_pass_partner") == partner_top
                if key == "gd_why_pass_bombs":
                    assert plays and all(m.type in rules.BOMB_TYPES for m in plays)
                continue
            if move.size == len(view.hand):
                assert key == "gd_why_out"
                continue
            # A play over the partner's says so.
            assert key.startswith("gd_why_over_partner") == partner_top, (key, view.top)
            if key in GD_SURE:
                for world in worlds(match, seat):
                    assert nobody_answers(world, seat, move), (key, move)
            if key in ("gd_why_bomb", "gd_why_bomb_sure"):
                assert move.type in rules.BOMB_TYPES
            if key == "gd_why_lead":          # «keeps your groups»: no group of the plan is split
                from collections import Counter

                from cardtable.games.guandan.bots import decompose

                def some_groups(left, groups):
                    if not left:
                        return True
                    return any(Counter(g) <= left and some_groups(left - Counter(g), groups[i + 1:])
                               for i, g in enumerate(groups))

                fits = [g for _, g in decompose(list(view.hand), view.level) if Counter(g) <= Counter(move.cards)]
                assert some_groups(Counter(move.cards), fits), move.cards
            if key == "gd_why_cheapest":
                plain = [p for p in plays if p.type not in rules.BOMB_TYPES]
                assert rules.strength(move, view.level) == min(rules.strength(p, view.level) for p in plain)
    assert {"gd_why_pass", "gd_why_cheapest", "gd_why_lead_plan", "gd_why_pass_partner"} <= seen, seen


# ---------------------------------------------------------------- every game
@pytest.mark.parametrize("game", ("gongzhu", "guinote", "guandan"))
def test_forced_moves_get_the_forced_reason(game):
    spec = games.get(game)
    cache = {"gongzhu": gz_positions, "guinote": gn_positions, "guandan": gd_positions}[game]
    forced = 0
    for _match, _seat, view in cache():
        if len(view.legal) == 1:
            forced += 1
            assert spec.advice.explain(view, view.legal[0]).key.endswith(("_why_forced", "_why_forced_pass")) or \
                view.legal[0].__class__.__name__ in ("KeepSeven", "Tribute", "Claim", "Show")
    assert forced
