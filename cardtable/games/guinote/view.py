"""What one Guiñote seat may know: :class:`GuinoteView`, built by the match (``GuinoteMatch.view``)."""

from __future__ import annotations

import dataclasses
import functools
from itertools import chain
from typing import NamedTuple

from cardtable.cards import SpanishCard
from cardtable.games.guinote import rules
from cardtable.games.guinote.bits import _SECOND, plays_bits
from cardtable.games.guinote.options import GuinoteOptions
from cardtable.tricks import team_of
from cardtable.views import LazyBotSeed, LazyFields, lazy_fields


@dataclasses.dataclass(frozen=True)
class SungCante:
    seat: int
    suit: str | None      # None: a 20 sung in arrastre, hidden from this seat
    points: int
    trick: int            # sung after this many tricks


@dataclasses.dataclass(frozen=True)
class GuinoteView(LazyFields, LazyBotSeed):
    seat: int
    options: GuinoteOptions
    hand_number: int
    dealer: int
    mano: int
    trump: str
    pinta: SpanishCard               # the face-up card by the stock (or the 7 that replaced it)
    pinta_taker: int | None          # who drew it in the last round
    stock_count: int
    exchange: tuple[int, SpanishCard] | None   # (seat, the pinta card it received)
    to_move: int | None
    hand: tuple[SpanishCard, ...]
    counts: tuple[int, ...]
    trick: tuple[tuple[int, SpanishCard], ...]
    tricks: tuple[tuple[tuple[int, SpanishCard], ...], ...]
    winners: tuple[int, ...]
    card_points: tuple[int, int]     # per pair, tricks won so far (las últimas once trick 10 is won)
    cantes: tuple[SungCante, ...]
    window_pair: int | None          # the pair that may sing/claim now (after the draw)
    deciding: int | None             # the seat asked about the exchange of the 7, before the draw (public:
                                     # both seats of the pair are asked, holder of the 7 or not)
    vueltas: bool
    carry: tuple[int, int]
    score: tuple[int, int]           # points (hands) in the current coto
    cotos: tuple[int, int]
    over: bool
    legal: tuple
    decision: tuple[bytes, int, int]              # (bot key, move number, seat): see bot_seed

    @functools.cached_property
    def top(self) -> tuple[int, SpanishCard] | None:
        """The trick's winning play so far (``rules.winner_index``), None before the lead. (The match
        gives it to its views; a view built otherwise works it out.)"""
        return self.trick[rules.winner_index(self.trick, self.trump)] if self.trick else None

    @property
    def arrastre(self) -> bool:
        return len(self.tricks) >= rules.PHASE1_TRICKS

    def cante_points(self, pair: int) -> int:
        return sum(c.points for c in self.cantes if team_of(c.seat) == pair)

    def total(self, pair: int) -> int:
        """The pair's running total: carry + card points + cantes."""
        return self.carry[pair] + self.card_points[pair] + self.cante_points(pair)

    @property
    def played(self) -> frozenset[SpanishCard]:
        return self.finished_cards() | {c for _, c in self.trick}

    def finished_cards(self) -> frozenset[SpanishCard]:
        """The cards of the finished tricks: worked out once for every view the match builds until the
        next trick ends (they share a cell), else here."""
        cell = self.__dict__.get("_tricks_cards")
        if cell is not None and cell[0] is not None:
            return cell[0]
        done = frozenset(map(_SECOND, chain.from_iterable(self.tricks)))
        if cell is not None:
            cell[0] = done
        return done

    def finished_bits(self) -> int:
        """:meth:`finished_cards` as a set of :data:`CARD_BITS` (the match's count, given to its views)."""
        done = self.__dict__.get("_done_bits")
        return plays_bits(chain.from_iterable(self.tricks)) if done is None else done


class LazyValues(NamedTuple):
    """The fields a view fills on first use (``views.LazyFields``), in the order of the values of its
    ``_lazy`` tuple, as ``GuinoteMatch._view`` builds it: the one list of them."""

    options: GuinoteOptions
    hand_number: int
    dealer: int
    mano: int
    stock_count: int
    exchange: tuple[int, SpanishCard] | None
    counts: tuple[int, ...]
    winners: tuple[int, ...]
    card_points: tuple[int, int]
    window_pair: int | None
    deciding: int | None
    vueltas: bool
    carry: tuple[int, int]
    score: tuple[int, int]
    cotos: tuple[int, int]
    over: bool
    decision: tuple[bytes, int, int]


_LAZY_FIELDS = LazyValues._fields
lazy_fields(GuinoteView, _LAZY_FIELDS)
