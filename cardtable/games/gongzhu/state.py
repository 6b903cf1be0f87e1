"""The Gong Zhu match: deal, showing phase, thirteen tricks, scoring, match end."""

from __future__ import annotations

import dataclasses
import functools
import itertools
import operator
from collections.abc import Callable
from typing import Any, ClassVar

from cardtable.cardmoves import CardMove, by_key, decode_card_move
from cardtable.cards import Card, CardError, french_deck, parse_card
from cardtable.engine import (
    IllegalMove,
    Match,
    MoveError,
    Options,
    Outcome,
    check_bool,
    check_choice,
    check_positive_int,
)
from cardtable.games.gongzhu import rules
from cardtable.games.gongzhu.rules import PIG, TWO_OF_CLUBS, PlayContext
from cardtable.rng import Rng, mix
from cardtable.views import LazyBotSeed

_new = object.__new__
_setattr = object.__setattr__

NUM_TRICKS = 13


@dataclasses.dataclass(frozen=True)
class GongZhuOptions(Options):
    target: int = 500                      # Quick ±500, Standard ±1000, or 0: no target, max_hands hands
    swap: bool = True                      # Pig–Goat swap after all hearts
    showing: bool = True                   # the showing phase
    transformer_zero_hearts: str = "alone"  # "alone": ♣10 with only ♥2-4 is alone; "standard": not
    max_hands: int = 30                    # the cap with a target; the length of the match without one
    all_hearts: int = 200                  # hearts line for all 13: 200 (every heart positive) or 400
    showable: str = "all"                  # "all": ♠Q ♦J ♣10 ♥A; "pig_transformer": only ♠Q and ♣10

    def __post_init__(self) -> None:
        check_choice("target", self.target, (500, 1000, 0))
        check_bool("swap", self.swap)
        check_bool("showing", self.showing)
        check_choice("transformer_zero_hearts", self.transformer_zero_hearts, ("alone", "standard"))
        check_positive_int("max_hands", self.max_hands, 1000)
        check_choice("all_hearts", self.all_hearts, (200, 400))
        check_choice("showable", self.showable, tuple(rules.SHOWABLE_SETS))

    @property
    def showable_cards(self) -> tuple[Card, ...]:
        return rules.SHOWABLE_SETS[self.showable]

    @property
    def fixed_hands(self) -> bool:
        """The house variant «a fixed number of hands»: no ± target, the match is max_hands hands."""
        return self.target == 0

    def score_hand(self, taken, shown) -> list[rules.Lines]:
        return rules.score_hand(taken, shown, self.swap, self.transformer_zero_hearts == "alone",
                                self.all_hearts)

    def score_taken(self, taken, shown, someone_took_all_hearts: bool = False) -> rules.Lines:
        return rules.score_taken(taken, shown, self.swap, self.transformer_zero_hearts == "alone",
                                 someone_took_all_hearts, self.all_hearts)


# ---------------------------------------------------------------- moves
@dataclasses.dataclass(frozen=True)
class Show:
    cards: tuple[Card, ...]

    def to_json(self) -> dict[str, Any]:
        return {"show": [card.code for card in self.cards]}

    def __str__(self) -> str:
        return "show " + (" ".join(c.code for c in self.cards) or "nothing")

    @classmethod
    def parse(cls, text: str) -> Show:
        """The inverse of ``str``: ``"show QS AH"``, ``"show nothing"``."""
        words = text.split() if isinstance(text, str) else []
        if not words or words[0] != "show" or len(words) == 1:
            raise MoveError(f"not a Gong Zhu show: {text!r} (write e.g. 'show QS AH' or 'show nothing')")
        move = decode_move({"show": [] if words[1:] == ["nothing"] else words[1:]})
        assert isinstance(move, Show)
        return move


@dataclasses.dataclass(frozen=True)
class Play(CardMove):
    card: Card

    @classmethod
    def parse(cls, text: str) -> Play:
        """The inverse of ``str``: a card code, ``"QS"``."""
        move = decode_move({"play": text.strip() if isinstance(text, str) else text})
        assert isinstance(move, Play)
        return move


_CARD_MOVES = by_key(Play)


def parse_move(text: str) -> Show | Play:
    """A move from its text form (``str(move)``): ``"QS"``, ``"show QS AH"``, ``"show nothing"``."""
    if isinstance(text, str) and text.split()[:1] == ["show"]:
        return Show.parse(text)
    return Play.parse(text)


