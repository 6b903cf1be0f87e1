"""The Guandan match: deal, tribute and return, tricks with passing and 接风, finishing order,
levels, Aces and their failures."""

from __future__ import annotations

import dataclasses
from collections import Counter
from typing import Any, ClassVar, cast

from cardtable.cardmoves import CardMove, by_key, decode_card_move
from cardtable.cards import BIG_JOKER, Card, CardError, guandan_deck, parse_card
from cardtable.engine import IllegalMove, Match, MoveError, Options, Outcome, check_bool, check_choice
from cardtable.games.guandan import rules
from cardtable.games.guandan.rules import Combo
from cardtable.rng import Rng, mix
from cardtable.tricks import partner, team_of
from cardtable.views import LazyBotSeed, fast_view

RISE = {1: 3, 2: 2, 3: 1}          # the partner's place (0-based index in the finish) → levels up


@dataclasses.dataclass(frozen=True)
class GuandanOptions(Options):
    aces: str = "unlimited"                   # «Obligatorio · torneo» | "three_strikes" «3 fallos → al 2»
    straight_flush_as_straight: bool = True   # a same-suit run may also be declared a plain straight

    def __post_init__(self) -> None:
        check_choice("aces", self.aces, ("unlimited", "three_strikes"))
        check_bool("straight_flush_as_straight", self.straight_flush_as_straight)


# ---------------------------------------------------------------- moves
def _canonical(cards) -> tuple[Card, ...]:
    return tuple(sorted(cards))          # cards are (rank, suit) tuples: by rank, then suit


class Play:
    """Cards played as one combination, read as ``type`` with ``key``. Immutable; equal plays compare
    and hash equal. A play offered by ``legal_moves`` carries its form and builds its cards only when
    asked (most offered plays are never chosen)."""

    __slots__ = ("_build", "_cards", "key", "size", "type")
    _build: rules.PlayForm | None
    _cards: tuple[Card, ...] | None
    key: int | None
    size: int
    type: str

    def __init__(self, cards, type: str, key: int | None) -> None:
        _set_cards(self, _canonical(cards))
        _set_type(self, type)
        _set_key(self, key)
        _set_size(self, len(cards))
        _set_build(self, None)

    @staticmethod
    def offered(form: rules.PlayForm) -> Play:
        """A play of a generator's form ``(type, key, size, build, a, b)``; its cards are ``build(a, b)``,
        built when first needed."""
        return cast(Play, _offered_plays([form])[0])

    @classmethod
    def of(cls, cards, combo: Combo) -> Play:
        return cls(tuple(cards), combo.type, combo.key)

    @property
    def cards(self) -> tuple[Card, ...]:
        cards = self._cards
        if cards is None:
            form = self._build
            assert form is not None          # an offered play keeps its form until built
            _, _, _, build, a, b = form
            cards = _canonical(build(a, b))
            _set_cards(self, cards)
            _set_build(self, None)
        return cards

    @property
    def is_bomb(self) -> bool:
        return self.type in rules.BOMB_TYPES

    def __setattr__(self, name: str, value: Any) -> None:
        raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Play):
            return NotImplemented
        return self.type == other.type and self.key == other.key and self.cards == other.cards

    def __hash__(self) -> int:
        return hash((self.cards, self.type, self.key))

    def __repr__(self) -> str:
        return f"Play(cards={self.cards!r}, type={self.type!r}, key={self.key!r})"

    def __reduce__(self):
        return (Play, (self.cards, self.type, self.key))

    def to_json(self) -> dict[str, Any]:
        return {"play": [c.code for c in self.cards],
                "as": {"type": self.type, "key": None if self.key is None else rules.rank_name(self.key)}}

    def __str__(self) -> str:
        reading = self.type if self.key is None else f"{self.type} {rules.rank_name(self.key)}"
        return f"{' '.join(c.code for c in self.cards)} as {reading}"

    @classmethod
    def parse(cls, text: str) -> Play:
        """The inverse of ``str``: the cards, then how they are read, ``"5S 6S 2H 8S 9S as straight_flush
        9"``, ``"7C 7D as pair 7"``, ``"SJ SJ BJ BJ as joker_bomb"``."""
        cards, sep, reading = text.partition(" as ") if isinstance(text, str) else ("", "", "")
        words = reading.split()
        if not sep or not 1 <= len(words) <= 2:
            raise MoveError(f"not a Guandan play: {text!r} (write e.g. '7C 7D as pair 7')")
        move = decode_move({"play": cards.split(),
                            "as": {"type": words[0], "key": words[1] if len(words) == 2 else None}})
        assert isinstance(move, Play)
        return move


