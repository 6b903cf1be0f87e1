"""Guandan CPU players. They see a GuandanView only and never beat their partner's plays (source).

The partner rule has two strengths. The CPU partner of a human (made with ``spare_partner``: the
table's seating, given when the bot is made, never read from the deal) never beats a play of the human,
at any level, not even to go out; the hints follow the same rule. Between CPU partners it is a strong preference: `easy` always passes,
`normal` beats its partner only to go out, and the search (`hard`) overrides it only when its worlds
prove it clearly better."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from cardtable.cards import Card
from cardtable.engine import Bot
from cardtable.games.guandan import rules
from cardtable.games.guandan.rules import Combo
from cardtable.games.guandan.state import GuandanView, Pass, Play, Return, Tribute
from cardtable.tricks import partner, team_of


def _plays(view: GuandanView) -> list[Play]:
    return [m for m in view.legal if isinstance(m, Play)]


def _tribute_or_return(view: GuandanView):
    moves = list(view.legal)
    if moves and isinstance(moves[0], Tribute):
        return moves[0]
    if moves and isinstance(moves[0], Return):
        return recommended_return(view)
    return None


def recommended_return(view: GuandanView) -> Return:
    """The card a good player gives back: the lowest legal card that breaks no pair or group."""
    counts = Counter(c.rank for c in view.hand)
    returns = [m for m in view.legal if isinstance(m, Return)]
    return min(returns, key=lambda m: (counts[m.card.rank] > 1, rules.card_value(m.card, view.level), m.card.suit))


def over_partner(view: GuandanView) -> bool:
    """Is the play to beat the partner's (the seat's own pair owns the table)?"""
    return view.top is not None and team_of(view.top.seat) == team_of(view.seat)


def stopping_a_1_2(view: GuandanView) -> bool:
    """Is the seat to stop a 1-2: the first seat out is an opponent and the play on the table is its
    partner's (who goes out second unless this pair stops it)?"""
    return (bool(view.finish) and team_of(view.finish[0]) != team_of(view.seat) and view.top is not None
            and team_of(view.top.seat) != team_of(view.seat))


class EasyBot:
    """Plays the cheapest thing that works; bombs only when an opponent is about to go out."""

    level = "easy"

    def __init__(self, spare_partner: bool = False) -> None:
        self.spare_partner = spare_partner      # it never beats its partner's plays anyway

    def choose(self, view: GuandanView):
        special = _tribute_or_return(view)
        if special is not None:
            return special
        plays = _plays(view)
        if view.top is None:
            plain = [p for p in plays if p.type not in rules.BOMB_TYPES] or plays
            return min(plain, key=lambda p: (rules.strength(p, view.level), -p.size))
        if team_of(view.top.seat) == team_of(view.seat):
            return Pass()
        plain = [p for p in plays if p.type not in rules.BOMB_TYPES]
        if plain:
            return min(plain, key=lambda p: rules.strength(p, view.level))
        if plays and view.counts[view.top.seat] <= 3:
            return min(plays, key=lambda p: (rules.rung(p), p.size))
        return Pass()


