"""Guandan (掼蛋) rules as pure functions: card order at a level, the one classifier of selections
(every distinct reading, with what each wild stands for), comparison with the bomb ladder, and the
move generator (every playable form with a frugal realisation).

Source: docs/rules/guandan.md (from the Spanish source document).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from cardtable.cards import (
    BIG_JOKER,
    BIG_JOKER_RANK,
    FRENCH_RANK_NAMES,
    FRENCH_SUITS,
    SMALL_JOKER,
    SMALL_JOKER_RANK,
    Card,
    guandan_deck,
)

ACE = 14
RANKS = tuple(range(2, 15))
_DECK_COUNTS = Counter(guandan_deck())
TYPES = ("single", "pair", "triple", "full_house", "straight", "tube", "plate", "bomb", "straight_flush",
         "joker_bomb")
SEQUENCE_TYPES = frozenset({"straight", "tube", "plate", "straight_flush"})
BOMB_TYPES = frozenset({"bomb", "straight_flush", "joker_bomb"})
SIZES = {"single": 1, "pair": 2, "triple": 3, "full_house": 5, "straight": 5, "tube": 6, "plate": 6,
         "straight_flush": 5, "joker_bomb": 4}


def rank_name(rank: int) -> str:
    if rank == SMALL_JOKER_RANK:
        return "SJ"
    if rank == BIG_JOKER_RANK:
        return "BJ"
    return FRENCH_RANK_NAMES[rank]


def rank_from_name(name: str) -> int:
    if name == "SJ":
        return SMALL_JOKER_RANK
    if name == "BJ":
        return BIG_JOKER_RANK
    for rank, text in FRENCH_RANK_NAMES.items():
        if text == name:
            return rank
    raise ValueError(f"not a Guandan rank: {name!r}")


def guandan_deck_counts() -> Counter:
    """The 108-card deck as a multiset (cached: the bots count cards on every decision)."""
    return _DECK_COUNTS


def is_wild(card: Card, level: int) -> bool:
    return card.rank == level and card.suit == "H"


def value(rank: int, level: int) -> int:
    """Order of singles, pairs, triples, full houses and bombs: 2..A, then the level rank, SJ, BJ."""
    if rank == SMALL_JOKER_RANK:
        return 16
    if rank == BIG_JOKER_RANK:
        return 17
    return 15 if rank == level else rank


def card_value(card: Card, level: int) -> int:
    return value(card.rank, level)


def hand_sort_key(card: Card, level: int) -> tuple[int, int]:
    return (card_value(card, level), "SHDC".index(card.suit) if not card.is_joker else 0)


# ---------------------------------------------------------------- combinations
@dataclass(frozen=True)
class Combo:
    """One reading of a set of cards: its type, key rank, size and what the wilds stand for."""

    type: str
    key: int | None          # a rank (2..14, 15 SJ, 16 BJ); the top natural rank for sequences; None for
    size: int                # the joker bomb
    wilds_as: tuple[Card, ...] = ()

    @property
    def is_bomb(self) -> bool:
        return self.type in BOMB_TYPES

    @property
    def form(self) -> tuple[str, int | None, int]:
        return (self.type, self.key, self.size)

    def key_name(self) -> str | None:
        return None if self.key is None else rank_name(self.key)

    def to_json(self) -> dict:
        return {"type": self.type, "key": self.key_name()}


def rung(combo: Combo) -> int:
    """The bomb ladder: 4-bomb < 5-bomb < straight flush < 6- … 10-bomb < joker bomb."""
    if combo.type == "joker_bomb":
        return 8
    if combo.type == "straight_flush":
        return 2
    return 0 if combo.size == 4 else 1 if combo.size == 5 else combo.size - 3


def strength(combo: Combo, level: int) -> int:
    """The key's order within its type (level order, or natural order for sequences)."""
    if combo.key is None:
        return 0
    if combo.type in SEQUENCE_TYPES:
        return combo.key
    return value(combo.key, level)