_set_cards, _set_type, _set_key, _set_size, _set_build = (
    getattr(Play, name).__set__ for name in ("_cards", "type", "key", "size", "_build"))


class _OfferedPlay:
    """The slots of a Play, assignable: ``legal_moves`` offers ~100 plays per decision and the frozen
    ``Play.__setattr__`` refuses every assignment, so :func:`_offered_plays` fills them in one of these
    (same layout) and the object then becomes a Play."""

    __slots__ = ("_build", "_cards", "key", "size", "type")
    _build: rules.PlayForm
    _cards: None
    key: int | None
    size: int
    type: str


def _offered_plays(forms: list[rules.PlayForm]) -> list[Move]:
    """``Play.offered`` of each form, in order, filled in one loop (no Python ``__init__`` frame per play:
    a lead's moves cost ~15% less)."""
    new, offered, play = object.__new__, _OfferedPlay, Play
    moves: list[Move] = []
    append = moves.append
    for form in forms:
        move = new(offered)
        move._cards = None
        move.type, move.key, move.size = form[0], form[1], form[2]      # (type, key, size, ...): see PlayForm
        move._build = form
        move.__class__ = play      # type: ignore[assignment]
        append(move)               # type: ignore[arg-type]
    return moves


@dataclasses.dataclass(frozen=True)
class Pass:
    def to_json(self) -> dict[str, Any]:
        return {"pass": True}

    def __str__(self) -> str:
        return "pass"


@dataclasses.dataclass(frozen=True)
class Tribute(CardMove):
    card: Card
    key: ClassVar[str] = "tribute"
    verb: ClassVar[str] = "tribute"


@dataclasses.dataclass(frozen=True)
class Return(CardMove):
    card: Card
    key: ClassVar[str] = "return"
    verb: ClassVar[str] = "return"


_CARD_MOVES: dict[str, type[Tribute | Return]] = by_key(Tribute, Return)


Move = Play | Pass | Tribute | Return


def decode_move(data: Any) -> Move:
    try:
        if isinstance(data, dict):
            if data == {"pass": True}:
                return Pass()
            card_move = decode_card_move(data, _CARD_MOVES, parse_card)
            if card_move is not None:
                return card_move
            if set(data) == {"play", "as"} and isinstance(data["play"], list) and isinstance(data["as"], dict):
                reading = data["as"]
                kind, key = reading.get("type"), reading.get("key")
                if kind not in rules.TYPES or not (key is None or isinstance(key, str)) or not data["play"]:
                    raise MoveError(f"bad 'as' in {data!r}")
                return Play(tuple(parse_card(c) for c in data["play"]), kind,
                            None if key is None else rules.rank_from_name(key))
    except (CardError, ValueError, TypeError) as exc:
        raise MoveError(f"not a Guandan move: {exc}") from None
    raise MoveError(f"not a Guandan move: {data!r}")


def parse_move(text: str) -> Move:
    """A move from its text form (``str(move)``): ``"7C 7D as pair 7"``, ``"pass"``, ``"tribute AS"``,
    ``"return 5D"``."""
    words = text.split() if isinstance(text, str) else []
    if words == ["pass"]:
        return Pass()
    if len(words) == 2 and words[0] in ("tribute", "return"):
        return decode_move({words[0]: words[1]})
    return Play.parse(text)


