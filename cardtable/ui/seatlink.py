"""A table screen's link to its seat at a table session (docs/design.md «The local game is a session
with one person»).

A game screen draws from its seat's view and the seat's events, and sends the seat's commands; it
never reads the match. :class:`SeatLink` is what it may ask. :class:`LocalSeat` is a terminal's own
table: a ``TableSession.solo`` in this process, its CPUs decided off the event loop by the app's worker
(``table.WorkerThinker`` over ``workers.Thinker``) and paced by the screen. A remote seat (a shared
table's, over ``serve.tableclient.TableClient``) implements the same protocol; its refusals may come
later, as a ``refused`` event.

Events are ``table.Event`` s, handed to the listener in batches (all a command or a CPU's move made):
``moved`` (``seat``, ``number``, ``pause``, ``to_move``; ``move`` only for the seat's own move), then,
if the move ended a hand, ``hand_over`` (``record``; its view is the finished hand, shown behind the
results) and ``match_over`` (``record``); ``next_hand`` (the next deal comes to the table: its view);
``take_back_done`` (its view); ``take_back_asked``/``…_refused``/``…_cancelled``; ``joined``/``left``/
``seats``/``started``/``snapshot`` (shared tables); and two of the link's own: ``refused`` (``key``,
``reason``, ``params``: a command refused after ``send`` returned), ``autosave_failed`` (``reason``,
the player's language: a solo table's autosave failed) and ``waited`` (``seat``: the CPU whose optional
move the seat's play waited for has made or declined it).

This module imports no Textual: the screen hands LocalSeat its :class:`Pacing`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine, Hashable
from typing import Any, Protocol, cast

from cardtable import workers
from cardtable.engine import IllegalMove, Match
from cardtable.games import GameSpec
from cardtable.saves import SaveError, SaveStore
from cardtable.table import (
    Command,
    CpuTurn,
    Event,
    Play,
    Reply,
    StatsSink,
    TableSession,
    WorkerThinker,
)
from cardtable.ui.checkrunner import CheckRunner

Listener = Callable[[list[Event]], None]


class SeatLink(Protocol):
    """What a table screen needs from its seat. ``index`` is the seat (0 at a solo table); ``spec``
    the game."""

    index: int
    spec: GameSpec

    def view(self) -> Any:
        """The seat's newest view: the finished hand's (nobody to move) while its results are up."""

    def position(self) -> Hashable:
        """A value that changes whenever the table does (a move, a take-back): what a hint is for."""

    def refusal(self, move: Any) -> IllegalMove | None:
        """Why the seat may not make ``move`` now (None: it may, as far as the seat can tell — the
        session checks again). Synchronous: the screens explain the card under the cursor with it."""

    def listen(self, listener: Listener) -> None:
        """Where the seat's events go (one listener: the screen)."""

    def send(self, command: Command) -> Reply | None:
        """Carry out a command of the seat's (:class:`table.Play`, ``Decline``, ``Arm``, ``TakeBack``,
        ``NextHand``…). Its events reach the listener before this returns when the table is in this
        process; the reply is returned, or None when it comes later (a refusal then arrives as a
        ``refused`` event). Either way a refusal changed nothing."""

    def go_on(self) -> None:
        """The screen is ready for the table to move on (no dialog, no deal animation in the way): a
        local table lets its CPUs play now; a remote one runs without asking."""

    @property
    def busy(self) -> bool:
        """Whether a CPU decision for this table is under way here (a take-back waits for it)."""

    def waiting_for(self) -> int | None:
        """The CPU seat whose optional move out of turn is being decided or shown: the seat's play waits
        for it (a quick lead must not close the partner's window). None: nothing to wait for."""

    async def hint(self, over_partner: bool = False) -> Reply:
        """The game's hint for the seat's turn (``data``: a ``hints.Hint`` or None), or a refusal."""

    async def check(self, view: Any, move: Any) -> Any:
        """The play checker's verdict on ``move`` made in ``view`` (the seat's own): a flag or None."""


