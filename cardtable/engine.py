"""The contract every game implements (see docs/design.md).

A game is a package under ``cardtable.games`` with a frozen options dataclass, a :class:`Match` subclass
and its bots. Everything random comes from the match seed through :mod:`cardtable.rng`; a match is fully
determined by (options, seed, moves), so saving is the move list and loading is replay.
"""

from __future__ import annotations

import dataclasses
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, ClassVar, Protocol, Self

from cardtable.rng import MAX_SEED, Rng


class IllegalMove(ValueError):
    """A move the rules do not allow now. ``reason`` is a short English explanation; ``key`` and
    ``params`` let the UI say it in the player's language."""

    def __init__(self, reason: str, key: str = "illegal", **params: Any) -> None:
        super().__init__(reason)
        self.reason = reason
        self.key = key
        self.params = params


class OptionError(ValueError):
    """An option name or value that the game does not accept."""


class MoveError(ValueError):
    """A move encoding that cannot be decoded."""


# ---------------------------------------------------------------- options
@dataclasses.dataclass(frozen=True)
class Options:
    """Base of every game's frozen options dataclass. Subclasses validate in ``__post_init__``."""

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        if not isinstance(data, Mapping):
            raise OptionError("options must be a JSON object")
        names = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(data) - names)
        if unknown:
            raise OptionError(f"unknown option {unknown[0]!r}; known options: {', '.join(sorted(names))}")
        return cls(**dict(data))

    @classmethod
    def from_strings(cls, pairs: Iterable[str]) -> Self:
        """Build options from ``key=value`` strings, as typed on the command line."""
        fields = {f.name: f for f in dataclasses.fields(cls)}
        values: dict[str, Any] = {}
        for pair in pairs:
            key, sep, raw = pair.partition("=")
            key = key.strip().replace("-", "_")
            if not sep:
                raise OptionError(f"option {pair!r} must be written key=value")
            if key not in fields:
                raise OptionError(f"unknown option {key!r}; known options: {', '.join(sorted(fields))}")
            values[key] = _coerce(raw.strip(), getattr(cls, key), key)
        return cls(**values)

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    def replace(self, **changes: Any) -> Self:
        return dataclasses.replace(self, **changes)


def _coerce(raw: str, default: Any, key: str) -> Any:
    if isinstance(default, bool):
        lowered = raw.lower()
        if lowered in ("1", "true", "yes", "on"):
            return True
        if lowered in ("0", "false", "no", "off"):
            return False
        raise OptionError(f"option {key!r} takes on/off, not {raw!r}")
    if isinstance(default, int):
        try:
            return int(raw)
        except ValueError:
            raise OptionError(f"option {key!r} takes a whole number, not {raw!r}") from None
    return raw


def check_choice(name: str, value: Any, choices: Iterable[Any]) -> None:
    choices = tuple(choices)
    if isinstance(value, bool) and not any(isinstance(c, bool) for c in choices):
        raise OptionError(f"option {name!r} must be one of {', '.join(map(str, choices))}, not {value!r}")
    if value not in choices:
        raise OptionError(f"option {name!r} must be one of {', '.join(map(str, choices))}, not {value!r}")


def check_bool(name: str, value: Any) -> None:
    if not isinstance(value, bool):
        raise OptionError(f"option {name!r} must be true or false, not {value!r}")


def check_positive_int(name: str, value: Any, maximum: int = 10_000) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= maximum:
        raise OptionError(f"option {name!r} must be a whole number from 1 to {maximum}, not {value!r}")


def check_seed(seed: Any) -> int:
    if isinstance(seed, str):
        # Only the digits 0-9: int() would also take «١٢٣», «1_000» and 5000-digit strings.
        text = seed.strip()
        if not (text.isascii() and text.isdigit()):
            raise OptionError(f"a game number is a whole number written with the digits 0-9, "
                              f"not {seed[:40]!r}") from None
        if len(text) > len(str(MAX_SEED)):
            raise OptionError(f"a game number must be from 0 to {MAX_SEED}, not {seed[:40]!r}")
        seed = int(text)
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= MAX_SEED:
        shown = "a larger number" if isinstance(seed, int) and seed.bit_length() > 128 else repr(seed)[:40]
        raise OptionError(f"a game number must be from 0 to {MAX_SEED}, not {shown}")
    return seed


