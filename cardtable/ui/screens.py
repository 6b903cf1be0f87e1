"""Shell screens: keys, rules, settings, save slots and the too-small message."""

from __future__ import annotations

import dataclasses
import datetime as _dt

from rich.cells import cell_len
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import (
    Button,
    DataTable,
    Header,
    Label,
    MarkdownViewer,
    RadioSet,
    Static,
)

from cardtable import games, i18n, safetext
from cardtable.i18n import t
from cardtable.rules_text import rules_markdown
from cardtable.saves import SaveDirError, SaveError
from cardtable.settings import CARD_STYLES, COUNT_HELP, CPU_SPEEDS
from cardtable.ui.bindings import translate_bindings
from cardtable.ui.dialogs import ChoiceDialog
from cardtable.ui.footer import Footer
from cardtable.ui.guard import AnswerOnce, on_top
from cardtable.ui.toggles import ChoiceButton
from cardtable.ui.typedapp import CardtableScreen


class HelpScreen(CardtableScreen):
    """The keys: those of the screen it was opened from first, exactly as bound, then the rest."""

    BINDINGS = [Binding("escape,q,question_mark", "app.pop_screen", "back")]

    def __init__(self, source: Screen | None = None) -> None:
        super().__init__()
        self.source = source

    def heading(self) -> str:
        from cardtable.ui.gamescreen import GameScreen
        from cardtable.ui.home import HomeScreen

        source = self.source
        if isinstance(source, GameScreen):
            return t("keys_table", game=t(source.TITLE_KEY))
        if isinstance(source, HomeScreen):
            return t("home")
        return str(getattr(source, "sub_title", "") or t("keys_here"))

    def markdown(self) -> str:
        from cardtable.ui.keys import keys_markdown

        return keys_markdown(self.app, self.source or self.app.screen, self.heading())

    def compose(self) -> ComposeResult:
        yield Header()
        yield MarkdownViewer(self.markdown(), show_table_of_contents=False, id="help-viewer")
        yield Footer()

    def on_mount(self) -> None:
        translate_bindings(self)


class RulesScreen(CardtableScreen):
    """The rules of one game in the UI language; Tab/arrow keys scroll, 1-3 switch games."""

    BINDINGS = [Binding("escape,q", "app.pop_screen", "back"),
                Binding("tab", "next_game", "next_game")]

    def __init__(self, game: str) -> None:
        super().__init__()
        self.game = game

    def compose(self) -> ComposeResult:
        yield Header()
        yield MarkdownViewer(rules_markdown(self.game, i18n.language()), show_table_of_contents=False,
                             id="rules-viewer")
        yield Footer()

    def on_mount(self) -> None:
        translate_bindings(self)
        self.sub_title = t("rules_title", game=t("game_" + self.game))
        self.query_one(MarkdownViewer).focus()

    async def action_next_game(self) -> None:
        names = list(games.games())
        self.game = names[(names.index(self.game) + 1) % len(names)]
        self.sub_title = t("rules_title", game=t("game_" + self.game))
        await self.query_one(MarkdownViewer).document.update(rules_markdown(self.game, i18n.language()))


