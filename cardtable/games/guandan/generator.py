"""Guandan's move generator: every playable form of a hand (beating a play, when given) with a frugal
realisation (``play_forms``, ``generate``), and the cards that can take part in one (``usable_cards``)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Any

from cardtable.cards import BIG_JOKER, BIG_JOKER_RANK, FRENCH_SUITS, SMALL_JOKER, SMALL_JOKER_RANK, Card
from cardtable.games.guandan.combos import Combo, Form, Shape, _pos_rank, beats, classify
from cardtable.games.guandan.ranks import _DECK_COUNTS, BOMB_TYPES, RANKS, TYPES, is_wild, value


@dataclass(frozen=True)
class Option:
    """A playable form with one concrete realisation from the hand."""

    combo: Combo
    cards: tuple[Card, ...]



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
"""One form :func:`play_forms` finds: ``(type, key, size, build, a, b)``, its classification (what
``beats`` compares) and how to build its realisation, ``build(a, b)`` (cards are built only for the play
chosen). A plain tuple, read by unpacking: the generator makes dozens per decision, and a NamedTuple's
construction (a Python frame) made Guandan's easy CPU 9% slower."""
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

        def emit(form: PlayForm) -> None:
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
