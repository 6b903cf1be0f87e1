"""A table session: one match and its four seats, driven by commands from any seat (docs/design.md
«Shared tables»).

The session owns the turn loop that the game screens kept to themselves: which seats are people and
which CPUs, the CPU moves (through an injected thinker), the optional moves out of turn, armed moves,
the hand ends, take-back, autosave and statistics. A seat sends commands (:class:`Play`, :class:`TakeBack`
…) and reads its own events; everything a seat is shown is its own PlayerView (``match.view(seat)``),
never the match. Nothing here renders, sleeps, or talks to a socket: the caller paces the table (the
events carry the pauses as data) and runs the CPUs with :meth:`TableSession.run_cpus` or, step by step,
:meth:`TableSession.pending` and :meth:`TableSession.resolve`.

This module imports no Textual and nothing of ``cardtable.ui``.
"""

from __future__ import annotations

import asyncio
import collections
import dataclasses
import hashlib
import re
import secrets
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Protocol

from cardtable import safetext, workers
from cardtable.engine import IllegalMove, Match, MoveError, next_auto_move
from cardtable.games import GameSpec
from cardtable.saves import SaveError, SaveStore
from cardtable.stats import HandClock

SEATS = 4
LOBBY, PLAY, OVER = "lobby", "play", "over"
CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"   # no 0/O, no 1/I/L: read aloud and typed without mistakes
CODE_LENGTH = 6
NAME_LIMIT = 16
OUTBOX_LIMIT = 256          # events kept per seat; a client that fell behind asks for a snapshot
ARMED_LIMIT = 4             # moves a seat may have armed at once
TAKE_BACK_ASKS = 2          # take-backs a seat may ask for at one position (the CPUs wait while one is open)
TABLE_VALUES = 12           # the values a save's ``table`` may hold (saves._small_flat_dict)
LOCAL_OWNER = "local"       # the identity of the person at a terminal's own table
_TAG = re.compile(r"^[0-9a-f]{16}$")


# ---------------------------------------------------------------- codes, names, identities
def make_code() -> str:
    """A fresh join code (6 of :data:`CODE_ALPHABET`, from :mod:`secrets`)."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def read_code(text: Any) -> str | None:
    """A typed code in its canonical form (upper case, spaces and dashes dropped), or None when it is
    not one."""
    if not isinstance(text, str) or len(text) > 32:
        return None
    code = re.sub(r"[\s-]", "", text).upper()
    if len(code) != CODE_LENGTH or any(char not in CODE_ALPHABET for char in code):
        return None
    return code


def clean_name(text: Any) -> str:
    """A player's name as the table shows it: cleaned as text from files is, spaces folded into one,
    at most :data:`NAME_LIMIT` characters; empty when nothing is left or it is no text (a client's
    ``null``)."""
    if not isinstance(text, str):
        return ""
    name = " ".join(safetext.clean(text, NAME_LIMIT * 4).split())
    return name[:NAME_LIMIT].rstrip()


def owner_tag(identity: str) -> str:
    """The one-way tag a seat keeps of its owner's identity (an SSH key's id, :data:`LOCAL_OWNER`)."""
    return hashlib.blake2b(identity.encode("utf-8", "replace"), digest_size=8,
                           person=b"cardtable-seat").hexdigest()


# ---------------------------------------------------------------- seats, events, replies
@dataclasses.dataclass
class Seat:
    """One of the four places. ``level`` is the CPU that plays the seat whenever no person does;
    ``owner`` the tag of the person whose seat it is (None: a CPU seat); ``open``: in the lobby, a
    person may still take it."""

    index: int
    level: str
    name: str = ""
    owner: str | None = None
    connected: bool = False
    open: bool = False

    @property
    def person(self) -> bool:
        return self.owner is not None

    @property
    def cpu_plays(self) -> bool:
        return self.owner is None or not self.connected

    def public(self) -> dict[str, Any]:
        """What every seat may know about this one."""
        return {"seat": self.index, "name": self.name, "person": self.person, "connected": self.connected,
                "level": self.level, "open": self.open}


@dataclasses.dataclass(frozen=True)
class Event:
    """One thing a seat is told: ``type``, plain JSON-able ``data`` and, after a change, the seat's own
    view. ``seq`` counts the seat's events (a gap: some were dropped, ask for a snapshot)."""

    type: str
    data: dict[str, Any]
    view: Any = None
    seq: int = 0


@dataclasses.dataclass(frozen=True)
class Reply:
    """A command's answer: done (``data`` may hold a result), or refused with a reason (``key`` and
    ``params`` for the player's language, ``reason`` in English) and nothing changed."""

    ok: bool
    key: str = ""
    reason: str = ""
    params: dict[str, Any] = dataclasses.field(default_factory=dict)
    data: Any = None

    @classmethod
    def refuse(cls, key: str, reason: str, **params: Any) -> Reply:
        return cls(False, key, reason, params)

    @classmethod
    def refused(cls, exc: IllegalMove) -> Reply:
        """The refusal an ``IllegalMove`` says (the engine's, or one of the table's with parameters)."""
        return cls(False, exc.key, exc.reason, dict(exc.params))


DONE = Reply(True)


# ---------------------------------------------------------------- commands
@dataclasses.dataclass(frozen=True)
class Play:
    move: Any


@dataclasses.dataclass(frozen=True)
class Decline:
    """No optional move at this position (Guiñote's «Play on» when a claim or a cante is open)."""


