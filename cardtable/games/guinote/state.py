"""The Guiñote match: deal, the pinta and the stock, phase 1 and arrastre, the 7 exchange, cantes,
hands de vueltas with claims, partidas and cotos.

The moves are in :mod:`.moves`, the view in :mod:`.view`, the card sets as ints in :mod:`.bits` and the
upgrade of older move lists in :mod:`.legacy`; their public names are re-exported here."""

from __future__ import annotations

from bisect import insort
from collections.abc import Callable
from itertools import chain
from typing import Any, ClassVar

from cardtable.cards import SpanishCard
from cardtable.engine import (
    Bot,
    IllegalMove,
    Match,
    Options,
    Outcome,
)
from cardtable.games.guinote import rules
from cardtable.games.guinote.bits import (
    _ALL_BUT_SOTA,
    _BIT_OF,
    _CANTES_OF_COUPLES,
    CARD_BITS,
    SOTA_BITS,
    SUIT_SHIFT,
    plays_bits,
)
from cardtable.games.guinote.legacy import upgrade_moves
from cardtable.games.guinote.moves import (
    _CLAIM,
    _CODES,
    _DECK,
    _PLAY_OF,
    _PLAYS,
    Cante,
    Claim,
    Exchange,
    KeepSeven,
    Move,
    Play,
    decode_move,
    parse_move,
    play_of,
    rules_seven,
)
from cardtable.games.guinote.options import GuinoteOptions
from cardtable.games.guinote.view import _LAZY_FIELDS, GuinoteView, LazyValues, SungCante
from cardtable.rng import Rng, mix
from cardtable.tricks import partner, seats_from, team_of

__all__ = [
    "CARD_BITS", "SOTA_BITS", "SUIT_SHIFT", "_LAZY_FIELDS", "_PLAYS", "Cante", "Claim", "Exchange",
    "GuinoteMatch", "GuinoteOptions", "GuinoteView", "KeepSeven", "LazyValues", "Move", "Play", "SungCante",
    "decode_move", "parse_move", "play_of", "plays_bits", "rules_seven", "upgrade_moves",
]

_new = object.__new__
_ASK = object()          # (GuinoteMatch._view: the trick's winning play is not given)
_setattr = object.__setattr__