class SettingsScreen(AnswerOnce):
    """Language, card style and CPU speed; «OK» has the focus from the first frame."""

    BINDINGS = [Binding("escape", "cancel", "cancel"), Binding("ctrl+s", "save", "save")]
    AUTO_FOCUS = "#settings-ok"

    CHOICES = {
        "language": ("language", list(i18n.LANGUAGE_NAMES.items())),
        "card_style": ("card_style", [(s, f"style_{s}") for s in CARD_STYLES]),
        "cpu_speed": ("cpu_speed", [(s, f"speed_{s}") for s in CPU_SPEEDS]),
        "undo": ("take_back", [("on", "on"), ("off", "off")]),
        "count_help": ("count_help", [(s, f"count_help_{s}") for s in COUNT_HELP]),
        "checker": ("checker", [("auto", "checker_auto"), ("on", "on"), ("off", "off")]),
    }
    ROWS = (("language", "card_style", "cpu_speed"), ("undo", "checker"), ("count_help",))

    def compose(self) -> ComposeResult:
        settings = self.app.settings
        current = dataclasses.replace(settings, language=settings.language or i18n.language())
        with Vertical(classes="dialog"):
            yield Label(t("settings"), classes="dialog-title")
            for row in self.ROWS:
                with Horizontal(classes="settings-row"):
                    for field in row:
                        title, choices = self.CHOICES[field]
                        with Vertical(classes="settings-group"):
                            yield Label(t(title), classes="field-label")
                            with RadioSet(id=f"set-{field}"):
                                for value, label in choices:
                                    text = label if field == "language" else t(label)
                                    yield ChoiceButton(text, value=getattr(current, field) == value,
                                                       name=value)
            with Horizontal(classes="dialog-buttons"):
                yield Button(t("cancel"), id="settings-cancel")
                yield Button(t("ok"), id="settings-ok")

    DEFAULT_CSS = """
    SettingsScreen .dialog { width: 78; }
    .settings-row { height: auto; }
    .settings-group { width: 1fr; height: auto; }
    .settings-group RadioSet { width: 100%; }
    """

    def on_mount(self) -> None:
        translate_bindings(self)

    def _chosen(self) -> dict[str, str]:
        values = {}
        for field in self.CHOICES:
            pressed = self.query_one(f"#set-{field}", RadioSet).pressed_button
            if pressed is not None and pressed.name is not None:
                values[field] = pressed.name
        return values

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "settings-ok":
            self.action_save()
        else:
            self.action_cancel()

    def action_save(self) -> None:
        if not on_top(self):
            return
        settings = dataclasses.replace(self.app.settings, **self._chosen())
        self.app.apply_settings(settings)
        self.dismiss(settings)
        self.app.notify(t("settings_saved"))

    def action_cancel(self) -> None:
        self.dismiss(None)


def saved_when(stamp: str, now: _dt.datetime | None = None) -> str:
    """When a save was written (its UTC ISO stamp), short and in local time: «Dec 1 22:54», «1 dic 22:54»,
    «12月1日 22:54» this year, the date alone («2025-12-01») before. A stamp that does not read (a
    hand-edited file) is shown as it is, cleaned and capped."""
    try:
        when = _dt.datetime.fromisoformat(stamp)
        if when.tzinfo is None:
            when = when.replace(tzinfo=_dt.UTC)
        when = when.astimezone()
    except (ValueError, OverflowError, OSError):
        return safetext.clean(stamp.replace("T", " "), safetext.SHORT)
    now = now or _dt.datetime.now().astimezone()
    if when.year != now.year:
        return when.date().isoformat()
    month = t("months_short").split()[when.month - 1]
    return t("date_short", month=month, day=when.day) + when.strftime(" %H:%M")


