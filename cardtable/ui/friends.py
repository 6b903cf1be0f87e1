"""«Play with friends»: the shared tables of ``cardtable serve ssh`` from the table's own process.

The SSH server hands each player's process a socket to its hub (``CARDTABLE_HUB_FD``; the player's
identity fixed by the server). Over it, :class:`~cardtable.serve.tableclient.TableClient` makes a table
(«New table»: the game's own setup dialog for its options and CPU level, then the open seats and hints),
joins one by its code («Join a table»), or lists the player's own («Continue»). The lobby
(``ui/lobby.py``) comes next, then the game's table screen playing the seat through a RemoteSeat
(``ui/remoteseat.py``). Shown only when served with a hub (:func:`available`).
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Checkbox, Input, Label, OptionList
from textual.widgets.option_list import Option

from cardtable import games
from cardtable.i18n import t
from cardtable.table import SEATS, clean_name, read_code
from cardtable.ui.guard import AnswerOnce
from cardtable.ui.widgets import MenuList

_client: Any = None           # this process's one TableClient (one player, one connection to the hub)


def available() -> bool:
    """Whether this table was served with the shared tables' hub."""
    from cardtable.serve.tableclient import has_hub

    return _client is not None or has_hub()


async def client() -> Any:
    """This process's client of the hub, connected on first use over the inherited socket."""
    global _client
    from cardtable.serve.tableclient import HubError, TableClient, take_inherited_socket

    if _client is not None and not _client.closed.is_set():
        return _client
    if _client is not None:
        raise HubError("the table server has gone")
    sock = take_inherited_socket()
    if sock is None:
        raise HubError("no table server")
    _client = await TableClient.over_socket(sock)
    return _client


def launch_shared(app: Any, request: tuple) -> None:
    """``cardtable host GAME`` (``("host", game, options, level)``) or ``join CODE`` (``("join", code)``)."""
    if request[0] == "join":
        app.run_worker(join_table(app, request[1]), group="friends")
    else:
        _, game, options, level = request
        ask_new_table(app, game, options, level)


# ---------------------------------------------------------------- making, joining, continuing
def ask_new_table(app: Any, game: str, options: Any = None, level: str | None = None) -> None:
    """The game's own setup dialog (options, CPU level), then the table's (open seats, hints)."""
    screen_class = app.game_screen_class(game)

    def chosen(choice: Any) -> None:
        if choice is None:
            return
        chosen_options, _seed, chosen_level = choice       # (no game number: it stays secret)
        app.push_screen(TableSetupDialog(game), callback=lambda answer: answer is not None and app.run_worker(
            host_table(app, game, chosen_options, chosen_level, *answer), group="friends"))

    if options is not None:
        chosen((options, None, level or "normal"))
    else:
        app.push_screen(screen_class.setup_screen(), callback=chosen)


async def host_table(app: Any, game: str, options: Any, level: str, open_seats: tuple[int, ...],
                     hints: bool) -> None:
    from cardtable.serve.tableclient import HubError

    try:
        hub = await client()
        reply = await hub.create(game, options.to_dict() if options is not None else {}, open_seats, level, hints)
    except (HubError, TimeoutError, OSError):
        app.notify(t("lobby_gone"), severity="error", markup=False)
        return
    _opened(app, hub, reply)


async def join_table(app: Any, code: str) -> None:
    from cardtable.serve.tableclient import HubError

    try:
        hub = await client()
        reply = await hub.join(code)
    except (HubError, TimeoutError, OSError):
        app.notify(t("lobby_gone"), severity="error", markup=False)
        return
    _opened(app, hub, reply)


def _opened(app: Any, hub: Any, reply: dict[str, Any]) -> None:
    from cardtable.ui.lobby import LobbyScreen, refusal_text

    if not reply.get("ok"):
        app.notify(refusal_text(reply), severity="warning", markup=False)
        return
    app.push_screen(LobbyScreen(hub, on_started=lambda lobby: open_table(app, hub, lobby)))


def open_table(app: Any, hub: Any, lobby: Any) -> None:
    """The deal has started: the game's own table screen, playing this seat through a RemoteSeat."""
    from cardtable.ui.remoteseat import table_screen

    screen = table_screen(app, hub, lobby.model)
    if app.screen is lobby:
        app.switch_screen(screen)
    else:
        app.push_screen(screen)