_DECK = frozenset(french_deck())
_PLAYS = {card: Play(card) for card in french_deck()}
_CODES = {card: card.code for card in french_deck()}     # moves are values: one object per card will do


_CARD_OF = operator.attrgetter("card")
_SUIT = operator.itemgetter(1)
_ANY = rules.ANY


class _Split(dict):
    """One seat's hand as :func:`rules.legal_split` reads it, kept by the match between moves: suit →
    the Plays of that suit in hand order (each card removed as it is played), and ``rules.ANY`` → every
    Play of the hand in hand order, made when first asked (a lead or a discard) and dropped when a card
    is played."""

    __slots__ = ("hand", "suits")

    def __init__(self, hand: list[Card]) -> None:
        self.hand = hand                     # the match's own list of the seat's cards
        # ``suits``: the suits in hand order when each suit's cards lie together (a dealt hand, sorted),
        # so that the whole hand is its suits one after another; None when they do not (a sampled world)
        suits: list[str] | None = []
        plays = _PLAYS
        for suit, cards in itertools.groupby(hand, _SUIT):
            group = tuple(map(plays.__getitem__, cards))
            if suit in self:
                self[suit] += group
                suits = None
            else:
                self[suit] = group
                if suits is not None:
                    suits.append(suit)
        self.suits = suits

    def __missing__(self, key: str) -> tuple[Play, ...]:
        if key != rules.ANY:
            raise KeyError(key)
        if self.suits is None:
            whole = tuple(map(_PLAYS.__getitem__, self.hand))
        else:
            whole = ()
            for suit in self.suits:
                whole += self[suit]
        self[key] = whole
        return whole

    def play(self, card: Card) -> None:
        """``card`` has left the hand."""
        play = _PLAYS[card]
        self[card[1]] = tuple([p for p in self[card[1]] if p is not play])
        self.pop(rules.ANY, None)

    def copy_for(self, hand: list[Card]) -> _Split:
        twin = _Split.__new__(_Split)
        twin.update(self)
        twin.hand = hand
        twin.suits = self.suits
        return twin


# play_of(card): the Play of ``card``, the very object ``legal_moves`` offers (so a bot's choice takes the
# trusted path); the dict's own lookup, called once per decision.
play_of: Callable[[Card], Play] = _PLAYS.__getitem__


def decode_move(data: Any) -> Show | Play:
    try:
        play = decode_card_move(data, _CARD_MOVES, parse_card)
        if play is not None:
            return play
        if isinstance(data, dict) and set(data) == {"show"} and isinstance(data["show"], list):
            cards = [parse_card(code) for code in data["show"]]
            if all(c in rules.SHOWABLE for c in cards) and len(set(cards)) == len(cards):
                return Show(tuple(sorted(cards, key=rules.SHOWABLE.index)))
    except CardError as exc:
        raise MoveError(str(exc)) from None
    return _bad(data)


def _bad(data: Any):
    raise MoveError(f"not a Gong Zhu move: {data!r}")


def subsets(cards: list[Card]) -> list[tuple[Card, ...]]:
    out = []
    for mask in range(1 << len(cards)):
        out.append(tuple(card for i, card in enumerate(cards) if mask >> i & 1))
    return out


SHOW_NOTHING = Show(())     # the Show of nothing every showing list offers (first)


@functools.lru_cache(maxsize=64)
def _shows(showable: tuple[Card, ...]) -> tuple[Show, ...]:
    """The Show moves open to a hand holding ``showable`` (moves are values: shared, like the Plays)."""
    return tuple(Show(cards) if cards else SHOW_NOTHING for cards in subsets(list(showable)))


