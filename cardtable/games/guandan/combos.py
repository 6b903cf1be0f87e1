"""Guandan's combinations: the one classifier of selections (every distinct reading, with what each
wild stands for), comparison with the bomb ladder (``beats``) and the English names (``describe``)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple, Protocol

from cardtable.cards import BIG_JOKER_RANK, SMALL_JOKER_RANK, Card
from cardtable.games.guandan.ranks import ACE, BOMB_TYPES, RANKS, SEQUENCE_TYPES, is_wild, rank_name, value


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

