"""The Gong Zhu dialogs: setup, the showing panel, the results, the match end and the last trick."""

from __future__ import annotations

from collections.abc import Callable

from rich.cells import cell_len
from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Checkbox, Input, Label, RadioSet, Static

from cardtable.cards import Card
from cardtable.games.gongzhu import rules
from cardtable.games.gongzhu.state import GongZhuOptions, GongZhuView
from cardtable.i18n import t
from cardtable.ui import cells
from cardtable.ui.cardart import card_text
from cardtable.ui.dialogs import HandEndDialog, LastTrickDialog, MatchEndDialog, SetupDialog, radio_row
from cardtable.ui.gamescreen import HUMAN
from cardtable.ui.gongzhu.text import seat_name
from cardtable.ui.guard import AnswerOnce
from cardtable.ui.numbers import in_style, signed
from cardtable.ui.toggles import TickBox


# ---------------------------------------------------------------- modal screens
class GongZhuSetup(SetupDialog):
    """Before the deal: ending (or a fixed number of hands), the all-hearts value, the switches and the
    house rule, then level and game number."""

    TITLE_KEY = "gz_setup"
    START_KEY = "gz_deal"
    DEFAULT_CSS = """
    GongZhuSetup .dialog { width: 76; }
    GongZhuSetup .form-help { width: 1fr; color: $text-muted; margin-left: 1; }
    """
    DEFAULT_HANDS = 8

    def fields(self):
        yield radio_row("gz_ending", "gz-ending", (("gz_quick", "500", True), ("gz_standard", "1000", False),
                                                   ("gz_fixed", "0", False)))
        hands = Input(str(self.DEFAULT_HANDS), id="gz-hands", restrict=r"[0-9]*", max_length=3, disabled=True)
        hands.styles.width = 7           # inline: the shared «.dialog Input» rule makes inputs 1fr
        yield Horizontal(Label(t("gz_hands"), classes="form-label"), hands,
                         Label(t("gz_hands_help"), classes="form-help"),
                         classes="form-row")
        yield radio_row("gz_all_hearts_label", "gz-all-hearts", (("gz_all_hearts_200", "200", True),
                                                                 ("gz_all_hearts_400", "400", False)))
        yield TickBox(t("gz_swap"), value=True, id="gz-swap")
        yield TickBox(t("gz_showing"), value=True, id="gz-showing")
        yield TickBox(t("gz_showable_limited"), value=False, id="gz-showable")
        yield TickBox(t("gz_zero_hearts"), value=True, id="gz-zero")

    def on_radio_set_changed(self, event: RadioSet.Changed) -> None:
        if event.radio_set.id == "gz-ending":
            self.query_one("#gz-hands", Input).disabled = event.pressed.name != "0"

    MAX_HANDS = 1000                     # GongZhuOptions.max_hands's range

    def hands(self) -> int | None:
        """The match's hands with «Fixed hands», or None when the box holds no number in range."""
        raw = self.query_one("#gz-hands", Input).value.strip()
        if not raw:
            return self.DEFAULT_HANDS
        return int(raw) if raw.isdigit() and 1 <= int(raw) <= self.MAX_HANDS else None

    def action_start(self) -> None:
        fixed = self.choice("gz-ending", "500") == "0"
        if fixed and self.hands() is None:   # «Hands 0» is no match: say why, start nothing
            self.notify(t("gz_hands_bad", most=self.MAX_HANDS), severity="error")
            self.query_one("#gz-hands", Input).focus()
            return
        super().action_start()

    def options(self) -> GongZhuOptions:
        target = int(self.choice("gz-ending", "500"))
        return GongZhuOptions(
            target=target,
            max_hands=(self.hands() or self.DEFAULT_HANDS) if target == 0 else GongZhuOptions().max_hands,
            all_hearts=int(self.choice("gz-all-hearts", "200")),
            swap=self.query_one("#gz-swap", Checkbox).value,
            showing=self.query_one("#gz-showing", Checkbox).value,
            showable="pig_transformer" if self.query_one("#gz-showable", Checkbox).value else "all",
            transformer_zero_hearts="alone" if self.query_one("#gz-zero", Checkbox).value else "standard")


