"""Guandan (掼蛋) rules as pure functions: card order at a level, the one classifier of selections
(every distinct reading, with what each wild stands for), comparison with the bomb ladder, and the
move generator (every playable form with a frugal realisation).

Source: docs/rules/guandan.md (from the Spanish source document).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, Protocol

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


_SORT_KEYS: dict[int, dict[Card, tuple[int, int]]] = {}


def sort_keys(level: int) -> dict[Card, tuple[int, int]]:
    """``hand_sort_key`` of every card at ``level``, as a table (sorting a hand by ``keys.__getitem__``)."""
    keys = _SORT_KEYS.get(level)
    if keys is None:
        keys = _SORT_KEYS[level] = {card: hand_sort_key(card, level) for card in _DECK_COUNTS}
    return keys


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


def rung(combo: Shape) -> int:
    """The bomb ladder: 4-bomb < 5-bomb < straight flush < 6- … 10-bomb < joker bomb."""
    if combo.type == "joker_bomb":
        return 8
    if combo.type == "straight_flush":
        return 2
    return 0 if combo.size == 4 else 1 if combo.size == 5 else combo.size - 3


def strength(combo: Shape, level: int) -> int:
    """The key's order within its type (level order, or natural order for sequences)."""
    if combo.key is None:
        return 0
    if combo.type in SEQUENCE_TYPES:
        return combo.key
    return value(combo.key, level)


def beats(play: Shape, top: Shape | None, level: int) -> bool:
    """Does ``play`` beat ``top`` (None: leading, anything goes)? Either may be a Combo or anything with
    its ``type``, ``key``, ``size`` and ``is_bomb`` (a Form, a Play)."""
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
    if n == 1:      # any card alone is a single of its rank (a wild alone is a level card)
        return [Combo("single", cards[0].rank, 1)]
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


_FH_CANDIDATES = {level: sorted(RANKS, key=lambda r: (r != level, r)) for level in RANKS}


def _full_houses(counts: Counter, w: int, add, level: int) -> None:
    ranks = list(counts)
    if len(ranks) > 2:
        return              # a full house holds two ranks (wilds aside)
    candidates = _FH_CANDIDATES[level]   # wilds as the pair: a pair of level cards
    for triple in candidates:
        if counts.get(triple, 0) == 0 and w < 3:
            continue        # three wilds at least would be needed
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


class Shape(Protocol):
    """What comparing plays needs: a Combo, a Form or a Guandan Play all have it."""

    @property
    def type(self) -> str: ...
    @property
    def key(self) -> int | None: ...
    @property
    def size(self) -> int: ...
    @property
    def is_bomb(self) -> bool: ...


class Form(NamedTuple):
    """A play's classification without its cards: what comparison (``beats``, ``rung``, ``strength``)
    needs."""

    type: str
    key: int | None
    size: int

    @property
    def is_bomb(self) -> bool:
        return self.type in BOMB_TYPES


_SUIT_RANK = {suit: i for i, suit in enumerate("SDCH")}     # realisations prefer ♠ ♦ ♣ ♥
_SUIT_RANK_OF = {card: _SUIT_RANK[card.suit] for card in _DECK_COUNTS if not card.is_joker}
_SF_SPANS = tuple((start, 31 << start) for start in range(1, 11))
_WINDOWS = {length: [(start, tuple(_pos_rank(p) for p in range(start, start + length)))
                     for start in range(1, 16 - length)] for length in (2, 3, 5)}


_WILD = {level: Card(level, "H") for level in RANKS}


