"""The Guandan table screen: selection, readings, hints, pass, tribute and return."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from rich.cells import cell_len
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.widgets import Header, Static

from cardtable.cards import Card
from cardtable.games.guandan import advice, rules
from cardtable.games.guandan.bots import decompose, recommended_return
from cardtable.games.guandan.rules import Combo
from cardtable.games.guandan.state import GuandanView, Pass, Play, Return, Tribute
from cardtable.i18n import t
from cardtable.tricks import partner
from cardtable.ui.cardart import card_label
from cardtable.ui.footer import Footer
from cardtable.ui.gamescreen import HINT_ROWS, HUMAN, AdviceLine, GameScreen
from cardtable.ui.guandan.dialogs import (
    ChooserScreen,
    GuandanMatchEnd,
    GuandanSetup,
    GuandanSummary,
    last_trick_dialog,
)
from cardtable.ui.guandan.text import (
    combo_name,
    rank_label,
    seat_name,
    wild_marks,
)
from cardtable.ui.guandan.why import why_no_beat, why_not_a_play
from cardtable.ui.guandan.widgets import ColumnsView, LevelBar, PlayControl, TableView, seat_plate
from cardtable.ui.seats import SeatPanel

# The actions that choose cards (allowed while the CPUs play) and their keys.
SELECTING = ("clear", "take", "tap", "put_back", "cursor", "cursor_to", "suit")
SELECTING_KEYS = frozenset({"left", "right", "home", "end", "up", "space", "down", "S", "H", "D", "C", "x",
                            "backspace"})


# ---------------------------------------------------------------- the table
class GuandanScreen(GameScreen):
    BINDINGS = [
        Binding("left", "cursor(-1)", "move_left", show=False),
        Binding("right", "cursor(1)", "move_right", show=False),
        Binding("home", "cursor_to(0)", "gd_first_column", show=False),
        Binding("end", "cursor_to(-1)", "gd_last_column", show=False),
        Binding("up", "take", "gd_take", show=False),
        Binding("space", "tap", "gd_tap", show=False),
        Binding("down", "put_back", "gd_put_back", show=False),
        Binding("S", "suit('S')", "gd_suit_S", show=False),
        Binding("H", "suit('H')", "gd_suit_H", show=False),
        Binding("D", "suit('D')", "gd_suit_D", show=False),
        Binding("C", "suit('C')", "gd_suit_C", show=False),
        # Not in the footer: the play control right above it is Enter's key («⏎ Pair of 9s»), naming what
        # it plays; the footer's «⏎ Play» under it said the same twice.
        Binding("enter", "play", "gd_play", show=False),
        Binding("p", "pass", "gd_pass"),
        Binding("h", "hint", "gd_hint"),
        Binding("a", "take_advice", "gd_take_advice", show=False),
        Binding("x,backspace", "clear", "gd_clear"),
        Binding("s", "sort", "gd_sort"),
        Binding("l", "last_trick", "last_trick", show=False),
        Binding("r", "rules", "rules", show=False),
        Binding("escape", "continue_later", "continue_later"),
        Binding("question_mark", "app.help", "help"),
    ]
    DEFAULT_CSS = """
    GuandanScreen #gd-top { height: 3; }
    GuandanScreen #gd-north { width: 1fr; }
    GuandanScreen #gd-middle { height: 6; }
    GuandanScreen #gd-west, GuandanScreen #gd-east { width: 22; }
    GuandanScreen #gd-table { width: 1fr; }
    GuandanScreen #gd-bottom { height: 1; }
    GuandanScreen #gd-status { height: 1; width: 1fr; padding: 0 1; }
    """

    TITLE_KEY = "gd_title"
    STATUS_ID = "gd-status"
    DEAL_STEP = 0.03
    RESULTS_PAUSE = 1.2     # seconds the «+N» shows alone before the summary (any key cuts it short)

    @classmethod
    def setup_screen(cls) -> GuandanSetup:
        return GuandanSetup()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.sort_by_play = False
        self.hint_index = -1
        self._take_advice: Hashable | None = None    # the position where «a» waits for the hint
        self._hints: tuple[Hashable, list[tuple[list[Card], str]]] | None = None
        self.flash = ""                 # «+3» on the level bar, by the team that rose (flash_team)
        self.flash_team = 0
        self._chooser_open = False
        self._results_timer: Any = None
        self._hint_shown = False          # the advice line shows the search's hint (not a checker note)

    def compose(self) -> ComposeResult:
        yield Header()
        yield LevelBar(id="gd-level")
        with Horizontal(id="gd-top"):
            yield SeatPanel(id="gd-north")
        with Horizontal(id="gd-middle"):
            yield SeatPanel(id="gd-west")
            yield TableView(id="gd-table")
            yield SeatPanel(id="gd-east")
        yield ColumnsView(id="gd-columns")
        with Horizontal(id="gd-bottom"):
            yield PlayControl(id="gd-play")
            yield Static(id="gd-status")
        yield AdviceLine(id="advice")
        yield Footer(show_command_palette=False)

    @property
    def columns(self) -> ColumnsView:
        return self.query_one(ColumnsView)

    def hand_widget(self) -> ColumnsView:
        return self.columns

    def on_resize(self, event: events.Resize) -> None:
        """Use the room of a tall terminal: taller seat panels and middle (the hand grows by itself)."""
        tall = event.size.height >= 34
        self.query_one("#gd-top").styles.height = 4 if tall else 3
        self.query_one("#gd-middle").styles.height = 8 if tall else 6
        self.refresh_table()

    # -- flow
    def cpu_may_move(self) -> bool:
        return super().cpu_may_move() and not self._chooser_open

    def results_pause(self) -> float:
        return self.RESULTS_PAUSE if self.app.settings.cpu_delay > 0 else 0.0

    def after_move(self, seat: int, move: Any, records: list[dict]) -> None:
        if seat == HUMAN:
            self.hint_index = -1
        ended = [r for r in records if r["type"] == "hand_end"]
        for record in ended:
            self.flash = t("gd_level_up", n=record["level_up"]) if record["level_up"] else ""
            self.flash_team = record["winner_team"]
        pause = self.results_pause() if ended else 0.0
        if pause <= 0:
            super().after_move(seat, move, records)
            return
        # The «+N» first, alone on the level bar; the summary after a pause (or at the next key). The hand
        # counts now (statistics, clock), not when the summary opens.
        self.note_move(seat, records)
        self.refresh_table()
        self._results_timer = self.set_timer(pause, self._results_now)

    def _results_now(self) -> None:
        if self._results_timer is not None:
            self._results_timer.stop()
            self._results_timer = None
            self.show_results()

    def on_key(self, event: events.Key) -> None:
        if self._results_timer is not None:
            self._results_now()
            event.stop()
            event.prevent_default()
            return
        view = self.human_view()
        if event.key == "p" and view.to_move == HUMAN and view.phase == "play" and view.top is None:
            self.set_status(t("gd_no_pass_lead"))     # the pass key is dimmed while you lead: say why
            self.app.bell()
        if event.key in SELECTING_KEYS and not self.dealing:
            return                # choosing cards while the CPUs play does not hurry them
        super().on_key(event)

    def advance(self) -> None:
        if self.dealing:
            return
        view = self.human_view()
        if (self.pending_results is None and self.pending_match_end is None and view.to_move == HUMAN
                and view.phase == "tribute"):
            self._prepare_tribute()
            return
        super().advance()

    def _prepare_tribute(self) -> None:
        view = self.human_view()
        legal = list(view.legal)
        if isinstance(legal[0], Tribute):
            receiver = self.tribute_receiver()
            if len(legal) == 1:
                self.notify(t("gd_tribute_you_pay", name=seat_name(receiver)) if receiver is not None
                            else t("gd_tribute_you_pay_double"))
                self.play(legal[0], HUMAN)
                return
            self.columns.select([legal[0].card])
            self.set_status(t("gd_tribute_pick", card=card_label(legal[0].card, self.style_name)))
        else:
            self.columns.select([recommended_return(view).card])
            self.set_status(t("gd_return_you"))

    def results_dialog(self, record: dict) -> GuandanSummary:
        return GuandanSummary(record, self.pending_match_end is not None, self.human_view().options)

    def tribute_receiver(self) -> int | None:
        """Whom your tribute goes to, when the view says it: with two payers the higher card goes to the
        first out, so the first to pay learns it only from the other payer's card, as everyone does."""
        return self.human_view().tribute_to

    def match_end_dialog(self, record: dict) -> GuandanMatchEnd:
        return GuandanMatchEnd(record)

    def new_hand_started(self) -> None:
        self.flash = ""
        super().new_hand_started()

    # -- rendering
    def _column_groups(self, view: GuandanView) -> tuple[list[list[Card]], list[str]]:
        if self.sort_by_play:
            groups = decompose(list(view.hand), view.level)
            groups.sort(key=lambda g: (g[0] in rules.BOMB_TYPES, min(rules.card_value(c, view.level) for c in g[1])))
            return [g[1] for g in groups], [t(f"gd_short_{g[0]}") for g in groups]
        columns: dict[int, list[Card]] = {}
        for card in view.hand:
            columns.setdefault(rules.card_value(card, view.level), []).append(card)
        ordered = sorted(columns)
        return [columns[v] for v in ordered], [rank_label(columns[v][0].rank) for v in ordered]

    def refresh_table(self) -> None:
        if not self.query(ColumnsView):
            return
        view = self.fresh_view()
        style = self.style_name
        self.query_one(LevelBar).show(view, self.flash, self.flash_team)
        for seat, widget_id in ((3, "#gd-west"), (2, "#gd-north"), (1, "#gd-east")):
            self.query_one(widget_id, SeatPanel).show_plate(self.named(seat_plate(view, seat, style, one_line=seat == 2), seat))
        columns, labels = self._column_groups(view)
        keep = self.columns.selection() if [list(c) for c in columns] == self.columns.columns else None
        self.columns.set_columns(columns, labels, style)
        if keep:
            self.columns.select(keep)
        self.columns.lit = self._lit_columns(view)
        turn = view.to_move
        if self.dealing:
            message = t("dealing")
        elif turn == HUMAN and view.phase == "play":
            message = t("gd_lead") if view.top is None else t("gd_your_turn")
        elif turn == HUMAN and view.phase == "tribute":
            message = t("gd_your_tribute") if isinstance(view.legal[0], Tribute) else t("gd_your_return")
        elif turn is not None and view.phase == "tribute":
            # Before the first lead the seat to move pays the tribute or returns a card, not plays.
            payers = 2 if view.tribute == "double" else 1
            paid = sum(1 for kind, *_ in view.tribute_moves if kind == "tribute")
            message = t("gd_pays", name=seat_name(turn)) if paid < payers else t("gd_returns", name=seat_name(turn))
        elif turn is not None:
            message = t("gd_to_play", name=seat_name(turn))
        else:
            message = ""
        self.query_one(TableView).show_table(view, style, message)
        self.sub_title = f"{t('gd_summary', hand=view.hand_number)} · " + t(
            "gd_level_bar", us=rules.rank_name(view.levels[0]), them=rules.rank_name(view.levels[1]),
            level=rules.rank_name(view.level))
        self.selection_changed(refresh=False)
        self._label_enter(view)
        self.refresh_bindings()

    def _label_enter(self, view: GuandanView) -> None:
        """The play control (Enter in the footer) names exactly the selection: «Pair of 9s», «Straight
        5–9», «2 readings»; «Not a play»; during the tribute «Return» (or «Pay tribute»)."""
        label = t("gd_play")
        if view.phase == "tribute" and view.to_move == HUMAN:
            label = t("gd_return") if isinstance(view.legal[0], Return) else t("gd_tribute")
        elif view.to_move == HUMAN and self.columns.selection():
            readings = self._readings()
            beating = self._beating_readings()
            if len(beating) == 1:
                label = combo_name(beating[0])
            elif len(beating) > 1:
                label = t("gd_n_readings", n=len(beating))
            elif readings:
                label = combo_name(readings[0])
            else:
                label = t("gd_not_a_play")
        self.query_one(PlayControl).show(label, ready=label != t("gd_play") and bool(self._beating_readings())
                                         or view.phase == "tribute" and view.to_move == HUMAN)

    def _readings(self) -> list[Combo]:
        return advice.readings(self.columns.selection(), self.human_view())

    def _beating_readings(self) -> list[Combo]:
        return advice.beating_readings(self.columns.selection(), self.human_view())

    def _lit_columns(self, view: GuandanView) -> set[int]:
        """When answering, the columns holding a card of some legal play that beats the table."""
        cards = advice.answering_cards(view)
        if cards is None:
            return set()
        lit = {i for i, column in enumerate(self.columns.columns) if any(c in cards for c in column)}
        return lit or {-1}

    @on(ColumnsView.SelectionChanged)
    def columns_clicked(self) -> None:
        self.forget_shown_hint()
        self.selection_changed()

    @on(PlayControl.Pressed)
    def play_control_pressed(self) -> None:
        self.action_play()

    def selection_changed(self, refresh: bool = True) -> None:
        """Name the selection in the status line and on the play control, or say why it is not a play."""
        self.set_status(self._describe_selection())
        if refresh:
            self._label_enter(self.human_view())
            self.refresh_bindings()

    def _describe_selection(self) -> str:
        view = self.human_view()
        if view.to_move == HUMAN and view.phase == "tribute":
            return self.status
        cards = self.columns.selection()
        if not cards:
            if view.to_move != HUMAN:
                return ""
            if view.top is not None and not any(isinstance(m, Play) for m in view.legal):
                return t("gd_no_hint")
            return t("gd_nothing")
        readings = self._readings()
        if not readings:           # the play control says «Not a play»: the status line says why
            return why_not_a_play(cards, view.level)
        if view.to_move != HUMAN:      # planning while the others play: what it is, not what it beats
            if len(readings) > 1:
                return " / ".join(combo_name(c) for c in readings)
            return self._wilds_text(readings[0])
        beating = self._beating_readings()
        if not beating:
            why = why_no_beat(readings[0], view.top.combo, view.level)
            return why if cell_len(why) <= self._status_room() else why_no_beat(readings[0], view.top.combo,
                                                                                 view.level, short=True)
        if len(beating) > 1:
            # The readings by name where the status line has room, else their number alone (it was cut at
            # 80 columns: «… 4 readings: Enter to»).
            names = " / ".join(combo_name(c) for c in beating)
            choose = t("gd_readings", n=len(beating))
            short = t("gd_readings_short", n=len(beating))
            return next((text for text in (f"{names} — {choose}", f"{names} — {short}", names)
                         if cell_len(text) <= self._status_room()), choose)
        combo = beating[0]                  # the play control names it; the status adds what wilds stand for
        if view.top is not None and view.top.seat == partner(HUMAN) and len(cards) < len(view.hand):
            return " · ".join(filter(None, (self._wilds_text(combo), t("gd_why_over_your_partner"))))
        return self._wilds_text(combo)

    def _status_room(self) -> int:
        """The cells of the status line beside the play control."""
        bottom = self.query_one("#gd-bottom").size.width or self.size.width
        return max(20, bottom - self.query_one(PlayControl).outer_size.width - 2)

    def _wilds_text(self, combo: Combo) -> str:
        """What the selection's wilds stand for: «2♥→6»."""
        if combo.wilds_as:
            return wild_marks(self.columns.selection(), combo, self.human_view().level, self.style_name)
        return ""

    # -- actions
    def check_action(self, action: str, parameters: tuple) -> bool | None:
        view = self.human_view()
        mine = view.to_move == HUMAN and not self.dealing
        # Shown dimmed (None), not hidden, while they cannot be used: the footer keeps its place. Choosing
        # cards works while the others play (you plan your answer); playing waits for your turn.
        if action in SELECTING:
            return True if view.hand and not self.dealing else None
        if action in ("play", "hint", "take_advice"):
            return True if mine else None
        if action == "pass":
            return True if mine and view.phase == "play" and view.top is not None else None
        return True

    def action_cursor(self, step: int) -> None:
        """← →: no wrap-around at either end."""
        columns = self.columns
        if columns.columns:
            columns.cursor = max(0, min(len(columns.columns) - 1, columns.cursor + step))
            columns.refresh()

    def action_cursor_to(self, index: int) -> None:
        columns = self.columns
        if columns.columns:
            columns.cursor = index % len(columns.columns)
            columns.refresh()

    def action_take(self) -> None:
        """↑: one more card; when the column is all taken it stays so (x or ↓ put cards back)."""
        if not self.columns.take():
            self.set_status(t("gd_all_taken"))
            return
        self.forget_shown_hint()
        self.selection_changed()

    def action_tap(self) -> None:
        """Space: the source's tap cycle (one more card; all taken, the next tap empties the column)."""
        self.columns.press()
        self.forget_shown_hint()
        self.selection_changed()

    def action_put_back(self) -> None:
        if self.columns.put_back():
            self.forget_shown_hint()
        self.selection_changed()

    def action_suit(self, suit: str) -> None:
        if self.columns.take_suit(suit):
            self.forget_shown_hint()
            self.selection_changed()
        else:
            self.app.bell()

    def action_clear(self) -> None:
        self.columns.clear()
        self.hint_index = -1
        self.forget_shown_hint()
        self.selection_changed()

    def action_sort(self) -> None:
        self.sort_by_play = not self.sort_by_play
        self.notify(t("gd_sort_play") if self.sort_by_play else t("gd_sort_rank"))
        self.refresh_table()

    def action_pass(self) -> None:
        if self.play(Pass(), HUMAN):
            self.columns.clear()

    def action_last_trick(self) -> None:
        self.app.push_screen(last_trick_dialog(self.human_view(), self.style_name))

    def hint_thinking(self) -> None:
        self.say_advice(t("hint_thinking"))

    def show_hint(self, hint: Any) -> None:
        line = self.hint_text(hint)
        if self.human_view().to_move == HUMAN:
            # «a» does not pass (it clears the selection and says p passes): a pass names p instead. The
            # key comes before the expected edge: without the edge when both do not fit the two rows.
            key_text = t("gd_pass_advice_key") if isinstance(hint.move, Pass) else t("gd_take_advice_key")
            for text in (line, self.hint_text(hint, with_gain=False)):
                if self.fits(f"{text} · {key_text}", HINT_ROWS):
                    line = f"{text} · {key_text}"
                    break
        self.say_advice(line)
        self._hint_shown = True
        if self._take_advice is not None and self._same_position(self._take_advice):
            self._take_advice = None
            self.select_move(hint.move)

    def action_take_advice(self) -> None:
        """a: select what the search's hint plays (asking it first if it has not answered yet), ready for
        Enter; the h cycle stays the cheapest-first list. A pass clears the selection and says so."""
        if self.human_view().to_move != HUMAN or self.dealing:
            return
        self._take_advice = self.position()
        if not self.request_hint(again=False):       # the hint shown, not the next one
            self._take_advice = None

    def select_move(self, move: Any) -> None:
        if isinstance(move, (Tribute, Return)):
            self.columns.select([move.card])
        elif isinstance(move, Play):
            self.columns.select(list(move.cards))
        else:
            self.columns.clear()
        self.hint_index = -1
        self.selection_changed()
        if isinstance(move, Pass):
            self.set_status(t("gd_advice_pass"))

    def hint_failed(self) -> None:
        self._take_advice = None
        self.say_advice("")

    def flag_text(self, flag: Any) -> str:
        """The checker's note names the decision it is about: the return, or the play you made."""
        cost = advice.amount(flag.cost)
        better = self.move_text(flag.better)
        if isinstance(flag.better, (Return, Tribute)):
            return t("gd_check_return", move=better, cost=cost)
        if isinstance(flag.played, Pass):
            return t("gd_check_instead_pass", move=better, cost=cost)
        if isinstance(flag.better, Pass):
            return t("gd_check_pass_instead", played=self.move_text(flag.played), cost=cost)
        return t("gd_check_instead", played=self.move_text(flag.played), move=better, cost=cost)

    def forget_shown_hint(self) -> None:
        """You changed the selection yourself (x, ↑, a suit key, a click): the hint line, about the play it
        named, goes until h or a asks again (it stayed and read as if about the new selection)."""
        if self._hint_shown:
            self._hint_shown = False
            self.say_advice("")

    def move_text(self, move: Any) -> str:
        if isinstance(move, (Tribute, Return)):
            move = move.card
        if isinstance(move, Card):
            return card_label(move, self.style_name)
        if isinstance(move, Pass):
            return t("gd_pass")
        if isinstance(move, Play):
            view = self.human_view()
            combo = next((c for c in rules.classify(move.cards, view.level, view.options.straight_flush_as_straight)
                          if c.type == move.type and c.key == move.key), None)
            return combo_name(combo) if combo is not None else " ".join(card_label(c, self.style_name)
                                                                           for c in move.cards)
        return str(move)

    def hint_cycle(self) -> list[tuple[list[Card], str]]:
        """The hints for this turn, one per press of h, as (cards to select, what the status says).

        The order is :func:`advice.hint_order`'s; the screen adds the words."""
        if self._hints is not None and self._same_position(self._hints[0]):
            return self._hints[1]
        view = self.human_view()
        cycle = [(step.cards, self._hint_message(step, view)) for step in advice.hint_order(view)]
        self._hints = (self.position(), cycle)
        return cycle

    def _hint_message(self, step: advice.HintStep, view: GuandanView) -> str:
        """What the status line says with a hint of the h cycle (nothing for a plain cheapest play)."""
        if step.kind == "tribute":
            return t("gd_hint_tribute", card=card_label(step.cards[0], self.style_name))
        if step.kind == "return":
            return t("gd_hint_return", card=card_label(step.cards[0], self.style_name))
        if step.kind == "partner":
            return t("gd_hint_partner")
        if step.play is not None and step.kind == "out":
            return t("gd_hint_out", play=combo_name(advice.play_combo(step.play, view)))
        if step.play is not None and step.kind == "over_partner":
            return t("gd_over_partner", play=combo_name(advice.play_combo(step.play, view)))
        return ""

    def action_hint(self) -> None:
        """Propose plays from the cheapest to the dearest, one per press (the first press included);
        the first press also asks the `hard` search (in a worker) what it would play: its answer and why
        go to the line under the table, without touching the selection."""
        self.request_hint()
        cycle = self.hint_cycle()
        if not cycle:
            self.columns.clear()
            self.set_status(t("gd_no_hint"))
            self._label_enter(self.human_view())
            self.refresh_bindings()
            return
        self.hint_index = (self.hint_index + 1) % len(cycle)
        cards, message = cycle[self.hint_index]
        if cards:
            self.columns.select(cards)
        else:
            self.columns.clear()
        self.selection_changed()
        if message:
            self.set_status(message)

    def action_play(self) -> None:
        view = self.human_view()
        if view.to_move != HUMAN:
            return
        cards = self.columns.selection()
        if view.phase == "tribute":
            legal = list(view.legal)
            kind = type(legal[0])
            if len(cards) == 1 and kind(cards[0]) in legal:
                self.play(kind(cards[0]), HUMAN)
                self.columns.clear()
            else:
                self.set_status(t("gd_bad_tribute") if kind is Tribute else t("gd_bad_return"))
            return
        if not cards:
            # «Nothing taken yet…», or «No play beats the table: pass» when nothing could be taken to beat it
            view = self.human_view()
            answerable = view.top is None or any(isinstance(m, Play) for m in view.legal)
            self.set_status(t("gd_nothing_selected") if answerable else t("gd_no_hint"))
            self.app.bell()
            return
        beating = self._beating_readings()
        if not beating:
            # Say what is wrong without asking the engine: the selection names itself.
            self.set_status(self._describe_selection())
            self.app.bell()
            return
        if len(beating) > 1:
            self._chooser_open = True
            self.app.push_screen(ChooserScreen(beating, self.style_name, cards, self.human_view().level),
                                 callback=lambda index: self._chosen(cards, beating, index))
            return
        self._play_cards(cards, beating[0])

    def _chosen(self, cards: list[Card], readings: list[Combo], index: int | None) -> None:
        self._chooser_open = False
        if index is not None:
            self._play_cards(cards, readings[index])
        else:
            self.schedule_cpu()

    def _play_cards(self, cards: list[Card], combo: Combo) -> None:
        if self.play(Play(tuple(cards), combo.type, combo.key), HUMAN):
            self.columns.clear()

    def action_rules(self) -> None:
        from cardtable.ui.screens import RulesScreen

        self.app.push_screen(RulesScreen("guandan"))

    def cpu_delay(self, seat: int, move: Any) -> float:
        # Passes come often in Guandan: a short pause keeps the table lively.
        base = super().cpu_delay(seat, move)
        return base / 3 if isinstance(move, Pass) else base