@dataclasses.dataclass(frozen=True)
class Arm:
    move: Any
    on: bool = True


@dataclasses.dataclass(frozen=True)
class TakeBack:
    pass


@dataclasses.dataclass(frozen=True)
class Answer:
    yes: bool


@dataclasses.dataclass(frozen=True)
class NextHand:
    pass


@dataclasses.dataclass(frozen=True)
class Hint:
    pass


@dataclasses.dataclass(frozen=True)
class Snapshot:
    pass


@dataclasses.dataclass(frozen=True)
class Sit:
    seat: int


@dataclasses.dataclass(frozen=True)
class Start:
    pass


Command = Play | Decline | Arm | TakeBack | Answer | NextHand | Hint | Snapshot | Sit | Start

_SIMPLE: dict[str, Callable[[], Command]] = {"decline": Decline, "take_back": TakeBack, "next_hand": NextHand, "hint": Hint,
           "snapshot": Snapshot, "start": Start}
_FIELDS = {"play": {"move"}, "arm": {"move", "on"}, "answer": {"yes"}, "sit": {"seat"}}


class CommandError(ValueError):
    """A command's JSON form that is not a command (the wire's input is never trusted)."""

    def __init__(self, reason: str, key: str = "table_bad_command") -> None:
        super().__init__(reason)
        self.reason = reason
        self.key = key


def command_from_json(spec: GameSpec, data: Any) -> Command:
    """Read a command from its JSON form (``{"cmd": "play", "move": {"play": "QS"}}``; an optional
    ``"id"`` is the caller's to echo). Raises :class:`CommandError` for anything else."""
    if not isinstance(data, dict):
        raise CommandError("a command is a JSON object")
    name = data.get("cmd")
    if not isinstance(name, str) or (name not in _SIMPLE and name not in _FIELDS):
        raise CommandError(f"unknown command {safetext.clean(name, 32)!r}")
    fields = _FIELDS.get(name, set())
    extra = set(data) - fields - {"cmd", "id"}
    if extra:
        raise CommandError(f"unexpected field {safetext.clean(min(extra), 32)!r} in {name!r}")
    if name in _SIMPLE:
        return _SIMPLE[name]()
    if name == "answer":
        if type(data.get("yes")) is not bool:
            raise CommandError("'answer' needs 'yes': true or false")
        return Answer(data["yes"])
    if name == "sit":
        seat = data.get("seat")
        if type(seat) is not int or not 0 <= seat < SEATS:
            raise CommandError("'sit' needs 'seat': 0 to 3")
        return Sit(seat)
    on = data.get("on", True)
    if type(on) is not bool:
        raise CommandError("'on' is true or false")
    try:
        move = spec.match_type.decode_move(data.get("move"))
    except (MoveError, TypeError, ValueError, KeyError, IndexError, AttributeError) as exc:
        raise CommandError(f"not a {spec.name} move: {safetext.clean(exc, 80)}", "table_bad_move") from None
    return Play(move) if name == "play" else Arm(move, on)


# ---------------------------------------------------------------- thinking
class Thinker(Protocol):
    """What decides for the CPUs (and gives hints): ``decide`` the move of a ``level`` CPU seeing
    ``view`` (None: an optional move declined; ``partner_human``: its partner is a person, whose plays
    it never beats where the game has that rule), ``hint`` the game's hint for ``view`` (or None)."""

    def decide(self, level: str, view: Any, partner_human: bool = False) -> Any: ...

    def hint(self, view: Any) -> Any: ...


class BotThinker:
    """The game's own bots, asked in the calling thread (tests, headless drivers, cheap levels)."""

    def __init__(self, spec: GameSpec) -> None:
        self.spec = spec
        self._bots: dict[tuple[str, bool], Any] = {}

    def bot(self, level: str, partner_human: bool = False) -> Any:
        bot = self._bots.get((level, partner_human))
        if bot is None:
            made = self.spec.bot(level, True) if partner_human and self.spec.partner_rule else self.spec.bot(level)
            bot = self._bots[level, partner_human] = made
        return bot

    def decide(self, level: str, view: Any, partner_human: bool = False) -> Any:
        return self.bot(level, partner_human).choose(view)

    def hint(self, view: Any) -> Any:
        advice = self.spec.advice
        return None if advice is None else advice.hint(view)


class WorkerThinker(BotThinker):
    """The search levels and the hints in a :class:`workers.Thinker`'s process (the same answers: the
    worker builds the same bot), the cheap levels in the calling thread."""

    def __init__(self, spec: GameSpec, thinker: workers.Thinker) -> None:
        super().__init__(spec)
        self.thinker = thinker

    def decide(self, level: str, view: Any, partner_human: bool = False) -> Any:
        bot = self.bot(level, partner_human)
        searching = workers.searches(self.spec, bot)
        if searching is not None:       # (told its seating only when it changes the bot: the partner rule)
            seating = (True,) if getattr(bot, "spare_partner", False) else ()
            return self.thinker.call(workers.decide, self.spec.name, searching, view, *seating)
        return bot.choose(view)

    def hint(self, view: Any) -> Any:
        if self.spec.advice is None:
            return None
        return self.thinker.call(workers.hint, self.spec.name, view)


class StatsSink(Protocol):
    """Where a person's statistics go (``stats.StatsService``: writes in the background)."""

    def submit(self, method: str, *args: Any, **kwargs: Any) -> None: ...


