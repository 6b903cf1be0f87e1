"""Match.outcome() and Match.returns(): the small values sim, statistics and searches read, checked
against each game's own match_end and hand_end records."""

from __future__ import annotations

import pytest

from cardtable import games, sim
from cardtable.engine import Outcome
from cardtable.sim import next_cpu_move

RISE = {1: 3, 2: 2, 3: 1}     # Guandan: the partner's place in the finish → levels up


def bot_match(name: str, seed: int, **options):
    spec = games.get(name)
    match = spec.new_match(spec.options_type(**options), seed)
    levels = ["easy", "normal"]        # whole matches: the search levels would take minutes
    bots = {level: spec.bot(level) for level in levels}
    checkpoints = []
    while not match.is_over():
        seat, move = next_cpu_move(match, lambda s: bots[levels[s % len(levels)]])
        start = len(match.log)
        match.apply(move, seat)
        if any(r["type"] == "hand_end" for r in match.log[start:]):
            checkpoints.append((sum(r["type"] == "hand_end" for r in match.log), match.returns()))
    return match, checkpoints


def test_before_the_end_nobody_has_won():
    for spec in games.games().values():
        match = spec.new_match(seed=3)
        outcome = match.outcome()
        assert outcome == Outcome(False, (), outcome.totals) and len(outcome.totals) == 4
        assert match.returns() == (0.0, 0.0, 0.0, 0.0)
        with pytest.raises(AttributeError):
            outcome.over = True     # a frozen value


@pytest.mark.parametrize("seed", [1, 2])
def test_gongzhu_outcome_and_returns_are_the_points(seed):
    match, checkpoints = bot_match("gongzhu", seed)
    end = match.log[-1]
    outcome = match.outcome()
    assert outcome.over and outcome.winners == tuple(end["winners"]) and outcome.totals == tuple(end["totals"])
    assert match.returns() == tuple(float(t) for t in end["totals"])
    hands = [r for r in match.log if r["type"] == "hand_end"]
    for count, returns in checkpoints:
        assert returns == tuple(float(sum(h["lines"][s]["hand"] for h in hands[:count])) for s in range(4))


@pytest.mark.parametrize("seed", [4, 11])
def test_guandan_outcome_is_the_levels_and_returns_the_signed_rises(seed):
    match, checkpoints = bot_match("guandan", seed)
    end = match.log[-1]
    outcome = match.outcome()
    team = end["winner_team"]
    assert outcome.over and outcome.winners == (team, team + 2)
    assert outcome.totals == tuple(match.levels[s % 2] for s in range(4)) and max(outcome.totals) == 14
    hands = [r for r in match.log if r["type"] == "hand_end"]
    expected = [0, 0]
    for count, record in enumerate(hands, 1):
        rise = RISE[record["finish"].index(record["finish"][0] ^ 2)]
        assert record["level_up"] <= rise
        expected[record["winner_team"]] += rise
        expected[1 - record["winner_team"]] -= rise
        assert checkpoints[count - 1] == (count, tuple(float(expected[s % 2]) for s in range(4)))
    assert match.returns() == tuple(float(expected[s % 2]) for s in range(4))


@pytest.mark.parametrize("seed", [1, 5])
def test_guinote_outcome_is_the_cotos_and_returns_the_hands_won(seed):
    match, checkpoints = bot_match("guinote", seed)
    end = match.log[-1]
    outcome = match.outcome()
    assert outcome.over and outcome.winners == (end["winner"], end["winner"] + 2)
    assert outcome.totals == tuple(end["cotos"][s % 2] for s in range(4))
    hands = [r for r in match.log if r["type"] == "hand_end"]
    won = [sum(1 for h in hands if h["winner"] == pair) for pair in (0, 1)]
    for count, returns in checkpoints:
        so_far = [sum(1 for h in hands[:count] if h["winner"] == pair) for pair in (0, 1)]
        assert returns == tuple(float(so_far[s % 2] - so_far[1 - s % 2]) for s in range(4))
    assert match.returns() == tuple(float(won[s % 2] - won[1 - s % 2]) for s in range(4))
    assert any(h["winner"] is None for h in hands) or sum(won) == len(hands)


def test_sim_counts_wins_from_the_outcome():
    spec = games.get("gongzhu")
    result = sim.run(spec, spec.options_type(max_hands=2), 4, 7, ["normal", "easy", "easy", "easy"])
    expected: dict[str, int] = {}
    for seed in range(7, 11):
        match = spec.new_match(spec.options_type(max_hands=2), seed)
        bots = [spec.bot("normal"), spec.bot("easy"), spec.bot("easy"), spec.bot("easy")]
        while not match.is_over():
            seat, move = next_cpu_move(match, lambda s, bots=bots: bots[s])
            match.apply(move, seat)
        for s in match.outcome().winners:
            level = "normal" if s == 0 else "easy"
            expected[level] = expected.get(level, 0) + 1
    assert result.wins_by_level == expected and sum(expected.values()) >= 4