# ---------------------------------------------------------------- the view
@dataclasses.dataclass(frozen=True)
class GongZhuView(LazyBotSeed):
    """What one seat may know. During the showing phase the other seats' choices stay hidden until
    everyone has chosen (the choices are simultaneous)."""

    seat: int
    options: GongZhuOptions
    hand_number: int
    phase: str                                  # "show" | "play" | "over" | "hand_over" (held deal)
    to_move: int | None
    hand: tuple[Card, ...]
    counts: tuple[int, ...]
    shown: tuple[tuple[Card, ...], ...]         # per seat, public once the showing phase is over
    my_show: tuple[Card, ...] | None            # this seat's own choice (None before choosing)
    leader: int
    trick: tuple[tuple[int, Card], ...]
    tricks: tuple[tuple[tuple[int, Card], ...], ...]   # completed tricks of this hand, in order
    winners: tuple[int, ...]                    # winner of each completed trick
    taken: tuple[tuple[Card, ...], ...]         # point cards taken, per seat
    totals: tuple[int, ...]
    suits_led: frozenset[str]
    legal: tuple
    decision: tuple[bytes, int, int]              # (bot key, move number, seat): see bot_seed

    @functools.cached_property
    def played(self) -> frozenset[Card]:
        # The cards of the finished tricks: worked out once for every view the match builds until the
        # next trick ends (they share a cell with the tricks), else here.
        cell = self.__dict__.get("_tricks_cards")
        done = cell[0] if cell is not None else None
        if done is None:
            done = frozenset(card for trick in self.tricks for _, card in trick)
            if cell is not None:
                cell[0] = done
        return done | {c for _, c in self.trick}

    @functools.cached_property
    def unseen(self) -> frozenset[Card]:
        """The cards this seat has not seen: neither in its hand nor played."""
        return _DECK - self.played - frozenset(self.hand)

    @functools.cached_property
    def all_shown(self) -> frozenset[Card]:
        return frozenset(card for cards in self.shown for card in cards)

    def voids(self) -> list[set[str]]:
        """Suits each seat is known to lack (it failed to follow)."""
        out: list[set[str]] = [set(), set(), set(), set()]
        for trick in self.tricks + ((self.trick,) if self.trick else ()):
            lead = trick[0][1].suit
            for seat, card in trick[1:]:
                if card.suit != lead:
                    out[seat].add(lead)
        return out


