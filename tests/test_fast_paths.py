"""The engines' fast paths agree with their checked paths.

- A move taken from ``legal_moves()`` is applied without re-validation (the trusted path); every such
  move must also pass full validation, and replaying the same moves decoded from their JSON (the checked
  path, as a save or a history does) must land on the same log and state.
- The hand history's move records are built only when the log is read; ``events`` (the deal, hand_end
  and match_end records) must be exactly the log without its moves.
- Guandan: the generator's plays carry their form and build their cards only when asked; the cards must
  read as that form (by the classifier) and beat the play on the table.

Seeded loops over thousands of random states per game (quick: a few seconds in all).
"""

from __future__ import annotations

import pytest

from cardtable import games
from cardtable.engine import IllegalMove
from cardtable.rng import Rng


def _random_match(game: str, seed: int, check, max_moves: int = 10_000):
    """Play uniformly random legal moves (the seat to move), calling ``check(match, moves, move)``
    before each apply. Returns the match and the number of states visited."""
    spec = games.get(game)
    match = spec.new_match(seed=seed)
    rng = Rng(seed ^ 0x5EED)
    states = 0
    while match.to_move() is not None and states < max_moves:
        moves = match.legal_moves()
        assert moves, "a seat to move always has a legal move"
        move = moves[rng.below(len(moves))]
        check(match, moves, move)
        match.apply(move)
        states += 1
    return match, states


def _replay_decoded(match):
    """The checked path: the same moves, decoded from their JSON, applied to a fresh match."""
    moves = [(seat, match.decode_move(move.to_json())) for seat, move in match.moves]
    return type(match).replay(match.options, match.seed, moves)


@pytest.mark.parametrize("game,seeds", [("guandan", (1, 2)), ("gongzhu", range(1, 14)),
                                        ("guinote", (1, 2, 3))])
def test_trusted_moves_pass_full_validation_and_replay_the_same(game, seeds):
    total = 0

    def check(match, moves, move):
        assert match.why_illegal(move) is None

    for seed in seeds:
        match, states = _random_match(game, seed, check)
        total += states
        replayed = _replay_decoded(match)
        assert replayed.log == match.log
        assert replayed.events == match.events
        assert replayed.to_move() == match.to_move()
        seat = match.to_move() if match.to_move() is not None else 0
        assert replayed.view(seat) == match.view(seat)
    assert total >= 1000


@pytest.mark.parametrize("game", ["guandan", "gongzhu", "guinote"])
def test_events_are_the_log_without_its_moves(game):
    match, _ = _random_match(game, 7, lambda *_: None, max_moves=600)
    events = list(match.events)
    assert events == [r for r in match.log if r["type"] != "move"]
    moves = [r for r in match.log if r["type"] == "move"]
    # every move but the ones the history does not write (Guiñote's declined exchange)
    assert [(r["seat"], r["move"]) for r in moves] == [(s, m.to_json()) for s, m in match.moves
                                                        if not match.silent(m)]
    # the log keeps growing in order after it has been read once
    for _ in range(40):
        if match.to_move() is None:
            break
        match.apply(match.legal_moves()[0])
    assert [r for r in match.log if r["type"] != "move"] == match.events
    assert len([r for r in match.log if r["type"] == "move"]) == len([m for _, m in match.moves
                                                                      if not match.silent(m)])


@pytest.mark.parametrize("game", ["guandan", "gongzhu", "guinote"])
def test_trust_ends_when_the_state_changes(game):
    """A move from an older legal list is validated again (it may no longer be legal)."""
    spec = games.get(game)
    refused = 0
    for seed in range(1, 30):
        match = spec.new_match(seed=seed)
        for _ in range(12):
            if match.to_move() is None:
                break
            stale = match.legal_moves()
            match.apply(stale[0])
            if match.to_move() is None:
                break
            for move in stale:
                if match.why_illegal(move) is not None:
                    clone = match.clone()
                    with pytest.raises(IllegalMove):
                        clone.apply(move)
                    refused += 1
                    break
    assert refused > 0