class Pacing(Protocol):
    """What LocalSeat asks its screen: whether the CPUs may move now (no dialog open), how long to show a
    CPU's move before it is made, the wait itself (a key cuts it short), the move the person armed
    (Guiñote's exchange or cante, legal now) and how to run the CPU loop (a Textual worker)."""

    def cpu_may_move(self) -> bool: ...

    def cpu_delay(self, seat: int, move: Any) -> float: ...

    async def pause(self, seconds: float) -> None: ...

    def armed_move(self) -> Any: ...

    def run_cpus(self, loop: Callable[[], Coroutine[Any, Any, None]]) -> None: ...


class _ReportingStore:
    """The app's store as the session sees it: every save's failure or success is reported."""

    def __init__(self, store: SaveStore, report: Callable[[SaveError | None], None]) -> None:
        self._store = store
        self._report = report

    def save(self, *args: Any, **kwargs: Any) -> Any:
        try:
            path = self._store.save(*args, **kwargs)
        except SaveError as exc:
            self._report(exc)
            raise
        self._report(None)
        return path

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)


class LocalSeat:
    """Seat 0 of a terminal's own table (see the module docstring). ``store`` None: never saved
    (practice deals, read-only tables); ``stats`` None: never counted. ``table_extra`` gives the few
    plain values the screen saves with the match (``saves.envelope``'s ``table``)."""

    index = 0

    def __init__(self, spec: GameSpec, match: Match, players: list[str], slot: str, *,
                 thinker: workers.Thinker, store: SaveStore | None = None, stats: StatsSink | None = None,
                 table_extra: Callable[[], dict[str, Any]] | None = None) -> None:
        self.spec = spec
        self.slot = slot
        self.thinker = thinker
        self.save_error: str | None = None      # why the last save failed (None: it worked)
        self._listener: Listener | None = None
        self._pacing: Pacing | None = None
        self._running = False
        self._optional: tuple[Hashable, int] | None = None     # (position, CPU seat) while it decides
        self._local: list[Event] = []
        self._checks = CheckRunner()
        reporting = None if store is None else cast(SaveStore, _ReportingStore(store, self._saved))
        self._decider = WorkerThinker(spec, thinker)    # the search levels in the worker, the rest in a thread
        self.session = TableSession.solo(
            spec, match, players, store=reporting, slot=slot,
            stats_for=(lambda seat: stats) if stats is not None else None,
            thinker=self._decider, cpu_delay=0.0, hints=True, table_extra=table_extra)
        self._view: tuple[Hashable, Any] | None = None      # the view made at a position
        self._finished: Any = None     # the finished hand's view, while its results are up

    # -- the protocol
    def view(self) -> Any:
        if self._finished is not None and self.session.results is not None:
            return self._finished
        position = self.position()
        if self._view is None or self._view[0] != position:
            self._view = (position, self.session.match.view(self.index))
        return self._view[1]

    def position(self) -> Hashable:
        return self.session.position

    def forget_view(self) -> None:
        """Make the view afresh when next asked (the match was changed in place)."""
        self._view = None

    def refusal(self, move: Any) -> IllegalMove | None:
        return self.session.match.why_illegal(move, self.index)

    def listen(self, listener: Listener) -> None:
        self._listener = listener

    def send(self, command: Command) -> Reply:
        waiting = self.waiting_for()
        if isinstance(command, Play) and waiting is not None and self.session.match.to_move() == self.index:
            return Reply.refuse("wait_first", "a CPU is deciding its move out of turn first", seat=waiting)
        reply = self.session.submit(self.index, command)
        self._deliver()
        return reply

    def go_on(self) -> None:
        pacing = self._pacing
        if self._running or pacing is None or not pacing.cpu_may_move():
            return
        self._running = True
        pacing.run_cpus(self._cpu_loop)

    @property
    def busy(self) -> bool:
        return self._running

    def waiting_for(self) -> int | None:
        optional = self._optional
        return optional[1] if optional is not None and optional[0] == self.position() else None

    async def hint(self, over_partner: bool = False) -> Reply:
        asked = self.session.hint_view(self.index)
        if not asked.ok:
            return asked
        args = (True,) if over_partner else ()
        hint = await asyncio.to_thread(self.thinker.call, workers.hint, self.spec.name, asked.data, *args)
        return Reply(True, data=hint)

    async def check(self, view: Any, move: Any) -> Any:
        # In the checks' own thread: waiting checks must not hold the threads the CPUs' turns run in.
        return await self._checks.run(self.thinker.call, workers.check, self.spec.name, view, move)

    # -- a terminal's own table only: what its solo services are handed (review, replay, charts)
    def pace(self, pacing: Pacing) -> None:
        self._pacing = pacing

    @property
    def match(self) -> Match:
        """The match itself, for the solo services only (review, replay, charts, statistics); a table
        screen draws from :meth:`view`."""
        return self.session.match

    def log(self) -> list[dict[str, Any]]:
        """The match's log records (a finished hand's deal for its summary; the scores for the chart)."""
        return self.session.match.log

    def copy(self) -> Match:
        return self.session.match.clone()

    def deal_again(self, hand: int) -> Match:
        """The match at the deal of hand ``hand``: the same cards, to play again as practice."""
        from cardtable.undo import deal_again

        return deal_again(self.session.match, hand)

    @property
    def undo_used(self) -> bool:
        return self.session.undo_used

    @undo_used.setter
    def undo_used(self, used: bool) -> None:       # a resumed save's
        self.session.undo_used = used

    def save(self) -> bool:
        """Save now; False when the table is never saved or the save failed (``save_error`` says why)."""
        saved = self.session.autosave()
        self._deliver()
        return saved

    def over(self) -> bool:
        return self.session.match.is_over()

    # -- inside
    def _saved(self, error: SaveError | None) -> None:
        self.save_error = None if error is None else error.text
        if error is not None:
            self._local.append(Event("autosave_failed", {"reason": error.text}))

    def _deliver(self) -> None:
        events = self.session.drain(self.index) + self._local
        self._local = []
        if not events:
            return
        for event in events:
            if event.type == "hand_over":
                self._finished = event.view
            elif event.type in ("next_hand", "take_back_done"):
                self._finished = None
        if self._listener is not None:
            self._listener(events)

    async def _cpu_loop(self) -> None:
        """The CPUs play until the person is to move or the screen holds the table (a dialog, a
        pause): each decision in the worker, each move shown for the screen's pause before it is made."""
        pacing = self._pacing
        assert pacing is not None
        try:
            while pacing.cpu_may_move():
                armed = pacing.armed_move()
                if armed is not None and self.waiting_for() is None:
                    self.send(Play(armed))           # the person's armed move first (engine.next_auto_move)
                    continue
                turn = self.session.pending()
                self._deliver()
                if turn is None:
                    return
                move = turn.automatic
                if move is None:
                    if turn.optional:
                        self._optional = (turn.position, turn.seat)
                    try:
                        move = await asyncio.to_thread(self._decider.decide, turn.level, turn.view,
                                                       turn.partner_human)
                    except workers.ThinkerClosed:     # the app is leaving
                        return
                    if turn.position != self.position() or pacing.armed_move() is not None:
                        continue                      # the person moved or armed a move meanwhile
                if move is not None:
                    await pacing.pause(pacing.cpu_delay(turn.seat, move))
                self._end_optional()
                self._resolve(turn, move)
        finally:
            self._running = False
            if self._optional is not None:
                self._end_optional()
                self._deliver()

    def _end_optional(self) -> None:
        """The CPU's optional move is made or declined: the seat's play need not wait (a ``waited``
        event: the screen takes back its «A moment…»)."""
        if self._optional is not None:
            self._local.append(Event("waited", {"seat": self._optional[1]}))
            self._optional = None

    def _resolve(self, turn: CpuTurn, move: Any) -> None:
        self.session.resolve(turn, move)
        self._deliver()
