"""The engine contract (docs/design.md), checked the same way for every registered game, present and
future: random play to the end, refusals that change nothing, views whose ``legal`` is the rules' list,
independent clones, replay equal to the log, bots that decide from their view alone, and the hand
history round trip. A new game passes this file before it reaches the table.

The checks use the public contract only (``to_move``, ``optional_movers``, ``legal_moves``, ``apply``,
``why_illegal``, ``view``, ``clone``, ``redeal_hidden``, ``from_view``, ``replay``, ``log``, ``moves``).
"""

from __future__ import annotations

import dataclasses
import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardtable import games
from cardtable.engine import IllegalMove, Match
from cardtable.history import HistoryWriter, read_records, replay, split_matches
from cardtable.rng import Rng

SPECS = games.games()
NAMES = list(SPECS)
SEEDS = st.integers(0, 2 ** 64 - 1)
# A whole match is a few hundred to a few thousand moves: fewer examples than the other properties.
WHOLE_MATCHES = max(3, settings.default.max_examples // 10)


def checked_levels(spec):
    """The CPU levels whose decisions are checked: all of them in the soak profile; in the quick one all
    but `expert`, which is `hard`'s search with four times the rollouts (seconds a decision)."""
    if settings.default.max_examples >= 200:
        return list(spec.bots)
    return [level for level in spec.bots if level != "expert"]


def movers(match: Match) -> list[int]:
    """Every seat that may move now: the seat to move first, then any optional movers."""
    seat = match.to_move()
    if seat is None:
        return []
    return [seat] + [s for s in match.optional_movers() if s != seat]


def random_step(match: Match, rng: Rng) -> tuple[int, object]:
    """A random legal (seat, move): mostly the seat to move, sometimes an optional mover."""
    seats = movers(match)
    seat = seats[0] if len(seats) == 1 or rng.below(3) else rng.choice(seats[1:])
    legal = match.legal_moves(seat)
    assert legal, f"seat {seat} may move but has no legal move"
    return seat, rng.choice(legal)


def random_position(name: str, seed: int, steps: int, rng: Rng) -> Match:
    match = SPECS[name].new_match(seed=seed)
    for _ in range(steps):
        if match.is_over():
            break
        seat, move = random_step(match, rng)
        match.apply(move, seat)
    return match


def fingerprint(match: Match) -> tuple:
    """Everything the contract lets anyone observe of a match."""
    return (list(match.log), list(match.moves), match.to_move(), match.optional_movers(),
            [match.view(s) for s in range(4)], [match.legal_moves(s) for s in range(4)])


def check_results(spec, match: Match):
    """``outcome()`` and ``returns()`` are small per-seat values; partners share them."""
    outcome = match.outcome()
    returns = match.returns()
    assert outcome.over == match.is_over() and len(outcome.totals) == len(returns) == 4
    assert set(outcome.winners) <= {0, 1, 2, 3} and (outcome.winners == ()) != outcome.over
    assert all(isinstance(r, float) for r in returns)
    if spec.partnerships:
        assert returns[0] == returns[2] and returns[1] == returns[3]
        assert outcome.totals[0] == outcome.totals[2] and outcome.totals[1] == outcome.totals[3]
        assert outcome.winners in ((), (0, 2), (1, 3))
    return outcome


# ---------------------------------------------------------------- random play to the end
@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=WHOLE_MATCHES)
@given(seed=SEEDS, choices=SEEDS)
def test_random_play_reaches_the_end_and_the_history_replays(name, seed, choices):
    spec = SPECS[name]
    rng = Rng(choices)
    match = spec.new_match(seed=seed)
    out = io.StringIO()
    writer = HistoryWriter(out, match, ["cpu:random"] * 4, legal=True)
    hand_of_move = []                     # match.hand as each move was applied
    while not match.is_over():
        assert len(match.moves) < 20_000, "the match does not end"
        seat, move = random_step(match, rng)
        legal = match.legal_moves(seat)
        assert match.view(seat).legal == tuple(legal)
        assert len(set(legal)) == len(legal), "a legal move listed twice"
        bystander = rng.below(4)
        if bystander not in movers(match):
            assert match.legal_moves(bystander) == [] and match.view(bystander).legal == ()
        assert spec.match_type.decode_move(move.to_json()) == move
        assert spec.match_type.parse_move(str(move)) == move
        start = len(match.log)
        hand_of_move.append(match.hand)
        writer.apply(move, seat)
        if any(r["type"] == "hand_end" for r in match.log[start:]):
            check_results(spec, match)
    # Over: nobody moves, nothing is legal, and any move is refused.
    assert match.to_move() is None and match.optional_movers() == []
    assert all(match.legal_moves(s) == [] and match.view(s).legal == () for s in range(4))
    last_seat, last_move = match.moves[-1]
    refusal = match.why_illegal(last_move, last_seat)
    assert refusal is not None and refusal.key == "match_is_over"
    assert match.log[-1]["type"] == "match_end"
    outcome = check_results(spec, match)
    assert outcome.over and outcome.winners
    # The log's move lines are the moves but the silent ones, each in the hand it was made in, which is
    # the hand of the deal line before it.
    hand = None
    lines = []
    for record in match.log:
        if record["type"] == "deal":
            hand = record["hand"]
        elif record["type"] == "move":
            assert record["hand"] == hand
            lines.append((record["hand"], record["seat"], record["move"]))
    assert lines == [(h, s, m.to_json()) for h, (s, m) in zip(hand_of_move, match.moves) if not match.silent(m)]
    # Replay from the seed equals the log, and the written history round-trips.
    again = spec.match_type.replay(match.options, match.seed, match.moves)
    assert fingerprint(again) == fingerprint(match)
    [records] = list(split_matches(read_records(out.getvalue().splitlines())))
    assert records[0]["game"] == name and records[0]["seed"] == seed
    assert replay(records).log == match.log
    assert [r for r in records[1:] if r["type"] != "move"] == [r for r in match.log if r["type"] != "move"]


