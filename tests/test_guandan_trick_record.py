"""The view keeps the last closed trick and its winner (for «who won it» and the `l` review)."""

from cardtable.games.guandan.bots import NormalBot
from cardtable.games.guandan.state import GuandanMatch, GuandanOptions, Pass, Play
from cardtable.tricks import partner


def test_last_trick_and_winner_follow_the_play():
    match = GuandanMatch(GuandanOptions(), 11)
    bot = NormalBot()
    closed = 0
    for _ in range(400):
        seat = match.to_move()
        if seat is None or match.hand > 1:
            break
        before = match.view(seat)
        match.apply(bot.choose(match.view(seat)), seat)
        after = match.view(0)
        if match.hand > 1:
            break
        if after.top is None and after.phase == "play" and before.top is not None:
            closed += 1
            trick = after.last_trick
            plays = [(s, m) for s, m in trick if isinstance(m, Play)]
            assert trick == before.trick + ((seat, trick[-1][1]),)
            assert isinstance(trick[-1][1], Pass) and plays
            assert after.last_winner == plays[-1][0]
            leader = after.last_winner if after.counts[after.last_winner] else partner(after.last_winner)
            assert match.to_move() == leader and after.trick == ()
    assert closed >= 5
