"""A seat at a shared table, played from this process over the hub (docs/design.md «Shared tables»).

:class:`RemoteSeat` implements the seat-link protocol (``ui/seatlink.py``) over a
:class:`~cardtable.serve.tableclient.TableClient`, so the same table screens that play a terminal's own
table play a seat at a friends' table: the newest view and the events come from the hub (the seat's
own only: the server never sends another seat's cards), commands go to the hub, which checks each one
for this seat, and a refusal comes back later as a ``refused`` event. Nothing here decides for the
table: CPUs, pacing, saving and statistics are the server's. A refusal the seat can tell at once (the
card under the cursor) is read from the view — a match sampled from it (``games/<game>/search.world``),
whose hidden cards are guesses but whose rules for this seat's own moves are the table's. The screens
draw their person at seat 0: the seat hands its screen the table turned to the player's own chair
(``ui/turned.py``), so ``index`` is 0 and ``seat`` the player's seat at the table.

This module imports no Textual (the screen is made by :func:`table_screen`).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import importlib
from collections.abc import Callable, Hashable
from typing import Any

from cardtable import games
from cardtable.engine import IllegalMove
from cardtable.games import GameSpec
from cardtable.hints import Hint, Reason
from cardtable.i18n import t
from cardtable.rng import Rng
from cardtable.sampling import SamplingError
from cardtable.search import Evaluation
from cardtable.table import (
    SEATS,
    Answer,
    Arm,
    Command,
    Decline,
    Event,
    NextHand,
    Play,
    Reply,
    Sit,
    Snapshot,
    Start,
    TakeBack,
)
from cardtable.table import Hint as AskHint
from cardtable.ui import turned

Listener = Callable[[list[Event]], None]
WAIT_NOTICE = 1.5          # seconds after «Next hand» before «waiting for the others» is said
# Events whose view is the seat's newest (``hand_over``'s is the finished hand, shown behind the results).
VIEW_EVENTS = ("moved", "hand_over", "next_hand", "take_back_done", "snapshot", "started")
_SAVE_EVENT = "autosave_failed"      # the seat link's event for a save that failed


def command_json(command: Command) -> dict[str, Any]:
    """A table command in the wire's form (docs/design.md «The message format»)."""
    if isinstance(command, Play):
        return {"cmd": "play", "move": command.move.to_json()}
    if isinstance(command, Arm):
        return {"cmd": "arm", "move": command.move.to_json(), "on": command.on}
    if isinstance(command, Answer):
        return {"cmd": "answer", "yes": command.yes}
    if isinstance(command, Sit):
        return {"cmd": "sit", "seat": command.seat}
    simple = {Decline: "decline", TakeBack: "take_back", NextHand: "next_hand", AskHint: "hint",
              Snapshot: "snapshot", Start: "start"}
    for kind, name in simple.items():
        if isinstance(command, kind):
            return {"cmd": name}
    raise TypeError(f"not a table command: {command!r}")


def _reason(data: Any) -> Reason:
    """A hint's reason back from the wire (its cards stay in their text form)."""
    if not isinstance(data, dict) or not isinstance(data.get("key"), str):
        return Reason("hint_none")
    params = data.get("params") if isinstance(data.get("params"), dict) else {}
    return Reason.of(data["key"], **{str(k): _reason(v) if isinstance(v, dict) else v for k, v in params.items()})