class _Hand:
    """A hand as counts (the generator's input) and, built only when a realisation is asked for, its
    cards by rank."""

    __slots__ = ("_by_rank", "counts", "hand", "level", "masks", "w", "wilds")

    def __init__(self, hand: Sequence[Card], level: int) -> None:
        counts = [0] * 17
        masks = {"S": 0, "H": 0, "D": 0, "C": 0, "*": 0}     # "*": the jokers' (not used)
        for rank, suit in hand:
            counts[rank] += 1
            masks[suit] |= 1 << rank
        wild = _WILD[level]
        w = hand.count(wild) if masks["H"] >> level & 1 else 0
        if w:       # both hearts of the level rank are wilds: no natural card of that rank and suit
            counts[level] -= w
            masks["H"] ^= 1 << level
        wilds = [wild] * w
        for suit in FRENCH_SUITS:
            mask = masks[suit]
            masks[suit] = mask | (mask >> 13 & 2)          # the Ace also sits at position 1
        self.hand, self.level, self.counts, self.wilds, self.w = hand, level, counts, wilds, w
        self.masks = masks
        self._by_rank: dict[int, list[Card]] | None = None

    @property
    def by_rank(self) -> dict[int, list[Card]]:
        """Natural cards (no jokers, no wilds) by rank, ♠ ♦ ♣ ♥ first."""
        if self._by_rank is None:
            level = self.level
            by_rank: dict[int, list[Card]] = {}
            for card in sorted((c for c in self.hand if c.suit != "*" and not (c.rank == level and c.suit == "H")),
                               key=_SUIT_RANK_OF.__getitem__):
                by_rank.setdefault(card.rank, []).append(card)
            self._by_rank = by_rank
        return self._by_rank

    # -- realisations (cards for one chosen form)
    def same_rank(self, rank: int, size: int) -> list[Card]:
        by_rank = self._by_rank
        if by_rank is None:        # one rank only: no need to sort the whole hand by rank
            wild = _WILD[self.level]
            naturals = sorted([c for c in self.hand if c[0] == rank and c != wild],
                              key=_SUIT_RANK_OF.__getitem__)[:size]
        else:
            naturals = by_rank.get(rank, [])[:size]
        return naturals + self.wilds[:size - len(naturals)]

    def jokers(self, rank: int | None, count: int) -> list[Card]:
        """``count`` jokers of ``rank``, or (rank None) the joker bomb."""
        if rank is None:
            return [SMALL_JOKER, SMALL_JOKER, BIG_JOKER, BIG_JOKER]
        return [SMALL_JOKER if rank == SMALL_JOKER_RANK else BIG_JOKER] * count

    @staticmethod
    def given(cards: list[Card], _: None = None) -> list[Card]:
        return list(cards)

    def full_house(self, triple: int, pair: int) -> list[Card]:
        t_cards = self.same_rank(triple, 3)
        t_used = 3 - min(3, self.counts[triple])
        if pair in (SMALL_JOKER_RANK, BIG_JOKER_RANK):
            return t_cards + self.jokers(pair, 2)
        naturals = self.by_rank.get(pair, [])[:2]
        return t_cards + naturals + self.wilds[t_used:t_used + 2 - len(naturals)]

    def sequence(self, window: tuple[int, ...], width: int) -> list[Card]:
        cards: list[Card] = []
        used = 0
        by_rank = self.by_rank
        for rank in window:
            naturals = _spread(by_rank.get(rank, []), width, cards)
            used += width - len(naturals)
            cards.extend(naturals)
        return cards + self.wilds[:used]

    def straight_flush(self, window: tuple[int, ...], suit: str) -> list[Card]:
        mask = self.masks[suit]
        cards = [Card(r, suit) for r in window if mask >> r & 1]
        return cards + self.wilds[:5 - len(cards)]


def _value_order(level: int) -> tuple[int, ...]:
    """Ranks 2..A from low to high at ``level`` (the level rank last)."""
    return tuple(r for r in RANKS if r != level) + (level,)


_VALUE_ORDER = {level: _value_order(level) for level in RANKS}


PlayForm = tuple[str, int | None, int, Callable[[Any, Any], list[Card]], Any, Any]
_BEATS_MEMO: dict[tuple, dict[tuple, bool]] = {}


def _beats_memo(top: Shape, level: int) -> dict[tuple, bool]:
    """Remembered answers of :func:`beats` against one top form at one level (pure, so safe to keep)."""
    key = (top.type, top.key, top.size, top.is_bomb, level)
    memo = _BEATS_MEMO.get(key)
    if memo is None:
        if len(_BEATS_MEMO) > 4096:
            _BEATS_MEMO.clear()
        memo = _BEATS_MEMO[key] = {}
    return memo


