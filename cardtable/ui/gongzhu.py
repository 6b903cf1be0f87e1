"""The Gong Zhu table: setup, deal, showing panel, tricks, results and the match end."""

from __future__ import annotations

from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Checkbox, Header, Input, Label, RadioSet, Static

from cardtable.cards import Card
from cardtable.games.gongzhu import rules
from cardtable.games.gongzhu.state import GongZhuOptions, GongZhuView, Play, Show
from cardtable.i18n import card_count, t
from cardtable.ui import cells
from cardtable.ui.cardart import card_label, card_text, cards_text
from cardtable.ui.dialogs import HandEndDialog, LastTrickDialog, MatchEndDialog, SetupDialog, radio_row
from cardtable.ui.footer import Footer
from cardtable.ui.gamescreen import HUMAN, AdviceLine, GameScreen
from cardtable.ui.guard import AnswerOnce
from cardtable.ui.toggles import TickBox
from cardtable.ui.widgets import HandView, TrickView

# This module's UI strings are in cardtable/locales/<lang>.toml (en, es, zh).

SUIT_NAMES = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def seat_name(seat: int) -> str:
    return t(f"gz_seat_{seat}")


def card_name(card: Card) -> str:
    """«Queen of spades, the Pig», «7 de corazones»: a card in words, with its nickname if it has one."""
    rank = t(f"gz_rank_{card.rank}") if card.rank > 10 else str(card.rank)
    name = t("gz_card", rank=rank, suit=t(f"gz_suit_{card.suit}"))
    nick = {rules.PIG: "gz_pig", rules.GOAT: "gz_goat", rules.TRANSFORMER: "gz_transformer"}.get(card)
    return t("gz_card_nick", card=name, nick=t(nick)) if nick else name


def taken_text(cards, style: str) -> Text:
    """Taken cards grouped by suit, ranks spaced: «Q♠  3 4 J K♥  10♣  J♦»."""
    text = Text()
    for suit in "SHCD":
        group = sorted((c for c in cards if c.suit == suit), key=rules.sort_key)
        if not group:
            continue
        if text:
            text.append("  ")
        last = card_text(group[-1], style, width=0)
        ranks = " ".join(c.code[:-1] for c in group[:-1])
        text.append(ranks + " " if ranks else "", style=last.style)
        text.append_text(last)
    return text


def hand_points(view: GongZhuView, seat: int) -> int:
    """What the cards a seat has taken would score if the hand ended now (shown to every player)."""
    return view.options.score_taken(view.taken[seat], view.all_shown).hand


def hand_label(view: GongZhuView) -> str:
    """The header's line: hand, ending (or the fixed length), the swap, and +400 all hearts if on."""
    options = view.options
    swap = t("on") if options.swap else t("off")
    if options.fixed_hands:
        label = t("gz_hand_of", hand=view.hand_number, n=options.max_hands, swap=swap)
    else:
        ending = t("gz_quick") if options.target == 500 else t("gz_standard")
        label = t("gz_hand_label", hand=view.hand_number, ending=ending, swap=swap)
    if options.all_hearts != 200:
        label += f" · {t('gz_all_hearts_label')} {options.all_hearts:+d}"
    return label


# ---------------------------------------------------------------- widgets
class GongZhuSeatPanel(Static):
    """An opponent: name, card count, shown cards, point cards taken, hand points and total."""

    DEFAULT_CSS = """
    GongZhuSeatPanel { border: round $panel-lighten-2; padding: 0 1; height: 100%; }
    GongZhuSeatPanel.to-move { border: round $accent; }
    """

    def show_seat(self, view: GongZhuView, seat: int, count: int, style: str, wide: bool = False) -> None:
        """``wide`` (North, across the top): two lines, the shown cards beside the count and the hand
        points beside the taken cards, so that nothing is cut by the plate's height."""
        self.border_title = seat_name(seat)
        self.set_class(view.to_move == seat and view.phase == "play", "to-move")
        sep = "  " if wide else "\n"
        body = Text()
        body.append(card_count(count))
        body.append(f"  {t('gz_total')} {view.totals[seat]:+d}", style="bold")
        if view.shown[seat]:
            body.append(f"{sep}{t('gz_shown')}: ")
            body.append_text(cards_text(view.shown[seat], style))
        points = [c for c in view.taken[seat] if c.suit != "H" or rules.heart_value(c)]
        if view.taken[seat]:
            body.append(f"\n{t('gz_taken')}: ")
            body.append_text(taken_text(points, style))
            body.append(f"{sep}{t('gz_hand_points')} {hand_points(view, seat):+d}")
        self.update(body)