# ---------------------------------------------------------------- refusals
@pytest.mark.parametrize("name", NAMES)
@given(seed=SEEDS, choices=SEEDS, steps=st.integers(0, 250))
def test_a_move_is_accepted_exactly_when_legal_and_a_refusal_changes_nothing(name, seed, choices, steps):
    """Every legal move is accepted; a move is accepted only if it is listed (or, for a game that lists
    its moves by form, its form is: ``legal_entry``); a refusal raises IllegalMove with a reason and
    an i18n key, the same one ``why_illegal`` gives, and leaves the match exactly as it was."""
    rng = Rng(choices)
    match = SPECS[name].new_match(seed=seed)
    seen: list = []          # moves that were legal somewhere on the way: candidates to refuse now
    for _ in range(steps):
        if match.is_over():
            break
        seat, move = random_step(match, rng)
        seen.extend(match.legal_moves(seat))
        match.apply(move, seat)
    rng.shuffle(seen)
    may_move = movers(match)
    before = fingerprint(match)
    for seat in range(4):
        legal = match.legal_moves(seat)
        if seat not in may_move:
            assert legal == []
        # A silent move (Guiñote's declined exchange) has no history line, so no entry either.
        assert match.history_legal(seat) == [match.legal_entry(m) for m in legal if not match.silent(m)]
        entries = {repr(match.legal_entry(m)) for m in legal}
        quick = (len(match.log), list(match.moves), match.view(seat))
        for move in list(dict.fromkeys(legal + seen[:40])):
            refusal = match.why_illegal(move, seat)
            if move in legal:
                assert refusal is None, (seat, move, refusal)
                continue
            if refusal is None:
                assert repr(match.legal_entry(move)) in entries, f"{move} accepted for seat {seat} but not listed"
                continue
            assert refusal.reason and refusal.key
            with pytest.raises(IllegalMove) as caught:
                match.apply(move, seat)
            assert caught.value.key == refusal.key
            assert (len(match.log), match.moves, match.view(seat)) == quick, f"refusing {move} changed the match"
    assert fingerprint(match) == before, "a refusal changed the match"
    if may_move:
        seat, move = random_step(match, rng)
        match.apply(move, seat)      # the match still plays on after all those refusals
        assert len(match.moves) == len(before[1]) + 1


# ---------------------------------------------------------------- clones, replay, undo
@pytest.mark.parametrize("name", NAMES)
@given(seed=SEEDS, choices=SEEDS, steps=st.integers(0, 250))
def test_clones_are_independent_and_replay_and_undo_agree(name, seed, choices, steps):
    rng = Rng(choices)
    match = random_position(name, seed, steps, rng)
    twin = match.clone()
    assert fingerprint(twin) == fingerprint(match)
    before = fingerprint(match)
    for _ in range(12):
        if twin.is_over():
            break
        seat, move = random_step(twin, rng)
        twin.apply(move, seat)
    assert fingerprint(match) == before, "playing on a clone changed the original"
    twin_state = fingerprint(twin)
    for _ in range(12):
        if match.is_over():
            break
        seat, move = random_step(match, rng)
        match.apply(move, seat)
    assert fingerprint(twin) == twin_state, "playing on the original changed its clone"
    again = type(match).replay(match.options, match.seed, match.moves)
    assert fingerprint(again) == fingerprint(match)
    if match.moves:
        undone = match.undone()
        assert undone.moves == match.moves[:-1]
        assert fingerprint(undone) == fingerprint(type(match).replay(match.options, match.seed, match.moves[:-1]))
        assert undone.why_illegal(match.moves[-1][1], match.moves[-1][0]) is None