class ShowPanel(AnswerOnce):
    """One checkbox per showable card held, with its effect; «Show n and play» / «No, play». ``h`` asks
    the table's search what to show (``ask_hint``); :meth:`show_hint` ticks its cards and says why."""

    BINDINGS = [Binding("escape", "no_show", "gz_no_show"),
                Binding("enter", "confirm", "gz_play", priority=True),
                Binding("h", "hint", "hint"),
                # a list of cards: ↑ ↓ go from one to the next, as Tab / Shift+Tab do
                Binding("up", "app.focus_previous", "focus_previous", show=False),
                Binding("down", "app.focus_next", "focus_next", show=False)]
    DEFAULT_CSS = """
    ShowPanel { align: center top; }
    ShowPanel .dialog { width: 60; margin-top: 5; padding: 0 2; }
    """

    def __init__(self, cards: list[Card], style: str, ask_hint: Callable[[], object] | None = None) -> None:
        super().__init__()
        self.cards = cards
        self.style_name = style
        self.ask_hint = ask_hint

    def compose(self) -> ComposeResult:
        names = {rules.PIG: "gz_pig", rules.GOAT: "gz_goat", rules.TRANSFORMER: "gz_transformer",
                 rules.HEART_ACE: "gz_heart_ace"}
        with Vertical(classes="dialog"):
            yield Label(t("gz_show_title"), classes="dialog-title")
            yield Static(t("gz_show_intro"))
            for card in self.cards:
                before, after = rules.show_effect(card)
                label = Text.assemble(card_text(card, self.style_name, width=0),
                                      in_style(f"  {t(names[card])}  {before} → {after}", self.style_name))
                yield TickBox(label, id=f"show-{card.code}")
            yield Static(id="show-hint", classes="dialog-hint")
            with Horizontal(classes="dialog-buttons"):
                yield Button(t("gz_no_show"), id="no-show")
                yield Button(t("gz_show_n", n=0), id="do-show")

    def on_mount(self) -> None:
        self.query_one(Checkbox).focus()
        self.say("")
        self.query_one("#do-show", Button).display = False     # nothing ticked yet: «No, play» alone
        self.mark_enter()

    def chosen(self) -> tuple[Card, ...]:
        return tuple(c for c in self.cards if self.query_one(f"#show-{c.code}", Checkbox).value)

    def on_checkbox_changed(self, event: Checkbox.Changed) -> None:
        """«Show n and play» names the cards ticked; with none ticked it would offer to show 0 cards, so
        it is hidden then and «No, play» (what Enter does) stands alone."""
        button = self.query_one("#do-show", Button)
        n = len(self.chosen())
        button.label = t("gz_show_n", n=max(n, 1))
        button.display = n > 0
        self.mark_enter()

    def on_descendant_focus(self) -> None:
        self.mark_enter()

    def mark_enter(self) -> None:
        """While a card's box has the focus, Enter presses «Show n and play» (or «No, play» with none
        ticked): that button is highlighted as a focused one is (``enter`` in app.tcss)."""
        on_box = isinstance(self.focused, Checkbox) or self.focused is None
        shows = bool(self.chosen())
        self.query_one("#do-show", Button).set_class(on_box and shows, "enter")
        self.query_one("#no-show", Button).set_class(on_box and not shows, "enter")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(self.chosen() if event.button.id == "do-show" else ())

    def action_hint(self) -> None:
        if self.ask_hint is not None:
            self.ask_hint()
        else:
            self.say(t("hint_none"))

    def say(self, text: str) -> None:
        """The hint line under the cards (hidden while empty)."""
        line = self.query_one("#show-hint", Static)
        line.update(text)
        line.display = bool(text)

    def show_hint(self, cards: tuple[Card, ...], text: str) -> None:
        """The search's advice: exactly ``cards`` ticked (nothing: all unticked), and why."""
        for card in self.cards:
            self.query_one(f"#show-{card.code}", Checkbox).value = card in cards
        self.say(text)

    def action_no_show(self) -> None:
        self.dismiss(())

    def action_confirm(self) -> None:
        """Enter plays with the ticked cards shown (Space ticks); on «No, play» it shows nothing."""
        focused = self.focused
        self.dismiss(() if focused is not None and focused.id == "no-show" else self.chosen())


