"""Guandan CPU players. They see a GuandanView only and never beat their partner's plays (source)."""

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


class EasyBot:
    """Plays the cheapest thing that works; bombs only when an opponent is about to go out."""

    level = "easy"

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


_GROUPS: dict[tuple, tuple[tuple[Combo, list[Card]], ...]] = {}


class NormalBot:
    """Decomposes its hand to go out in few plays, keeps bombs and control cards (jokers, level cards,
    Aces) for when they matter, counts the big cards still out, helps a partner who is short of cards,
    bombs only when it matters, and never beats its partner's plays."""

    level = "normal"

    def choose(self, view: GuandanView):
        special = _tribute_or_return(view)
        if special is not None:
            return special
        plays = _plays(view)
        groups = self._readable_groups(view)
        if view.top is None:
            return self._lead(view, plays, groups)
        if team_of(view.top.seat) == team_of(view.seat):
            return Pass()
        return self._answer(view, plays, groups)

    def _readable_groups(self, view: GuandanView) -> list[tuple[Combo, list[Card]]]:
        """The plan for the hand, each group with its reading. A pure function of (hand, level, option):
        remembered, since a seat that passes keeps the same hand for several decisions."""
        key = (view.hand, view.level, view.options.straight_flush_as_straight)
        groups = _GROUPS.get(key)
        if groups is None:
            if len(_GROUPS) > 512:
                _GROUPS.clear()
            groups = _GROUPS[key] = tuple(self._plan(view))
        return list(groups)

    @staticmethod
    def _plan(view: GuandanView) -> list[tuple[Combo, list[Card]]]:
        out = []
        for _, cards in decompose(list(view.hand), view.level):
            readings = rules.classify(cards, view.level, view.options.straight_flush_as_straight)
            if readings:
                out.append((readings[0], cards))
            else:
                for card in cards:
                    out.append((rules.classify([card], view.level)[0], [card]))
        return out

    @staticmethod
    def _control(combo: Combo, view: GuandanView) -> bool:
        """Jokers, level cards and Aces in singles and pairs: the cards that win tricks late."""
        return combo.type in ("single", "pair") and rules.strength(combo, view.level) >= 14

    @staticmethod
    def _boss(combo: Combo, view: GuandanView) -> bool:
        """Counting the cards still out: can no single (or pair) beat this one any more?"""
        if combo.type not in ("single", "pair"):
            return False
        unseen = Counter(rules.guandan_deck_counts()) - Counter(view.hand) - Counter(view.played)
        need = 1 if combo.type == "single" else 2
        mine = rules.strength(combo, view.level)
        by_value: Counter = Counter()
        for card, n in unseen.items():
            by_value[rules.card_value(card, view.level)] += n
        wilds = unseen[Card(view.level, "H")]
        for value, n in by_value.items():
            if value > mine and (n >= need or (need == 2 and value < 16 and n + wilds >= 2)):
                return False
        return True

    def _lead(self, view: GuandanView, plays: list[Play], groups) -> Play:
        partner_cards = view.counts[partner(view.seat)]
        non_bombs = [(c, cards) for c, cards in groups if not c.is_bomb]
        if 0 < partner_cards <= 5 and partner(view.seat) not in view.finish:
            small = [(c, cards) for c, cards in non_bombs if c.type == "single" and not self._control(c, view)]
            if small:
                combo, cards = min(small, key=lambda g: rules.strength(g[0], view.level))
                return Play.of(cards, combo)
        if non_bombs:
            regular = [g for g in non_bombs if not self._control(g[0], view)] or non_bombs
            # Long groups first (they are hard to answer), then the lowest key.
            combo, cards = min(regular, key=lambda g: (-len(g[1]) if len(g[1]) >= 5 else 0,
                                                        rules.strength(g[0], view.level)))
            return Play.of(cards, combo)
        if groups:
            combo, cards = min(groups, key=lambda g: (rules.rung(g[0]), rules.strength(g[0], view.level)))
            return Play.of(cards, combo)
        return min(plays, key=lambda p: len(p.cards))

    def _answer(self, view: GuandanView, plays: list[Play], groups):
        assert view.top is not None          # answering a play
        top = view.top.form
        # 1. a group of the plan that beats the table
        fitting = [(c, cards) for c, cards in groups if not c.is_bomb and rules.beats(c, top, view.level)]
        if fitting:
            combo, cards = min(fitting, key=lambda g: rules.strength(g[0], view.level))
            sure = self._boss(combo, view) and len(groups) <= 3
            if not self._control(combo, view) or self._urgent(view) or sure:
                return Play.of(cards, combo)
        # 2. a cheap play that breaks the plan a little
        plain = [p for p in plays if p.type not in rules.BOMB_TYPES]
        if plain:
            best = min(plain, key=lambda p: rules.strength(p, view.level))
            cheap = rules.strength(best, view.level) <= 13 and not any(
                rules.is_wild(c, view.level) for c in best.cards)
            if cheap or self._urgent(view):
                return best
        # 3. a bomb when it matters: an opponent close to going out, or we can go out soon
        bombs = [p for p in plays if p.type in rules.BOMB_TYPES]
        if bombs and (self._urgent(view) or len(groups) <= 2):
            return min(bombs, key=lambda p: (rules.rung(p), rules.strength(p, view.level)))
        return Pass()

    @staticmethod
    def _urgent(view: GuandanView) -> bool:
        owner = view.top.seat if view.top else None
        return owner is not None and team_of(owner) != team_of(view.seat) and view.counts[owner] <= 6


BOTS: dict[str, Callable[[], Bot]] = {"easy": EasyBot, "normal": NormalBot}