# ---------------------------------------------------------------- bots see only their view
@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=WHOLE_MATCHES)      # the search levels take a while per decision
@given(seed=SEEDS, choices=SEEDS, steps=st.integers(0, 250))
def test_a_bot_decides_the_same_in_every_world_its_view_allows(name, seed, choices, steps):
    """Deal the cards a seat cannot see again, consistently with its view (the game's sampler, built on
    ``sampling.deal_hidden``): its view is equal and every CPU level decides the same; the world is a
    legal position that plays on; and it does differ from the real deal when anything is hidden."""
    spec = SPECS[name]
    rng = Rng(choices)
    match = random_position(name, seed, steps, rng)
    if match.is_over():
        return
    differs = 0
    before = fingerprint(match)
    for seat in movers(match):
        view = match.view(seat)
        decisions = {level: spec.bot(level).choose(view) for level in checked_levels(spec)}
        for _ in range(3):
            world = match.redeal_hidden(seat, rng)
            assert world.view(seat) == view
            for level, decision in decisions.items():
                assert spec.bot(level).choose(world.view(seat)) == decision, level
            differs += any(world.view(s).hand != match.view(s).hand for s in range(4) if s != seat)
            for _ in range(8):
                if world.is_over():
                    break
                world_seat, world_move = random_step(world, rng)
                world.apply(world_move, world_seat)
    assert fingerprint(match) == before, "sampling a world changed the match"
    hidden = sum(len(match.view(s).hand) for s in range(4) if s != movers(match)[0])
    if hidden >= 12:          # with that many hidden cards, six redeals cannot all repeat the deal
        assert differs, "redeal_hidden never changed the hidden cards"


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=WHOLE_MATCHES)
@given(seed=SEEDS, choices=SEEDS, steps=st.integers(0, 250))
def test_the_worlds_the_search_plays_out_are_built_from_the_view_alone(name, seed, choices, steps):
    """``from_view`` (the world every search level plays out: ``games/<game>/search.world``) builds a
    match from a seat's view and the sampler alone: its view of that seat is the view (but for
    ``decision``: a world has no seed nor moves), and it is a legal position that plays on."""
    rng = Rng(choices)
    match = random_position(name, seed, steps, rng)
    if match.is_over():
        return
    before = fingerprint(match)
    for seat in movers(match):
        view = match.view(seat)
        for _ in range(2):
            try:
                world = type(match).from_view(view, rng)
            except ValueError:          # a position no search plays out (see from_view)
                continue
            assert dataclasses.replace(world.view(seat), decision=view.decision) == view
            # The seat's own turn and optional moves are the view's; another seat's optional moves hang on
            # its hidden cards (Guiñote's partner may hold a cante in one world and not in another).
            assert world.to_move() == match.to_move()
            assert (seat in world.optional_movers()) == (seat in match.optional_movers())
            for _ in range(12):
                if world.is_over():
                    break
                world_seat, world_move = random_step(world, rng)
                world.apply(world_move, world_seat)
    assert fingerprint(match) == before, "building a world changed the match"


@pytest.mark.parametrize("name", NAMES)
def test_reveals_says_which_moves_show_more_than_a_play(name):
    """``reveals(move)``: a bool for every legal move, true for none of the plays and passes, and what
    ``cardtable.undo`` has read from a move's JSON keys so far (its floor keeps such moves)."""
    from cardtable.undo import _plain

    rng = Rng(33)
    for seed in (1, 2):
        match = SPECS[name].new_match(seed=seed)
        while not match.is_over() and len(match.moves) < 600:
            for seat in movers(match):
                for move in match.legal_moves(seat):
                    assert match.reveals(move) is (not _plain(move)), move
            seat, move = random_step(match, rng)
            match.apply(move, seat)


@pytest.mark.parametrize("name", NAMES)
def test_a_held_deal_leaves_the_finished_hand_on_the_table_until_deal_next(name):
    """With ``hold_deals``, a hand's end (not the match's) is «hand over, next deal pending»: nobody to
    move, no legal move, any move refused with its key, the views still showing the hand just finished,
    not over; ``deal_next()`` then goes on exactly as a match that never held its deal."""
    rng = Rng(44)
    spec = SPECS[name]
    held = spec.new_match(seed=5)
    held.hold_deals = True
    plain = spec.new_match(seed=5)
    hands_held = 0
    while not plain.is_over() and hands_held < 3:
        seat, move = random_step(plain, rng)
        plain.apply(move, seat)
        held.apply(move, seat)
        if held.hand_over:
            hands_held += 1
            assert held.phase == "hand_over" and held.to_move() is None and not held.is_over()
            assert held.optional_movers() == [] and all(held.legal_moves(s) == [] for s in range(4))
            assert held.log[-1]["type"] == "hand_end" and held.hand == plain.hand - 1
            assert all(held.view(s).legal == () for s in range(4))
            before = fingerprint(held)
            refusal = held.why_illegal(move, seat)
            assert refusal is not None and refusal.key == "hand_over_deal_pending"
            with pytest.raises(IllegalMove):
                held.apply(move, seat)
            assert fingerprint(held) == before
            held.deal_next()
            assert not held.hand_over
        assert fingerprint(held) == fingerprint(plain)
    assert hands_held >= 1
    with pytest.raises(ValueError):
        held.deal_next()


def test_the_registry_lists_every_game():
    assert NAMES == ["guandan", "gongzhu", "guinote"]
    for spec in SPECS.values():
        assert spec.bots, f"{spec.name} has no CPU level"
