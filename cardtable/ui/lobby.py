"""The lobby of a shared table (docs/design.md «Shared tables»): the code to pass on, the four seats
(who sits where, person or CPU, here or away), sitting down — partners sit opposite each other — and,
for the host, starting the deal. It draws only the table's public events (``seats``, ``joined``,
``left``, ``started``, ``snapshot``) from its :class:`~cardtable.serve.tableclient.TableClient`; once the
deal has started it hands the client on (``on_started``), to the table screen through a RemoteSeat."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Header, OptionList, Static
from textual.widgets.option_list import Option

from cardtable import games
from cardtable.i18n import t
from cardtable.table import LOBBY, SEATS, Event
from cardtable.ui.bindings import translate_bindings
from cardtable.ui.footer import Footer
from cardtable.ui.widgets import MenuList

PUBLIC_EVENTS = ("snapshot", "seats", "joined", "left", "started")


class LobbyModel:
    """The table as the lobby knows it, from the public events (no Textual: tested alone)."""

    def __init__(self, code: str, game: str, seat: int) -> None:
        self.code, self.game, self.seat = code, game, seat
        self.phase = LOBBY
        self.host: int | None = 0
        self.seats: list[dict[str, Any]] = [{"seat": i, "name": "", "person": False, "connected": False,
                                             "level": "normal", "open": False} for i in range(SEATS)]

    def take(self, event: Event) -> bool:
        """Read one event; whether it changed what the lobby shows."""
        if event.type not in PUBLIC_EVENTS:
            return False
        data = event.data
        seats = data.get("seats")
        if isinstance(seats, list) and len(seats) == SEATS and all(isinstance(s, dict) for s in seats):
            self.seats = seats
        if data.get("phase") in ("lobby", "play", "over"):
            self.phase = data["phase"]
        host = data.get("host")
        self.host = host if type(host) is int and 0 <= host < SEATS else None
        return True

    @property
    def started(self) -> bool:
        return self.phase != LOBBY

    @property
    def hosting(self) -> bool:
        return self.host == self.seat

    def free(self, index: int) -> bool:
        """Whether this player may sit at seat ``index`` now."""
        place = self.seats[index]
        return index == self.seat or (bool(place.get("open")) and not place.get("person"))

    def line(self, index: int) -> Text:
        """Seat ``index`` as one line: its number, who is there (you, a friend, a CPU, open) and how."""
        place = self.seats[index]
        text = Text(f"{index + 1}  ", style="bold")
        if place.get("person"):
            name = str(place.get("name") or "?")
            text.append(name, style="bold")
            if index == self.seat:
                text.append(" " + t("lobby_you"))
            if index == self.host:
                text.append(" · " + t("lobby_host"))
            here = place.get("connected")
            text.append(" · " + t("lobby_here" if here else "lobby_away"), style="green" if here else "yellow")
        elif place.get("open"):
            text.append(t("lobby_open"), style="italic")
        else:
            text.append(t("lobby_cpu", level=t("level_" + str(place.get("level", "normal")))))
        return text

    def names(self) -> list[str]:
        return [str(place.get("name") or "") for place in self.seats]


class LobbyScreen(Screen):
    """A shared table before its first deal (see the module docstring)."""

    BINDINGS = [
        Binding("enter", "sit", "lobby_sit"),
        Binding("s", "start", "lobby_start"),
        Binding("escape", "leave", "lobby_leave"),
    ]

    def __init__(self, client: Any, on_started: Callable[[LobbyScreen], None] | None = None) -> None:
        super().__init__()
        self.client = client
        self.model = LobbyModel(client.code or "", client.game or "", client.seat or 0)
        self.on_started = on_started
        self._handed_on = False
        # The events are read by a task of the screen's own, not a Textual worker: it waits for as long as
        # the lobby is up (a worker would hold every wait for the app's workers).
        self._listening: asyncio.Task[None] | None = None

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(id="lobby-body"):
            yield Static(id="lobby-title")
            yield Static(id="lobby-code")
            yield MenuList(id="lobby-seats")
            yield Static(id="lobby-partners")
            yield Static(id="lobby-hint")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        translate_bindings(self)
        self.fill()
        self.query_one("#lobby-seats", OptionList).focus()
        self._listening = asyncio.get_running_loop().create_task(self._listen())

    def on_unmount(self) -> None:
        if self._listening is not None:
            self._listening.cancel()

    async def _listen(self) -> None:
        """The table's events until the deal starts (what follows is the table screen's)."""
        from cardtable.serve.tableclient import HubError

        while not self.model.started:
            try:
                event = await self.client.next_event()
            except HubError:
                self.notify(t("lobby_gone"), severity="error", markup=False)
                return
            if event.type == "notice":
                self.notify(str(event.data.get("reason", "")), severity="warning", markup=False)
            elif self.model.take(event):
                self.fill()
        self._hand_on()

    def _hand_on(self) -> None:
        if self._handed_on:
            return
        self._handed_on = True
        if self.on_started is not None:
            self.on_started(self)

    def fill(self) -> None:
        model = self.model
        spec = games.get(model.game) if model.game in games.games() else None
        game = t("game_" + model.game) if spec is not None else model.game
        self.query_one("#lobby-title", Static).update(Text(t("lobby_title", game=game), style="bold"))
        code = Text(t("lobby_code") + " ")
        code.append(model.code, style="bold reverse")
        code.append("\n" + t("lobby_code_how", code=model.code))
        self.query_one("#lobby-code", Static).update(code)
        seats = self.query_one("#lobby-seats", OptionList)
        highlighted = seats.highlighted
        seats.clear_options()
        for index in range(SEATS):
            seats.add_option(Option(model.line(index), id=f"seat-{index}"))
        seats.highlighted = highlighted if highlighted is not None else model.seat
        partners = t("lobby_partners") if spec is not None and spec.partnerships else t("lobby_no_partners")
        self.query_one("#lobby-partners", Static).update(partners)
        hint = t("lobby_hint_host") if model.hosting else t("lobby_hint")
        self.query_one("#lobby-hint", Static).update(t("lobby_started") if model.started else hint)

    # -- actions
    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.action_sit()

    def action_sit(self) -> None:
        index = self.query_one("#lobby-seats", OptionList).highlighted
        if index is None or index == self.model.seat or self.model.started:
            return
        if not self.model.free(index):
            self.notify(t("table_seat_taken"), severity="warning", markup=False)
            return
        self.run_worker(self._request("sit", seat=index), group="lobby-requests")

    def action_start(self) -> None:
        if not self.model.hosting:
            self.notify(t("table_host_only"), severity="warning", markup=False)
            return
        self.run_worker(self._request("start"), group="lobby-requests")

    def action_leave(self) -> None:
        self.run_worker(self._leave(), group="lobby-requests")

    async def _request(self, cmd: str, **fields: Any) -> None:
        from cardtable.serve.tableclient import HubError

        try:
            reply = await self.client.request(cmd, **fields)
        except (HubError, TimeoutError):
            self.notify(t("lobby_gone"), severity="error", markup=False)
            return
        if not reply.get("ok"):
            self.notify(refusal_text(reply), severity="warning", markup=False)
        elif cmd == "sit":
            self.model.seat = self.client.seat if self.client.seat is not None else self.model.seat
            self.fill()

    async def _leave(self) -> None:
        from cardtable.serve.tableclient import HubError

        try:
            await self.client.leave()
        except (HubError, TimeoutError):
            pass
        self.dismiss_lobby()

    def dismiss_lobby(self) -> None:
        if self.app.screen is self:
            self.app.pop_screen()


def refusal_text(reply: dict[str, Any]) -> str:
    """A refusal from the hub in the player's language (its English reason if the key is unknown)."""
    key, params = reply.get("key"), reply.get("params")
    text = t(key, **(params if isinstance(params, dict) else {})) if isinstance(key, str) else ""
    return text if text and text != key else str(reply.get("reason", ""))