def show_trick(widget: TrickView, view: GongZhuView, style: str, status: str) -> None:
    """The current trick, or the last one with who took it."""
    trick, winner = view.trick, None
    if not trick and view.tricks:
        trick, winner = view.tricks[-1], view.winners[-1]
    cards = dict(trick)
    top = trick[rules.trick_winner_index(trick)][0] if trick else None

    def slot(seat: int) -> Text:
        if seat not in cards:
            return Text("." if style == "ascii" else "·", style="grey30")
        return card_text(cards[seat], style, selected=seat == top and winner is not None, width=3)

    taker = None if winner is None else t("gz_you_take") if winner == HUMAN else t("gz_takes", name=seat_name(winner))
    widget.show_cross(slot, seat_name, left=1, right=3, taker=taker, status=status)


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

    def hands(self) -> int:
        raw = self.query_one("#gz-hands", Input).value.strip()
        return min(max(int(raw), 1), 1000) if raw else self.DEFAULT_HANDS

    def options(self) -> GongZhuOptions:
        target = int(self.choice("gz-ending", "500"))
        return GongZhuOptions(
            target=target,
            max_hands=self.hands() if target == 0 else GongZhuOptions().max_hands,
            all_hearts=int(self.choice("gz-all-hearts", "200")),
            swap=self.query_one("#gz-swap", Checkbox).value,
            showing=self.query_one("#gz-showing", Checkbox).value,
            showable="pig_transformer" if self.query_one("#gz-showable", Checkbox).value else "all",
            transformer_zero_hearts="alone" if self.query_one("#gz-zero", Checkbox).value else "standard")


class ShowPanel(AnswerOnce):
    """One checkbox per showable card held, with its effect; «Show n and play» / «No, play»."""

    BINDINGS = [Binding("escape", "no_show", "gz_no_show"),
                Binding("enter", "confirm", "gz_play", priority=True)]
    DEFAULT_CSS = """
    ShowPanel { align: center top; }
    ShowPanel .dialog { width: 60; margin-top: 5; padding: 0 2; }
    """

    def __init__(self, cards: list[Card], style: str) -> None:
        super().__init__()
        self.cards = cards
        self.style_name = style

    def compose(self) -> ComposeResult:
        names = {rules.PIG: "gz_pig", rules.GOAT: "gz_goat", rules.TRANSFORMER: "gz_transformer",
                 rules.HEART_ACE: "gz_heart_ace"}
        with Vertical(classes="dialog"):
            yield Label(t("gz_show_title"), classes="dialog-title")
            yield Static(t("gz_show_intro"))
            for card in self.cards:
                before, after = rules.show_effect(card)
                label = Text.assemble(card_text(card, self.style_name, width=0),
                                      f"  {t(names[card])}  {before} → {after}")
                yield TickBox(label, id=f"show-{card.code}")
            with Horizontal(classes="dialog-buttons"):
                yield Button(t("gz_no_show"), id="no-show")
                yield Button(t("gz_show_n", n=0), id="do-show", variant="primary")

    def on_mount(self) -> None:
        self.query_one(Checkbox).focus()

    def chosen(self) -> tuple[Card, ...]:
        return tuple(c for c in self.cards if self.query_one(f"#show-{c.code}", Checkbox).value)

    def on_checkbox_changed(self, event: Checkbox.Changed) -> None:
        self.query_one("#do-show", Button).label = t("gz_show_n", n=len(self.chosen()))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(self.chosen() if event.button.id == "do-show" else ())

    def action_no_show(self) -> None:
        self.dismiss(())

    def action_confirm(self) -> None:
        """Enter plays with the ticked cards shown (Space ticks); on «No, play» it shows nothing."""
        focused = self.focused
        self.dismiss(() if focused is not None and focused.id == "no-show" else self.chosen())