class RemoteSeat:
    """This player's seat at a shared table (see the module docstring). ``notify(text)`` shows a hub's
    notice that is not an event of the protocol (someone's CPU moved for them); ``translate(key,
    params)`` words it in the player's language."""

    def __init__(self, client: Any, spec: GameSpec, *, notify: Callable[[str], None] | None = None,
                 translate: Callable[..., str] | None = None,
                 ask: Callable[[str, Callable[[bool], object]], None] | None = None) -> None:
        self.client = client
        self.spec = spec
        self.seat: int = client.seat if client.seat is not None else 0       # at the table
        self.shift = self.seat if turned.can_turn(spec.name, self.seat) else 0
        self.index = (self.seat - self.shift) % SEATS          # as the screen counts: its person at 0
        self.notify = notify
        self.t = translate or t      # words a notice in the player's language (t(key, **params))
        self.ask = ask               # ask(question, answer): another person's take-back, yes or no
        self.seats: list[dict[str, Any]] = []
        self._raw: Any = client.view                           # the table's own view (unturned)
        self._view: Any = turned.turn_view(spec.name, client.view, self.shift)
        self._number = 0
        self._generation = 0
        self._listener: Listener | None = None
        self._reader: asyncio.Task[None] | None = None
        self._sending: set[asyncio.Task[Any]] = set()
        self._world: tuple[Hashable, Any] | None = None     # (position, a match sampled from the view)
        self._next_hands = 0                                 # next_hand events seen (the next deal came)
        self._hand_ends: dict[int, dict[str, Any]] = {}      # the hand_end records sent, by hand
        self.closed = False

    # -- the protocol
    def view(self) -> Any:
        return self._view

    def position(self) -> Hashable:
        return (self._generation, self._number)

    def refusal(self, move: Any) -> IllegalMove | None:
        view = self._raw
        if view is None:
            return IllegalMove("the table is not ready", "table_not_started")
        if move in view.legal:
            return None
        world = self._sampled()
        if world is not None:
            try:
                refusal = world.why_illegal(move, self.seat)
            except (AttributeError, TypeError, ValueError, KeyError, IndexError):
                refusal = None
            if refusal is not None:
                return refusal
        if not view.legal and getattr(view, "to_move", None) != self.seat:
            return IllegalMove("it is not your turn", "not_your_turn")
        return IllegalMove("that is not a move now", "table_bad_move")

    def listen(self, listener: Listener) -> None:
        self._listener = listener

    def send(self, command: Command) -> Reply | None:
        """Sent to the hub; its refusal (if any) comes back as a ``refused`` event."""
        self._spawn(self._send(command_json(command)))
        if isinstance(command, NextHand):
            self._spawn(self._still_waiting(self._next_hands))
        return None

    def _spawn(self, work: Any) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)

    async def _still_waiting(self, next_hands: int) -> None:
        """Gone on from the results while others read them: say that the next deal waits for them."""
        await asyncio.sleep(WAIT_NOTICE)
        if self._next_hands == next_hands and not self.closed:
            self._tell(self.t("remote_waiting_next"))

    def go_on(self) -> None:
        """The screen is ready: the table's events flow to it from now on (they wait in the client until
        then). The server runs the table; nothing else to do."""
        if self._reader is None and not self.closed:
            self._reader = asyncio.get_running_loop().create_task(self._read())

    @property
    def busy(self) -> bool:
        return False

    def waiting_for(self) -> int | None:
        return None

    async def hint(self, over_partner: bool = False) -> Reply:
        """The server's hint (when the table has hints on), the same search on the seat's own view."""
        from cardtable.serve.tableclient import HubError

        try:
            reply = await self.client.hint()
        except (HubError, TimeoutError):
            return Reply.refuse("lobby_gone", "the table server cannot be reached")
        if not reply.get("ok"):
            return Reply(False, str(reply.get("key", "")), str(reply.get("reason", "")),
                         dict(reply.get("params") or {}))
        data = reply.get("data")
        if not isinstance(data, dict):
            return Reply(True, data=None)
        try:
            move = self.spec.match_type.decode_move(data.get("move"))
        except (ValueError, TypeError, KeyError):
            return Reply(True, data=None)
        gain = data.get("gain") if isinstance(data.get("gain"), int | float) else None
        return Reply(True, data=Hint(move, _reason(data.get("reason")), gain, None, Evaluation(move, (), 0)))

    async def check(self, view: Any, move: Any) -> Any:
        """No play checker at a shared table (docs/design.md: what is fair to the other people)."""
        return None

    # -- a shared table's own
    def names(self) -> list[str]:
        """The four seats' names (empty for a CPU), from the player's chair: their own first."""
        if len(self.seats) != SEATS:
            return [""] * SEATS
        return [str(place.get("name") or "") for place in self.seats]

    def leave(self) -> None:
        """The player leaves the table's screen: away from the table (their seat stays theirs; its CPU
        plays it until they come back), the events no longer read."""
        if self.closed:
            return
        self.closed = True
        if self._reader is not None:
            self._reader.cancel()

        async def away() -> None:
            from cardtable.serve.tableclient import HubError

            with contextlib.suppress(HubError, TimeoutError):
                await self.client.leave()

        self._spawn(away())

    async def close(self) -> None:
        """Stop reading the table's events (the connection stays: the home screen may use it again)."""
        self.closed = True
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(BaseException):
                await self._reader

    # -- inside
    def _sampled(self) -> Any:
        """A match consistent with the seat's view (its hidden cards guessed), made once a position."""
        position = self.position()
        if self._world is None or self._world[0] != position:
            try:
                world = importlib.import_module(f"cardtable.games.{self.spec.name}.search").world
                self._world = (position, world(self._raw, Rng(0x5EA7)))
            except (SamplingError, ImportError, AttributeError, ValueError, KeyError, IndexError, TypeError):
                # (a view the sampler cannot fill: no world; the view's legal moves still say enough)
                self._world = (position, None)
        return self._world[1]

    async def _send(self, message: dict[str, Any]) -> None:
        from cardtable.serve.tableclient import HubError

        fields = {key: value for key, value in message.items() if key != "cmd"}
        try:
            reply = await self.client.request(message["cmd"], **fields)
        except (HubError, TimeoutError):
            reply = {"ok": False, "key": "lobby_gone", "reason": "the table server cannot be reached",
                     "params": {}}
        if not reply.get("ok"):
            self._deliver([Event("refused", {"key": reply.get("key", ""), "reason": reply.get("reason", ""),
                                             "params": reply.get("params") or {}})])

    async def _read(self) -> None:
        from cardtable.serve.tableclient import HubError

        while not self.closed:
            try:
                batch = [await self.client.next_event()]
            except HubError:
                self._deliver([Event("refused", {"key": "lobby_gone", "params": {},
                                                 "reason": "the table server cannot be reached"})])
                return
            while not self.client.events.empty():        # everything that came together, as one batch
                batch.append(self.client.events.get_nowait())
            await self._complete(batch)
            self._deliver(batch)

    async def _complete(self, batch: list[Event]) -> None:
        """A move that ended a hand (or the match) comes with its ``hand_over`` (and ``match_over``): the
        screen reads them in the same batch as the ``moved``, so they are waited for (briefly) when the
        socket brought the move alone."""
        hand = getattr(self._raw, "hand_number", None)
        moved = next((event for event in reversed(batch) if event.type == "moved"), None)
        if moved is None or moved.view is None:
            return
        over = getattr(moved.view, "phase", None) == "over" or getattr(moved.view, "over", False) is True
        wanted = "match_over" if over else "hand_over" if moved.view.hand_number != hand else None
        with contextlib.suppress(TimeoutError, Exception):
            while wanted is not None and not any(event.type == wanted for event in batch[batch.index(moved):]):
                batch.append(await self.client.next_event(timeout=2.0))

    def _arrival_news(self, kind: str, seat: Any) -> None:
        """«bob has left: a CPU plays their seat» / «bob sits at the table» for another person, in play
        (the lobby shows its seats itself)."""
        if type(seat) is not int or not 0 <= seat < SEATS or seat == self.index:
            return
        name = self.names()[seat]
        if name and kind == "left":
            self._tell(self.t("remote_left", name=name))
        elif name:
            self._tell(self.t("remote_joined", name=name))

    def _tell(self, text: str) -> None:
        if self.notify is not None:
            self.notify(text)

    def _take_back_news(self, event: Event) -> None:
        """A take-back at a shared table needs every other person's yes: asked here (``ask``), and what
        became of it said (the screens know only their own solo take-back)."""
        data = event.data
        asker = data.get("seat")
        name = self.names()[asker] if type(asker) is int and 0 <= asker < SEATS else ""
        if event.type == "take_back_asked":
            if asker == self.index:
                self._tell(self.t("remote_take_back_waiting"))
            elif self.index in (data.get("waiting") or ()) and self.ask is not None:
                self.ask(self.t("remote_take_back_ask", name=name or "?"), lambda yes: self.send(Answer(yes)))
        elif event.type == "take_back_refused":
            by = data.get("by")
            self._tell(self.t("remote_take_back_refused",
                              name=self.names()[by] if type(by) is int and 0 <= by < SEATS else "?"))
        elif event.type == "take_back_cancelled":
            self._tell(self.t("remote_take_back_cancelled"))

    def hand_ends(self) -> list[dict[str, Any]]:
        """The match's ``hand_end`` records this seat was sent (a snapshot brings the earlier ones), from
        its own chair, in hand order: the running-score chart's."""
        return [self._hand_ends[hand] for hand in sorted(self._hand_ends)]

    def _keep_hand_ends(self, records: list[Any]) -> None:
        for record in records:
            if isinstance(record, dict) and record.get("type") == "hand_end" and type(record.get("hand")) is int:
                self._hand_ends[record["hand"]] = record

    def _deliver(self, batch: list[Event]) -> None:
        shown: list[Event] = []
        for event in batch:
            data = event.data
            if event.type == "notice":
                key = str(data.get("notice", ""))
                params = data.get("params") if isinstance(data.get("params"), dict) else {}
                if key == "hub_save_failed":                  # the screen says it as a save that failed
                    shown.append(Event(_SAVE_EVENT, {"reason": str(params.get("why", ""))}))
                else:
                    self._tell(self.t(key, **params))
                continue
            if event.view is not None and event.type in VIEW_EVENTS:
                self._raw = event.view
            event = Event(event.type, turned.turn_data(self.spec.name, data, self.shift),
                          turned.turn_view(self.spec.name, event.view, self.shift), event.seq)
            data = event.data
            if isinstance(data.get("seats"), list) and len(data["seats"]) == SEATS:
                self.seats = data["seats"]
            if event.type in ("joined", "left") and data.get("phase") != "lobby":
                self._arrival_news(event.type, data.get("seat"))
            if event.type == "moved" and type(data.get("number")) is int:
                self._number = data["number"]
            elif event.type == "take_back_done":
                self._generation += 1
            elif event.type == "next_hand":
                self._next_hands += 1
            elif event.type == "hand_over":
                self._keep_hand_ends([data.get("record")])
            elif event.type == "snapshot" and type(data.get("moves")) is int:
                self._number = data["moves"]
                self._generation += 1
            if event.type == "snapshot" and isinstance(data.get("hands"), list):
                self._keep_hand_ends(data["hands"])
            if event.view is not None and event.type in VIEW_EVENTS:
                self._view = event.view
            self._take_back_news(event)
            shown.append(event)
        if shown and self._listener is not None:
            self._listener(shown)