# ---------------------------------------------------------------- the dialogs
class FriendsDialog(AnswerOnce):
    """«Play with friends»: New table, Join a table, and the player's own shared tables. Answers
    ``("new", None)``, ``("join", None)``, ``("table", code)`` or None."""

    BINDINGS = [Binding("escape", "cancel", "back")]

    def __init__(self, game: str) -> None:
        super().__init__()
        self.game = game
        self.tables: list[dict[str, Any]] = []

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(t("friends_title"), classes="dialog-title")
            yield MenuList(Option(t("friends_new", game=t("game_" + self.game)), id="new"),
                           Option(t("friends_join"), id="join"), id="friends-menu")
            yield Label(t("friends_yours"), classes="dialog-hint")
            yield MenuList(id="friends-tables")

    def on_mount(self) -> None:
        self.query_one("#friends-menu", OptionList).focus()
        self.run_worker(self._list(), group="friends-list")

    async def _list(self) -> None:
        from cardtable.serve.tableclient import HubError

        listing = self.query_one("#friends-tables", OptionList)
        try:
            reply = await (await client()).tables()
        except (HubError, TimeoutError, OSError):
            listing.add_option(Option(t("lobby_gone"), disabled=True))
            return
        self.tables = reply.get("data") or [] if reply.get("ok") else []
        for entry in self.tables:
            listing.add_option(Option(table_line(entry), id=str(entry.get("code"))))
        if not self.tables:
            listing.add_option(Option(t("friends_none"), disabled=True))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option_list.id == "friends-menu":
            self.dismiss((event.option.id, None))
        elif event.option.id:
            self.dismiss(("table", event.option.id))

    def action_cancel(self) -> None:
        self.dismiss(None)


def table_line(entry: dict[str, Any]) -> Text:
    """One of the player's shared tables: its code, game, phase and who sits there."""
    game = str(entry.get("game"))
    line = Text(str(entry.get("code", "")) + "  ", style="bold")
    line.append(t("game_" + game) if game in games.games() else game)
    names = [clean_name(name) for name in entry.get("names") or [] if clean_name(name)]
    if entry.get("phase") in ("lobby", "play"):
        line.append(" · " + t("friends_phase_" + str(entry["phase"])))
    if names:
        line.append(" · " + ", ".join(names))
    return line


class TableSetupDialog(AnswerOnce):
    """The shared table's own choices: which seats friends may take (the others are CPUs) and whether
    hints are on. Answers ``(open_seats, hints)`` or None."""

    BINDINGS = [Binding("escape", "cancel", "back")]
    AUTO_FOCUS = "#create"

    def __init__(self, game: str) -> None:
        super().__init__()
        self.game = game

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(t("table_setup_title", game=t("game_" + self.game)), classes="dialog-title")
            for seat in range(1, SEATS):
                yield Checkbox(t("table_setup_open", n=seat + 1), True, id=f"open-{seat}")
            yield Checkbox(t("table_setup_hints"), False, id="hints")
            with Horizontal(classes="dialog-buttons"):
                yield Button(t("back"), id="cancel")
                yield Button(t("table_setup_create"), id="create", variant="primary")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "create":
            opened = tuple(seat for seat in range(1, SEATS) if self.query_one(f"#open-{seat}", Checkbox).value)
            self.dismiss((opened, self.query_one("#hints", Checkbox).value))
        else:
            self.dismiss(None)

    def action_cancel(self) -> None:
        self.dismiss(None)


class JoinDialog(AnswerOnce):
    """«Join a table»: the code a friend passed on (typed loosely: case, spaces, dashes). Answers the
    code or None."""

    BINDINGS = [Binding("escape", "cancel", "back")]
    AUTO_FOCUS = "#join-code"

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(t("friends_join"), classes="dialog-title")
            yield Label(t("join_prompt"), classes="dialog-hint")
            yield Input(id="join-code", max_length=16)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        code = read_code(event.value)
        if code is None:
            self.notify(t("join_bad_code"), severity="warning", markup=False)
            return
        self.dismiss(code)

    def action_cancel(self) -> None:
        self.dismiss(None)


class YesNoDialog(AnswerOnce):
    """A question another person at the table asks (their take-back): Yes or No (Esc: no)."""

    BINDINGS = [Binding("y", "answer(True)", "answer_yes"), Binding("n,escape", "answer(False)", "answer_no")]
    AUTO_FOCUS = "#no"

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(self.question, classes="dialog-title")
            with Horizontal(classes="dialog-buttons"):
                yield Button(t("answer_yes"), id="yes")
                yield Button(t("answer_no"), id="no")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


def ask_yes_no(app: Any, question: str, answer: Any) -> None:
    app.push_screen(YesNoDialog(question), callback=lambda yes: answer(bool(yes)))


def open_friends(app: Any, game: str) -> None:
    """The home screen's «Play with friends» (f)."""
    def answered(answer: Any) -> None:
        if answer is None:
            return
        kind, code = answer
        if kind == "new":
            ask_new_table(app, game)
        elif kind == "join":
            app.push_screen(JoinDialog(), callback=lambda code: code and app.run_worker(
                join_table(app, code), group="friends"))
        else:
            app.run_worker(join_table(app, code), group="friends")

    app.push_screen(FriendsDialog(game), callback=answered)