def results_table(record: dict, style: str, name_of: Callable[[int], str] = seat_name) -> Table:
    """The hand's lines, one column per seat headed by ``name_of(seat)`` (its place; at a shared table a
    person's name too)."""
    table = Table(expand=False, pad_edge=False)
    table.add_column("")
    for seat in range(4):
        table.add_column(name_of(seat), justify="right")
    lines = record["lines"]
    for key in ("hearts", "pig", "goat", "base", "transformer", "hand", "total"):
        cells = []
        for seat in range(4):
            value = lines[seat][key]
            if key == "transformer":
                cell = Text(t(f"gz_tr_{value}"), style="bold yellow" if value in ("x2", "x4") else "")
            else:
                cell = Text(signed(value, style, zero="0"),
                            style="bold" if key in ("hand", "total") else "")
                if key == "hearts" and len([c for c in record["taken"][seat] if c.endswith("H")]) == 13:
                    cell.append(" ★", style="bold green")
            cells.append(cell)
        table.add_row(Text(t(f"gz_line_{key}"), style="bold" if key in ("hand", "total") else ""), *cells)
    return table


class ResultsScreen(HandEndDialog):
    """The seven lines for the four players after a hand, marking all hearts and a doubling Transformer."""

    DEFAULT_CSS = "ResultsScreen .dialog { width: 70; }"
    name_of: Callable[[int], str] = staticmethod(seat_name)     # a shared table names its people

    def __init__(self, record: dict, match_over: bool) -> None:
        super().__init__(t("gz_results", hand=record["hand"]), match_over)
        self.record = record

    def body(self):
        notes = []
        for seat, line in enumerate(self.record["lines"]):
            taken = self.record["taken"][seat]
            if len([c for c in taken if c.endswith("H")]) == 13:
                notes.append(f"{self.name_of(seat)}: {t('gz_grand_slam' if len(taken) == 16 else 'gz_all_hearts')}")
            if line["transformer"] in ("x2", "x4"):
                notes.append(f"{self.name_of(seat)}: {t('gz_transformer_' + line['transformer'])}")   # ×2, ×4
        table = results_table(self.record, self.app.settings.card_style, self.name_of)
        yield Static(Group(table, Text("\n".join(notes), style="italic")), id="results-body")


class GongZhuMatchEnd(MatchEndDialog):
    """Names the winner and «el Cerdo», with the final totals."""

    DEFAULT_CSS = "GongZhuMatchEnd .dialog { width: 60; }"
    name_of: Callable[[int], str] = staticmethod(seat_name)     # a shared table names its people

    def body(self):
        def names(seats):
            """«Oeste y Este», «West, North and East» (was «Oeste, Este»)."""
            words = [self.name_of(s) for s in seats]
            return words[0] if len(words) == 1 else t("list_and", first=", ".join(words[:-1]), last=words[-1])

        width = max(8, *(cell_len(self.name_of(seat)) + 1 for seat in range(4)))
        rows = [Text(f"{cells.ljust(self.name_of(seat), width)}{signed(total, self.app.settings.card_style, 6)}",
                     style="bold" if seat in self.record["winners"] else "")
                for seat, total in enumerate(self.record["totals"])]
        totals = Text("\n").join(rows)           # (no blank row after the last: the chart needs it)
        winners = self.record["winners"]
        line = t("gz_winner", names=names(winners)) if len(winners) == 1 else t("gz_winners", names=names(winners))
        yield Label(Text(line, style="bold green"))
        yield Label(Text(t("gz_pig_is", names=names(self.record["pig"])), style="bold red"))
        yield Static(totals)


def last_trick_dialog(view: GongZhuView, style: str) -> LastTrickDialog:
    if not view.tricks:
        return LastTrickDialog([], None)
    lines = [Text(cells.ljust(seat_name(seat), 8)) + card_text(card, style, width=3) for seat, card in view.tricks[-1]]
    winner = view.winners[-1]
    return LastTrickDialog(lines, t("gz_you_take") if winner == HUMAN else t("gz_takes", name=seat_name(winner)))