class GuinoteMatch(Match):
    game: ClassVar[str] = "guinote"
    options_type: ClassVar[type[Options]] = GuinoteOptions
    options: GuinoteOptions

    def __init__(self, options: GuinoteOptions, seed: int) -> None:
        super().__init__(options, seed)
        # Tuples, like every part of the state a view shows (tricks, winners, card points): replaced,
        # never changed in place, so that a view holds them without copying.
        self.score: tuple[int, int] = (0, 0)
        self.cotos: tuple[int, int] = (0, 0)
        self.finished = False
        self.results: list[dict[str, Any]] = []
        dealer = Rng(mix(self.seed, 0, 0x9D)).below(4)
        self._deal(dealer, vueltas=False, carry=(0, 0))

    def _deal(self, dealer: int, vueltas: bool, carry: tuple[int, int]) -> None:
        self.hand += 1
        deck = list(_DECK)         # spanish_deck()'s order, its cards made once
        Rng(mix(self.seed, self.hand, 0x61)).shuffle(deck)
        self.dealer = dealer
        self.mano = (dealer + 1) % 4
        # Card i goes to seat (mano + i) % 4: each seat takes every fourth card from its turn on.
        self.hands: list[list[SpanishCard]] = [deck[(s - self.mano) % 4:24:4] for s in range(4)]
        self.pinta: SpanishCard = deck[24]
        self.trump = self.pinta.suit
        self.stock: list[SpanishCard] = deck[25:]
        self.pinta_taker: int | None = None
        self.exchange: tuple[int, SpanishCard] | None = None
        self.leader = self.mano
        self.trick: tuple[tuple[int, SpanishCard], ...] = ()
        # (a trick, the index of its winning play): kept as cards are played; another trick (set by
        # hand) has its winner worked out (see top_index).
        self._top: tuple[tuple, int] = ((), 0)
        self.tricks: tuple[tuple[tuple[int, SpanishCard], ...], ...] = ()
        # (the tricks, the bits of their cards, the views' cell for their cards): the bits added to as
        # each trick ends, recounted when ``tricks`` is some other tuple (a search world's, a test's); the
        # cell, [cards or None], filled by the first view asked (see finished_cards) and shared by every
        # view of these tricks.
        self._done_bits: tuple[tuple, int, list] = ((), 0, [None])
        self.winners: tuple[int, ...] = ()
        self.card_points: tuple[int, int] = (0, 0)
        self.cantes: tuple[tuple[int, str, int, int], ...] = ()   # (seat, suit, points, after trick n)
        # (the cantes, as the seats of pair 0 see them, as those of pair 1 do): made again for a new
        # cantes tuple (see _sung).
        self._sung_views: tuple[tuple, tuple[SungCante, ...], tuple[SungCante, ...]] = ((), (), ())
        self.window_pair: int | None = None
        self.window_singers: set[int] = set()
        self._window_moves: dict[int, tuple[Move, ...]] = {}   # see _optional
        self.exchange_seat: int | None = None       # asked about the exchange; the draw waits for it
        self.pending_draw: tuple[int, int] | None = None   # (trick winner, trick number) of that draw
        self.vueltas = vueltas
        self.carry = carry
        self._sort_hands()
        code = _CODES.__getitem__
        self._record({"type": "deal", "hand": self.hand,
                         "hands": [list(map(code, h)) for h in self.hands], "dealer": dealer,
                         "mano": self.mano, "pinta": self.pinta.code, "stock": list(map(code, self.stock)),
                         "vueltas": vueltas, "carry": list(carry)})

    def _sort_hands(self) -> None:
        """Put every hand in display order (``rules.sort_keys``). The match keeps them so (a draw or an
        exchange inserts its card in place, a play removes one): whoever edits ``hands`` directly (a
        search world, a test) calls this afterwards."""
        key = _sort_ranks(self.trump).__getitem__
        for h in self.hands:
            h.sort(key=key)
        self._window_moves = {}

    # -- whose turn
    @property
    def phase(self) -> str:
        """``"over"``, ``"exchange"`` (the trick winner's pair says whether it exchanges the 7 of trumps,
        before the draw) or ``"play"``."""
        if self.finished:
            return "over"
        if self._held_deal is not None:
            return "hand_over"
        return "exchange" if self.pending_draw is not None else "play"

    def to_move(self) -> int | None:
        if self.finished:
            return None
        if self.pending_draw is not None:
            return self.exchange_seat
        if not self.trick:
            return self.leader if self._held_deal is None else None
        return (self.trick[-1][0] + 1) % 4

    def top_index(self) -> int:
        """The index of the current trick's winning play so far (``rules.winner_index``); the trick
        must not be empty."""
        top = self._top
        if top[0] is self.trick:
            return top[1]
        return rules.winner_index(self.trick, self.trump)

    def automatic_move(self, seat: int) -> KeepSeven | None:
        """The keep of a seat asked about the exchange without the 7 of trumps: its only move, made by
        the table (a person is not stopped for it; nothing shows whether the seat had a choice)."""
        if self.pending_draw is None or seat != self.exchange_seat or rules_seven(self.trump) in self.hands[seat]:
            return None
        [keep] = self._legal(seat)        # its only move, offered: ``apply`` trusts it
        assert isinstance(keep, KeepSeven)
        return keep

    def optional_movers(self) -> list[int]:
        pair = self.window_pair
        if pair is None or self.finished or self.pending_draw is not None:
            return []
        movers = [pair] if self._optional(pair) else []
        if self._optional(pair + 2):
            movers.append(pair + 2)
        return movers

    def _optional(self, seat: int) -> tuple[Move, ...]:
        """The cantes and the claim ``seat`` may make now (in its pair's window), worked out once per
        seat and window: ``_window_moves`` is emptied whenever what they depend on changes (a play, a
        cante, the window's opening, a deal, an edit of the hands followed by ``_sort_hands``, a clone)."""
        if self.window_pair is None or seat % 2 != self.window_pair:       # team_of
            return ()
        known = self._window_moves
        moves = known.get(seat)
        if moves is None:
            moves = known[seat] = self._window_options(seat)
        return moves

    def _window_options(self, seat: int) -> tuple[Move, ...]:
        moves: list[Move] = []
        if not (self.options.cantes_per_win == "one_per_player" and seat in self.window_singers):
            hand = self.hands[seat]
            bits = sum(map(_BIT_OF, hand))
            couples = bits & bits >> 1 & SOTA_BITS        # a Rey and a Sota of one suit (rules.can_sing)
            if couples:
                for _, suit, _, _ in self.cantes:         # not sung yet
                    couples &= _ALL_BUT_SOTA[suit]
                moves = list(_CANTES_OF_COUPLES[couples])
        if self.vueltas and self.options.vueltas_end == "claim":
            moves.append(_CLAIM)
        return tuple(moves)

    def legal_moves(self, seat: int | None = None) -> list[Move]:
        return list(self._legal(seat))

    def _legal(self, seat: int | None, to_move: int | None = -1) -> tuple[Move, ...]:
        """``legal_moves`` as the tuple a view holds: the plays first, in the order of the hand, then the
        other moves. The tuple is trusted for ``seat`` as :meth:`Match._offer` trusts its list.
        ``to_move``: the seat to move when the caller has just asked (-1: not given)."""
        if to_move == -1:
            to_move = self.to_move()
        if to_move is None:
            return ()
        seat = to_move if seat is None else seat
        moves: tuple[Move, ...]
        if self.pending_draw is not None:
            seven = rules_seven(self.trump)
            moves = ()
            if seat == self.exchange_seat:
                moves = (Exchange(seven), KeepSeven(seven)) if seven in self.hands[seat] else (KeepSeven(seven),)
        else:
            if seat != to_move:
                moves = ()
            elif len(self.tricks) < rules.PHASE1_TRICKS:
                moves = tuple(map(_PLAY_OF, self.hands[seat]))
            else:
                trick = self.trick
                moves = tuple(map(_PLAY_OF, rules.arrastre_plays(self.hands[seat], trick, seat, self.trump,
                                                                 self.top_index() if trick else None)))
            if self.window_pair is not None and seat % 2 == self.window_pair:
                moves += self._optional(seat)
        self._trusted = (seat, moves, seat == to_move)
        return moves

    # -- checking and applying
    def _check(self, move: Any, seat: int) -> None:
        if self.pending_draw is not None:
            if move in self.legal_moves(seat):
                return
            if isinstance(move, KeepSeven | Exchange) and seat == self.exchange_seat:
                raise IllegalMove("only the holder of the 7 of trumps may exchange it", "gn_no_seven")
            raise IllegalMove("first the pair that won the trick says whether it exchanges the 7 of trumps "
                              "(the trick winner, then the partner), then everybody draws",
                              "gn_exchange_first", name=self.exchange_seat)
        if isinstance(move, Play):
            if seat != self.to_move():
                raise IllegalMove("it is not your turn to play", "not_your_turn")
            if move.card not in self.hands[seat]:
                raise IllegalMove(f"{move.card} is not in your hand", "gn_not_in_hand", card=move.card.code)
            if len(self.tricks) >= rules.PHASE1_TRICKS:
                why = rules.refusal_reason(move.card, self.hands[seat], self.trick, seat, self.trump)
                if why is not None:
                    raise IllegalMove(why[0], why[1], **why[2])
            return
        if move not in self._optional(seat):
            if isinstance(move, Exchange | KeepSeven):
                raise IllegalMove("the 7 of trumps may be exchanged only by the pair that has just won one "
                                  "of the first four tricks, for a counting pinta, before the draw",
                                  "gn_no_exchange")
            if isinstance(move, Cante):
                raise IllegalMove("a cante needs the Rey and the Sota of a suit not yet sung, right after "
                                  "your pair wins a trick", "gn_no_cante", suit=move.suit)
            if isinstance(move, Claim):
                raise IllegalMove("you may claim only in a hand de vueltas, right after your pair wins a trick",
                                  "gn_no_claim")
            raise IllegalMove(f"not a Guiñote move: {move!r}")

    def _apply(self, move: Move, seat: int) -> None:
        if type(move) is Play:              # (the common case first)
            self._play(seat, move.card)
        elif isinstance(move, Exchange):
            self._exchange(seat)
            self._draw_and_open_window()
        elif isinstance(move, KeepSeven):
            self._next_asked(seat)
        elif isinstance(move, Cante):
            self.cantes += ((seat, move.suit, rules.cante_value(move.suit, self.trump), len(self.tricks)),)
            self.window_singers.add(seat)
            self._window_moves = {}
            self._auto_vueltas_check()
        elif isinstance(move, Claim):
            pair = team_of(seat)
            right = self._total(pair) > rules.WIN_LINE
            self._end_hand(winner=pair if right else 1 - pair, claim={"pair": pair, "right": right})

    def _exchange(self, seat: int) -> None:
        """Swap the 7 of trumps for the pinta, before the draw (so after the 4th trick the last drawer
        takes the 7)."""
        seven = rules_seven(self.trump)
        pinta_card = self.pinta
        hand = self.hands[seat]
        hand.remove(seven)
        insort(hand, pinta_card, key=_sort_ranks(self.trump).__getitem__)
        self.pinta = seven
        self.exchange = (seat, pinta_card)
        self.exchange_seat = None

    def _play(self, seat: int, card: SpanishCard) -> None:
        if self.window_pair is not None:
            self.window_pair = None
            self._window_moves = {}
        if self.window_singers:
            self.window_singers = set()
        self.hands[seat].remove(card)
        before = self.trick
        trick = self.trick = before + ((seat, card),)
        top = self._top
        if not before:
            best = 0
        elif top[0] is before:              # the card that was winning: is it beaten?
            best = len(before) if card in rules.BEATERS[self.trump][before[top[1]][1]] else top[1]
        else:                               # (a trick set by hand: a search world's, a test's)
            best = rules.winner_index(trick, self.trump)
        self._top = (trick, best)
        if len(trick) < 4:
            return
        winner = trick[best][0]
        pair = winner % 2                                  # team_of
        points = rules.POINTS_OF
        won = points[trick[0][1]] + points[trick[1][1]] + points[trick[2][1]] + points[trick[3][1]]
        done, tricks = self._done_bits, self.tricks
        self.tricks = tricks + (trick,)
        if done[0] is tricks:
            self._done_bits = (self.tricks, done[1] + plays_bits(trick), [None])
        self.winners += (winner,)
        self.trick = ()
        self.leader = winner
        number = len(self.tricks)
        if number == rules.TRICKS:
            won += rules.ULTIMAS
        first, second = self.card_points                 # _added, written out
        self.card_points = (first + won, second) if pair == 0 else (first, second + won)
        if number == rules.TRICKS:
            self._end_hand(winner=None, claim=None, complete=True)
            return
        if self.vueltas:
            hand = self.hand
            self._auto_vueltas_check()
            if self.finished or self.hand != hand:
                return
        # After a won trick: the exchange of the 7 (before any card is drawn), then the draw, then
        # cantes and a claim, then the lead.
        self.pending_draw = (winner, number) if number <= rules.PHASE1_TRICKS else None
        self.exchange_seat = winner if self.pending_draw and self.exchange_possible() else None
        if self.exchange_seat is None:
            self._draw_and_open_window()

    def _next_asked(self, seat: int) -> None:
        """After ``seat`` kept (or had no 7): its partner is asked if the trick winner was, else the draw."""
        assert self.pending_draw is not None
        if seat == self.pending_draw[0]:
            self.exchange_seat = partner(seat)
        else:
            self._draw_and_open_window()

    def _draw_and_open_window(self) -> None:
        """Make the pending draw (if any) and open the cantes and claims to the trick winner's pair."""
        winner = self.winners[-1]
        if self.pending_draw is not None:
            self._draw(*self.pending_draw)
        self.pending_draw = None
        self.exchange_seat = None
        self.window_pair = winner % 2                      # team_of
        self._window_moves = {}

    def exchange_possible(self) -> bool:
        """May the 7 of trumps still be exchanged in this hand, as anybody at the table can tell: not yet
        exchanged, an exchangeable pinta (not the 7 itself), the pinta still by the stock and the 7 not
        played. Where the 7 is (which hand, or the stock) is never asked: after each of tricks 1-4 the
        exchange phase happens on public facts alone, so being asked tells the table nothing."""
        if self.exchange is not None or self.pinta_taker is not None:
            return False
        if not rules.exchange_allowed(self.pinta, self.options.exchange_any_pinta):
            return False
        seven = rules_seven(self.trump)
        tricks, done = self.tricks, self._done_bits
        if done[0] is tricks:                    # (the finished tricks' cards, kept as they end)
            return not done[1] & CARD_BITS[seven]
        return all(card != seven for trick in tricks for _, card in trick)

    def _draw(self, winner: int, round_number: int) -> None:
        """Each seat from the trick winner on draws a card (the last of round 4 takes the pinta), put in
        its place in the hand: the hands are kept in display order (see _sort_hands)."""
        place = _sort_ranks(self.trump).__getitem__
        hands, stock = self.hands, self.stock
        for j, seat in enumerate(seats_from(winner)):
            if round_number == rules.PHASE1_TRICKS and j == 3:
                card = self.pinta
                self.pinta_taker = seat
            else:
                card = stock.pop(0)
            insort(hands[seat], card, key=place)

    # -- totals and the end of a hand
    def _cante_points(self, pair: int) -> int:
        return sum(points for seat, _, points, _ in self.cantes if team_of(seat) == pair)

    def _total(self, pair: int) -> int:
        return self.carry[pair] + self.card_points[pair] + self._cante_points(pair)

    def _auto_vueltas_check(self) -> None:
        if not (self.vueltas and self.options.vueltas_end == "auto") or self.finished:
            return
        over = [pair for pair in (0, 1) if self._total(pair) > rules.WIN_LINE]
        if over:
            self._end_hand(winner=over[0], claim=None)

    def _end_hand(self, winner: int | None, claim: dict | None, complete: bool = False) -> None:
        totals = [self._total(0), self._total(1)]
        ultimas = team_of(self.winners[-1]) if complete else None
        if complete:
            thirty = list(self.card_points)
            if not self.options.thirty_includes_ultimas:
                assert ultimas is not None
                thirty[ultimas] -= rules.ULTIMAS
            winner = rules.decide_hand(totals, thirty, ultimas, thirty_rule=not self.vueltas)
        coto_done = False
        if winner is not None:
            self.score = _added(self.score, winner, 1)
            if self.score[winner] >= self.options.points_per_coto:
                self.cotos = _added(self.cotos, winner, 1)
                coto_done = True
        record = {
            "type": "hand_end", "hand": self.hand, "points": list(self.card_points),
            "cantes": [self._cante_points(0), self._cante_points(1)], "ultimas": ultimas,
            "totals": totals, "winner": winner, "claim": claim, "score": list(self.score),
            "cotos": list(self.cotos),
        }
        self._record(record)
        self.results.append(record)
        self.window_pair = None
        self._window_moves = {}
        self.exchange_seat = None
        self.pending_draw = None
        last_winner = self.winners[-1] if self.winners else self.leader
        if coto_done:
            self.score = (0, 0)
        if winner is not None and self.cotos[winner] >= self.options.cotos:
            self.finished = True
            self._record({"type": "match_end", "winner": winner, "cotos": list(self.cotos),
                             "hands": self.hand})
            return
        vueltas = winner is None
        self._deal_next_hand(dealer=last_winner, vueltas=vueltas,
                             carry=(totals[0], totals[1]) if vueltas else (0, 0))

    # -- views
    def view(self, seat: int) -> GuinoteView:
        return self._view(seat, self.to_move())

    def _view(self, seat: int, to_move: int | None, legal: tuple[Move, ...] | None = None,
              top: Any = _ASK) -> GuinoteView:
        """``view(seat)``, the seat to move given (and its legal moves, when the caller has just made them
        with ``_legal`` or as :meth:`play_auto_move` does; and the trick's winning play, when the caller
        knows it)."""
        tricks, trick = self.tricks, self.trick
        done = self._done_bits
        if done[0] is not tricks:
            done = self._done_bits = (tricks, plays_bits(chain.from_iterable(tricks)), [None])
        cantes = self.cantes
        sung = self._sung_views
        if sung[0] is not cantes:
            sung = self._sung_views = (cantes, _sung(cantes, 0), _sung(cantes, 1))
        if top is _ASK:
            if trick:
                memo = self._top                  # top_index(), written out
                top = trick[memo[1] if memo[0] is trick else rules.winner_index(trick, self.trump)]
            else:
                top = None
        key = self._bot_key_bytes or self._bot_key()
        pinta_taker = self.pinta_taker
        view = _new(GuinoteView)
        # The fields every bot reads, as the dataclass __init__ would store them (see views.fast_view), in
        # one dict; the others' values in the order of _LAZY_FIELDS, read on first use (views.LazyFields);
        # besides them the cell of the finished tricks' cards (see finished_cards) and their bits.
        _setattr(view, "__dict__", {
            "seat": seat, "trump": self.trump, "to_move": to_move, "hand": tuple(self.hands[seat]),
            "pinta": self.pinta, "pinta_taker": pinta_taker,
            "trick": trick, "tricks": tricks, "top": top,
            "cantes": sung[1 + seat % 2],
            "legal": self._legal(seat, to_move) if legal is None else legal,
            "_tricks_cards": done[2], "_done_bits": done[1],
            # LazyValues' fields, in order (a plain tuple: a NamedTuple's construction, a Python frame,
            # would cost a fast bot's decision ~10%; tests/test_guinote_fast_bots.py checks each value)
            "_lazy": (
                self.options, self.hand, self.dealer, self.mano, len(self.stock) + (pinta_taker is None),
                self.exchange, tuple(map(len, self.hands)), self.winners, self.card_points, self.window_pair,
                self.exchange_seat if self.pending_draw is not None else None, self.vueltas, self.carry,
                self.score, self.cotos, self.finished, (key, len(self.moves), seat))})
        return view

    def clone(self) -> GuinoteMatch:
        twin = GuinoteMatch.__new__(GuinoteMatch)
        twin.__dict__.update(self.__dict__)
        self._copy_base(twin)
        twin.results = list(self.results)
        twin.hands = [list(h) for h in self.hands]
        twin.stock = list(self.stock)
        twin.window_singers = set(self.window_singers)
        twin._window_moves = {}
        return twin

    def outcome(self) -> Outcome:
        """Totals are the cotos of each seat's pair; the winners are the pair that won the match."""
        winners: tuple[int, ...] = ()
        if self.finished:
            pair = next(r["winner"] for r in reversed(self.results) if r["winner"] is not None)
            winners = (pair, pair + 2)
        return Outcome(self.finished, winners, tuple(self.cotos[s % 2] for s in range(4)))

    def returns(self) -> tuple[float, ...]:
        """Per pair: over the hands finished so far, +1 for the pair that won the hand and -1 for the
        other; a hand that goes de vueltas counts 0 (the hand de vueltas decides)."""
        score = [0.0, 0.0]
        for record in self.results:
            if record["winner"] is not None:
                score[record["winner"]] += 1
                score[1 - record["winner"]] -= 1
        return tuple(score[s % 2] for s in range(4))

    def redeal_hidden(self, seat: int, rng: Rng) -> GuinoteMatch:
        from cardtable.games.guinote.sampling import sample_world

        world = self.clone()
        hands, stock = sample_world(self.view(seat), rng)
        world.hands, world.stock = hands, stock
        world._sort_hands()       # the seat asked about the exchange may or may not hold the 7 there
        return world

    @classmethod
    def from_view(cls, view: GuinoteView, rng: Rng) -> GuinoteMatch:
        """:meth:`Match.from_view`: a match consistent with ``view``, the other hands and the stock's
        order drawn by the sampler."""
        from cardtable.games.guinote.sampling import sample_world

        hands, stock = sample_world(view, rng)
        # A real match first (so every field the engine keeps exists), then this view's state over it.
        match = cls(view.options, 0)
        match.hand = view.hand_number
        match.score = view.score
        match.cotos = view.cotos
        match.finished = view.over
        match.results = []
        match.dealer = view.dealer
        match.mano = view.mano
        match.hands = [list(h) for h in hands]
        match.pinta = view.pinta
        match.trump = view.trump
        match.stock = list(stock)
        match.pinta_taker = view.pinta_taker
        match.exchange = view.exchange
        assert view.to_move is not None          # a world is built for a seat deciding
        if view.trick:
            match.leader = view.trick[0][0]
        elif view.deciding is not None:         # the exchange phase: the trick winner leads after the draw
            match.leader = view.winners[-1]
        else:
            match.leader = view.to_move
        match.trick = tuple(view.trick)
        match.tricks = tuple(view.tricks)
        match.winners = tuple(view.winners)
        match.card_points = view.card_points
        match.cantes = tuple(_world_cantes(view))
        match.window_pair = view.window_pair
        match.window_singers = {seat for seat, _, _, after in match.cantes
                                if view.window_pair is not None and after == len(view.tricks)
                                and team_of(seat) == view.window_pair}
        # The exchange of the 7 is a phase of its own before the draw: the seat asked (public: the trick
        # winner, then its partner, holder of the 7 or not) and the draw that waits for it, of the trick
        # just won. Whether the seat asked holds the 7 is the sampler's draw, like any hidden card.
        match.exchange_seat = view.deciding
        match.pending_draw = (view.winners[-1], len(view.tricks)) if view.deciding is not None else None
        match.vueltas = view.vueltas
        match.carry = view.carry
        match._sort_hands()
        return match

    def summary(self) -> str:
        state = "finished" if self.finished else f"hand {self.hand}, trick {len(self.tricks) + 1}"
        return (f"Guiñote · {state} · cotos {self.cotos[0]}-{self.cotos[1]} · "
                f"hands {self.score[0]}-{self.score[1]}")

    def progress(self) -> dict[str, Any]:
        return {"over": self.finished, "hand": self.hand, "trick": len(self.tricks) + 1,
                "us": self.score[0], "them": self.score[1], "cotos_us": self.cotos[0],
                "cotos_them": self.cotos[1]}

    @classmethod
    def decode_move(cls, data: Any) -> Move:
        return decode_move(data)

    @classmethod
    def parse_move(cls, text: str) -> Move:
        return parse_move(text)

    # -- the history leaves out a declined exchange
    def reveals(self, move: Any) -> bool:
        """Every move but a play: the exchange shows the 7, a keep and a claim tell about the hand, a
        cante shows a Rey and a Sota."""
        return type(move) is not Play

    def silent(self, move: Any) -> bool:
        return isinstance(move, KeepSeven)

    def play_auto_move(self, bot_for: Callable[[int], Bot | None]) -> tuple[int, Any] | None:
        """:meth:`Match.play_auto_move` with its common case in one call: in the middle of a trick (no
        exchange pending, and nobody able to sing or claim) no seat has an automatic or an optional move,
        so the next move is the bot's to move, asked with a view holding the plays already worked out
        (trusted, so ``apply`` does not check the bot's choice again). Any other case is the base's."""
        pair = self.window_pair
        if self.pending_draw is not None or self.finished or self._held_deal is not None or (
                pair is not None and (self._optional(pair) or self._optional(pair + 2))):  # optional_movers()
            return super().play_auto_move(bot_for)
        trick = self.trick
        seat = (trick[-1][0] + 1) % 4 if trick else self.leader      # to_move()
        bot = bot_for(seat)
        if bot is None:
            return None
        # _legal(seat, seat), written out for this case: the plays only (a seat of the window's pair
        # has no cante or claim here, or it would be an optional mover); and the trick's winning play
        # (top_index), which the view shows and arrastre's plays depend on.
        cards = self.hands[seat]
        if trick:
            memo = self._top
            index = memo[1] if memo[0] is trick else rules.winner_index(trick, self.trump)
            top = trick[index]
            if len(self.tricks) >= rules.PHASE1_TRICKS:
                cards = rules.arrastre_plays(cards, trick, seat, self.trump, index)
        else:
            top = None                 # (a lead: any card of the hand, in arrastre too)
        legal = tuple(map(_PLAY_OF, cards))
        self._trusted = (seat, legal, True)
        move = bot.choose(self._view(seat, seat, legal, top))
        # One of the very plays offered (the Play of one of the cards: a Play's == is a Python call)?
        if type(move) is Play and (card := move.card) in cards and _PLAYS[card] is move:
            self._apply_offered(move, seat)
        else:
            self.apply(move, seat)
        return seat, move

    def implied_move(self, seat: int, move: Any) -> tuple[int, Any] | None:
        """A history line that is not the exchange of the seat asked implies that seat kept the 7 (or had
        none): the next of those silent keeps (``history.replay`` asks again until there is none)."""
        asked = self.exchange_seat
        if self.pending_draw is None or asked is None or (seat == asked and isinstance(move, Exchange)):
            return None
        return asked, KeepSeven(rules_seven(self.trump))

    @classmethod
    def replay(cls, options: Options, seed: int, moves: Any) -> GuinoteMatch:
        """Rebuild a match from its moves. Older move lists are read too: those of cardtable 0.1 (the
        draw came first and the exchange stayed open until the next lead, with no move for declining)
        and those written while only the pair's holder of the 7 was asked (no keep by a seat without
        the 7, and no phase at all when the pair had no 7). Each exchange moves to the start of its
        window and a keep is supplied for every seat asked that made no decision; the hands come out
        the same (the exchange phase never changes what anyone draws)."""
        moves = list(moves)
        try:
            return super().replay(options, seed, moves)
        except IllegalMove:
            assert isinstance(options, GuinoteOptions)
            upgraded = upgrade_moves(options, seed, moves)
            if upgraded == moves:
                raise
        return super().replay(options, seed, upgraded)