def table_screen(app: Any, client: Any, lobby: Any) -> Any:
    """The game's own table screen, a view of this player's seat at the shared table."""
    spec = games.get(client.game)
    from cardtable.ui.friends import ask_yes_no

    seat = RemoteSeat(client, spec, notify=lambda text: app.notify(text, markup=False),
                      translate=t, ask=lambda question, answer: ask_yes_no(app, question, answer))
    seat.seats = turned.turn_data(spec.name, {"seats": list(lobby.seats)}, seat.shift)["seats"]
    players = ["human"] + [f"cpu:{place.get('level', 'normal')}" for place in seat.seats[1:]]
    base = app.game_screen_class(spec.name)

    class SharedTableScreen(base):  # type: ignore[misc,valid-type]
        """The game's own table screen at a shared table: its seat is the RemoteSeat, closing it leaves
        the table, and what a solo screen still asks its match for comes from the seat's own view."""

        def make_seat(self) -> Any:
            return seat

        def on_unmount(self) -> None:
            seat.leave()

        def on_mount(self) -> None:
            self.call_after_refresh(self.name_the_people)

        def name_the_people(self) -> None:
            """The other people at the table in the title, by their place from this chair."""
            try:       # each game's places, from one's own chair (You, West, North…)
                place = importlib.import_module(f"cardtable.ui.{spec.name}.text").seat_name
            except (ImportError, AttributeError):
                return
            people = [(index, name) for index, name in enumerate(seat.names()) if name and index != seat.index]
            if not people:
                return
            listed = ", ".join(t("remote_person_at", name=name, place=place(index)) for index, name in people)
            self.title = t(self.TITLE_KEY) + " · " + t("remote_with", people=listed)

        def hand_ends(self) -> list[dict]:
            return seat.hand_ends()

        def named(self, plate: Any, seat_index: int) -> Any:
            """A person's plate names them at their place («bob (North)»); a CPU's keeps its place."""
            return dataclasses.replace(plate, name=self.person_at(seat_index, plate.name))

        def person_at(self, seat_index: int, place: str) -> str:
            """«bob (North)» for another person's seat (from this chair); a CPU's place, and «You», as solo."""
            names = seat.names()
            name = names[seat_index] if 0 <= seat_index < len(names) else ""
            if not name or seat_index == seat.index:
                return place
            return t("remote_person_at", name=name, place=place)

        def name_of(self) -> Callable[[int], str] | None:
            """The seats' names in the summaries (None: a game whose summaries name no seat)."""
            try:
                place = importlib.import_module(f"cardtable.ui.{spec.name}.text").seat_name
            except (ImportError, AttributeError):
                return None
            return lambda index: self.person_at(index, place(index))

        def results_dialog(self, record: dict) -> Any:
            if spec.name == "guinote":           # (its summary names the pairs: us and them)
                return self.guinote_summary(record)
            return self.with_names(super().results_dialog(record))

        def match_end_dialog(self, record: dict) -> Any:
            return self.with_names(super().match_end_dialog(record))

        def with_names(self, dialog: Any) -> Any:
            """A summary that names seats (its ``name_of``) names the people too."""
            name_of = self.name_of()
            if hasattr(dialog, "name_of") and name_of is not None:
                dialog.name_of = name_of
            return dialog

        # Guiñote: the hand's summary reads the deal record for what the view says too (de vueltas, and
        # the points carried into it); a deal record, which holds every hand, is never sent.
        def guinote_summary(self, record: dict) -> Any:
            from cardtable.ui.guinote.dialogs import SummaryScreen

            view = self.human_view()
            deal = {"type": "deal", "hand": record.get("hand"), "vueltas": view.vueltas, "carry": list(view.carry)}
            return SummaryScreen(record, deal, view.options, self.pending_match_end is not None)

    screen = SharedTableScreen(spec, None, players, "", False)
    return screen