def beats(play: Combo, top: Combo | None, level: int) -> bool:
    """Does ``play`` beat ``top`` (None: leading, anything goes)?"""
    if top is None:
        return True
    if play.is_bomb:
        if not top.is_bomb:
            return True
        if rung(play) != rung(top):
            return rung(play) > rung(top)
        return strength(play, level) > strength(top, level)
    if top.is_bomb:
        return False
    return play.type == top.type and play.size == top.size and strength(play, level) > strength(top, level)


def power(combo: Combo, level: int) -> tuple[int, int, int]:
    """A total order used to mark the strongest reading: bombs by the ladder, then anything by key."""
    return (1 if combo.is_bomb else 0, rung(combo) if combo.is_bomb else 0, strength(combo, level))


def _positions(rank: int) -> tuple[int, ...]:
    """Natural positions of a rank in sequences: the Ace is 1 or 14."""
    return (1, 14) if rank == ACE else (rank,)


def _pos_rank(position: int) -> int:
    return ACE if position == 1 else position


def classify(cards: Sequence[Card], level: int, sf_as_straight: bool = True) -> list[Combo]:
    """Every distinct reading of ``cards`` at ``level``, strongest first. Empty if it is not a play."""
    n = len(cards)
    if n == 0:
        return []
    wilds = [c for c in cards if is_wild(c, level)]
    naturals = [c for c in cards if not is_wild(c, level)]
    w = len(wilds)
    jokers = [c for c in naturals if c.is_joker]
    plain = [c for c in naturals if not c.is_joker]
    counts = Counter(c.rank for c in plain)
    out: list[Combo] = []

    def add(kind: str, key: int | None, wilds_as: Iterable[Card] = ()) -> None:
        out.append(Combo(kind, key, n, tuple(wilds_as)))

    # Jokers: a single, an identical pair, the joker bomb, or the pair of a full house.
    if jokers:
        joker_counts = Counter(c.rank for c in jokers)
        if n == 1:
            add("single", jokers[0].rank)
        elif n == 2 and len(jokers) == 2 and len(joker_counts) == 1:
            add("pair", jokers[0].rank)
        elif n == 4 and joker_counts == Counter({SMALL_JOKER_RANK: 2, BIG_JOKER_RANK: 2}):
            add("joker_bomb", None)
        elif n == 5 and len(jokers) == 2 and len(joker_counts) == 1:
            # the rest (three cards, wilds allowed) must be a triple
            rest_counts = counts
            if len(rest_counts) <= 1:
                rank = next(iter(rest_counts), level)
                if rest_counts.get(rank, 0) + w == 3:
                    add("full_house", rank, _stand_ins(rank, w, level))
        return _sorted(out, level)

    # Same-rank plays: single, pair, triple, bomb. Wilds alone are level cards.
    ranks = set(counts)
    if len(ranks) <= 1:
        rank = next(iter(ranks), level)
        filled = _stand_ins(rank, w, level)
        if n == 1:
            add("single", rank)
        elif n == 2:
            add("pair", rank, filled)
        elif n == 3:
            add("triple", rank, filled)
        elif 4 <= n <= 10:
            add("bomb", rank, filled)

    if n == 5:
        _full_houses(counts, w, add, level)
        _runs(plain, w, 5, 1, add, sf_as_straight, level)
    if n == 6:
        _runs(plain, w, 3, 2, add, sf_as_straight, level)
        _runs(plain, w, 2, 3, add, sf_as_straight, level)
    return _sorted(out, level)


def _sorted(combos: list[Combo], level: int) -> list[Combo]:
    seen: dict[tuple, Combo] = {}
    for combo in combos:
        seen.setdefault((combo.type, combo.key), combo)
    return sorted(seen.values(), key=lambda c: power(c, level), reverse=True)


def _full_houses(counts: Counter, w: int, add, level: int) -> None:
    ranks = list(counts)
    candidates = sorted(RANKS, key=lambda r: (r != level, r))   # wilds as the pair: a pair of level cards
    for triple in candidates:
        for pair in candidates:
            if triple == pair:
                continue
            if any(r not in (triple, pair) for r in ranks):
                continue
            need = max(0, 3 - counts.get(triple, 0)) + max(0, 2 - counts.get(pair, 0))
            if counts.get(triple, 0) > 3 or counts.get(pair, 0) > 2 or need != w:
                continue
            if counts.get(triple, 0) == 0 and counts.get(pair, 0) == 0:
                continue
            wilds_as = _stand_ins(triple, 3 - counts.get(triple, 0), level) + \
                _stand_ins(pair, 2 - counts.get(pair, 0), level)
            add("full_house", triple, wilds_as)


