import pytest

from cardtable import games
from cardtable.engine import IllegalMove, OptionError, check_seed
from cardtable.games.gongzhu.state import GongZhuOptions


def test_options_from_strings_and_validation():
    opts = GongZhuOptions.from_strings(["target=1000", "swap=off", "showing=no"])
    assert (opts.target, opts.swap, opts.showing) == (1000, False, False)
    with pytest.raises(OptionError, match="unknown option 'nope'"):
        GongZhuOptions.from_strings(["nope=1"])
    with pytest.raises(OptionError, match="must be one of"):
        GongZhuOptions(target=700)
    with pytest.raises(OptionError, match="on/off"):
        GongZhuOptions.from_strings(["swap=maybe"])
    with pytest.raises(OptionError, match="key=value"):
        GongZhuOptions.from_strings(["swap"])
    with pytest.raises(OptionError):
        GongZhuOptions.from_dict({"target": True})
    assert GongZhuOptions.from_dict(opts.to_dict()) == opts


@pytest.mark.parametrize("bad", ["-1", "abc", "1e3", 2 ** 64, True])
def test_bad_game_numbers(bad):
    with pytest.raises(OptionError):
        check_seed(bad)


def test_illegal_move_leaves_state_unchanged():
    spec = games.get("gongzhu")
    match = spec.new_match(seed=11)
    before = (match.view(0), len(match.moves), list(match.log))
    legal = match.legal_moves()
    illegal = next(m for m in [spec.match_type.decode_move({"play": "2C"})] if m not in legal)
    with pytest.raises(IllegalMove):
        match.apply(illegal)
    assert (match.view(0), len(match.moves), list(match.log)) == before


def test_undo_replays_to_the_earlier_state():
    spec = games.get("gongzhu")
    match = spec.new_match(seed=4)
    bot = spec.bot("normal")
    states = []
    for _ in range(12):
        states.append(match.view(match.to_move()))
        match.apply(bot.choose(match.view(match.to_move())))
    back = match.undone(5)
    assert back.view(states[7].seat) == states[7]


def test_registry_errors_are_clear():
    with pytest.raises(KeyError, match="unknown game"):
        games.get("poker")
    with pytest.raises(ValueError, match="unknown CPU level"):
        games.get("gongzhu").bot("godlike")