# ---------------------------------------------------------------- the normal player
def decompose(hand: list[Card], level: int) -> list[tuple[str, list[Card]]]:
    """Split a hand into groups a good player would play: bombs, straights, plates, tubes, full houses,
    triples, pairs and singles, keeping the wilds for the end (they complete bombs when useful)."""
    wilds = [c for c in hand if rules.is_wild(c, level)]
    jokers = [c for c in hand if c.is_joker]
    by_rank: dict[int, list[Card]] = {}
    for card in hand:
        if not card.is_joker and not rules.is_wild(card, level):
            by_rank.setdefault(card.rank, []).append(card)
    groups: list[tuple[str, list[Card]]] = []
    joker_counts = Counter(c.rank for c in jokers)
    if joker_counts[15] == 2 and joker_counts[16] == 2:
        groups.append(("joker_bomb", jokers))
        jokers = []
    for rank in list(by_rank):
        if len(by_rank[rank]) >= 4:
            groups.append(("bomb", by_rank.pop(rank)))
    # a triple and a wild make a bomb
    for rank in sorted(by_rank, key=lambda r: -rules.value(r, level)):
        if wilds and len(by_rank[rank]) == 3:
            groups.append(("bomb", by_rank.pop(rank) + [wilds.pop()]))
    # straights over singles; a wild fills one gap when that turns at least four singles into a play
    while True:
        best = None
        for start in range(1, 11):
            window = [rules.ACE if p == 1 else p for p in range(start, start + 5)]
            gaps = [r for r in window if not by_rank.get(r)]
            singles = sum(1 for r in window if len(by_rank.get(r, [])) == 1)
            if not gaps and singles >= 3 or len(gaps) == 1 and wilds and singles >= 4:
                score = (singles, -len(gaps))
                if best is None or score > best[0]:
                    best = (score, window, gaps)
        if best is None:
            break
        cards = []
        for rank in best[1]:
            if rank in best[2]:
                cards.append(wilds.pop())
                continue
            cards.append(by_rank[rank].pop())
            if not by_rank[rank]:
                del by_rank[rank]
        groups.append(("straight", cards))
    # plates and tubes
    for length, width, kind in ((2, 3, "plate"), (3, 2, "tube")):
        for start in range(1, 16 - length):
            window = [rules.ACE if p == 1 else p for p in range(start, start + length)]
            if all(len(by_rank.get(r, [])) == width for r in window):
                cards = [c for r in window for c in by_rank.pop(r)]
                groups.append((kind, cards))
    triples = sorted((r for r in by_rank if len(by_rank[r]) == 3), key=lambda r: rules.value(r, level))
    pairs = sorted((r for r in by_rank if len(by_rank[r]) == 2), key=lambda r: rules.value(r, level))
    for rank in triples:
        cards = by_rank.pop(rank)
        if pairs and rules.value(pairs[0], level) < 14:
            pair = pairs.pop(0)
            groups.append(("full_house", cards + by_rank.pop(pair)))
        else:
            groups.append(("triple", cards))
    for rank in pairs:
        groups.append(("pair", by_rank.pop(rank)))
    for rank, cards in by_rank.items():
        for card in cards:
            groups.append(("single", [card]))
    joker_counts = Counter(c.rank for c in jokers)
    for rank, count in joker_counts.items():
        joker = next(c for c in jokers if c.rank == rank)
        groups.extend([("pair", [joker, joker])] if count == 2 else [("single", [joker])])
    for wild in wilds:
        groups.append(("single", [wild]))
    return groups


# ---------------------------------------------------------------- the hand plan of the normal player
# Sequences by natural position (1 is the Ace below the 2, 14 the Ace above the King): the kind, the
# cards of each rank it takes, and the ranks it spans.
def _rank_at(position: int) -> int:
    return rules.ACE if position == 1 else position


_WINDOWS = tuple((kind, width, tuple(_rank_at(p) for p in range(start, start + length)))
                 for kind, length, width in (("straight", 5, 1), ("tube", 3, 2), ("plate", 2, 3))
                 for start in range(1, 16 - length))


def _leftover_cost(counts: list[int], level: int) -> tuple[int, int]:
    """What the cards outside the sequences cost: (groups, low singles). Each rank is a single, a pair or
    a triple; a triple takes a pair below the Aces along as a full house."""
    singles = pairs = triples = low = spare_pairs = 0
    for rank in rules.RANKS:
        n = counts[rank]
        if n == 1:
            singles += 1
            low += (15 if rank == level else rank) <= 10        # rules.value of a rank 2-14
        elif n == 2:
            pairs += 1
            spare_pairs += (15 if rank == level else rank) < 14
        elif n >= 3:
            triples += 1
    return singles + pairs + triples - min(triples, spare_pairs), low


def _sequences(counts: list[int], level: int) -> tuple[tuple[int, int], tuple[int, ...]]:
    """The straights, tubes and plates that leave the fewest groups (then the fewest low singles): a
    small exhaustive search over the windows the counts allow, remembered per position."""
    memo: dict[tuple, tuple[tuple[int, int], tuple[int, ...]]] = {}

    def best(first: int) -> tuple[tuple[int, int], tuple[int, ...]]:
        key = (first, *counts)
        found = memo.get(key)
        if found is not None:
            return found
        groups, low = _leftover_cost(counts, level)
        result: tuple[tuple[int, int], tuple[int, ...]] = ((groups, low), ())
        for index in range(first, len(_WINDOWS)):
            _, width, ranks = _WINDOWS[index]
            for r in ranks:             # all(counts[r] >= width for r in ranks), without the generator
                if counts[r] < width:
                    break
            else:
                for r in ranks:
                    counts[r] -= width
                (g, lo), chosen = best(index)
                for r in ranks:
                    counts[r] += width
                if (g + 1, lo) < result[0]:
                    result = ((g + 1, lo), (index, *chosen))
        memo[key] = result
        return result

    return best(0)


