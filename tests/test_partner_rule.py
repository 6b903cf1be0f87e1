"""The partner rule (issue 35): at a table with a human, the human's CPU partner never beats a play of
the human, at every level, not even to go out; a hint never suggests beating the partner's play unless
the player asks for the next hint. The bot learns that its partner is human from the table's seating
(``GameSpec.bot(level, partner_human)``), never from the deal. Positions from the play test's deals."""

from collections import Counter

import pytest

from cardtable import games, search, workers
from cardtable.cards import guandan_deck
from cardtable.games.guandan import advice, rules
from cardtable.games.guandan.state import GuandanMatch, GuandanOptions, Pass, Play
from tests.guandan_helpers import C, play_of

GUANDAN = games.get("guandan")
SMALL = search.Budget(moves=240, min_playouts=4)
LEVELS = ("easy", "normal", "hard", "expert")


def late_position(hands, level=2):
    """A match in its play phase with these four hands and every other card already played (seat 0 to
    lead a fresh trick)."""
    match = GuandanMatch(GuandanOptions(), 1)
    match.level = level
    match.hands = [C(h) for h in hands]
    rest = Counter(guandan_deck()) - Counter(c for h in match.hands for c in h)
    match.played = sorted(rest.elements())
    match.plays = [(1, tuple(match.played))]
    match._sort()
    match.leader = match.turn = 0
    return match


def seed_99_first_trick():
    """Seed 99, trick 1: the human leads the pair of 7s, Right passes; Partner holds 8♠8♥8♣ (25 cards
    after the pair of 8s the play test saw)."""
    match = GuandanMatch(GuandanOptions(), 99)
    match.apply(play_of(match, "7S 7H"), 0)
    match.apply(Pass(), 1)
    return match


def seed_21_small_joker():
    """Seed 21's position: the human, holding 6♥7♥8♣9♣10♣ SJ BJ, leads 6♣; Right passes; Partner holds
    the small joker and could go out with it."""
    match = late_position(["6C 6H 7H 8C 9C 10C SJ BJ", "3D 4D 9D JH QS KH AS 2S",
                           "SJ", "4S 5C 7S 8S 9S JC QC AC"])
    match.apply(play_of(match, "6C"), 0)
    match.apply(Pass(), 1)
    return match


def bot(level, partner_human=True):
    made = GUANDAN.bot(level, partner_human)
    if level in ("hard", "expert"):                 # a small budget keeps the test quick
        made.budget = SMALL
    return made


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("position", [seed_99_first_trick, seed_21_small_joker])
def test_the_human_s_cpu_partner_never_beats_the_human_s_play(level, position):
    view = position().view(2)
    assert view.top is not None and view.top.seat == 0
    assert any(isinstance(m, Play) for m in view.legal)      # it could beat the play
    assert bot(level).choose(view) == Pass()


def test_between_cpu_partners_going_out_over_the_partner_still_wins():
    view = seed_21_small_joker().view(2)
    assert GUANDAN.bot("normal").choose(view) == play_of(view, "SJ")


def test_the_bot_learns_the_seating_from_the_table_not_the_deal():
    for level in LEVELS:
        assert GUANDAN.bot(level, partner_human=True).spare_partner is True
        assert GUANDAN.bot(level).spare_partner is False
    # A game without the rule makes the same bots either way.
    gongzhu = games.get("gongzhu")
    assert type(gongzhu.bot("hard", partner_human=True)) is type(gongzhu.bot("hard"))


def test_the_worker_builds_the_table_s_partner_bot():
    view = seed_21_small_joker().view(2)
    assert workers.decide("guandan", "normal", view, True) == Pass()
    assert workers.decide("guandan", "normal", view) == play_of(view, "SJ")


def test_the_table_seats_the_human_s_partner_with_the_rule():
    from cardtable.ui.seatlink import LocalSeat

    match = GUANDAN.new_match(seed=5)
    session = LocalSeat(GUANDAN, match, ["human", "cpu:hard", "cpu:hard", "cpu:hard"], "slot",
                        thinker=workers.Thinker(processes=False)).session
    bots = [session.thinker.bot("hard", session._partner_is_a_person(s)) for s in (1, 2, 3)]
    assert [bot.spare_partner for bot in bots] == [False, True, False]


def test_a_hint_spares_the_partner_unless_the_next_hint_is_asked():
    # The human's seat: Partner (seat 2) has played, Right (3) passed; the human could go out over it.
    match = late_position(["SJ", "4S 5C 7S 8S 9S JC QC AC", "6C 6H 7H 8C 9C 10C SJ BJ",
                           "3D 4D 9D JH QS KH AS 2S"])
    match.leader = match.turn = 2
    match.apply(play_of(match, "6C"), 2)
    match.apply(Pass(), 3)
    view = match.view(0)
    first = advice.hint(view, SMALL)
    assert first.move == Pass() and first.spared_partner
    assert workers.hint("guandan", view).move == Pass()
    following = advice.hint(view, SMALL, over_partner=True)
    assert following.move == play_of(view, "SJ") and not following.spared_partner
    # The checker does not call the pass a mistake.
    assert advice.check(view, Pass(), SMALL) is None


def test_a_hint_elsewhere_is_not_marked_as_sparing():
    match = late_position(["6C 6H 7H 8C 9C 10C SJ BJ", "3D 4D 9D JH QS KH AS 2S",
                           "SJ", "4S 5C 7S 8S 9S JC QC AC"])
    assert not advice.hint(match.view(0), SMALL).spared_partner



def partner_led_at_the_table(screen):
    """At a table: Partner (seat 2) leads its lowest single, Left (3) passes; the human to answer."""
    from cardtable.games.guandan.state import TopPlay

    match = screen.seat.match
    card = match.hands[2][0]
    match.hands[2].remove(card)
    lead = play_of(match, card.code)
    match.played, match.plays = [card], [(2, (card,))]
    match.top = TopPlay(2, (card,), rules.classify([card], match.level)[0])
    match.trick = [(2, lead), (3, Pass())]
    match.actions = [None, None, lead, Pass()]
    match.passed = {3}
    match.leader, match.turn = 2, 0
    screen._view = None
    screen.refresh_table()


async def test_at_the_table_h_again_asks_whether_to_beat_the_partner(tmp_path):
    from cardtable.i18n import t
    from tests.test_ui_guandan import launch, table
    from tests.ui_helpers import make_app, settle

    app = make_app(tmp_path, launch=launch())
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = table(app)
        partner_led_at_the_table(screen)
        await pilot.press("h")
        await settle(pilot)
        first = screen._hint[1]
        assert first.move == Pass() and first.spared_partner
        assert t("hint_next_over_partner") in str(screen.query_one("#advice").render())
        await pilot.press("h")
        for _ in range(200):
            await settle(pilot)
            if screen._hint[1] is not first:
                break
        assert not screen._hint[1].spared_partner and screen._hint[1].evaluation.playouts > 0


async def test_a_takes_the_hint_shown_not_the_next_one(tmp_path):
    from tests.test_ui_guandan import launch, table
    from tests.ui_helpers import make_app, settle

    app = make_app(tmp_path, launch=launch())
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = table(app)
        partner_led_at_the_table(screen)
        await pilot.press("h")
        await settle(pilot)
        first = screen._hint[1]
        assert first.spared_partner
        await pilot.press("a")
        await settle(pilot)
        assert screen._hint[1] is first and screen.columns.selection() == []