class SlotsScreen(CardtableScreen):
    """The save slots, newest first; damaged ones listed with the reason."""

    BINDINGS = [Binding("escape,q", "app.pop_screen", "back"),
                Binding("enter", "load", "load"),
                Binding("delete,d", "delete", "delete"),
                Binding("v", "review", "review_a_hand")]

    def compose(self) -> ComposeResult:
        yield Header()
        yield DataTable(id="slots-table", cursor_type="row", zebra_stripes=True)
        yield Static(id="slots-empty")
        yield Footer()

    def on_mount(self) -> None:
        translate_bindings(self)
        self.sub_title = t("saves_title")
        self.fill()

    def fill(self) -> None:
        table = self.query_one(DataTable)
        row = table.cursor_row
        table.clear(columns=True)
        try:
            infos = self.app.store.list()
            empty = t("no_saves")
        except SaveDirError as exc:
            infos, empty = [], t("saves_unreadable", reason=safetext.clean(exc.reason))
        rows = []
        for info in infos:
            # Every field here may come from a hostile file: cleaned, capped and given as Text (a string
            # cell would be read as Rich markup: backslashes eaten, «:smile:» turned into an emoji).
            slot = safetext.text(info.slot, safetext.SHORT)
            if info.damaged:
                rows.append((slot, safetext.text(info.game or "?", safetext.SHORT), Text(""),
                             safetext.text(f"{t('damaged')}: {info.problem}")))
            else:
                rows.append((slot, Text(t(f"game_{info.game}")), Text(saved_when(info.saved_at)),
                             safetext.text(info.describe())))
        # The summary last, in the width the other columns leave, ending in «…» where it is longer: the
        # date used to come last and was cut to «2026» at 80 columns.
        headers = (t("slot"), t("game"), t("saved_at"))
        widths = [max([cell_len(h)] + [r[i].cell_len for r in rows]) for i, h in enumerate(headers)]
        padding = 2 * table.cell_padding
        room = self.app.size.width - sum(widths) - 4 * padding - 2     # (the vertical scroll bar)
        for header, width in zip(headers, widths, strict=True):
            table.add_column(header, width=width)
        table.add_column(t("summary"), width=max(20, room))
        for info, (*first, summary) in zip(infos, rows, strict=True):
            summary.no_wrap, summary.overflow = True, "ellipsis"
            table.add_row(*first, summary, key=info.slot)
        if rows and row:
            table.move_cursor(row=min(row, len(rows) - 1))
        self.query_one("#slots-empty", Static).update(Text("" if infos else empty))
        table.focus()

    def on_resize(self) -> None:
        if self.is_mounted:
            self.fill()

    def _current_slot(self) -> str | None:
        table = self.query_one(DataTable)
        if not table.row_count:
            return None
        return table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        self.action_load()

    def action_load(self) -> None:
        slot = self._current_slot()
        if slot is None or not on_top(self):   # a second Enter typed ahead: the slot is already opening
            return
        self.app.pop_screen()
        self.app.resume(slot)

    def action_review(self) -> None:
        """A finished match: choose one of its hands and step through it (the slot is only read)."""
        from cardtable.ui.review import HandPickerDialog

        slot = self._current_slot()
        if slot is None or not on_top(self):
            return
        shown = safetext.markup(slot, safetext.SHORT)
        try:
            match, data = self.app.store.load(slot)
        except SaveError as exc:
            self.notify(t("save_damaged", slot=shown, reason=safetext.markup(exc.text)), severity="error")
            return
        if not match.is_over():
            self.notify(t("review_only_finished"), severity="warning")
            return
        title = t("review_pick_title", game=t(f"game_{data.game}"))
        self.app.push_screen(HandPickerDialog(match, self.app.settings.card_style, title))

    def action_delete(self) -> None:
        """Ask first («Keep» focused): a save deleted by a stray key cannot be brought back."""
        slot = self._current_slot()
        if slot is not None and on_top(self):
            self.app.push_screen(DeleteSlotDialog(slot), callback=lambda choice: self._delete_answer(slot, choice))

    def _delete_answer(self, slot: str, choice: str | None) -> None:
        if choice != "delete":
            return
        try:
            self.app.store.delete(slot)
        except SaveError as exc:      # open in another cardtable, or the file cannot be removed
            self.notify(exc.text, severity="error", markup=False)
        if self.is_mounted:
            self.fill()


class DeleteSlotDialog(ChoiceDialog):
    """Delete a save slot for good, or keep it (the focused default; Esc keeps it too). No key deletes:
    a «d» typed twice must not remove a game."""

    AUTO_FOCUS = "#keep"
    DEFAULT_CSS = "DeleteSlotDialog .dialog { width: 72; }"
    BINDINGS = [Binding("escape", "choose('keep')", "keep")]

    def __init__(self, slot: str) -> None:
        super().__init__()
        self.slot = slot

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(Text(t("delete_slot_title", slot=safetext.clean(self.slot, safetext.SHORT))),
                        classes="dialog-title")
            yield Static(t("delete_slot_question"))
            with Horizontal(classes="dialog-buttons"):
                yield Button(t("delete"), id="delete", variant="error")
                yield Button(t("keep"), id="keep")

    def on_mount(self) -> None:
        translate_bindings(self)
        self.query_one("#keep", Button).focus()


class SlotBusyDialog(ChoiceDialog):
    """The slot is open in another cardtable: open it read-only, or not at all (the focused default)."""

    AUTO_FOCUS = "#dont_open"
    DEFAULT_CSS = "SlotBusyDialog .dialog { width: 72; }"
    BINDINGS = [Binding("escape,n", "choose('dont_open')", "dont_open"),
                Binding("r", "choose('read_only')", "open_read_only")]

    def __init__(self, slot: str) -> None:
        super().__init__()
        self.slot = slot

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(Text(t("slot_busy", slot=safetext.clean(self.slot, safetext.SHORT))),
                        classes="dialog-title")
            yield Static(t("slot_busy_question"))
            with Horizontal(classes="dialog-buttons"):
                yield Button(t("open_read_only"), id="read_only")
                yield Button(t("dont_open"), id="dont_open")

    def on_mount(self) -> None:
        self.query_one("#dont_open", Button).focus()