# ---------------------------------------------------------------- the view
class TopPlay:
    """The play to beat: its seat, cards and form (type, key, size: all that comparing needs). ``combo``,
    the classifier's reading with what the wilds stand for, is made when first asked for (the UI)."""

    __slots__ = ("_combo", "_level", "_sf", "cards", "form", "seat")

    def __init__(self, seat: int, cards: tuple[Card, ...], combo: Combo | None = None, *,
                 form: rules.Shape | None = None, level: int = 0, sf_as_straight: bool = True) -> None:
        if combo is None and form is None:
            raise ValueError("a TopPlay needs its combo or its form")
        self.seat, self.cards, self._combo = seat, cards, combo
        if form is None:
            assert combo is not None
            form = combo
        self.form: rules.Shape = form
        self._level, self._sf = level, sf_as_straight

    @property
    def combo(self) -> Combo:
        if self._combo is None:
            self._combo = rules.reading(self.cards, self.form, self._level, self._sf)
        return self._combo

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TopPlay):
            return NotImplemented
        return (self.seat, self.cards, self.combo) == (other.seat, other.cards, other.combo)

    def __hash__(self) -> int:
        return hash((self.seat, self.cards, self.combo))

    def __repr__(self) -> str:
        return f"TopPlay(seat={self.seat}, cards={self.cards!r}, form={self.form!r})"


@dataclasses.dataclass(frozen=True)
class GuandanView(LazyBotSeed):
    seat: int
    options: GuandanOptions
    hand_number: int
    level: int
    levels: tuple[int, int]
    a_failures: tuple[int, int]
    declarer: int                                   # the team whose level is played
    phase: str                                      # "tribute" | "play" | "over"
    to_move: int | None
    hand: tuple[Card, ...]
    counts: tuple[int, ...]
    finish: tuple[int, ...]                         # seats out so far, in order
    top: TopPlay | None
    actions: tuple[Any, ...]                        # per seat: its last action in this trick (Play/Pass/None)
    tribute: str                                    # "none" | "single" | "double" | "anti"
    tribute_moves: tuple[tuple[str, int, int, Card | None], ...]   # (kind, from, to, card) once made
    anti_holders: tuple[int, ...]                   # payers holding the big jokers (anti-tribute)
    played: tuple[Card, ...]                        # every card played this hand
    plays: tuple[tuple[int, tuple[Card, ...]], ...]  # who played what this hand, in order
    legal: tuple
    decision: tuple[bytes, int, int]              # (bot key, move number, seat): see bot_seed
    trick: tuple[tuple[int, Any], ...] = ()        # the current trick so far: (seat, Play or Pass)
    last_trick: tuple[tuple[int, Any], ...] = ()   # the last closed trick of this hand
    last_winner: int | None = None                 # who won it (the owner of its top play)
    tribute_to: int | None = None                  # whom this seat's tribute goes to, in the tribute phase

    @property
    def wild(self) -> Card:
        return Card(self.level, "H")

    def still_out(self) -> dict[str, int]:
        """How many big jokers, small jokers, wilds and (other) level cards are not yet played."""
        played = Counter(self.played)
        level_cards = sum(n for c, n in played.items() if c.rank == self.level and c.suit != "H")
        return {"BJ": 2 - played[BIG_JOKER], "SJ": 2 - played[Card(15, "*")],
                "wild": 2 - played[self.wild], "level": 6 - level_cards}