# ---------------------------------------------------------------- moves and views
class Move(Protocol):
    """Moves are small frozen value objects with a JSON encoding (the hand-history format's) and a
    text form: ``str(move)``, read back by the game's ``parse_move`` (``Play.parse("QS")``)."""

    def to_json(self) -> dict[str, Any]: ...


class PlayerView(Protocol):
    """What one seat may know. Frozen; holds ``seat``, ``legal`` (the moves open to the seat when it is
    to move, else empty) and ``bot_seed`` (a per-decision seed that reveals nothing about the deal)."""

    seat: int
    legal: tuple
    bot_seed: int


class Bot(Protocol):
    """A CPU player: decides from a PlayerView only."""

    level: str

    def choose(self, view: Any) -> Any: ...


# ---------------------------------------------------------------- results
@dataclasses.dataclass(frozen=True)
class Outcome:
    """Where a match stands, as a small value: ``over``; ``winners``, the seats that won (both partners
    in a partnership game; empty until the match is over); ``totals``, one match score per seat in the
    game's own unit (Gong Zhu: points; Guandan: the level of the seat's pair, 2-14; Guiñote: the cotos
    of the seat's pair)."""

    over: bool
    winners: tuple[int, ...]
    totals: tuple[int, ...]


# ---------------------------------------------------------------- the match
class Match(ABC):
    """One match of a game: the state machine. Subclasses implement the underscore methods.

    ``moves`` is the list of ``(seat, move)`` applied so far; ``log`` is the hand history (the
    ``deal``, ``move``, ``hand_end`` and ``match_end`` records of docs/history-format.md).

    A Gong Zhu match, moves written in their text form (``str(move)`` / ``parse_move``):

    >>> from cardtable import games
    >>> match = games.get("gongzhu").new_match(seed=7)
    >>> match.to_move(), [str(move) for move in match.legal_moves()]
    (0, ['show nothing'])
    >>> for _ in range(4):
    ...     match.apply(match.parse_move("show nothing"))
    >>> match.to_move(), [str(move) for move in match.legal_moves()]
    (3, ['2C'])
    >>> match.why_illegal(match.parse_move("AS")).key
    'gz_not_in_hand'
    >>> match.apply(match.parse_move("2C"))
    >>> match.outcome()
    Outcome(over=False, winners=(), totals=(0, 0, 0, 0))

    At the Python prompt: ``play`` reads and applies a move, ``pop`` takes the last one back in place,
    ``undone(n)`` is a new match ``n`` moves back. Gong Zhu's «show nothing» is made in the same call for
    each next seat with nothing it could show:

    >>> match = games.get("gongzhu").new_match(seed=3)
    >>> match, match.phase
    (<GongZhuMatch gongzhu seed=3 hand 1, seat 0 to move, 0 moves>, 'show')
    >>> match.play("show nothing")
    Show(cards=())
    >>> match
    <GongZhuMatch gongzhu seed=3 hand 1, seat 3 to move, 3 moves>
    >>> str(match.play("show nothing")), match.phase
    ('show nothing', 'play')
    >>> match.pop(), match
    (Show(cards=()), <GongZhuMatch gongzhu seed=3 hand 1, seat 3 to move, 3 moves>)
    >>> match.undone(2), len(match.moves)
    (<GongZhuMatch gongzhu seed=3 hand 1, seat 1 to move, 1 moves>, 3)

    Guandan reads bare cards when one reading of them is legal:

    >>> guandan = games.get("guandan").new_match(seed=3)
    >>> str(guandan.play("3S")), guandan.phase
    ('3S as single 3', 'play')
    >>> guandan.play("6H 6D")         # seat 1 to move now
    Traceback (most recent call last):
    ...
    cardtable.engine.IllegalMove: those cards are not all in your hand
    """

    game: ClassVar[str]
    options_type: ClassVar[type[Options]]
    # «Hand over, next deal pending»: with ``hold_deals`` set (on a match), a hand's end keeps the next
    # deal back (its ``_deal`` arguments in ``_held_deal``) until :meth:`deal_next`.
    hold_deals: bool = False

    def __init__(self, options: Options, seed: int) -> None:
        if not isinstance(options, self.options_type):
            raise OptionError(f"{self.game} needs {self.options_type.__name__}, not {type(options).__name__}")
        self.options = options
        self.seed = check_seed(seed)
        self.moves: list[tuple[int, Any]] = []
        self.hand = 0
        self._log: list[dict[str, Any]] = []      # the history records built so far
        # Not built yet: the records made since, each with the number of moves made before it (the move
        # records are built from ``moves`` itself, so that a move costs no history work).
        self._pending: list[tuple[int, dict[str, Any]]] = []
        self._built = 0                           # moves already written to _log
        self._built_hand = 0                      # the hand of the next move to write
        self._events: list[dict[str, Any]] = []   # the deal / hand_end / match_end records only
        # (seat, the list legal_moves() returned last (or the tuple a view holds), whether the seat was the
        # one to move (None: unknown))
        self._trusted: tuple[int, Sequence[Any], bool | None] | None = None
        self._bot_key_bytes: bytes | None = None
        self._held_deal: dict[str, Any] | None = None     # see hold_deals

    # -- the hand history, built only when read
    @property
    def log(self) -> list[dict[str, Any]]:
        """The hand history (``deal``, ``move``, ``hand_end`` and ``match_end`` records). Move records are
        built only when the log is read (a writer, a save, the UI), so headless play does not pay for
        them."""
        if self._pending or self._built < len(self.moves):
            log, moves, built, hand = self._log, self.moves, self._built, self._built_hand
            for at, record in self._pending:
                self._write_moves(log, moves, built, at, hand)
                built = at
                log.append(record)
                if record.get("type") == "deal":
                    hand = record["hand"]
            self._write_moves(log, moves, built, len(moves), hand)
            self._pending = []
            self._built, self._built_hand = len(moves), hand
        return self._log

    @log.setter
    def log(self, records: list[dict[str, Any]]) -> None:
        self._log = list(records)
        self._pending = []
        self._built = len(self.moves)
        self._built_hand = self.hand
        self._events = [r for r in records if r.get("type") != "move"]

    def _write_moves(self, log: list[dict[str, Any]], moves: list[tuple[int, Any]], start: int, stop: int,
                     hand: int) -> None:
        """Append the records of ``moves[start:stop]`` (all of hand ``hand``) to ``log``, leaving out the
        moves the history does not write (:meth:`silent`)."""
        for seat, move in moves[start:stop]:
            if not self.silent(move):
                log.append({"type": "move", "hand": hand, "seat": seat, "move": move.to_json()})

    @property
    def events(self) -> list[dict[str, Any]]:
        """The ``deal``, ``hand_end`` and ``match_end`` records so far (the log without the moves)."""
        return self._events

    def _record(self, record: dict[str, Any]) -> None:
        """Add a deal / hand_end / match_end record to the history."""
        self._pending.append((len(self.moves), record))
        self._events.append(record)

    def _bot_key(self) -> bytes:
        """The one-way key of this match's bot seeds (see :mod:`cardtable.views`), computed once."""
        key = self._bot_key_bytes
        if key is None:
            from cardtable.views import bot_key

            key = self._bot_key_bytes = bot_key(self.seed)
        return key

    def _copy_base(self, twin: Match) -> None:
        """Give a clone its own copies of the base class's lists."""
        twin.moves = list(self.moves)
        twin._log = list(self._log)
        twin._pending = list(self._pending)
        twin._events = list(self._events)

    # -- the contract
    @abstractmethod
    def to_move(self) -> int | None:
        """The seat to move, or None when the match is over."""

    @abstractmethod
    def legal_moves(self, seat: int | None = None) -> list:
        """Every move open to ``seat`` (default: the seat to move). Besides the seat to move, a game may
        let other seats make optional moves out of turn (see :meth:`optional_movers`). A game returns
        its list through :meth:`_offer` so that moves taken from it skip re-validation in ``apply``."""

    def automatic_move(self, seat: int) -> Any:
        """A move the table makes for ``seat`` (the seat to move) without asking anybody, person or CPU,
        or None: its only legal move, when making it decides nothing and shows nothing (Guiñote's keep
        of a seat asked about the 7 of trumps without holding it). None by default."""
        return None

    def optional_movers(self) -> list[int]:
        """Seats other than the one to move that may make an optional move now (Guiñote's exchange,
        cantes and claims by the pair that just won a trick). Most games have none."""
        return []

    @abstractmethod
    def view(self, seat: int) -> Any:
        """The PlayerView of ``seat``."""

    @abstractmethod
    def _check(self, move: Any, seat: int) -> None:
        """Raise IllegalMove (with a reason) unless ``move`` by ``seat`` is legal now."""

    @abstractmethod
    def _apply(self, move: Any, seat: int) -> None:
        """Apply a move already checked; may log hand_end / deal / match_end records."""

    @abstractmethod
    def clone(self) -> Self:
        """An independent copy, cheap enough for search."""

    @abstractmethod
    def outcome(self) -> Outcome:
        """Whether the match is over, who won and the match score per seat (see :class:`Outcome`)."""

    @abstractmethod
    def returns(self) -> tuple[float, ...]:
        """One number per seat: the score a search maximises, summed over the hands finished so far
        (so a playout to the end of the hand can be scored by it). Each game documents its definition;
        partners always get the same number."""

    def redeal_hidden(self, seat: int, rng: Rng) -> Self:
        """A world for search and for checks: a clone in which every card ``seat`` cannot see (the other
        hands, a stock) is dealt again by the game's sampler, consistently with everything
        ``view(seat)`` shows, so ``world.view(seat) == self.view(seat)`` and the world plays on under the
        rules. Its ``moves`` and ``log`` still describe the real deal: a world is never saved."""
        raise NotImplementedError(f"{self.game} does not sample hidden cards")

    @classmethod
    def from_view(cls, view: Any, rng: Rng) -> Self:
        """A world for search built from ``view`` alone (what the seat deciding knows): a match in that
        position with the cards the seat cannot see dealt by the game's sampler, so that its
        ``view(view.seat)`` equals ``view`` but for ``decision`` (a world has no seed nor moves: its bots'
        seeds are its own). Built from no match, it is the world the search levels play out; the
        contract test checks it."""
        raise NotImplementedError(f"{cls.game} builds no world from a view")

    @abstractmethod
    def summary(self) -> str:
        """A short English line for the save-slot picker (e.g. "hand 3 · you +120")."""

    def progress(self) -> dict[str, Any]:
        """Where the match stands, as plain values for the slot list (formatted by ``i18n``)."""
        return {"over": self.is_over(), "hand": self.hand}

    @classmethod
    @abstractmethod
    def decode_move(cls, data: Any) -> Any:
        """Decode a move from its JSON encoding; raise MoveError if it is malformed."""

    @classmethod
    @abstractmethod
    def parse_move(cls, text: str) -> Any:
        """Read a move from its text form, the inverse of ``str(move)``; raise MoveError if it is not
        one. Like ``decode_move`` it checks the notation only: ``apply`` checks the rules."""

    def is_over(self) -> bool:
        return self.to_move() is None and self._held_deal is None

    # -- «hand over, next deal pending»
    def _deal_next_hand(self, **deal: Any) -> bool:
        """The end of a hand that is not the match's: the game's ``_deal(**deal)`` now, or, with
        ``hold_deals``, kept for :meth:`deal_next` (True: held; the game then has nobody to move)."""
        if self.hold_deals:
            self._held_deal = deal
            return True
        self._deal(**deal)  # type: ignore[attr-defined]
        return False

    @property
    def hand_over(self) -> bool:
        """Is a finished hand on the table with the next deal held back (``hold_deals``)? Nobody is to
        move (``to_move()`` is None, ``legal_moves()`` empty) but the match is not over; the views show
        the finished hand."""
        return self._held_deal is not None

    def deal_next(self) -> None:
        """Deal the hand held back: the match goes on exactly as if it had not been held."""
        deal = self._held_deal
        if deal is None:
            raise ValueError("no deal is pending")
        self._held_deal = None
        self._deal(**deal)  # type: ignore[attr-defined]

    def why_illegal(self, move: Any, seat: int | None = None) -> IllegalMove | None:
        """The refusal ``apply`` would raise for ``move`` now, or None if it is legal."""
        try:
            self._check_turn_and_move(move, seat)
        except IllegalMove as exc:
            return exc
        return None

    def _check_turn_and_move(self, move: Any, seat: int | None) -> int:
        to_move = self.to_move()
        if to_move is None:
            if self._held_deal is not None:
                raise IllegalMove("the hand is over: the next one is not dealt yet", "hand_over_deal_pending")
            raise IllegalMove("the match is over", "match_is_over")
        if seat is None:
            seat = to_move
        if seat != to_move and seat not in self.optional_movers():
            raise IllegalMove("it is not your turn", "not_your_turn")
        self._check(move, seat)
        return seat

    def apply(self, move: Any, seat: int | None = None) -> None:
        """Apply ``move`` for ``seat`` (default: the seat to move). Raises IllegalMove and leaves the
        state unchanged.

        The trusted fast path: a move object taken from the list :meth:`legal_moves` returned last (for
        this seat, with nothing applied since) is legal by construction and is not validated again. Any
        other move (the UI's, a save's, a history's, a hand-built one) gets the full check.

        The one trusted path of every game (none copies it): the trusted seat is that of the list
        when ``move`` is one of its very objects (not an equal one), else the full check's."""
        trusted = self._trusted
        if trusted is not None and (trusted[0] == seat if seat is not None else
                                    trusted[2] or (trusted[2] is None and trusted[0] == self.to_move())):
            for candidate in trusted[1]:
                if candidate is move:
                    seat = trusted[0]
                    break
            else:
                seat = self._check_turn_and_move(move, seat)
        else:
            seat = self._check_turn_and_move(move, seat)
        self._trusted = None
        self.moves.append((seat, move))
        self._apply(move, seat)

    def _apply_offered(self, move: Any, seat: int) -> None:
        """:meth:`apply` of a move known to be one of the very objects just offered to ``seat`` (a fused
        step that built the list itself, as Guiñote's ``play_auto_move`` does): the same three steps,
        without looking for the move in the list."""
        self._trusted = None
        self.moves.append((seat, move))
        self._apply(move, seat)

    def _offer(self, seat: int, moves: list, to_move: bool | None = None) -> list:
        """Return a freshly built legal list from ``legal_moves``: its moves become trusted for ``seat``
        until the next move is applied (the caller gets a copy, so editing it trusts nothing new).
        ``to_move``: whether ``seat`` is the seat to move, when the game knows it (saves ``apply`` from
        asking ``to_move()`` again when it is given no seat)."""
        self._trusted = (seat, moves, to_move)
        return list(moves)

    def play_auto_move(self, bot_for: Callable[[int], Bot | None]) -> tuple[int, Any] | None:
        """One step of a match between CPUs: :func:`next_auto_move` (asked to decide), then that move
        applied; returns it as ``(seat, move)``, or None (over, or a person to move: nothing applied).
        ``sim`` plays its matches so. A game may override this to fuse the two on its common path; it
        must find and apply the very moves the two calls would."""
        step = next_auto_move(self, bot_for)
        if step is not None:
            self.apply(step[1], step[0])
        return step

    def reveals(self, move: Any) -> bool:
        """Does making ``move`` show the table more than the card or cards played: a hand's cards to
        everybody (Gong Zhu's show), a card to one seat (Guandan's tribute and return), or a decision
        that tells about a hand (Guiñote's exchange, keep, cante and claim)? Taking such a move back
        cannot unsee it (``cardtable.undo`` keeps it). A play or a pass reveals nothing more; by
        default no move does."""
        return False

    def silent(self, move: Any) -> bool:
        """Is ``move`` one the hand history does not write (kept in ``moves`` and saves all the same)?
        Guiñote's declined exchange of the 7 is; by default no move is."""
        return False

    def implied_move(self, seat: int, move: Any) -> tuple[int, Any] | None:
        """A move the hand history does not write because the next line implies it (Guiñote's declined
        exchange of the 7), as ``(seat, move)`` to apply before ``move`` by ``seat``; None by default.
        Asked again after each one applied (several may be implied: both seats of a Guiñote pair keep)."""
        return None

    def history_legal(self, seat: int | None = None) -> list[dict[str, Any]]:
        """The ``legal`` list of a history move line: the entry of every legal move the history writes
        (a ``silent`` move has no line, so it is not listed either)."""
        return [self.legal_entry(move) for move in self.legal_moves(seat) if not self.silent(move)]

    def legal_entry(self, move: Any) -> dict[str, Any]:
        """How ``move`` appears in a history ``legal`` list: its JSON encoding, unless the game lists
        its legal moves by form (Guandan lists each form of play once, with one way to realise it;
        any other realisation of a listed form is legal too)."""
        return move.to_json()

    def match_record(self, players: list[str]) -> dict[str, Any]:
        return {"type": "match", "format": "cardtable-history", "version": 1, "game": self.game,
                "seed": self.seed, "options": self.options.to_dict(), "players": list(players)}

    @classmethod
    def new(cls, options: Options | None = None, seed: int = 0) -> Self:
        return cls(options if options is not None else cls.options_type(), seed)

    @classmethod
    def replay(cls, options: Options, seed: int, moves: Iterable[tuple[int, Any]]) -> Self:
        """Rebuild a match from its seed and moves. Raises IllegalMove naming the move that fails."""
        match = cls(options, seed)
        for index, (seat, move) in enumerate(moves):
            try:
                match.apply(move, seat)
            except IllegalMove as exc:
                raise IllegalMove(f"move {index + 1} ({move} by seat {seat}): {exc.reason}", exc.key) from exc
        return match

    def undone(self, count: int = 1) -> Self:
        """A new match with the last ``count`` moves taken back (replay from the seed); this one is left
        as it is."""
        return type(self).replay(self.options, self.seed, self.moves[: max(0, len(self.moves) - count)])

    undo = undone       # (its older name, still called by cardtable.undo)

    def pop(self) -> Any:
        """Take the last move back, in place, and return it (replay from the seed: a match is its seed
        and its moves). Raises IndexError when no move has been made."""
        if not self.moves:
            raise IndexError("no move to take back")
        move = self.moves[-1][1]
        self.__dict__ = self.undone(1).__dict__
        return move

    # -- at the Python prompt
    def play(self, text: str, seat: int | None = None) -> Any:
        """Read ``text`` as a move (:meth:`read_move`), apply it for ``seat`` (default: the seat to move)
        and return it; raises MoveError or IllegalMove, leaving the match as it was."""
        move = self.read_move(text, seat)
        self.apply(move, seat)
        return move

    def read_move(self, text: str, seat: int | None = None) -> Any:
        """The move ``text`` means now: its :meth:`parse_move`, unless the game reads shorter text in
        the position (Guandan takes bare cards when only one reading of them is legal)."""
        return self.parse_move(text)

    @property
    def phase(self) -> str:
        """What the match is at: ``"over"``, ``"hand_over"`` (see :attr:`hand_over`), or the game's phase
        (``"play"`` unless the game has others: Gong Zhu's ``"show"``, Guandan's ``"tribute"``, Guiñote's
        ``"exchange"``)."""
        return "hand_over" if self._held_deal is not None else "over" if self.is_over() else "play"

    def __repr__(self) -> str:
        to_move = self.to_move()
        where = "over" if to_move is None else f"seat {to_move} to move"
        return (f"<{type(self).__name__} {self.game} seed={self.seed} hand {self.hand}, {where}, "
                f"{len(self.moves)} moves>")