_SORT_RANKS: dict[str, dict[SpanishCard, int]] = {}


def _sort_ranks(trump: str) -> dict[SpanishCard, int]:
    """Each card's place in ``rules.sort_keys(trump)``'s order (distinct keys: one order), for sorting
    by an int."""
    ranks = _SORT_RANKS.get(trump)
    if ranks is None:
        keys = rules.sort_keys(trump)
        ranks = _SORT_RANKS[trump] = {card: i for i, card in enumerate(sorted(keys, key=keys.__getitem__))}
    return ranks


def _sung(cantes: tuple[tuple[int, str, int, int], ...], pair: int) -> tuple[SungCante, ...]:
    """The cantes as a seat of ``pair`` sees them (a 20 sung by the other pair in arrastre shows no
    suit: ``rules.hidden_cante``)."""
    return tuple(SungCante(singer, None if (singer % 2 != pair and rules.hidden_cante(points, after))
                           else suit, points, after)
                 for singer, suit, points, after in cantes)


def _added(pair_values: tuple[int, int], index: int, amount: int) -> tuple[int, int]:
    """``pair_values`` with ``amount`` added at ``index`` (0 or 1)."""
    first, second = pair_values
    return (first + amount, second) if index == 0 else (first, second + amount)


def _world_cantes(view: GuinoteView) -> list[tuple[int, str, int, int]]:
    """The cantes as the engine keeps them. A 20 sung by the other pair in arrastre is public only as
    «20»: it gets a plain suit nobody has sung (which suit it was changes nothing but which suits remain
    to sing, and the sampler cannot know it either)."""
    known = {c.suit for c in view.cantes if c.suit is not None}
    out = []
    for cante in view.cantes:
        suit = cante.suit
        if suit is None:
            suit = next(s for s in "OCEB" if s != view.trump and s not in known)
            known.add(suit)
        out.append((cante.seat, suit, cante.points, cante.trick))
    return out