def results_table(record: dict) -> Table:
    table = Table(expand=False, pad_edge=False)
    table.add_column("")
    for seat in range(4):
        table.add_column(seat_name(seat), justify="right")
    lines = record["lines"]
    for key in ("hearts", "pig", "goat", "base", "transformer", "hand", "total"):
        cells = []
        for seat in range(4):
            value = lines[seat][key]
            if key == "transformer":
                cell = Text(t(f"gz_tr_{value}"), style="bold yellow" if value in ("x2", "x4") else "")
            else:
                cell = Text(f"{value:+d}" if value else "0",
                            style="bold" if key in ("hand", "total") else "")
                if key == "hearts" and len([c for c in record["taken"][seat] if c.endswith("H")]) == 13:
                    cell.append(" ★", style="bold green")
            cells.append(cell)
        table.add_row(Text(t(f"gz_line_{key}"), style="bold" if key in ("hand", "total") else ""), *cells)
    return table


class ResultsScreen(HandEndDialog):
    """The seven lines for the four players after a hand, marking all hearts and a doubling Transformer."""

    DEFAULT_CSS = "ResultsScreen .dialog { width: 70; }"

    def __init__(self, record: dict, match_over: bool) -> None:
        super().__init__(t("gz_results", hand=record["hand"]), match_over)
        self.record = record

    def body(self):
        notes = []
        for seat, line in enumerate(self.record["lines"]):
            taken = self.record["taken"][seat]
            if len([c for c in taken if c.endswith("H")]) == 13:
                notes.append(f"{seat_name(seat)}: {t('gz_grand_slam' if len(taken) == 16 else 'gz_all_hearts')}")
            if line["transformer"] in ("x2", "x4"):
                notes.append(f"{seat_name(seat)}: {t('gz_doubled')} ({t('gz_tr_' + line['transformer'])})")
        yield Static(Group(results_table(self.record), Text("\n".join(notes), style="italic")), id="results-body")


class GongZhuMatchEnd(MatchEndDialog):
    """Names the winner and «el Cerdo», with the final totals."""

    DEFAULT_CSS = "GongZhuMatchEnd .dialog { width: 60; }"

    def body(self):
        def names(seats):
            return ", ".join(seat_name(s) for s in seats)

        totals = Text()
        for seat, total in enumerate(self.record["totals"]):
            totals.append(f"{cells.ljust(seat_name(seat), 8)}{total:+6d}\n", style="bold" if seat in self.record["winners"] else "")
        yield Label(Text(t("gz_winner", names=names(self.record["winners"])), style="bold green"))
        yield Label(Text(t("gz_pig_is", names=names(self.record["pig"])), style="bold red"))
        yield Static(totals)


def last_trick_dialog(view: GongZhuView, style: str) -> LastTrickDialog:
    if not view.tricks:
        return LastTrickDialog([], None)
    lines = [Text(cells.ljust(seat_name(seat), 8)) + card_text(card, style, width=3) for seat, card in view.tricks[-1]]
    winner = view.winners[-1]
    return LastTrickDialog(lines, t("gz_you_take") if winner == HUMAN else t("gz_takes", name=seat_name(winner)))