# ---------------------------------------------------------------- the match
class GuandanMatch(Match):
    game: ClassVar[str] = "guandan"
    options_type: ClassVar[type[Options]] = GuandanOptions
    options: GuandanOptions

    def __init__(self, options: GuandanOptions, seed: int) -> None:
        super().__init__(options, seed)
        self.levels = [2, 2]
        self.a_failures = [0, 0]
        self.declarer = 0
        self.finished = False
        self.results: list[dict[str, Any]] = []
        self._checked: tuple[Play, Combo] | None = None
        # Per seat: (its hand, the level, rules.prepare_hand of them) as legal_moves last worked them out.
        self._prepared: list[tuple[tuple[Card, ...], int, Any] | None] = [None] * 4
        self._deal(previous=None)

    # -- dealing and the tribute plan
    def _deal(self, previous: list[int] | None) -> None:
        self.hand += 1
        self.level = self.levels[self.declarer]
        deck = guandan_deck()
        Rng(mix(self.seed, self.hand, 0x6D)).shuffle(deck)
        self.hands: list[list[Card]] = [deck[seat::4] for seat in range(4)]
        dealt = [[c.code for c in h] for h in self.hands]
        self._sort()
        self.finish: list[int] = []
        self.top: TopPlay | None = None
        self.passed: set[int] = set()
        self.actions: list[Any] = [None] * 4
        self.trick: list[tuple[int, Any]] = []
        self.last_trick: tuple[tuple[int, Any], ...] = ()
        self.last_winner: int | None = None
        self.played: list[Card] = []
        self.plays: list[tuple[int, tuple[Card, ...]]] = []
        self.tribute_moves: list[tuple[str, int, int, Card | None]] = []
        self.anti_holders: tuple[int, ...] = ()
        self.pending: list[tuple[str, int]] = []       # ("tribute", payer) / ("return", receiver)
        self.paid: dict[int, Card] = {}
        self.receiver_of: dict[int, int] = {}           # payer → receiver
        kind, leader = self._plan_tribute(previous)
        self.tribute = kind
        self.leader = leader
        self.turn = leader
        self._record({"type": "deal", "hand": self.hand, "hands": dealt,
                         "level": rules.rank_name(self.level),
                         "levels": [rules.rank_name(x) for x in self.levels],
                         "a_failures": list(self.a_failures), "tribute": kind, "leader": leader})

    def _sort(self) -> None:
        for h in self.hands:
            h.sort(key=rules.sort_keys(self.level).__getitem__)

    def tribute_card_value(self, seat: int) -> int:
        cards = [c for c in self.hands[seat] if not rules.is_wild(c, self.level)]
        return max(rules.card_value(c, self.level) for c in cards)

    def _plan_tribute(self, previous: list[int] | None) -> tuple[str, int]:
        if previous is None:
            return "none", 0
        first = previous[0]
        double = previous[1] == partner(first)
        if double:
            payers = sorted(previous[2:4], key=lambda s: (s - first) % 4)
            receivers = [first, previous[1]]
        else:
            payers = [previous[3]]
            receivers = [first]
        big_jokers = sum(self.hands[p].count(BIG_JOKER) for p in payers)
        if big_jokers == 2:
            self.anti_holders = tuple(p for p in payers if BIG_JOKER in self.hands[p])
            return "anti", first
        if double:
            values = [self.tribute_card_value(p) for p in payers]
            # The higher card goes to the 1st; on equal cards the payer next after the 1st pays the 1st.
            to_first = payers[0] if values[0] >= values[1] else payers[1]
            other = payers[1] if to_first == payers[0] else payers[0]
            self.receiver_of = {to_first: receivers[0], other: receivers[1]}
            self.pending = [("tribute", payers[0]), ("tribute", payers[1]),
                            ("return", receivers[0]), ("return", receivers[1])]
            return "double", to_first
        self.receiver_of = {payers[0]: first}
        self.pending = [("tribute", payers[0]), ("return", first)]
        return "single", payers[0]

    # -- whose turn
    @property
    def phase(self) -> str:
        if self.finished:
            return "over"
        if self._held_deal is not None:
            return "hand_over"
        return "tribute" if self.pending else "play"

    def reveals(self, move: Any) -> bool:
        """The tribute and its return show a card to the seat that receives it."""
        return isinstance(move, Tribute | Return)

    def read_move(self, text: str, seat: int | None = None) -> Move:
        """:meth:`Match.read_move`; bare cards too (``"3S"``, ``"7C 7D"``): their one legal reading now
        (several: a MoveError naming them, to be written ``"... as pair 7"``; none: the strongest reading,
        which ``apply`` refuses with its reason)."""
        try:
            return parse_move(text)
        except MoveError:
            if not isinstance(text, str) or " as " in text or not text.split():
                raise
        try:
            cards = tuple(parse_card(code) for code in text.split())
        except CardError as exc:
            raise MoveError(f"not a Guandan move: {exc}") from None
        readings = [Play(cards, combo.type, combo.key) for combo in
                    rules.classify(cards, self.level, self.options.straight_flush_as_straight)]
        if not readings:
            raise MoveError(f"{text.strip()!r} is not a Guandan play at level {rules.rank_name(self.level)}")
        legal = [play for play in readings if self.why_illegal(play, seat) is None]
        if len(legal) > 1:
            named = " or ".join(f"'{play}'" for play in legal)
            raise MoveError(f"{text.strip()!r} can be read more than one way now: write {named}")
        return legal[0] if legal else readings[0]      # (none legal: the strongest, for apply's refusal)

    def to_move(self) -> int | None:
        if self.finished:
            return None
        if self.pending:
            return self.pending[0][1]
        return self.turn if self._held_deal is None else None

    def tribute_choices(self, seat: int) -> list[Card]:
        best = self.tribute_card_value(seat)
        return sorted({c for c in self.hands[seat]
                       if not rules.is_wild(c, self.level) and rules.card_value(c, self.level) == best},
                      key=lambda c: c.suit)

    def return_choices(self, seat: int) -> list[Card]:
        hand = self.hands[seat]
        allowed = {c for c in hand if 2 <= c.rank <= 10 and c.rank != self.level and not c.is_joker}
        if not allowed:
            lowest = min(rules.card_value(c, self.level) for c in hand)
            allowed = {c for c in hand if rules.card_value(c, self.level) == lowest}
        return sorted(allowed, key=lambda c: rules.hand_sort_key(c, self.level))

    def legal_moves(self, seat: int | None = None) -> list[Move]:
        to_move = self.to_move()
        if to_move is None or (seat is not None and seat != to_move):
            return []
        seat = to_move
        if self.pending:
            kind = self.pending[0][0]
            if kind == "tribute":
                return self._offer(seat, [Tribute(c) for c in self.tribute_choices(seat)])
            return self._offer(seat, [Return(c) for c in self.return_choices(seat)])
        top = self.top
        hand = tuple(self.hands[seat])
        level = self.level
        kept = self._prepared[seat]          # a seat that passed asks again with the same hand
        if kept is not None and kept[1] == level and kept[0] == hand:
            prepared = kept[2]
        else:
            prepared = rules.prepare_hand(hand, level)
            self._prepared[seat] = (hand, level, prepared)
        moves: list[Move] = _offered_plays(rules.play_forms(
            hand, level, top.form if top else None, self.options.straight_flush_as_straight, prepared))
        if top is not None:
            moves.append(Pass())
        return self._offer(seat, moves, True)

    def legal_entry(self, move: Any) -> dict[str, Any]:
        if isinstance(move, Play):
            return {"play_form": {"type": move.type, "key": None if move.key is None else
                                  rules.rank_name(move.key), "size": move.size}}
        return move.to_json()

    # -- checking
    def _check(self, move: Any, seat: int) -> None:
        if self.pending:
            kind = self.pending[0][0]
            if kind == "tribute":
                if not isinstance(move, Tribute):
                    raise IllegalMove("the tribute must be paid first", "gd_tribute_first")
                if move.card not in self.tribute_choices(seat):
                    raise IllegalMove("the tribute is your highest card (never a wild)", "gd_bad_tribute")
                return
            if not isinstance(move, Return):
                raise IllegalMove("the tribute must be returned first", "gd_return_first")
            if move.card not in self.return_choices(seat):
                raise IllegalMove("the return is a card from 2 to 10, not the level rank nor a wild "
                                  "(your lowest card if you have none)", "gd_bad_return")
            return
        if isinstance(move, Pass):
            if self.top is None:
                raise IllegalMove("you lead: you may not pass", "gd_no_pass_lead")
            return
        if not isinstance(move, Play):
            raise IllegalMove("play cards or pass", "gd_play_or_pass")
        if Counter(move.cards) - Counter(self.hands[seat]):
            raise IllegalMove("those cards are not all in your hand", "gd_not_in_hand")
        readings = rules.classify(move.cards, self.level, self.options.straight_flush_as_straight)
        combo = next((c for c in readings if c.type == move.type and c.key == move.key), None)
        if combo is None:
            if not readings:
                raise IllegalMove("those cards are not a valid play", "gd_not_a_play")
            raise IllegalMove("those cards cannot be read that way", "gd_wrong_reading")
        if self.top is not None and not rules.beats(combo, self.top.form, self.level):
            raise IllegalMove("that does not beat the play on the table", "gd_no_beat")
        self._checked = (move, combo)       # apply reads it instead of classifying again

    # -- applying
    def _apply(self, move: Move, seat: int) -> None:
        if isinstance(move, Tribute):
            self.pending.pop(0)
            self.hands[seat].remove(move.card)
            self.paid[seat] = move.card
            receiver = self.receiver_of[seat]
            self.hands[receiver].append(move.card)
            self.tribute_moves.append(("tribute", seat, receiver, move.card))
            self._sort()
        elif isinstance(move, Return):
            self.pending.pop(0)
            payer = next(p for p, r in self.receiver_of.items() if r == seat)
            self.hands[seat].remove(move.card)
            self.hands[payer].append(move.card)
            self.tribute_moves.append(("return", seat, payer, move.card))
            self._sort()
        elif isinstance(move, Pass):
            self.passed.add(seat)
            self.actions[seat] = move
            self.trick.append((seat, move))
            self._advance(seat)
        else:
            checked = self._checked
            # A checked move brings the classifier's reading; a trusted one (from legal_moves()) carries
            # its form, and the reading is made only if someone asks what its wilds stand for.
            combo = checked[1] if checked is not None and checked[0] is move else None
            self._checked = None
            hand = self.hands[seat]
            for card in move.cards:
                hand.remove(card)
            self.played.extend(move.cards)
            self.plays.append((seat, move.cards))
            self.top = TopPlay(seat, move.cards, combo, form=move, level=self.level,
                               sf_as_straight=self.options.straight_flush_as_straight)
            self.passed = set()
            self.actions[seat] = move
            self.trick.append((seat, move))
            if not hand:
                self.finish.append(seat)
                if self._hand_over():
                    self._end_hand()
                    return
            self._advance(seat)

    def _advance(self, seat: int) -> None:
        assert self.top is not None          # called after a play or a pass, within a trick
        owner = self.top.seat
        hands, passed = self.hands, self.passed
        if all(s == owner or s in passed or not hands[s] for s in range(4)):
            # The trick is over: its owner leads, or the partner if the owner is out (接风).
            leader = owner if self.hands[owner] else partner(owner)
            self.last_trick, self.last_winner, self.trick = tuple(self.trick), owner, []
            self.top = None
            self.passed = set()
            self.actions = [None] * 4
            self.turn = leader
            return
        nxt = (seat + 1) % 4
        while not self.hands[nxt]:
            nxt = (nxt + 1) % 4
        self.turn = nxt

    def _hand_over(self) -> bool:
        return len(self.finish) >= 3 or partner(self.finish[0]) in self.finish

    def _end_hand(self) -> None:
        finish = list(self.finish) + [s for s in range(4) if s not in self.finish]
        first = finish[0]
        team = team_of(first)
        place = finish.index(partner(first))
        rise = RISE[place]
        declarer = self.declarer
        at_own_ace = self.levels[declarer] == rules.ACE
        match_won = at_own_ace and team == declarer and place in (1, 2)
        old = self.levels[team]
        self.levels[team] = min(rules.ACE, old + rise)
        applied = self.levels[team] - old
        if at_own_ace and not match_won:
            self.a_failures[declarer] += 1
            if self.options.aces == "three_strikes" and self.a_failures[declarer] >= 3:
                self.levels[declarer] = 2
                self.a_failures[declarer] = 0
        record = {"type": "hand_end", "hand": self.hand, "finish": finish, "winner_team": team,
                  "level_up": applied, "levels": [rules.rank_name(x) for x in self.levels],
                  "a_failures": list(self.a_failures), "match_won": match_won}
        self._record(record)
        self.results.append(record)
        if match_won:
            self.finished = True
            self._record({"type": "match_end", "winner_team": team, "hands": self.hand})
            return
        self.declarer = team
        self._deal_next_hand(previous=finish)

    # -- views
    def view(self, seat: int) -> GuandanView:
        return fast_view(GuandanView,
            seat=seat, options=self.options, hand_number=self.hand, level=self.level,
            levels=(self.levels[0], self.levels[1]), a_failures=(self.a_failures[0], self.a_failures[1]),
            declarer=self.declarer, phase=self.phase, to_move=self.to_move(), hand=tuple(self.hands[seat]),
            counts=tuple(len(h) for h in self.hands), finish=tuple(self.finish), top=self.top,
            actions=tuple(self.actions), tribute=self.tribute, tribute_moves=tuple(self.tribute_moves),
            anti_holders=self.anti_holders, played=tuple(self.played), plays=tuple(self.plays),
            legal=tuple(self.legal_moves(seat)) if self.to_move() == seat else (),
            decision=(self._bot_key(), len(self.moves), seat), trick=tuple(self.trick),
            last_trick=self.last_trick, last_winner=self.last_winner,
            tribute_to=self._tribute_to(seat))

    def _tribute_to(self, seat: int) -> int | None:
        """Whom ``seat``'s tribute goes to, once what the seat may know decides it: with one payer at
        once; with two, the higher card goes to the first out, so the first to pay is not told (it
        hangs on the other payer's hidden card) and the second is (the first's card is on the table)."""
        if self.phase != "tribute" or seat not in self.receiver_of:
            return None
        if any(other not in self.paid for other in self.receiver_of if other != seat):
            return None
        return self.receiver_of[seat]

    def clone(self) -> GuandanMatch:
        twin = GuandanMatch.__new__(GuandanMatch)
        twin.__dict__.update(self.__dict__)
        self._copy_base(twin)
        twin.results = list(self.results)
        twin._prepared = list(self._prepared)
        twin.levels, twin.a_failures = list(self.levels), list(self.a_failures)
        twin.hands = [list(h) for h in self.hands]
        twin.finish, twin.passed, twin.actions = list(self.finish), set(self.passed), list(self.actions)
        twin.played, twin.tribute_moves = list(self.played), list(self.tribute_moves)
        twin.plays, twin.trick = list(self.plays), list(self.trick)
        twin.pending, twin.paid, twin.receiver_of = list(self.pending), dict(self.paid), dict(self.receiver_of)
        return twin

    def outcome(self) -> Outcome:
        """Totals are the level of each seat's pair (2-14, A = 14); the winners are the pair that won
        at its own Aces."""
        winners: tuple[int, ...] = ()
        if self.finished:
            team = self.results[-1]["winner_team"]
            winners = (team, team + 2)
        return Outcome(self.finished, winners, tuple(self.levels[s % 2] for s in range(4)))

    def returns(self) -> tuple[float, ...]:
        """Per pair: over the hands finished so far, + the rise for the pair that went out first (3, 2 or
        1 by its partner's place, before the cap at A) and - the same for the other pair. Ace failures
        and the cap are not counted."""
        score = [0.0, 0.0]
        for record in self.results:
            finish = record["finish"]
            rise = RISE[finish.index(partner(finish[0]))]
            score[record["winner_team"]] += rise
            score[1 - record["winner_team"]] -= rise
        return tuple(score[s % 2] for s in range(4))

    def redeal_hidden(self, seat: int, rng: Rng) -> GuandanMatch:
        from cardtable.games.guandan.sampling import sample_hands

        world = self.clone()
        world.hands = sample_hands(self.view(seat), rng)
        world._sort()
        return world

    @classmethod
    def from_view(cls, view: GuandanView, rng: Rng) -> GuandanMatch:
        """:meth:`Match.from_view`: a match consistent with ``view`` (play phase, or the returns of the
        tribute), its hidden hands drawn by the sampler. The payment of the tribute is not built
        (ValueError): it is forced (the highest card), so no search plays it out."""
        from cardtable.games.guandan.sampling import sample_hands

        if view.phase == "tribute" and not any(isinstance(move, Return) for move in view.legal):
            raise ValueError("a Guandan world is built in the play phase or the returns of the tribute")

        hands = sample_hands(view, rng)
        # A real match first (so every field the engine keeps exists), then this view's state over it.
        match = cls(view.options, 0)
        match.hand = view.hand_number
        match.levels = list(view.levels)
        match.a_failures = list(view.a_failures)
        match.declarer = view.declarer
        match.finished = False
        match.results = []
        match._checked = None
        match.level = view.level
        match.hands = [list(h) for h in hands]
        match._sort()
        match.finish = list(view.finish)
        match.top = view.top
        match.actions = list(view.actions)
        match.played = list(view.played)
        match.plays = list(view.plays)
        match.trick, match.last_trick, match.last_winner = list(view.trick), view.last_trick, view.last_winner
        match.tribute_moves = list(view.tribute_moves)
        match.anti_holders = view.anti_holders
        match.tribute = view.tribute
        assert view.to_move is not None          # a world is built for a seat deciding
        match.paid = {giver: card for kind, giver, _, card in view.tribute_moves
                      if kind == "tribute" and card is not None}
        match.receiver_of = {giver: receiver for kind, giver, receiver, _ in view.tribute_moves if kind == "tribute"}
        match.pending = []
        if view.phase == "tribute":
            returned = {giver for kind, giver, _, _ in view.tribute_moves if kind == "return"}
            order = [view.to_move] + [r for r in match.receiver_of.values() if r != view.to_move and r not in returned]
            match.pending = [("return", seat) for seat in order]
        match.leader = view.to_move
        match.turn = view.to_move
        match.passed = set()
        if view.top is not None:
            seat = (view.top.seat + 1) % 4
            while seat != view.to_move:
                if match.hands[seat]:
                    match.passed.add(seat)
                seat = (seat + 1) % 4
        return match

    def summary(self) -> str:
        state = "finished" if self.finished else f"hand {self.hand} at {rules.rank_name(self.level)}"
        return f"Guandan · {state} · levels {rules.rank_name(self.levels[0])}-{rules.rank_name(self.levels[1])}"

    def progress(self) -> dict[str, Any]:
        return {"over": self.finished, "hand": self.hand, "level": rules.rank_name(self.level),
                "us": rules.rank_name(self.levels[0]), "them": rules.rank_name(self.levels[1])}

    @classmethod
    def decode_move(cls, data: Any) -> Move:
        return decode_move(data)

    @classmethod
    def parse_move(cls, text: str) -> Move:
        return parse_move(text)