# ---------------------------------------------------------------- who moves next
def next_auto_move(match: Match, bot_for: Callable[[int], Bot | None],
                   armed: tuple[int, Any] | None = None, decide: bool = True) -> tuple[int, Any] | None:
    """The next move that needs no person, as ``(seat, move)``, or None when the match is over or a
    person is to move. In order: ``armed``, a move a person prepared in advance (Guiñote's exchange or
    cante), which the caller has checked is legal now; the seat's ``automatic_move`` (a forced move that
    shows nothing, made for a person as for a CPU); an optional move out of turn that a CPU wants
    to make (a partner's cante); the move of the CPU to move. ``bot_for(seat)`` is the seat's bot, or
    None for a person. With ``decide=False`` the CPU to move is not asked (the move is None): the game
    screens ask it in a worker thread. ``sim``, the tests and the screens all go through here."""
    seat = match.to_move()
    if seat is None:
        return None
    if armed is not None:
        return armed
    kind = type(match)
    if kind.automatic_move is not _NO_AUTOMATIC_MOVE:       # (the base's hooks answer None and [])
        forced = match.automatic_move(seat)
        if forced is not None:
            return seat, forced
    if kind.optional_movers is not _NO_OPTIONAL_MOVERS:
        for other in match.optional_movers():
            bot = bot_for(other) if other != seat else None
            if bot is not None:
                move = bot.choose(match.view(other))
                if move is not None:
                    return other, move
    bot = bot_for(seat)
    if bot is None:
        return None
    return seat, (bot.choose(match.view(seat)) if decide else None)


_NO_AUTOMATIC_MOVE = Match.automatic_move
_NO_OPTIONAL_MOVERS = Match.optional_movers