def prepare_hand(hand: tuple[Card, ...], level: int) -> _Hand:
    """The counts and masks :func:`play_forms` works from, for a hand that will not change (a tuple): a
    caller that asks again for the same hand may pass them back (``prepared``)."""
    return _Hand(hand, level)


def play_forms(hand: Sequence[Card], level: int, top: Shape | None = None,
               sf_as_straight: bool = True, prepared: _Hand | None = None) -> list[PlayForm]:
    """Every form ``(type, key, size)`` ``hand`` can play (beating ``top`` when given), each once, as
    ``(type, key, size, build, a, b)`` where ``build(a, b)`` returns its realisation: the one spending the
    fewest wilds (then the cheapest cards). Forms come from rank counts alone; cards are built only for
    the play chosen. The order: non-bombs before bombs, by type (``TYPES``), then by strength (then
    size). ``prepared``: :func:`prepare_hand` of this very hand and level, if the caller kept it."""
    h = prepared if prepared is not None else _Hand(hand, level)
    counts, w = h.counts, h.w
    order = _VALUE_ORDER[level]
    out: list[PlayForm] = []
    # Answering a play, only its type and the bombs can beat it: skip the rest.
    if top is None:
        wanted: Collection[str] = TYPES
        emit = out.append
    else:
        wanted = BOMB_TYPES if top.is_bomb else (top.type, *BOMB_TYPES)

        verdicts = _beats_memo(top, level)

        def emit(form: tuple) -> None:
            key = form[:3]
            verdict = verdicts.get(key)
            if verdict is None:
                verdict = verdicts[key] = beats(Form(*key), top, level)
            if verdict:
                out.append(form)

    same_rank = h.same_rank
    # singles, pairs and triples (wilds count as level cards too; a wild alone is a level single)
    for size, kind in ((1, "single"), (2, "pair"), (3, "triple")):
        if kind not in wanted:
            continue
        for rank in order:
            n = counts[rank]
            if n + w >= size and (n or (w and rank == level)):
                emit((kind, rank, size, same_rank, rank, size))
        if size < 3:
            for joker_rank in (SMALL_JOKER_RANK, BIG_JOKER_RANK):
                if counts[joker_rank] >= size:
                    emit((kind, joker_rank, size, h.jokers, joker_rank, size))
    if "full_house" in wanted:
        _full_house_forms(h, order, emit)
    depths: int | None = None
    for length, width, kind in ((5, 1, "straight"), (3, 2, "tube"), (2, 3, "plate")):
        if kind in wanted:
            if depths is None:
                depths = _depths(h)
            _sequence_forms(h, depths, length, width, kind, sf_as_straight, emit)
    if "bomb" in wanted:
        for rank in order:
            n = counts[rank]
            if n and n + w >= 4:
                for size in range(4, min(10, n + w) + 1):
                    emit(("bomb", rank, size, same_rank, rank, size))
    if "straight_flush" in wanted:
        _straight_flush_forms(h, emit)
    if counts[SMALL_JOKER_RANK] == 2 and counts[BIG_JOKER_RANK] == 2 and "joker_bomb" in wanted:
        emit(("joker_bomb", None, 4, h.jokers, None, 4))
    return out


def generate(hand: Sequence[Card], level: int, top: Combo | None = None, sf_as_straight: bool = True) -> list[Option]:
    """Every form (type, key, size) ``hand`` can play (beating ``top`` when given), each once, with a
    realisation that spends as few wilds as possible (and then the cheapest cards), read by
    :func:`classify` (so the combo says what the wilds stand for)."""
    options = []
    for kind, key, size, build, a, b in play_forms(hand, level, top, sf_as_straight):
        cards = tuple(build(a, b))
        options.append(Option(reading(cards, Form(kind, key, size), level, sf_as_straight), cards))
    return options