def test_a_copy_of_the_legal_list_trusts_nothing_new():
    """Editing the list legal_moves() returned cannot smuggle a move past validation."""
    from cardtable.games.gongzhu.state import Play

    spec = games.get("gongzhu")
    match = spec.new_match(seed=3)
    while match.phase == "show":
        match.apply(match.legal_moves()[0])
    moves = match.legal_moves()
    seat = match.to_move()
    outsider = next(Play(c) for c in match.hands[(seat + 1) % 4])
    moves.append(outsider)
    with pytest.raises(IllegalMove):
        match.apply(outsider)


def test_guandan_offered_plays_read_as_their_form_and_beat_the_table():
    from cardtable.games.guandan import rules
    from cardtable.games.guandan.state import Play

    checked = 0

    def check(match, moves, move):
        nonlocal checked
        top = match.top.combo if match.top else None
        for play in moves:
            if not isinstance(play, Play):
                continue
            combo = rules.reading(play.cards, play, match.level, match.options.straight_flush_as_straight)
            assert (combo.type, combo.key, combo.size) == (play.type, play.key, play.size)
            assert rules.beats(combo, top, match.level)
            checked += 1

    for seed in (3, 4):
        match, _ = _random_match("guandan", seed, check, max_moves=700)
        if match.top is not None:     # the table's reading is the classifier's
            assert match.top.combo in rules.classify(match.top.cards, match.level,
                                                     match.options.straight_flush_as_straight)
    assert checked >= 2000


def test_guandan_plays_compare_and_hash_by_value():
    from cardtable.cards import parse_card
    from cardtable.games.guandan.state import Play

    spec = games.get("guandan")
    match = spec.new_match(seed=5)
    offered = next(m for m in match.legal_moves() if isinstance(m, Play) and m.type == "pair")
    built = Play(tuple(reversed(offered.cards)), offered.type, offered.key)
    assert offered == built and hash(offered) == hash(built)
    assert built.cards == tuple(sorted(built.cards))
    with pytest.raises(AttributeError):
        offered.type = "single"
    assert Play((parse_card("5S"),), "single", 5) != Play((parse_card("5D"),), "single", 5)


@pytest.mark.parametrize("game", ["gongzhu", "guinote"])
def test_sim_in_processes_is_the_same_as_in_one(game):
    import io

    from cardtable import sim

    spec = games.get(game)
    players = ["normal", "easy", "easy", "normal"]
    outs = []
    for jobs in (1, 2):
        buffer = io.StringIO()
        result = sim.run(spec, spec.options_type(), 2, 40, players, buffer, legal=True, rotate=True, jobs=jobs)
        outs.append((buffer.getvalue(), result.matches, result.hands, result.moves,
                     {k: (v.n, v.total, v.squares) for k, v in result.by_level.items()}, result.wins_by_level))
    assert outs[0] == outs[1]
    seatings = len(sim.rotations(spec, players, True))
    assert outs[0][1] == 2 * seatings and outs[0][0].count('"type":"match"') == 2 * seatings


@pytest.mark.parametrize("game", ["guandan", "gongzhu", "guinote"])
def test_views_hold_every_field_as_their_dataclass_would(game):
    """Views may be built without the dataclass __init__ (views.fast_view): each must still hold every
    field, and equal the same view built the ordinary way."""
    import dataclasses

    seen = 0

    def check(match, moves, move):
        nonlocal seen
        if seen < 300:
            for seat in range(4):
                view = match.view(seat)
                names = {f.name for f in dataclasses.fields(view)}
                assert names <= set(vars(view)) | {n for n in names if hasattr(type(view), n)}
                assert dataclasses.replace(view) == view
            seen += 1

    _random_match(game, 11, check, max_moves=300)
    assert seen >= 100