# ---------------------------------------------------------------- the table
class GongZhuScreen(GameScreen):
    BINDINGS = [
        Binding("left", "move(-1)", "move_left", show=False),
        Binding("right", "move(1)", "move_right", show=False),
        Binding("up", "lift", "lift", show=False),
        Binding("down", "lower", "lower", show=False),
        Binding("enter,space", "choose", "gz_play"),
        Binding("l", "last_trick", "last_trick"),
        Binding("h", "hint", "hint"),
        Binding("r", "rules", "rules"),
        Binding("escape", "continue_later", "continue_later"),
        Binding("question_mark", "app.help", "help"),
    ]
    DEFAULT_CSS = """
    GongZhuScreen #gz-north { height: 4; width: 100%; }
    GongZhuScreen #gz-middle { height: 1fr; }
    GongZhuScreen #gz-west, GongZhuScreen #gz-east { width: 24; }
    GongZhuScreen #gz-trick { width: 1fr; }
    GongZhuScreen #gz-me { height: 1; padding: 0 1; }
    GongZhuScreen #gz-status { height: 1; padding: 0 1; color: $warning; }
    """

    @classmethod
    def setup_screen(cls) -> GongZhuSetup:
        return GongZhuSetup()

    TITLE_KEY = "gz_title"
    STATUS_ID = "gz-status"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._show_panel_open = False

    def compose(self) -> ComposeResult:
        yield Header()
        yield GongZhuSeatPanel(id="gz-north")
        with Horizontal(id="gz-middle"):
            yield GongZhuSeatPanel(id="gz-west")
            yield TrickView(id="gz-trick")
            yield GongZhuSeatPanel(id="gz-east")
        yield Static(id="gz-me")
        yield HandView(card_text, id="gz-hand")
        yield Static(id="gz-status")
        yield AdviceLine(id="advice")
        yield Footer()

    def hand_widget(self) -> HandView:
        return self.query_one(HandView)

    # -- flow
    def cpu_may_move(self) -> bool:
        return super().cpu_may_move() and not self._show_panel_open

    def after_move(self, seat: int, move: Any, records: list[dict]) -> None:
        self.status = ""
        super().after_move(seat, move, records)

    def advance(self) -> None:
        """Decide what happens next: the showing panel for the human, or the CPU."""
        if self.dealing or self.pending_results is not None:
            return
        if (self.pending_match_end is None and self.match.to_move() == HUMAN and self.match.phase == "show"
                and not self._show_panel_open):
            view = self.match.view(HUMAN)
            showable = rules.showable_in(view.hand, view.options.showable_cards)
            if not showable:
                self.play(Show(()))
                return
            self._show_panel_open = True
            self.app.push_screen(ShowPanel(showable, self.style_name), callback=self._shown)
            return
        super().advance()

    def _shown(self, cards: tuple[Card, ...] | None) -> None:
        self._show_panel_open = False
        self.play(Show(tuple(cards or ())))

    def results_dialog(self, record: dict) -> ResultsScreen:
        return ResultsScreen(record, self.pending_match_end is not None)

    def match_end_dialog(self, record: dict) -> GongZhuMatchEnd:
        return GongZhuMatchEnd(record)

    # -- rendering
    def refresh_table(self) -> None:
        if not self.query(HandView):
            return
        view = self.fresh_view()
        style = self.style_name
        hand = self.query_one(HandView)
        dealt = hand.revealed if self.dealing else 13
        for seat, widget_id in ((1, "#gz-west"), (2, "#gz-north"), (3, "#gz-east")):
            count = min(view.counts[seat], dealt) if self.dealing else view.counts[seat]
            self.query_one(widget_id, GongZhuSeatPanel).show_seat(view, seat, count, style, wide=seat == 2)
        me = Text()
        me.append(f"{seat_name(HUMAN)}  ", style="bold")
        me.append(f"{t('gz_total')} {view.totals[HUMAN]:+d}", style="bold")
        if view.shown[HUMAN] or view.my_show:
            me.append(f"  {t('gz_shown')}: ")
            me.append_text(cards_text(view.shown[HUMAN] or view.my_show or (), style))
        if view.taken[HUMAN]:
            me.append(f"  {t('gz_taken')}: ")
            me.append_text(taken_text(view.taken[HUMAN], style))
            me.append(f"  {t('gz_hand_points')} {hand_points(view, HUMAN):+d}")
        self.query_one("#gz-me", Static).update(me)
        playable = frozenset(m.card for m in view.legal if isinstance(m, Play))
        was_playable = hand.playable
        hand.set_cards(view.hand, playable, style)
        if playable and not was_playable and hand.current not in playable:
            hand.cursor = next(i for i, c in enumerate(hand.cards) if c in playable)
        self.refresh_bindings()
        # While the cards are dealt nobody is to play; while they are shown, to_move is the seat deciding
        # what to show (in seat order): the trick area says so and names the seat that will lead.
        turn = view.to_move
        if self.dealing:
            message = t("dealing")
        elif view.phase == "show":
            message = t("gz_showing_you_lead") if view.leader == HUMAN else \
                t("gz_showing_leads", name=seat_name(view.leader))
        elif turn == HUMAN:
            message = t("gz_your_turn")
        elif turn is not None:
            message = t("gz_to_play", name=seat_name(turn))
        else:
            message = ""
        show_trick(self.query_one(TrickView), view, style, message)
        self.query_one("#gz-status", Static).update(self.status)
        self.sub_title = hand_label(view)

    def reason(self, exc) -> str:
        """A refusal in the player's language, with cards and suits drawn as on the table."""
        from cardtable.cards import parse_card
        from cardtable.ui.cardart import SUIT_SYMBOLS, card_label

        params = dict(exc.params)
        if "card" in params:
            params["card"] = card_label(parse_card(params["card"]), self.style_name)
        if "suit" in params and self.style_name != "ascii":
            params["suit"] = SUIT_SYMBOLS[params["suit"]]
        text = t(exc.key, **params)
        return exc.reason if text == exc.key else text

    # -- actions
    def check_action(self, action: str, parameters: tuple) -> bool | None:
        if action in ("choose", "hint", "lift", "lower", "move"):   # shown dimmed while it is not your turn
            view = self.human_view()
            return True if view.to_move == HUMAN and view.phase == "play" and not self.dealing else None
        return True

    def action_move(self, step: int) -> None:
        hand = self.query_one(HandView)
        if hand.cards:
            hand.cursor = (hand.cursor + step) % len(hand.cards)
            hand.lifted = None
            self._explain(hand.current)

    def _explain(self, card: Card | None) -> None:
        if card is None:
            return
        refusal = self.match.why_illegal(Play(card)) if self.match.to_move() == HUMAN else None
        self.set_status(self.reason(refusal) if refusal else "")

    def action_lift(self) -> None:
        hand = self.query_one(HandView)
        if hand.current is None:
            return
        refusal = self.match.why_illegal(Play(hand.current))
        if refusal is not None:
            self._explain(hand.current)
            self.app.bell()
            return
        hand.lifted = hand.cursor

    def action_lower(self) -> None:
        self.query_one(HandView).lifted = None

    def action_choose(self) -> None:
        """Enter / Space / a click: lift the card under the cursor, or play it if already lifted."""
        hand = self.query_one(HandView)
        if hand.current is None or self.match.to_move() != HUMAN or self.match.phase != "play":
            return
        if hand.lifted == hand.cursor:
            self.play(Play(hand.current))
        else:
            self.action_lift()

    def action_hint(self) -> None:
        """The `hard` search's play (in a worker), lifted, with why in the status line."""
        self.request_hint()

    def show_hint(self, hint: Any) -> None:
        move = hint.move
        if isinstance(move, Play):
            hand = self.query_one(HandView)
            if move.card in hand.cards:
                hand.cursor = hand.cards.index(move.card)
                hand.lifted = hand.cursor
        self.set_status(self.hint_text(hint))

    def move_text(self, move: Any) -> str:
        if isinstance(move, Play):
            move = move.card
        if isinstance(move, Show):
            return " ".join(card_label(c, self.style_name) for c in move.cards) or t("gz_no_show")
        if isinstance(move, Card):
            return card_name(move)
        return str(move)

    def param_text(self, value: Any) -> str:
        """Cards inside a reason are drawn short (♠A), the hinted card is named in words."""
        if isinstance(value, Card):
            return card_label(value, self.style_name)
        return super().param_text(value)

    def action_last_trick(self) -> None:
        self.app.push_screen(last_trick_dialog(self.match.view(HUMAN), self.style_name))

    def action_rules(self) -> None:
        from cardtable.ui.screens import RulesScreen

        self.app.push_screen(RulesScreen("gongzhu"))