def reading(cards: Sequence[Card], form: Shape, level: int, sf_as_straight: bool = True) -> Combo:
    """The reading of ``cards`` as ``form`` (its type and key), by the classifier."""
    return next(c for c in classify(cards, level, sf_as_straight) if c.type == form.type and c.key == form.key)


def _full_house_forms(h: _Hand, order: tuple[int, ...], offer) -> None:
    """Full houses: for each triple, the pair that spends the fewest wilds, then the cheapest (a joker
    pair allowed)."""
    counts, w = h.counts, h.w
    tiers = _pair_tiers(counts, w, order)
    for triple in order:
        n = counts[triple]
        if n + w < 3:
            continue
        pair = _cheapest_pair(tiers, triple, w - (3 - min(3, n)))
        if pair is not None:
            offer(("full_house", triple, 5, h.full_house, triple, pair))


def _pair_tiers(counts: list[int], w: int, order: tuple[int, ...]) -> tuple[list[int], ...]:
    """The pairs a full house may take, by the wilds they spend (0, 1, 2), each tier cheapest first: the
    natural pairs by value then the joker pairs; a single and a wild by value; two wilds, named after the
    lowest rank (natural order) held by none. Two of a tier suffice: only one can be the triple's rank."""
    natural = [rank for rank in order if counts[rank] >= 2][:2]
    jokers = [rank for rank in (SMALL_JOKER_RANK, BIG_JOKER_RANK) if counts[rank] == 2]
    singles = [rank for rank in order if counts[rank] == 1][:2] if w >= 1 else []
    empty = [rank for rank in RANKS if not counts[rank]][:2] if w >= 2 else []
    return natural + jokers, singles, empty


def _cheapest_pair(tiers: tuple[list[int], ...], triple: int, spare: int) -> int | None:
    """The first pair of the tiers ``spare`` wilds can pay for that is not the triple's rank."""
    for tier in tiers[:spare + 1]:
        for pair in tier:
            if pair != triple:
                return pair
    return None


def _depths(h: _Hand) -> int:
    """Position masks (1 = the Ace low .. 14) of the ranks holding at least 1, 2 and 3 natural cards, in
    one integer: bits 0-15, 16-31 and 32-47 (so a window's cards held up to a width is one bit count)."""
    m1 = m2 = m3 = 0
    counts = h.counts
    for rank in RANKS:
        n = counts[rank]
        if n:
            bit = 1 << rank
            m1 |= bit
            if n > 1:
                m2 |= bit
                if n > 2:
                    m3 |= bit
    return _ace_low(m1) | _ace_low(m2) << 16 | _ace_low(m3) << 32


def _ace_low(mask: int) -> int:
    return mask | (mask >> 13 & 2)


# Per (length, width): each window as (its span over the depth lanes up to the width, its ranks, its top).
_RUNS = {(length, width): [(sum((((1 << length) - 1) << start) << 16 * lane for lane in range(width)),
                            window, window[-1]) for start, window in _WINDOWS[length]]
         for length, width in ((5, 1), (3, 2), (2, 3))}


def _sequence_forms(h: _Hand, depths: int, length: int, width: int, kind: str,
                    sf_as_straight: bool, offer) -> None:
    full = length * width
    need = full - h.w                 # natural cards the window must hold (wilds make up the rest)
    if kind == "straight" and not sf_as_straight:
        _plain_straight_forms(h, depths, need, offer)
        return
    sequence = h.sequence
    for span, window, top_rank in _RUNS[length, width]:
        if (depths & span).bit_count() >= need:
            offer((kind, top_rank, full, sequence, window, width))


def _plain_straight_forms(h: _Hand, depths: int, need: int, offer) -> None:
    for span, window, top_rank in _RUNS[5, 1]:
        if (depths & span).bit_count() >= need:
            build = _plain_straight(h, window)
            if build is not None:
                offer(("straight", top_rank, 5, *build))


def _plain_straight(h: _Hand, window: tuple[int, ...]):
    """With straight flushes not playable as straights: a realisation whose natural cards are not all one
    suit, if the hand has one."""
    cards = h.sequence(window, 1)
    if len({c.suit for c in cards if not is_wild(c, h.level)}) != 1:
        return (h.given, cards, None)
    alternative = _mixed_straight(h.by_rank, list(window), h.wilds, h.level)
    if alternative is None or len(alternative[1]) > h.w:
        return None
    return (h.given, alternative[0], None)