def plan(hand: list[Card], level: int) -> list[tuple[str, list[Card]]]:
    """The fewest groups to go out with: the joker bomb and bombs (a triple and a wild make one), then the
    straights, tubes and plates that leave the fewest groups (searched), then full houses (a triple and a
    pair below the Aces), triples, pairs and singles; the jokers as a pair or singles, other wilds alone."""
    wilds = [c for c in hand if rules.is_wild(c, level)]
    jokers = sorted(c for c in hand if c.is_joker)
    by_rank: dict[int, list[Card]] = {}
    for card in hand:
        if not card.is_joker and not rules.is_wild(card, level):
            by_rank.setdefault(card.rank, []).append(card)
    groups: list[tuple[str, list[Card]]] = []
    if len(jokers) == 4:
        groups.append(("joker_bomb", jokers))
        jokers = []
    for rank in list(by_rank):
        if len(by_rank[rank]) >= 4:
            groups.append(("bomb", by_rank.pop(rank)))
    for rank in sorted(by_rank, key=lambda r: -rules.value(r, level)):
        if wilds and len(by_rank[rank]) == 3:
            groups.append(("bomb", by_rank.pop(rank) + [wilds.pop()]))
    counts = [0] * 15
    for rank, cards in by_rank.items():
        counts[rank] = len(cards)
    for index in _sequences(counts, level)[1]:
        kind, width, ranks = _WINDOWS[index]
        cards = []
        for rank in ranks:
            cards.extend(by_rank[rank][:width])
            del by_rank[rank][:width]
            if not by_rank[rank]:
                del by_rank[rank]
        groups.append((kind, cards))
    by_value = sorted(by_rank, key=lambda r: rules.value(r, level))
    pairs = [r for r in by_value if len(by_rank[r]) == 2 and rules.value(r, level) < 14]
    for rank in by_value:
        cards = by_rank[rank]
        if len(cards) == 3:
            groups.append(("full_house", cards + by_rank[pairs.pop(0)]) if pairs else ("triple", cards))
    used = {c for kind, cards in groups if kind == "full_house" for c in cards}
    for rank in by_value:
        cards = by_rank[rank]
        if len(cards) == 2 and cards[0] not in used:
            groups.append(("pair", cards))
        elif len(cards) == 1:
            groups.append(("single", cards))
    for rank in sorted({c.rank for c in jokers}):
        same = [c for c in jokers if c.rank == rank]
        groups.extend([("pair", same)] if len(same) == 2 else [("single", same)])
    groups.extend(("single", [wild]) for wild in wilds)
    return groups


_PLANS: dict[tuple, tuple[tuple[Combo, list[Card]], ...]] = {}


def readable_plan(hand: tuple[Card, ...], level: int, sf_as_straight: bool) -> tuple[tuple[Combo, list[Card]], ...]:
    """``plan`` with each group's reading (the strongest). A pure function of its arguments, remembered:
    a seat that passes keeps the same hand for several decisions, and rollouts meet the same hands."""
    key = (hand, level, sf_as_straight)
    groups = _PLANS.get(key)
    if groups is None:
        if len(_PLANS) > 4096:
            _PLANS.clear()
        out = []
        for _, cards in plan(list(hand), level):
            readings = rules.classify(cards, level, sf_as_straight)
            if readings:
                out.append((readings[0], cards))
            else:
                out.extend((rules.classify([card], level)[0], [card]) for card in cards)
        groups = _PLANS[key] = tuple(out)
    return groups


def plan_cost(hand: tuple[Card, ...], level: int, sf_as_straight: bool = True) -> int:
    """How many plays (bombs apart) the plan needs to go out."""
    return sum(1 for combo, _ in readable_plan(hand, level, sf_as_straight) if not combo.is_bomb)