# ---------------------------------------------------------------- the match
class GongZhuMatch(Match):
    game: ClassVar[str] = "gongzhu"
    options_type: ClassVar[type[Options]] = GongZhuOptions
    options: GongZhuOptions

    def __init__(self, options: GongZhuOptions, seed: int) -> None:
        super().__init__(options, seed)
        self.totals = [0, 0, 0, 0]
        self.results: list[list[dict[str, Any]]] = []     # per hand: the four lines (with totals)
        self.finished = False
        self._deal(leader=None)

    # -- dealing
    def _deal(self, leader: int | None) -> None:
        self.hand += 1
        deck = french_deck()
        Rng(mix(self.seed, self.hand, 0x6A2)).shuffle(deck)
        self._hands: list[list[Card]] = [sorted(deck[seat::4], key=rules.SORT_ORDER.__getitem__)
                                         for seat in range(4)]
        self._split: list[_Split | None] = [None] * 4     # each hand by suit, made when first asked
        if leader is None:
            leader = next(s for s in range(4) if TWO_OF_CLUBS in self._hands[s])
            self.must_lead_2c = True
        else:
            self.must_lead_2c = False
        self.leader = leader
        self.shown: list[tuple[Card, ...] | None] = [None] * 4 if self.options.showing else [()] * 4
        self.trick: list[tuple[int, Card]] = []
        self.tricks: list[tuple[tuple[int, Card], ...]] = []
        self.winners: list[int] = []
        self.taken: list[list[Card]] = [[], [], [], []]
        self.suits_led: set[str] = set()
        self._public: dict[str, Any] | None = None   # the views' copies of the fields above (None: rebuild)
        self._next: int | None = self._seat_to_move()
        self._record({"type": "deal", "hand": self.hand,
                         "hands": [list(map(_CODES.__getitem__, h)) for h in self._hands], "leader": leader})

    @property
    def hands(self) -> list[list[Card]]:
        """Each seat's cards, in hand order (read only: assign a new list of hands to change them)."""
        return self._hands

    @hands.setter
    def hands(self, hands: list[list[Card]]) -> None:
        self._hands = hands
        self._split = [None] * 4

    # -- the contract
    @property
    def phase(self) -> str:
        if self.finished:
            return "over"
        if self._held_deal is not None:
            return "hand_over"
        return "show" if None in self.shown else "play"

    def to_move(self) -> int | None:
        return self._next

    def reveals(self, move: Any) -> bool:
        """A show reveals its cards (the showing of nothing says that nothing was chosen)."""
        return isinstance(move, Show)

    def play(self, text: str, seat: int | None = None) -> Any:
        """:meth:`Match.play`; after a show, each next seat that has nothing it could show makes its only
        move, «show nothing», in the same call (so when nobody can show, one call makes all four)."""
        move = super().play(text, seat)
        if isinstance(move, Show):
            while self.phase == "show" and self._next is not None and not rules.showable_in(
                    self._hands[self._next], self.options.showable_cards):
                self.apply(SHOW_NOTHING)
        return move

    def _seat_to_move(self) -> int | None:
        """The seat to move, worked out from the state (kept as ``_next`` after every move)."""
        if self.finished:
            return None
        shown = self.shown
        if None in shown:
            return shown.index(None)
        trick = self.trick
        return (trick[-1][0] + 1) % 4 if trick else self.leader

    def _context(self, seat: int) -> PlayContext:
        return PlayContext(tuple(self.trick), self._public_fields()["suits_led"], frozenset(self.shown[seat] or ()),
                           self.must_lead_2c and not self.tricks and not self.trick)

    def _public_fields(self) -> dict[str, Any]:
        """What every view holds alike until the next card is shown or trick or hand ends, as a view's
        ``__dict__``: ``options``, ``hand_number``, ``leader``, ``shown``, ``tricks``, ``winners``,
        ``taken``, ``totals``, ``suits_led`` as the views hold them and ``_tricks_cards``, a cell for the
        cards of those tricks (filled by the first view asked for ``played``), with the fields every view
        has its own of (``None`` here) in their places. A view starts as a copy of it; the end of a
        trick updates it (:meth:`_trick_done`), anything else has it made again."""
        public = self._public
        if public is None:
            shown = (tuple(tuple(cards or ()) for cards in self.shown) if None not in self.shown
                     else ((),) * 4)
            taken = self.taken
            public = self._public = {
                "seat": None, "options": self.options, "hand_number": self.hand, "phase": None,
                "to_move": None, "hand": None, "counts": None, "shown": shown, "my_show": None,
                "leader": self.leader, "trick": None, "tricks": tuple(self.tricks), "winners": tuple(self.winners),
                "taken": (tuple(taken[0]), tuple(taken[1]), tuple(taken[2]), tuple(taken[3])),
                "totals": tuple(self.totals), "suits_led": frozenset(self.suits_led), "legal": None,
                "decision": None, "_tricks_cards": [None]}
        return public

    def _trick_done(self, trick: tuple[tuple[int, Card], ...], winner: int, suit_new: bool) -> None:
        """The views' public fields (made) after ``trick``, won by ``winner``, has been added to the state."""
        public = self._public
        assert public is not None
        public["tricks"] += (trick,)
        public["winners"] += (winner,)
        if any(card in rules.POINT_CARDS for _, card in trick):
            taken = list(public["taken"])
            taken[winner] = tuple(self.taken[winner])
            public["taken"] = tuple(taken)
        if suit_new:
            public["suits_led"] = frozenset(self.suits_led)
        public["leader"] = winner
        public["_tricks_cards"] = [None]

    def legal_moves(self, seat: int | None = None) -> list[Show | Play]:
        """The moves open to ``seat``, as a copy of the tuple the view holds: trusted for the seat to
        move as :meth:`Match._offer` trusts its list (``self._trusted`` keeps the tuple: nobody can
        edit it)."""
        to_move = self._next
        if to_move is None or (seat is not None and seat != to_move):
            return []
        shown = self.shown
        moves: tuple[Show | Play, ...]
        if shown[to_move] is None:
            moves = _shows(tuple(rules.showable_in(self._hands[to_move], self.options.showable_cards)))
        else:
            trick = self.trick
            split = self._split[to_move]
            if split is None:
                split = self._split[to_move] = _Split(self._hands[to_move])
            legal = rules.legal_split(split, trick, self.suits_led, shown[to_move],
                                      self.must_lead_2c and not trick and not self.tricks, _CARD_OF)
            moves = legal if type(legal) is tuple else tuple(legal)
        self._trusted = (to_move, moves, True)
        return list(moves)

    def _check(self, move: Any, seat: int) -> None:
        if self.phase == "show":
            if not isinstance(move, Show):
                raise IllegalMove("every player chooses what to show before the first lead", "gz_show_first")
            missing = [c for c in move.cards if c not in self._hands[seat]]
            if missing:
                raise IllegalMove(f"{missing[0]} is not in your hand", "gz_not_in_hand", card=missing[0].code)
            if any(c not in rules.SHOWABLE for c in move.cards) or len(set(move.cards)) != len(move.cards):
                raise IllegalMove("only ♠Q, ♦J, ♣10 and ♥A can be shown, once each", "gz_not_showable")
            if any(c not in self.options.showable_cards for c in move.cards):
                raise IllegalMove("at this table only ♠Q and ♣10 can be shown", "gz_not_showable_here")
            return
        if not isinstance(move, Play):
            raise IllegalMove("the showing phase is over: play a card", "gz_play_now")
        why = rules.refusal(move.card, self._hands[seat], self._context(seat))
        if why is not None:
            raise IllegalMove(why[0], why[1], **why[2])

    def _apply(self, move: Show | Play, seat: int) -> None:
        if type(move) is not Play:                  # (a Show: the play is the common case)
            assert isinstance(move, Show)
            self.shown[seat] = tuple(move.cards)
            self._public = None
            self._next = self._seat_to_move()
            return
        card = move.card
        self._hands[seat].remove(card)
        split = self._split[seat]
        if split is not None:                  # _Split.play(card), written out (a call per card saved)
            play, suit = _PLAYS[card], card[1]       # (the split's own Play: ``move`` may be an equal one)
            split[suit] = tuple([p for p in split[suit] if p is not play])
            split.pop(_ANY, None)
        trick = self.trick
        trick.append((seat, card))
        if len(trick) < 4:
            self._next = (seat + 1) % 4
        else:
            self._trick_end(trick)

    def _trick_end(self, trick: list[tuple[int, Card]]) -> None:
        """The fourth card of ``trick`` is down: its winner takes its point cards and leads next."""
        winner = trick[rules.trick_winner_index(trick)][0]
        points = rules.POINT_CARDS
        pile = self.taken[winner]
        for _, card in trick:
            if card in points:
                pile.append(card)
        suit = trick[0][1][1]
        suits_led = self.suits_led
        suit_new = suit not in suits_led
        suits_led.add(suit)
        done = tuple(trick)
        tricks = self.tricks
        tricks.append(done)
        self.winners.append(winner)
        self.trick = []
        self.leader = self._next = winner
        if len(tricks) == NUM_TRICKS:
            self._public = None
            self._end_hand()
        elif self._public is not None:
            self._trick_done(done, winner, suit_new)

    def _end_hand(self) -> None:
        shown_all = [c for cards in self.shown for c in (cards or ())]
        lines = self.options.score_hand(self.taken, shown_all)
        for seat in range(4):
            self.totals[seat] += lines[seat].hand
        self._public = None
        records = [lines[s].to_json(self.totals[s]) for s in range(4)]
        self.results.append(records)
        self._record({
            "type": "hand_end", "hand": self.hand,
            "taken": [list(map(_CODES.__getitem__, sorted(pile, key=rules.SORT_ORDER.__getitem__)))
                      for pile in self.taken],
            "shown": [list(map(_CODES.__getitem__, cards or ())) for cards in self.shown],
            "lines": records,
        })
        self.last_lines = lines
        target = self.options.target
        reached = not self.options.fixed_hands and any(abs(t) >= target for t in self.totals)
        if reached or self.hand >= self.options.max_hands:
            self.finished = True
            self._next = None
            best, worst = max(self.totals), min(self.totals)
            self._record({"type": "match_end", "hands": self.hand, "totals": list(self.totals),
                             "winners": [s for s in range(4) if self.totals[s] == best],
                             "pig": [s for s in range(4) if self.totals[s] == worst]})
            return
        pig_taker = next(s for s in range(4) if PIG in self.taken[s])
        if self._deal_next_hand(leader=pig_taker):
            self._next = None

    # -- views
    def view(self, seat: int) -> GongZhuView:
        fields = (self._public or self._public_fields()).copy()
        shown = self.shown
        to_move = self._next
        phase = self.phase if to_move is None else "show" if shown[to_move] is None else "play"
        hands = self._hands
        # Every field, as the dataclass __init__ would store them (see views.fast_view), in one dict that
        # starts as a copy of the public ones; besides them the cell of the finished tricks' cards, for
        # ``played``.
        fields["seat"] = seat
        fields["phase"] = phase
        fields["to_move"] = to_move
        fields["hand"] = tuple(hands[seat])
        fields["counts"] = (len(hands[0]), len(hands[1]), len(hands[2]), len(hands[3]))
        fields["my_show"] = shown[seat]
        fields["trick"] = tuple(self.trick)
        if to_move == seat:
            self.legal_moves(seat)
            offered = self._trusted
            assert offered is not None               # the tuple just offered
            fields["legal"] = offered[1]
        else:
            fields["legal"] = ()
        fields["decision"] = (self._bot_key_bytes or self._bot_key(), len(self.moves), seat)
        view = _new(GongZhuView)
        _setattr(view, "__dict__", fields)
        return view

    # -- utilities
    def clone(self) -> GongZhuMatch:
        twin = GongZhuMatch.__new__(GongZhuMatch)
        twin.__dict__.update(self.__dict__)
        self._copy_base(twin)
        twin.totals = list(self.totals)
        twin.results = list(self.results)
        twin._hands = hands = [list(h) for h in self._hands]
        twin._split = [split.copy_for(hands[s]) if split is not None else None
                       for s, split in enumerate(self._split)]
        twin.shown = list(self.shown)
        twin.trick = list(self.trick)
        twin.tricks = list(self.tricks)
        twin.winners = list(self.winners)
        twin.taken = [list(p) for p in self.taken]
        twin.suits_led = set(self.suits_led)
        if self._public is not None:
            twin._public = self._public.copy()      # updated in place when a trick ends
        return twin

    def outcome(self) -> Outcome:
        """Totals are the points; the winners are the seats with the highest total once it is over."""
        best = max(self.totals)
        winners = tuple(s for s in range(4) if self.totals[s] == best) if self.finished else ()
        return Outcome(self.finished, winners, tuple(self.totals))

    def returns(self) -> tuple[float, ...]:
        """Per player: the points scored in the hands finished so far (the match totals)."""
        return tuple(float(total) for total in self.totals)

    def redeal_hidden(self, seat: int, rng: Rng) -> GongZhuMatch:
        from cardtable.games.gongzhu.sampling import sample_hands

        world = self.clone()
        world.hands = [sorted(hand, key=rules.sort_key) for hand in sample_hands(self.view(seat), rng)]
        # Choices already made in the (simultaneous) showing phase are hidden from ``seat`` until the
        # phase ends: each such seat shows what it still holds of what it chose.
        for other, cards in enumerate(world.shown):
            if other != seat and cards is not None and self.phase == "show":
                world.shown[other] = tuple(c for c in cards if c in world.hands[other])
        world._public = None
        return world

    @classmethod
    def from_view(cls, view: GongZhuView, rng: Rng) -> GongZhuMatch:
        """:meth:`Match.from_view`: a match in the play phase consistent with ``view``, its hidden hands
        drawn by the sampler. The showing phase is not built (ValueError): the other seats' choices are
        hidden while showing, so the search levels show as `normal` does."""
        from cardtable.games.gongzhu.sampling import sample_hands

        if view.phase != "play":
            raise ValueError("a Gong Zhu world is built in the play phase")

        hands = sample_hands(view, rng)
        # A real match first (so every field the engine keeps exists), then this view's state over it.
        match = cls(view.options, 0)
        match.hand = view.hand_number
        match.totals = list(view.totals)
        match.results = []
        match.finished = False
        match.hands = [list(h) for h in hands]
        match.must_lead_2c = view.hand_number == 1
        match.leader = view.leader
        match.shown = [tuple(cards) for cards in view.shown]
        match.trick = list(view.trick)
        match.tricks = list(view.tricks)
        match.winners = list(view.winners)
        match.taken = [list(pile) for pile in view.taken]
        match.suits_led = set(view.suits_led)
        match._public = None                # the views' shared public fields: rebuilt from the above
        match._next = match._seat_to_move()
        return match

    def summary(self) -> str:
        totals = " ".join(f"{t:+d}" for t in self.totals)
        state = "finished" if self.finished else f"hand {self.hand}, trick {len(self.tricks) + 1}"
        return f"Gong Zhu · {state} · totals {totals}"

    def progress(self) -> dict[str, Any]:
        return {"over": self.finished, "hand": self.hand, "trick": len(self.tricks) + 1, "you": self.totals[0]}

    @classmethod
    def decode_move(cls, data: Any) -> Show | Play:
        return decode_move(data)

    @classmethod
    def parse_move(cls, text: str) -> Show | Play:
        return parse_move(text)