def _sf_costs(level: int) -> tuple[tuple[int, ...], ...]:
    """Per window start, per pattern of its five positions held (bit i: position start + i): the value
    of those natural cards at ``level``."""
    table = []
    for start, ranks in _WINDOWS[5]:
        table.append(tuple(sum(value(ranks[i], level) for i in range(5) if pattern >> i & 1)
                           for pattern in range(32)))
    return tuple(table)


_SF_COSTS = {level: _sf_costs(level) for level in RANKS}


def _straight_flush_forms(h: _Hand, offer) -> None:
    """Straight flushes: for each window, the suit that needs the fewest wilds, then the cheapest cards
    (the first suit of ♠ ♥ ♦ ♣ on a tie)."""
    w, level, masks = h.w, h.level, h.masks
    need = 5 - w
    suits = [(suit, masks[suit]) for suit in FRENCH_SUITS if masks[suit].bit_count() >= need]
    if not suits:
        return
    costs = _SF_COSTS[level]
    for (start, span), (_, window) in zip(_SF_SPANS, _WINDOWS[5], strict=True):
        best: tuple[str, int, int, int | None] | None = None   # (suit, cards present, bits, cost or None)
        for suit, mask in suits:
            bits = mask & span
            present = bits.bit_count()
            if present < need:
                continue
            if best is None or present > best[1]:
                best = (suit, present, bits, None)
            elif present == best[1]:      # as few wilds: the cheaper natural cards win
                table = costs[start - 1]
                best_cost = best[3] if best[3] is not None else table[best[2] >> start & 31]
                cost = table[bits >> start & 31]
                best = (suit, present, bits, cost) if cost < best_cost else (*best[:3], best_cost)
        if best is not None:
            offer(("straight_flush", window[-1], 5, h.straight_flush, window, best[0]))


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
    top = combo.key if combo.key is not None else 0      # only the joker bomb has no key
    if combo.type in ("straight", "straight_flush"):
        low = top - 4
        kind = "Straight" if combo.type == "straight" else "Straight flush"
        return f"{kind} {rank_name(low if low > 1 else ACE)}-{key}"
    if combo.type == "tube":
        return f"Tube {rank_name(top - 2 if top - 2 > 1 else ACE)}-{key}"
    if combo.type == "plate":
        return f"Plate {rank_name(top - 1 if top - 1 > 1 else ACE)}-{key}"
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
        if option.combo.type == "straight_flush":
            continue                    # one realisation per form hides the other suits: see below
        for card in option.cards:
            if is_wild(card, level):
                wild_fits = True
            elif card.is_joker:
                usable.add(card)
            else:
                wild_fits = wild_fits or bool(wilds)
                usable.update(c for c in hand if c.rank == card.rank and not is_wild(c, level))
    if any(o.combo.type == "straight_flush" for o in options):
        # A straight flush is one suit and the wilds: ask the generator suit by suit.
        for suit in FRENCH_SUITS:
            suited = [c for c in hand if is_wild(c, level) or c.suit == suit and not c.is_joker]
            for option in generate(suited, level, top, sf_as_straight):
                if option.combo.type == "straight_flush":
                    usable.update(c for c in option.cards if not is_wild(c, level))
                    wild_fits = wild_fits or bool(wilds)
    if wild_fits:
        usable.update(wilds)
    counts = Counter(c.rank for c in hand if not is_wild(c, level))
    for option in options:
        if option.combo.type != "full_house":
            continue
        assert option.combo.key is not None
        spare = len(wilds) - max(0, 3 - counts[option.combo.key])
        for card in hand:
            if card.rank == option.combo.key or is_wild(card, level):
                continue
            if card.is_joker and counts[card.rank] == 2 or not card.is_joker and counts[card.rank] + spare >= 2:
                usable.add(card)
    return usable