def _stand_ins(rank: int, count: int, level: int) -> list[Card]:
    """What ``count`` wilds stand for when they fill in for ``rank`` (nothing when they are simply level
    cards themselves)."""
    return [] if rank == level or count <= 0 else [Card(rank, "S")] * count


def _runs(plain: list[Card], w: int, length: int, width: int, add, sf_as_straight: bool, level: int) -> None:
    """Straights (length 5, width 1), tubes (3 x pairs), plates (2 x triples), and straight flushes."""
    counts = Counter(c.rank for c in plain)
    suits = {c.suit for c in plain}
    for start in range(1, 16 - length):
        window = [_pos_rank(p) for p in range(start, start + length)]
        if len(set(window)) != length:
            continue
        if any(r not in window for r in counts):
            continue
        if any(counts[r] > width for r in window):
            continue
        need = sum(width - counts[r] for r in window)
        if need != w:
            continue
        top = _pos_rank(start + length - 1)
        missing = [r for r in window for _ in range(width - counts[r])]
        wilds_as = [card for r in missing for card in _stand_ins(r, 1, level)]
        if width == 1:
            same_suit = len(suits) == 1
            if same_suit:
                suit = next(iter(suits))
                add("straight_flush", top, [Card(r, suit) for r in missing])
            if sf_as_straight or not same_suit:
                add("straight", top, wilds_as)
        elif width == 2:
            add("tube", top, wilds_as)
        else:
            add("plate", top, wilds_as)


# ---------------------------------------------------------------- the move generator
@dataclass(frozen=True)
class Option:
    """A playable form with one concrete realisation from the hand."""

    combo: Combo
    cards: tuple[Card, ...]


def generate(hand: Sequence[Card], level: int, top: Combo | None = None, sf_as_straight: bool = True) -> list[Option]:
    """Every form (type, key, size) ``hand`` can play (beating ``top`` when given), each once, with a
    realisation that spends as few wilds as possible (and then the cheapest cards)."""
    wilds = [c for c in hand if is_wild(c, level)]
    w = len(wilds)
    plain = [c for c in hand if not c.is_joker and not is_wild(c, level)]
    by_rank: dict[int, list[Card]] = {}
    for card in sorted(plain, key=lambda c: "SDCH".index(c.suit)):
        by_rank.setdefault(card.rank, []).append(card)
    jokers = Counter(c.rank for c in hand if c.is_joker)
    out: dict[tuple, Option] = {}
    # Answering a play, only its type and the bombs can beat it: skip the rest.
    wanted = set(TYPES) if top is None else set(BOMB_TYPES) | ({top.type} if not top.is_bomb else set())

    def offer(kind: str, key: int | None, cards: list[Card], wilds_as: Iterable[Card] = ()) -> None:
        combo = Combo(kind, key, len(cards), tuple(wilds_as))
        if not beats(combo, top, level):
            return
        current = out.get(combo.form)
        score = (len(combo.wilds_as), sum(card_value(c, level) for c in cards))
        if current is None or score < (len(current.combo.wilds_as),
                                        sum(card_value(c, level) for c in current.cards)):
            out[combo.form] = Option(combo, tuple(cards))

    def take(rank: int, count: int) -> tuple[list[Card], int] | None:
        """``count`` cards of ``rank`` using naturals first, then wilds; (cards, wilds used)."""
        naturals = by_rank.get(rank, [])[:count]
        missing = count - len(naturals)
        if missing > w:
            return None
        return naturals + wilds[:missing], missing

    # singles, pairs, triples, bombs (wilds count as level cards too)
    small = [(size, kind) for size, kind in ((1, "single"), (2, "pair"), (3, "triple")) if kind in wanted]
    for rank in set(by_rank) | ({level} if w else set()):
        available = len(by_rank.get(rank, [])) + w
        for size, kind in small:
            got = take(rank, size)
            if got is not None:
                cards, used = got
                if kind == "single" and used:
                    if rank != level:
                        continue
                    used = 0
                offer(kind, rank, cards, [Card(rank, "S")] * used if rank != level else ())
        for size in range(4, min(10, available) + 1):
            got = take(rank, size)
            if got is not None:
                cards, used = got
                offer("bomb", rank, cards, [Card(rank, "S")] * used if rank != level else ())
    for joker_rank, count in jokers.items():
        joker = SMALL_JOKER if joker_rank == SMALL_JOKER_RANK else BIG_JOKER
        offer("single", joker_rank, [joker])
        if count == 2:
            offer("pair", joker_rank, [joker, joker])
    if jokers[SMALL_JOKER_RANK] == 2 and jokers[BIG_JOKER_RANK] == 2:
        offer("joker_bomb", None, [SMALL_JOKER, SMALL_JOKER, BIG_JOKER, BIG_JOKER])

    if "full_house" in wanted:
        _full_house_options(by_rank, wilds, jokers, offer, take)
    for length, width, kind in ((5, 1, "straight"), (3, 2, "tube"), (2, 3, "plate")):
        if kind in wanted:
            _sequence_options(by_rank, wilds, level, length, width, kind, sf_as_straight, offer)
    if "straight_flush" in wanted:
        _straight_flush_options(by_rank, wilds, offer)
    return sorted(out.values(), key=lambda o: (o.combo.is_bomb, TYPES.index(o.combo.type), strength(o.combo, level)))