@dataclasses.dataclass(frozen=True)
class CpuTurn:
    """A decision the CPU playing ``seat`` must make: its move (``optional`` False) or whether to make
    an optional move out of turn (None: it declines). ``position`` is what it is for: an answer for
    another position is dropped by :meth:`TableSession.resolve`.

    With ``automatic`` set it is no decision but a person's automatic move at a table with other people
    (Guiñote's keep without the 7): the caller resolves it with that move when it likes, so that the
    time it takes shows nothing (``view`` is None then)."""

    seat: int
    level: str
    view: Any
    optional: bool
    position: tuple[int, int]
    automatic: Any = None
    partner_human: bool = False       # the seat's partner is a person's seat (the game's partner rule)


class _OptionalAsk:
    """Stands in for a CPU's bot in ``engine.next_auto_move``: its optional move is not chosen there but
    returned as a :class:`CpuTurn`, to be decided by the thinker."""

    level = None

    def choose(self, view: Any) -> Any:
        return view


_ASK = _OptionalAsk()


@dataclasses.dataclass
class _TakeBackRequest:
    seat: int
    keep: int                       # the moves kept when it is granted
    position: tuple[int, int]
    waiting: set[int]


# ---------------------------------------------------------------- the session
class TableSession:
    """One match at one table (see the module docstring and docs/design.md «Shared tables»).

    ``seats`` are the four places; ``shared`` tables save their seats with the match (in a store of
    their own) and ask the other people before a take-back; ``cpu_delay`` is the pause (data, in the
    ``moved`` events) after a CPU's move; ``hints`` whether the seats may ask for hints;
    ``wait_for_optional`` whether the CPUs wait for a person's open optional moves (a shared table's
    rule; a solo screen arms them instead); ``stats_for(seat)`` gives a person's statistics (or None);
    ``table_extra()`` the few plain values a screen saves with the match (``saves.envelope``'s
    ``table``; a resumed one is in ``restored_table``);
    ``clock`` is the time the hand clocks and ``idle_since`` read."""

    def __init__(self, spec: GameSpec, match: Match, seats: Sequence[Seat], *, shared: bool = True,
                 code: str | None = None, host: int | None = None, phase: str = LOBBY,
                 store: SaveStore | None = None, slot: str | None = None,
                 stats_for: Callable[[Seat], StatsSink | None] | None = None,
                 thinker: Thinker | None = None, cpu_delay: float = 0.6, hints: bool | None = None,
                 wait_for_optional: bool | None = None, take_backs: bool = True,
                 table_extra: Callable[[], dict[str, Any]] | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        if len(seats) != SEATS or [seat.index for seat in seats] != list(range(SEATS)):
            raise ValueError("a table has four seats, numbered 0 to 3")
        for seat in seats:
            spec.bot(seat.level)                  # raises for a level the game does not know
        self.spec = spec
        self.match = match
        self.seats = list(seats)
        self.shared = shared
        self.code = code if code is not None else make_code()
        self.host = host
        self.phase = OVER if match.is_over() else phase
        self.store = store
        self.slot = slot if slot is not None else f"table-{self.code}"
        self.stats_for = stats_for
        self.thinker = thinker
        self.cpu_delay = cpu_delay
        self._hints_chosen = hints
        self.hints = hints if hints is not None else not (shared and self.people() > 1)
        self.wait_for_optional = shared if wait_for_optional is None else wait_for_optional
        self.take_backs = take_backs
        self.table_extra = table_extra              # the screen's own answers, saved with the table
        self.restored_table: dict[str, Any] | None = None     # what a resumed save held of them
        self.clock = clock
        self.undo_used = False
        self.save_error: SaveError | None = None
        self.generation = 0                       # +1 whenever the match is replaced (a take-back)
        self.results: dict[str, Any] | None = None    # the hand_end record while its results are up
        self._waiting: set[int] = set()           # the people who have not yet gone on from them
        self.request: _TakeBackRequest | None = None
        self._asked: tuple[tuple[int, int], collections.Counter[int]] = ((-1, -1), collections.Counter())
        self.armed: dict[int, list[Any]] = {seat: [] for seat in range(SEATS)}
        self._declined: tuple[tuple[int, int], set[int]] = ((-1, -1), set())
        self._outboxes: dict[int, collections.deque[Event]] = {
            seat: collections.deque(maxlen=OUTBOX_LIMIT) for seat in range(SEATS)}
        self._seq = [0] * SEATS
        self._clocks = {seat: HandClock() for seat in range(SEATS)}
        self.idle_since: float | None = None if self.connected() else clock()

    # -- making and resuming tables
    @classmethod
    def create(cls, spec: GameSpec, host: str, host_name: str, *, options: Any = None,
               seed: int | None = None, levels: Sequence[str] = ("normal",) * SEATS,
               open_seats: Iterable[int] = (1, 2, 3), **kwargs: Any) -> TableSession:
        """A new shared table in its lobby, its host (``host``, an identity) at seat 0. The seed is
        drawn by :mod:`secrets` unless given, and told to nobody before the match is over (it deals
        every hand); a chosen seed is for tests and tools, never a host's choice at a table of friends."""
        seed = secrets.randbelow(2**31) if seed is None else seed
        match = spec.new_match(options, seed)
        opened = set(open_seats) - {0}
        seats = [Seat(index, levels[index], open=index in opened) for index in range(SEATS)]
        session = cls(spec, match, seats, shared=True, host=0, phase=LOBBY, **kwargs)
        session._take(seats[0], owner_tag(host), host_name)
        session.autosave()
        return session

    @classmethod
    def solo(cls, spec: GameSpec, match: Match, players: Sequence[str], **kwargs: Any) -> TableSession:
        """A terminal's own table: one person at seat 0 (``players`` as the saves write them:
        ``"human"`` then ``"cpu:LEVEL"``), already playing; no consent asked, no waiting for the
        person's optional moves."""
        seats = []
        for index, player in enumerate(players):
            if player == "human":
                seats.append(Seat(index, "normal", "", owner_tag(LOCAL_OWNER), connected=True))
            else:
                seats.append(Seat(index, player.split(":", 1)[1]))
        kwargs.setdefault("wait_for_optional", False)
        return cls(spec, match, seats, shared=False, phase=PLAY, host=0, **kwargs)

    @classmethod
    def resume(cls, store: SaveStore, slot: str, **kwargs: Any) -> TableSession:
        """A table saved by :meth:`autosave`, rebuilt from its slot (the match by replay). Every person's
        seat is not connected until its owner joins again. Raises ``SaveError``."""
        from cardtable import games

        held = store.holds(slot)
        store.lock(slot)
        try:
            match, save = store.load(slot)
        except SaveError:
            if not held:
                store.unlock(slot)
            raise
        spec = games.get(save.game)
        table = save.table or {}
        levels = ["normal" if index == 0 else player.split(":", 1)[1] for index, player in enumerate(save.players)]
        if not table.get("shared"):
            solo = cls.solo(spec, match, save.players, store=store, slot=slot, **kwargs)
            solo.undo_used, solo.restored_table = save.undo, save.table
            return solo
        if table.get("level0") in spec.bots:
            levels[0] = str(table["level0"])
        seats = []
        for index in range(SEATS):
            entry = table.get(f"seat{index}")
            tag, _, name = entry.partition(" ") if isinstance(entry, str) else ("", "", "")
            seat = Seat(index, levels[index])
            if _TAG.match(tag):
                seat.owner, seat.name = tag, clean_name(name)
            seats.append(seat)
        phase = table.get("phase") if table.get("phase") in (LOBBY, PLAY, OVER) else PLAY
        host = table.get("host") if type(table.get("host")) is int and 0 <= table["host"] < SEATS else None
        code = read_code(table.get("code")) or make_code()
        if phase == LOBBY:
            for seat in seats:
                seat.open = seat.owner is None and index_open(table, seat.index)
        session = cls(spec, match, seats, shared=True, code=code, host=host, phase=str(phase), store=store,
                      slot=slot, hints=table.get("hints") is True, **kwargs)
        session.undo_used = save.undo
        return session

    # -- who is here
    def connected(self) -> list[int]:
        """The seats whose person is here now."""
        return [seat.index for seat in self.seats if seat.person and seat.connected]

    def people(self) -> int:
        """How many seats are people's (connected or not)."""
        return sum(seat.person for seat in self.seats)

    def seat_of(self, identity: str) -> int | None:
        tag = owner_tag(identity)
        return next((seat.index for seat in self.seats if seat.owner == tag), None)

    def names(self) -> list[str]:
        """The name of every seat (a CPU's, and a nameless person's, is empty: the screens name it by its
        place)."""
        return [seat.name for seat in self.seats]

    def _take(self, seat: Seat, tag: str, name: str) -> None:
        seat.owner, seat.connected, seat.open = tag, True, False
        seat.name = self._unique_name(clean_name(name), seat.index)

    def _unique_name(self, name: str, index: int) -> str:
        """``name``, numbered when another person at the table has it (an empty name stays empty: the
        screens name such a seat by its place, in the reader's language)."""
        taken = {seat.name for seat in self.seats if seat.index != index and seat.person}
        if not name or name not in taken:
            return name
        for n in range(2, SEATS + 2):
            candidate = f"{name[:NAME_LIMIT - 2]} {n}"
            if candidate not in taken:
                return candidate
        return name

    def join(self, identity: str, name: str) -> Reply:
        """A person arrives: their own seat back (the same identity), else an open seat in the lobby.
        The reply's ``data`` is the seat."""
        tag = owner_tag(identity)
        mine = next((seat for seat in self.seats if seat.owner == tag), None)
        if mine is None:
            if self.phase != LOBBY:
                return Reply.refuse("table_full", "the table has started and has no seat of yours")
            mine = next((seat for seat in self.seats if seat.open and seat.owner is None), None)
            if mine is None:
                return Reply.refuse("table_full", "every seat at the table is taken")
            self._take(mine, tag, name)
        else:
            mine.connected = True
        self.idle_since = None
        self._broadcast_seats("joined", mine.index)
        self._snapshot(mine.index)
        self.autosave()
        return Reply(True, data=mine.index)

    def leave(self, seat: int) -> None:
        """The person at ``seat`` dropped (or left): its CPU plays it from the next decision on, and the
        seat stays theirs. In the lobby a guest's seat opens again."""
        place = self.seats[seat]
        if not place.connected:
            return
        place.connected = False
        if self.phase == LOBBY and seat != self.host:
            place.owner, place.name, place.open = None, "", True
        self._waiting.discard(seat)
        self._release_results()
        if self.request is not None:
            self._end_request("take_back_cancelled", {"seat": self.request.seat, "by": seat})
        if not self.connected():
            self.idle_since = self.clock()
        self._broadcast_seats("left", seat)
        self.autosave()

    # -- commands
    def submit(self, seat: int, command: Command) -> Reply:
        """Carry out ``command`` for ``seat`` (the seat the caller speaks for: a connection's own). A
        refused command changes nothing."""
        if not 0 <= seat < SEATS:
            return Reply.refuse("table_no_seat", "no such seat")
        place = self.seats[seat]
        if not (place.person and place.connected):
            return Reply.refuse("table_not_your_seat", "this seat is not yours at the moment")
        if isinstance(command, Snapshot):
            self._snapshot(seat)
            return DONE
        if isinstance(command, Sit):
            return self._sit(seat, command.seat)
        if isinstance(command, Start):
            return self._start(seat)
        if self.phase == LOBBY:
            return Reply.refuse("table_not_started", "the host has not started the deal yet")
        if isinstance(command, Answer):
            return self._answer(seat, command.yes)
        if self.phase == OVER:
            return Reply.refuse("match_is_over", "the match is over")
        if isinstance(command, Play):
            return self._play(seat, command.move)
        if isinstance(command, NextHand):
            self._waiting.discard(seat)
            self._release_results()
            return DONE
        if isinstance(command, Decline):
            return self._decline(seat)
        if isinstance(command, Arm):
            return self._arm(seat, command.move, command.on)
        if isinstance(command, TakeBack):
            return self._take_back(seat)
        if isinstance(command, Hint):
            return self._hint(seat)
        return Reply.refuse("table_bad_command", "not a command")

    def _sit(self, seat: int, target: int) -> Reply:
        if self.phase != LOBBY:
            return Reply.refuse("table_started", "the seats are chosen before the first deal")
        if not 0 <= target < SEATS:
            return Reply.refuse("table_no_seat", "no such seat")
        if target == seat:
            return Reply(True, data=seat)
        there = self.seats[target]
        if not there.open or there.person:
            return Reply.refuse("table_seat_taken", "that seat is not free")
        here = self.seats[seat]
        there.owner, there.name, there.connected, there.open = here.owner, here.name, True, False
        here.owner, here.name, here.connected, here.open = None, "", False, True
        if self.host == seat:
            self.host = target
        self._broadcast_seats("seats", target)
        self.autosave()
        return Reply(True, data=target)

    def _start(self, seat: int) -> Reply:
        if self.phase != LOBBY:
            return Reply.refuse("table_started", "the deal has started already")
        if seat != self.host:
            return Reply.refuse("table_host_only", "only the host starts the deal")
        for place in self.seats:
            place.open = False                    # an open seat nobody took is a CPU's for the match
        self.phase = PLAY
        if self._hints_chosen is None:          # the default: hints only with one person at the table
            self.hints = not (self.shared and self.people() > 1)
        for index in self.connected():
            self._clocks[index] = HandClock()
        self._broadcast_seats("started", seat)
        self.autosave()
        return DONE

    def _play(self, seat: int, move: Any) -> Reply:
        try:
            refusal = self.match.why_illegal(move, seat)
        except (AttributeError, TypeError, ValueError, KeyError, IndexError):
            refusal = IllegalMove("not a move of this game", "table_bad_move")
        if refusal is not None:                   # (a refused play changes nothing, not even a request)
            return Reply.refused(refusal)
        if self.request is not None:              # playing on is the answer «no»
            self._end_request("take_back_cancelled", {"seat": self.request.seat, "by": seat})
        self._waiting.discard(seat)               # a move is going on from the results
        self._release_results()
        self._clocks[seat].tick()
        self._apply(seat, move, 0.0)
        return DONE

    def _decline(self, seat: int) -> Reply:
        if seat not in self.match.optional_movers():
            return Reply.refuse("table_nothing_to_decline", "you have no optional move to decline now")
        self._declined_here().add(seat)
        return DONE

    def _arm(self, seat: int, move: Any, on: bool) -> Reply:
        armed = self.armed[seat]
        if not on:
            if move in armed:
                armed.remove(move)
            return DONE
        if move not in armed:
            if len(armed) >= ARMED_LIMIT:
                return Reply.refused(IllegalMove("too many moves armed at once", "table_armed_limit",
                                                 limit=ARMED_LIMIT))
            armed.append(move)
        return DONE

    def hint_view(self, seat: int) -> Reply:
        """Whether ``seat`` may have a hint now; its ``data`` is the view to ask the thinker about (a
        server asks it off its event loop: a hint is a search). The checks of :class:`Hint`."""
        place = self.seats[seat] if 0 <= seat < SEATS else None
        if place is None or not (place.person and place.connected):
            return Reply.refuse("table_not_your_seat", "this seat is not yours at the moment")
        if self.phase != PLAY:
            return (Reply.refuse("table_not_started", "the host has not started the deal yet")
                    if self.phase == LOBBY else Reply.refuse("match_is_over", "the match is over"))
        if not self.hints:
            return Reply.refuse("table_hints_off", "hints are off at this table")
        if self.match.to_move() != seat:
            return Reply.refuse("not_your_turn", "it is not your turn")
        return Reply(True, data=self.match.view(seat))

    def _hint(self, seat: int) -> Reply:
        asked = self.hint_view(seat)
        if not asked.ok:
            return asked
        if self.thinker is None:
            return Reply.refuse("hint_none", "no hint here")
        return Reply(True, data=self.thinker.hint(asked.data))

    # -- taking back
    def take_back_target(self, seat: int) -> int | None:
        """How many moves a take-back by ``seat`` keeps (its last move and all after it go), or None:
        never below the table's floor, the highest ``undo.undo_floor`` of every person's seat, so that
        nobody un-sees a card."""
        from cardtable.undo import undo_floor

        moves = self.match.moves
        if not any(mover == seat for mover, _ in moves):
            return None
        floor = max(undo_floor(self.match, place.index) for place in self.seats if place.person)
        for index in range(len(moves) - 1, floor - 1, -1):
            if moves[index][0] == seat:
                return index
        return None

    def _take_back(self, seat: int) -> Reply:
        if not self.take_backs:
            return Reply.refuse("table_take_back_off", "taking moves back is off at this table")
        if self.request is not None:
            return Reply.refuse("take_back_pending", "a take-back is waiting for an answer")
        keep = self.take_back_target(seat)
        if keep is None:
            mine = any(mover == seat for mover, _ in self.match.moves)
            floor = "table_take_back_floor" if self.shared else "take_back_floor"
            return (Reply.refuse(floor, "nobody takes back past cards a person at the table has seen")
                    if mine else Reply.refuse("take_back_none", "nothing of yours to take back"))
        others = {place for place in self.connected() if place != seat}
        if not (self.shared and others):
            self._do_take_back(keep)
            return DONE
        if self._asked[0] != self.position:
            self._asked = (self.position, collections.Counter())
        if self._asked[1][seat] >= TAKE_BACK_ASKS:    # asked again after every «no», it would hold the table
            return Reply.refused(IllegalMove("you have asked to take a move back here often enough: play on",
                                             "table_take_back_asked", limit=TAKE_BACK_ASKS))
        self._asked[1][seat] += 1
        self.request = _TakeBackRequest(seat, keep, self.position, others)
        for place in self.connected():
            self._emit(place, "take_back_asked", {"seat": seat, "waiting": sorted(others)})
        return Reply(True, data="asked")

    def _answer(self, seat: int, yes: bool) -> Reply:
        request = self.request
        if request is None or seat not in request.waiting:
            return Reply.refuse("take_back_no_request", "nobody is asking you to take a move back")
        if not yes:
            self._end_request("take_back_refused", {"seat": request.seat, "by": seat})
            return DONE
        request.waiting.discard(seat)
        if not request.waiting:
            self.request = None
            self._do_take_back(request.keep)
        return DONE

    def _end_request(self, kind: str, data: dict[str, Any]) -> None:
        self.request = None
        for place in self.connected():
            self._emit(place, kind, data)

    def _do_take_back(self, keep: int) -> None:
        match = self.match
        self.match = type(match).replay(match.options, match.seed, match.moves[:keep])
        self.generation += 1
        self.armed = {seat: [] for seat in range(SEATS)}
        if not self.undo_used:
            for place in self.seats:
                sink = self._stats(place)
                if sink is not None:
                    sink.submit("mark_undo", self.slot, self.match.seed)
        self.undo_used = True
        self.autosave()
        for index in self.connected():
            self._emit(index, "take_back_done", {"moves": len(self.match.moves),
                                                 "to_move": self.match.to_move()}, view=True)

    # -- the turn loop
    @property
    def position(self) -> tuple[int, int]:
        """What a decision is for: the match object's generation and its number of moves."""
        return (self.generation, len(self.match.moves))

    def _declined_here(self) -> set[int]:
        if self._declined[0] != self.position:
            self._declined = (self.position, set())
        return self._declined[1]

    def still(self) -> bool:
        """Whether the table stands still: nothing is made for anybody (lobby, over, a hand's results
        up, a take-back request open, or nobody here)."""
        return (self.phase != PLAY or self.results is not None or self.request is not None
                or not self.connected())

    def _armed_now(self) -> tuple[int, Any] | None:
        """The first armed move of a person's seat that is legal now."""
        for seat in self.connected():
            for move in self.armed[seat]:
                if self.match.why_illegal(move, seat) is None:
                    return seat, move
        return None

    def _holding(self, seat_to_move: int) -> bool:
        """A connected person other than the seat to move has optional moves open that they have not
        declined here: the CPUs wait for them (a CPU's lead would close their window)."""
        if not self.wait_for_optional:
            return False
        declined = self._declined_here()
        return any(other != seat_to_move and not self.seats[other].cpu_plays and other not in declined
                   for other in self.match.optional_movers())

    def _asker(self, declined: set[int]) -> Callable[[int], Any]:
        """``next_auto_move``'s ``bot_for``: the marker for a seat a CPU plays (and that has not declined
        its optional move here), None for a person's."""
        def bot_for(seat: int) -> Any:
            return _ASK if self.seats[seat].cpu_plays and seat not in declined else None

        return bot_for

    def pending(self) -> CpuTurn | None:
        """What the CPUs must decide next, or None (a person is to move, or the table stands still).
        Moves that need no decision (an armed move, a seat's automatic move) are made here."""
        for _ in range(10_000):
            if self.still():
                return None
            to_move = self.match.to_move()
            if to_move is None:
                return None
            step = next_auto_move(self.match, self._asker(self._declined_here()), armed=self._armed_now(),
                                  decide=False)
            if step is None:
                return None
            seat, move = step
            optional = seat != to_move and move is not None and self.seats[seat].cpu_plays
            if move is None or optional:
                if self._holding(to_move):
                    return None
                view = move if optional else self.match.view(seat)
                return CpuTurn(seat, self.seats[seat].level, view, optional, self.position,
                               partner_human=self._partner_is_a_person(seat))
            if self._times_automatic(seat, move):
                return CpuTurn(seat, self.seats[seat].level, None, False, self.position, automatic=move)
            # An armed or automatic move: no decision to make; a forced move shows nothing (no pause).
            self._apply(seat, move, 0.0)
        return None

    def _partner_is_a_person(self, seat: int) -> bool:
        """Whether a person (connected or not, but not played by a CPU now) sits opposite ``seat``."""
        return self.spec.partnerships and not self.seats[(seat + 2) % SEATS].cpu_plays

    def _times_automatic(self, seat: int, move: Any) -> bool:
        """Whether ``move`` is the automatic move of a person's seat at a table with other people here
        (not an armed one: that the person chose), which the caller times (see :class:`CpuTurn`)."""
        if not (self.shared and not self.seats[seat].cpu_plays and len(self.connected()) > 1):
            return False
        return move not in self.armed[seat] and move == self.match.automatic_move(seat)

    def resolve(self, turn: CpuTurn, move: Any) -> bool:
        """Make the decision ``move`` of ``turn`` (None: an optional move declined), if the table is
        still where it was asked and the seat still a CPU's (for an automatic turn: the move is still
        the seat's automatic one). Returns whether it changed anything."""
        if turn.position != self.position or self.still():
            return False
        if turn.automatic is not None:
            if move != turn.automatic or move != self.match.automatic_move(turn.seat):
                return False
            self._apply(turn.seat, move, 0.0)
            return True
        if not self.seats[turn.seat].cpu_plays:
            return False
        if move is None:
            if not turn.optional:
                return False
            self._declined_here().add(turn.seat)
            return True
        if self.match.why_illegal(move, turn.seat) is not None:
            return False
        self._apply(turn.seat, move, 0.0 if self.match.silent(move) else self.cpu_delay)
        return True

    def run_cpus(self, thinker: Thinker | None = None, limit: int = 100_000) -> int:
        """Let the CPUs play until a person is to move or the table stands still (synchronously, asking
        ``thinker``, by default the session's). Returns the number of decisions asked."""
        thinker = self._thinker(thinker)
        asked = 0
        while asked < limit:
            turn = self.pending()
            if turn is None:
                break
            self.resolve(turn, turn.automatic if turn.automatic is not None
                         else thinker.decide(turn.level, turn.view, turn.partner_human))
            asked += 1
        return asked

    async def run_cpus_async(self, thinker: Thinker | None = None, limit: int = 100_000) -> int:
        """:meth:`run_cpus` with each decision asked in a thread (the event loop never waits on a
        search); what changed meanwhile (a person's move, a rejoin) drops the late answer. The session
        itself is not thread-safe: ``pending``, ``resolve`` and the commands run on the loop's thread,
        only the thinker's decision in another."""
        thinker = self._thinker(thinker)
        asked = 0
        while asked < limit:
            turn = self.pending()
            if turn is None:
                break
            if turn.automatic is not None:
                move = turn.automatic
            else:
                move = await asyncio.to_thread(thinker.decide, turn.level, turn.view, turn.partner_human)
            self.resolve(turn, move)
            asked += 1
        return asked

    def _thinker(self, thinker: Thinker | None) -> Thinker:
        if thinker is not None:
            return thinker
        if self.thinker is None:
            self.thinker = BotThinker(self.spec)
        return self.thinker

    def _apply(self, seat: int, move: Any, pause: float) -> None:
        """Apply a checked move for ``seat`` and tell every seat (each its own view)."""
        events = len(self.match.events)
        self.match.apply(move, seat)
        records = self.match.events[events:]
        if move in self.armed[seat]:
            self.armed[seat].remove(move)
        dealt = any(record["type"] == "deal" for record in records)
        if dealt:
            self.armed = {place: [] for place in range(SEATS)}
        hand_end = next((record for record in records if record["type"] == "hand_end"), None)
        match_end = next((record for record in records if record["type"] == "match_end"), None)
        if hand_end is not None:
            self._record_statistics(hand_end, match_end is not None)
            if match_end is None:
                self.results = hand_end
                self._waiting = set(self.connected())
        if match_end is not None:
            self.phase = OVER
        self.autosave()
        to_move = self.match.to_move()
        finished = self._finished_hand(match_end is not None) if hand_end is not None else None
        for place in self.connected():
            data: dict[str, Any] = {"seat": seat, "number": len(self.match.moves), "pause": pause,
                                    "to_move": to_move}
            if place == seat:
                data["move"] = move.to_json()
            self._emit(place, "moved", data, view=True)
            if hand_end is not None:               # its view: the finished hand, to show behind the results
                shown = (dataclasses.replace(finished.view(place), to_move=None, legal=())
                         if finished is not None else self.match.view(place))
                self._emit(place, "hand_over", {"record": hand_end}, shown=shown)
            if match_end is not None:              # (the game number may be told now: nothing is hidden)
                self._emit(place, "match_over", {"record": match_end, "seed": self.match.seed,
                                                 **dataclasses.asdict(self.match.outcome())})
        if hand_end is not None:
            self._release_results()

    def _finished_hand(self, over: bool) -> Match | None:
        """The table as the hand's last move left it: the match itself when it is over, else (the next
        hand is dealt in the same move) the match replayed with that deal held back."""
        if over:
            return self.match
        from cardtable.undo import finished_hand

        return finished_hand(self.match)

    def _release_results(self) -> None:
        """The hand's results go when every person still here has gone on from them."""
        if self.results is not None and not (self._waiting & set(self.connected())):
            self.results = None
            self._waiting = set()
            for place in self.connected():
                self._emit(place, "next_hand", {"to_move": self.match.to_move()}, view=True)

    # -- events
    def _emit(self, seat: int, kind: str, data: dict[str, Any], view: bool = False, shown: Any = None) -> None:
        """Queue an event for ``seat``, with its view now (``view``) or the view ``shown``."""
        self._seq[seat] += 1
        if view:
            shown = self.match.view(seat)
        self._outboxes[seat].append(Event(kind, data, shown, self._seq[seat]))

    def _broadcast_seats(self, kind: str, seat: int) -> None:
        for place in self.connected():
            self._emit(place, kind, {"seat": seat, "seats": [s.public() for s in self.seats],
                                     "phase": self.phase, "host": self.host}, view=self.phase != LOBBY)

    def _snapshot(self, seat: int) -> None:
        """Everything a seat needs to draw the table afresh (a join, a rejoin, a client that fell
        behind): the seats, the phase, the results if up, a take-back request, and — once the deal has
        started — its view (none in the lobby: a hand seen there could choose a seat)."""
        request = self.request
        self._emit(seat, "snapshot", {
            # Not the seed while the match goes on: it deals every hand (a seat could replay the deal).
            "code": self.code, "game": self.spec.name, "phase": self.phase,
            **({"seed": self.match.seed} if self.phase == OVER else {}),
            "host": self.host, "seats": [s.public() for s in self.seats], "to_move": self.match.to_move(),
            "results": self.results, "moves": len(self.match.moves),
            "hands": [r for r in self.match.log if r.get("type") == "hand_end"],    # public: the chart's
            "take_back": None if request is None else {"seat": request.seat,
                                                       "waiting": sorted(request.waiting)},
        }, view=self.phase != LOBBY)

    def drain(self, seat: int) -> list[Event]:
        """The events waiting for ``seat``, oldest first (taken out)."""
        box = self._outboxes[seat]
        events = list(box)
        box.clear()
        return events

    # -- saving and statistics
    def players(self) -> list[str]:
        """The save's ``players``: ``human`` at seat 0, then each seat's CPU level (a shared table keeps
        its people in the envelope's ``table``)."""
        return ["human" if index == 0 else f"cpu:{seat.level}" for index, seat in enumerate(self.seats)]

    def table_state(self) -> dict[str, Any]:
        """The seats and the table's own state, as the envelope's few plain values."""
        state: dict[str, Any] = {"shared": True, "code": self.code, "phase": self.phase,
                                 "host": -1 if self.host is None else self.host, "level0": self.seats[0].level,
                                 "hints": self.hints}
        for seat in self.seats:
            state[f"seat{seat.index}"] = f"{seat.owner} {seat.name}" if seat.owner else ""
            if self.phase == LOBBY and seat.open:
                state[f"seat{seat.index}"] = "open"
        return state

    def history(self) -> list[dict[str, Any]]:
        """The match's hand history (docs/history-format.md): its ``match`` line, with ``players`` as
        ``human`` or ``cpu:LEVEL`` and the seats' ``names``, then the log. It holds the seed and the
        deals: give it to the players only once the match is over."""
        players = ["human" if seat.person else f"cpu:{seat.level}" for seat in self.seats]
        head = self.match.match_record(players)
        head["names"] = self.names()
        return [head, *self.match.log]

    def autosave(self) -> bool:
        """Save the table now (a shared table with its seats); False when it could not be (the reason
        in ``save_error``) or there is no store."""
        if self.store is None:
            return False
        table = self.table_state() if self.shared else {}
        if self.table_extra is not None:        # the table's own values first: a save keeps at most 12
            for key, value in self.table_extra().items():
                if len(table) < TABLE_VALUES and key not in table:
                    table[key] = value
        try:
            self.store.save(self.slot, self.match, self.players(), undo=self.undo_used, table=table or None)
        except SaveError as exc:
            self.save_error = exc
            return False
        self.save_error = None
        return True

    def _stats(self, seat: Seat) -> StatsSink | None:
        return self.stats_for(seat) if self.stats_for is not None and seat.person else None

    @property
    def level(self) -> str:
        """The level the statistics file the table under: its CPUs' (the first CPU seat's)."""
        return next((seat.level for seat in self.seats if not seat.person), "normal")

    def _record_statistics(self, record: dict[str, Any], ended: bool) -> None:
        for seat in self.seats:
            sink = self._stats(seat)
            if sink is None:
                continue
            sink.submit("record_hand", slot=self.slot, game=self.spec.name, level=self.level,
                        seed=self.match.seed, options=self.match.options.to_dict(), number=record["hand"],
                        record=record, seconds=self._clocks[seat.index].lap(), undo=self.undo_used,
                        outcome=self.match.outcome() if ended else None, seat=seat.index)


def index_open(table: Mapping[str, Any], index: int) -> bool:
    """Whether a saved lobby lists seat ``index`` as open."""
    return table.get(f"seat{index}") == "open"