def unseen_by_value(view: GuandanView) -> Counter:
    """Card memory: how many cards of each value (level order) the other three seats may still hold, i.e.
    the deck less this hand and every card played."""
    unseen = Counter(rules.guandan_deck_counts())
    unseen.subtract(view.hand)
    unseen.subtract(view.played)
    by_value: Counter = Counter()
    for card, n in unseen.items():
        if n > 0 and not rules.is_wild(card, view.level):
            by_value[rules.card_value(card, view.level)] += n
    return by_value


def unseen_wilds(view: GuandanView) -> int:
    wild = view.wild
    return 2 - sum(1 for c in view.hand if c == wild) - sum(1 for c in view.played if c == wild)


class NormalBot:
    """Plays a hand plan (the fewest groups to go out, searched), remembers the cards played (a group no
    single, pair or triple still out can beat is a sure winner), cooperates with its partner (never beats
    a partner's play unless that takes it out; feeds a partner short of cards; leads around an opponent
    about to go out) and keeps bombs and control cards (jokers, level cards, Aces) for when they matter."""

    level = "normal"
    CONTROL_AT = 14     # an opponent owning the table with this many cards or fewer: spend control
    LAST_GUARD = 27     # ... with this many, when the partner cannot answer after us: spend control
    BREAK_AT = 6        # ... with this many: break a group if that costs the plan no extra play
    BOMB_AT = 10        # ... with this many: bomb
    FEED = 5            # a partner with this many cards or fewer is fed small singles
    DANGER = 3          # an opponent with this many cards or fewer: lead around his hand's size
    LONG = 5            # groups of this many cards or more are led first
    RACE_BREAK_AT = 10  # a 1-2 to stop (an opponent out first, its partner owning the table): break groups
    RACE_BOMB_AT = 16   # ... and bomb, with the owner holding this many cards or fewer

    def __init__(self, spare_partner: bool = False) -> None:
        self.spare_partner = spare_partner      # True: never beat the partner's plays, even to go out

    def choose(self, view: GuandanView):
        special = _tribute_or_return(view)
        if special is not None:
            return special
        if self.spare_partner and over_partner(view):
            return Pass()
        plays = _plays(view)
        out = [p for p in plays if p.size == len(view.hand)]
        if out:                               # going out wins at once (over a CPU partner too)
            return min(out, key=lambda p: (p.is_bomb, rules.rung(p)))
        groups = list(readable_plan(view.hand, view.level, view.options.straight_flush_as_straight))
        if view.top is None:
            return self._lead(view, plays, groups)
        if team_of(view.top.seat) == team_of(view.seat):
            return Pass()
        return self._answer(view, plays, groups)

    @staticmethod
    def _control(combo: Combo, view: GuandanView) -> bool:
        """Jokers, level cards and Aces in singles and pairs: the cards that win tricks late."""
        return combo.type in ("single", "pair") and rules.strength(combo, view.level) >= 14

    @staticmethod
    def _boss(combo: Combo, view: GuandanView, unseen: Counter | None = None) -> bool:
        """Counting the cards still out: can no single, pair or triple (bombs apart) beat this one?"""
        if combo.type not in ("single", "pair", "triple"):
            return False
        unseen = unseen if unseen is not None else unseen_by_value(view)
        need = combo.size
        mine = rules.strength(combo, view.level)
        wilds = unseen_wilds(view)
        for value, n in unseen.items():
            if value > mine and n > 0 and (n >= need or (need > 1 and value < 16 and n + wilds >= need)):
                return False
        return True

    def _opponents(self, view: GuandanView) -> list[int]:
        return [s for s in range(4) if team_of(s) != team_of(view.seat) and view.counts[s] > 0]

    def _lead(self, view: GuandanView, plays: list[Play], groups) -> Play:
        level = view.level
        non_bombs = [g for g in groups if not g[0].is_bomb]
        if not non_bombs:
            combo, cards = min(groups, key=lambda g: (rules.rung(g[0]), rules.strength(g[0], level)))
            return Play.of(cards, combo)
        unseen = unseen_by_value(view)
        # The way out: every group but one wins its trick; lead the winners first.
        sure = [g for g in non_bombs if self._boss(g[0], view, unseen)]
        if sure and len(non_bombs) - len(sure) <= 1 and len(non_bombs) > 1:
            combo, cards = min(sure, key=lambda g: rules.strength(g[0], level))
            return Play.of(cards, combo)
        danger = {view.counts[s] for s in self._opponents(view) if view.counts[s] <= self.DANGER}
        mate = partner(view.seat)
        mate_cards = view.counts[mate]
        if 0 < mate_cards <= self.FEED and not (danger and min(danger) < mate_cards):
            # Feed the partner: the smallest single (a pair to a partner holding two).
            kinds = ("pair", "single") if mate_cards == 2 else ("single",)
            for kind in kinds:
                small = [g for g in non_bombs if g[0].type == kind and not self._control(g[0], view)]
                if small:
                    combo, cards = min(small, key=lambda g: rules.strength(g[0], level))
                    return Play.of(cards, combo)
        regular = [g for g in non_bombs if not self._control(g[0], view)] or non_bombs
        if danger:
            # An opponent about to go out: no group of the size of his hand, or else our strongest.
            safe = [g for g in regular if g[0].size not in danger]
            if not safe:
                safe = [g for g in non_bombs if g[0].size not in danger]
            if not safe:
                combo, cards = max(non_bombs, key=lambda g: rules.strength(g[0], level))
                return Play.of(cards, combo)
            regular = safe
        # Long groups first (they are hard to answer), then the lowest key.
        combo, cards = min(regular, key=lambda g: (-len(g[1]) if len(g[1]) >= self.LONG else 0,
                                                    rules.strength(g[0], level)))
        return Play.of(cards, combo)

    def _answer(self, view: GuandanView, plays: list[Play], groups):
        assert view.top is not None          # answering a play
        level = view.level
        top = view.top.form
        owner = view.top.seat
        owner_cards = view.counts[owner]
        mate = partner(view.seat)
        # The partner answers after this seat only when sitting between it and the owner.
        last = (view.seat - owner) % 4 == 3 or view.counts[mate] == 0
        race = stopping_a_1_2(view)
        urgent = owner_cards <= self.CONTROL_AT or race
        breaking = owner_cards <= (self.RACE_BREAK_AT if race else self.BREAK_AT)
        # 1. a group of the plan that beats the table
        fitting = [(c, cards) for c, cards in groups if not c.is_bomb and rules.beats(c, top, level)]
        if fitting:
            combo, cards = min(fitting, key=lambda g: rules.strength(g[0], level))
            sure = len(groups) <= 3 and self._boss(combo, view)
            if not self._control(combo, view) or urgent or sure or (last and owner_cards <= self.LAST_GUARD):
                return Play.of(cards, combo)
        # 2. a cheap play that costs the plan no extra group
        plain = sorted((p for p in plays if p.type not in rules.BOMB_TYPES),
                       key=lambda p: rules.strength(p, level))
        if plain:
            before = plan_cost(view.hand, level, view.options.straight_flush_as_straight)
            for play in plain[:3]:
                if any(rules.is_wild(c, level) for c in play.cards):
                    continue
                cheap = rules.strength(play, level) <= 13
                if not (cheap or breaking):
                    continue
                rest = Counter(view.hand)
                rest.subtract(play.cards)
                after = plan_cost(tuple(sorted(rest.elements())), level, view.options.straight_flush_as_straight)
                if after < before or (breaking and after <= before):
                    return play
        # 3. a bomb when it decides: an opponent close to going out, a 1-2 to stop, or we go out soon
        bombs = [p for p in plays if p.type in rules.BOMB_TYPES]
        if bombs and self.bomb_decides(view, groups):
            return min(bombs, key=lambda p: (rules.rung(p), rules.strength(p, level)))
        return Pass()

    def bomb_decides(self, view: GuandanView, groups) -> bool:
        """Is a bomb worth spending on the play on the table? Never on a partner's; on an opponent's when
        its owner is close to going out (closer still early: no bomb on an opening play), when the first
        seat out is an opponent and its partner owns the table (a 1-2 to stop), or when the plan then goes
        out within two more plays."""
        top = view.top
        if top is None or team_of(top.seat) == team_of(view.seat):
            return False
        owner_cards = view.counts[top.seat]
        if stopping_a_1_2(view):
            return owner_cards <= self.RACE_BOMB_AT
        return owner_cards <= self.BOMB_AT or len(groups) <= 2


BOTS: dict[str, Callable[[], Bot]] = {"easy": EasyBot, "normal": NormalBot}