def _full_house_options(by_rank, wilds, jokers, offer, take) -> None:
    """Full houses: for each triple, every pair (a joker pair allowed); the offer keeps the cheapest."""
    w = len(wilds)
    pair_sources: list[tuple[int, list[Card], int]] = []
    for rank in RANKS:
        got = take(rank, 2)
        if got is not None:
            pair_sources.append((rank, *got))
    for joker_rank, count in jokers.items():
        if count == 2:
            joker = SMALL_JOKER if joker_rank == SMALL_JOKER_RANK else BIG_JOKER
            pair_sources.append((joker_rank, [joker, joker], 0))
    for triple in RANKS:
        got = take(triple, 3)
        if got is None:
            continue
        t_cards, t_used = got
        for p_rank, _, _ in pair_sources:
            if p_rank == triple:
                continue
            if p_rank in (SMALL_JOKER_RANK, BIG_JOKER_RANK):
                joker = SMALL_JOKER if p_rank == SMALL_JOKER_RANK else BIG_JOKER
                p_cards, p_used = [joker, joker], 0
            else:
                naturals = by_rank.get(p_rank, [])[:2]
                p_used = 2 - len(naturals)
                if t_used + p_used > w:
                    continue
                p_cards = naturals + wilds[t_used:t_used + p_used]
            wilds_as = [Card(triple, "S")] * t_used + [Card(p_rank, "S")] * p_used
            offer("full_house", triple, t_cards + p_cards, wilds_as)


def _sequence_options(by_rank, wilds, level, length, width, kind, sf_as_straight, offer) -> None:
    w = len(wilds)
    for start in range(1, 16 - length):
        window = [_pos_rank(p) for p in range(start, start + length)]
        cards: list[Card] = []
        used = 0
        wilds_as: list[Card] = []
        for rank in window:
            naturals = _spread(by_rank.get(rank, []), width, cards)
            missing = width - len(naturals)
            cards.extend(naturals)
            used += missing
            wilds_as.extend([Card(rank, "S")] * missing)
        if used > w:
            continue
        cards.extend(wilds[:used])
        top_rank = _pos_rank(start + length - 1)
        if kind == "straight":
            natural_suits = {c.suit for c in cards if not is_wild(c, level)}
            if not sf_as_straight and len(natural_suits) == 1:
                alternative = _mixed_straight(by_rank, window, wilds, level)
                if alternative is None:
                    continue
                cards, wilds_as = alternative
                if len(wilds_as) > w:
                    continue
        offer(kind, top_rank, cards, wilds_as)


def _straight_flush_options(by_rank, wilds, offer) -> None:
    w = len(wilds)
    for suit in FRENCH_SUITS:
        suited = {rank: [c for c in cards_ if c.suit == suit] for rank, cards_ in by_rank.items()}
        for start in range(1, 11):
            window = [_pos_rank(p) for p in range(start, start + 5)]
            cards = [suited[r][0] for r in window if suited.get(r)]
            missing = [r for r in window if not suited.get(r)]
            if len(missing) > w:
                continue
            offer("straight_flush", _pos_rank(start + 4), cards + wilds[:len(missing)],
                  [Card(r, suit) for r in missing])


def _spread(cards: list[Card], width: int, chosen: list[Card]) -> list[Card]:
    """Pick ``width`` cards of one rank, preferring suits not already used (so a straight is not
    accidentally a flush)."""
    used_suits = {c.suit for c in chosen}
    ordered = sorted(cards, key=lambda c: (c.suit in used_suits, "SDCH".index(c.suit)))
    return ordered[:width]


def _mixed_straight(by_rank: dict[int, list[Card]], window: list[int], wilds: list[Card], level: int):
    """A realisation of a plain straight whose natural cards are not all one suit, if the hand has one."""
    options = [by_rank.get(r, []) for r in window]
    present = [i for i, cards in enumerate(options) if cards]
    for i in present:
        for alt in options[i]:
            chosen = [options[j][0] for j in present if j != i] + [alt]
            if len({c.suit for c in chosen}) > 1:
                missing = [window[j] for j in range(len(window)) if not options[j]]
                return chosen + wilds[:len(missing)], [Card(r, "S") for r in missing]
    return None


def forms_of(options: Iterable[Option]) -> set[tuple[str, int | None, int]]:
    return {o.combo.form for o in options}


def describe(combo: Combo) -> str:
    """English name of a play: "Pair of 9s", "Straight 5-9", "Bomb of four 7s"."""
    key = combo.key_name()
    names = {4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine", 10: "ten"}
    if combo.type == "single":
        return f"Single {key}"
    if combo.type == "pair":
        return f"Pair of {key}s"
    if combo.type == "triple":
        return f"Three {key}s"
    if combo.type == "full_house":
        return f"Full house of {key}s"
    if combo.type in ("straight", "straight_flush"):
        low = combo.key - 4
        kind = "Straight" if combo.type == "straight" else "Straight flush"
        return f"{kind} {rank_name(low if low > 1 else ACE)}-{key}"
    if combo.type == "tube":
        return f"Tube {rank_name(combo.key - 2 if combo.key - 2 > 1 else ACE)}-{key}"
    if combo.type == "plate":
        return f"Plate {rank_name(combo.key - 1 if combo.key - 1 > 1 else ACE)}-{key}"
    if combo.type == "bomb":
        return f"Bomb of {names[combo.size]} {key}s"
    return "Joker bomb"


def usable_cards(hand: Sequence[Card], level: int, top: Combo | None = None,
                 sf_as_straight: bool = True) -> set[Card]:
    """Every card of ``hand`` that is part of at least one play beating ``top`` (lighting the columns).

    The generator realises each form once; the other plays of a form swap a card for another of the
    same rank (any suit, except in a straight flush), a natural card for a wild, or pick another pair
    for a full house."""
    options = generate(hand, level, top, sf_as_straight)
    wilds = [c for c in hand if is_wild(c, level)]
    usable: set[Card] = set()
    wild_fits = False
    for option in options:
        for card in option.cards:
            if is_wild(card, level):
                wild_fits = True
            elif card.is_joker:
                usable.add(card)
            else:
                wild_fits = wild_fits or bool(wilds)
                if option.combo.type == "straight_flush":
                    usable.add(card)
                else:
                    usable.update(c for c in hand if c.rank == card.rank and not is_wild(c, level))
    if wild_fits:
        usable.update(wilds)
    counts = Counter(c.rank for c in hand if not is_wild(c, level))
    for option in options:
        if option.combo.type != "full_house":
            continue
        spare = len(wilds) - max(0, 3 - counts[option.combo.key])
        for card in hand:
            if card.rank == option.combo.key or is_wild(card, level):
                continue
            if card.is_joker and counts[card.rank] == 2 or not card.is_joker and counts[card.rank] + spare >= 2:
                usable.add(card)
    return usable
