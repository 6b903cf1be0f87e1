"""The Guandan table: hand columns with selection, readings chooser, hints, pass, tribute and return,
the level bar with its counters, the hand summary and the match end."""

from __future__ import annotations

import dataclasses
from collections import Counter
from typing import Any

from rich.table import Table
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Header, Label, OptionList, Static
from textual.widgets.option_list import Option

from cardtable import i18n
from cardtable.cards import Card
from cardtable.games.guandan import rules
from cardtable.games.guandan.bots import NormalBot, decompose, recommended_return
from cardtable.games.guandan.rules import Combo
from cardtable.games.guandan.state import GuandanOptions, GuandanView, Pass, Play, Return, Tribute
from cardtable.i18n import card_count, t
from cardtable.tricks import partner
from cardtable.ui.cardart import card_label, card_text, cards_text
from cardtable.ui.dialogs import HandEndDialog, MatchEndDialog, SetupDialog, radio_row
from cardtable.ui.footer import Footer
from cardtable.ui.gamescreen import HUMAN, GameScreen
from cardtable.ui.guard import AnswerOnce
from cardtable.ui.widgets import MARKER, MARKER_ASCII

NUMBER_WORDS_EN = {4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine", 10: "ten"}
NUMBER_WORDS_ES = {4: "cuatro", 5: "cinco", 6: "seis", 7: "siete", 8: "ocho", 9: "nueve", 10: "diez"}

i18n.register(
    en={
        "gd_title": "Guandan",
        "gd_seat_0": "You", "gd_seat_1": "Right", "gd_seat_2": "Partner", "gd_seat_3": "Left",
        "gd_setup": "Guandan",
        "gd_objective": "Be the first pair to climb from 2 past the Aces, with your partner.",
        "gd_key_rules": "1 · First out wins: the team rises 3, 2 or 1 by the partner's place.\n"
                        "2 · The level card beats the Ace; the two ♥ level cards are wild.\n"
                        "3 · Beat the same type and size, higher — or play any bomb.\n"
                        "4 · Straights are exactly 5 cards; A low or high; no K-A-2.\n"
                        "5 · From hand 2 the last pays tribute; the 1st gives back a 2–10.",
        "gd_aces": "Aces",
        "gd_aces_unlimited": "Compulsory · tournament",
        "gd_aces_three": "3 failures → back to 2",
        "gd_start": "Start a new game",
        "gd_level_bar": "Us {us} · Them {them} · playing {level}",
        "gd_fails": "A failures {us}/{them}",
        "gd_out": "out: BJ {bj} · SJ {sj} · wild {wild} · level {level}",
        "gd_place": "{place}",
        "gd_place_1": "1st", "gd_place_2": "2nd", "gd_place_3": "3rd", "gd_place_4": "last",
        "gd_pass": "Pass",
        "gd_passed": "pass",
        "gd_your_turn": "Your turn",
        "gd_lead": "Your lead",
        "gd_to_play": "{name} to play",
        "gd_taken": "{n} taken",
        "gd_nothing": "Take cards: ↑/Space on a column",
        "gd_not_a_play": "Not a play",
        "gd_does_not_beat": "{play}: does not beat the table",
        "gd_readings": "{n} readings: Enter to choose",
        "gd_as": "as {cards}",
        "gd_single": "Single {key}", "gd_pair": "Pair of {key}s", "gd_triple": "Three {key}s",
        "gd_full_house": "Full house of {key}s", "gd_straight": "Straight {low}–{key}",
        "gd_straight_flush": "Straight flush {low}–{key}", "gd_tube": "Tube {low}–{key}",
        "gd_plate": "Plate {low}–{key}", "gd_bomb": "Bomb of {count} {key}s", "gd_joker_bomb": "Joker bomb",
        "gd_choose_title": "Choose how to play it (★ strongest)",
        "gd_hint": "Hint",
        "gd_clear": "Clear",
        "gd_sort": "Sort",
        "gd_sort_rank": "by rank", "gd_sort_play": "by play",
        "gd_play": "Play",
        "gd_take": "Take",
        "gd_put_back": "Put back",
        "gd_no_hint": "No play beats the table: pass.",
        "gd_tribute_you_pay": "Tribute: you give your highest card to {name}.",
        "gd_tribute_pick": "Choose which {card} to give (equal cards).",
        "gd_return_you": "Return a card to {name} (2–10, not the level): the recommended card is chosen.",
        "gd_return": "Return",
        "gd_tribute": "Pay tribute",
        "gd_tribute_line": "{payer} → {receiver}: {card}",
        "gd_anti": "No tribute: {names} hold the two big jokers.",
        "gd_summary": "Hand {hand}",
        "gd_places": "Places",
        "gd_rise": "{team} +{n}",
        "gd_no_rise": "no rise (already at A)",
        "gd_us": "Us", "gd_them": "Them",
        "gd_levels_now": "Levels: us {us} · them {them}",
        "gd_failure": "A failure at the Aces ({n})",
        "gd_match_us": "You and your partner pass the Aces and win!",
        "gd_match_them": "Your opponents pass the Aces and win.",
        "gd_tribute_first": "The tribute is paid first.",
        "gd_bad_tribute": "The tribute is your highest card (never a wild).",
        "gd_return_first": "The tribute is returned first.",
        "gd_bad_return": "Return a card from 2 to 10 that is not the level rank (your lowest if you have none).",
        "gd_no_pass_lead": "You lead: you may not pass.",
        "gd_play_or_pass": "Play cards or pass.",
        "gd_not_in_hand": "Those cards are not all in your hand.",
        "gd_wrong_reading": "Those cards cannot be read that way.",
        "gd_level_up": "+{n}",
        "gd_short_single": "1", "gd_short_pair": "pair", "gd_short_triple": "trio", "gd_short_full_house": "full",
        "gd_short_straight": "str", "gd_short_tube": "tube", "gd_short_plate": "plat", "gd_short_bomb": "bomb",
        "gd_short_straight_flush": "s.fl", "gd_short_joker_bomb": "JJ",
    },
    es={
        "gd_title": "Guandan",
        "gd_seat_0": "Tú", "gd_seat_1": "Derecha", "gd_seat_2": "Compañero", "gd_seat_3": "Izquierda",
        "gd_setup": "Guandan",
        "gd_objective": "Con tu compañero, subid del 2 hasta pasar los Ases los primeros.",
        "gd_key_rules": "1 · Gana el 1.º sin cartas; se sube 3, 2 o 1 según su compañero.\n"
                        "2 · La carta de nivel gana al As; los dos ♥ del nivel son comodines.\n"
                        "3 · Se gana con el mismo tipo y tamaño, más alto, o con una bomba.\n"
                        "4 · La escalera es siempre de 5; As abajo o arriba; no hay K-A-2.\n"
                        "5 · Desde la 2.ª mano el último paga tributo; el 1.º devuelve 2–10.",
        "gd_aces": "Ases",
        "gd_aces_unlimited": "Obligatorio · torneo",
        "gd_aces_three": "3 fallos → al 2",
        "gd_start": "Empezar partida nueva",
        "gd_level_bar": "Nosotros {us} · Ellos {them} · se juega al {level}",
        "gd_fails": "fallos en Ases {us}/{them}",
        "gd_out": "fuera: JG {bj} · JP {sj} · comodín {wild} · nivel {level}",
        "gd_place": "{place}",
        "gd_place_1": "1.º", "gd_place_2": "2.º", "gd_place_3": "3.º", "gd_place_4": "último",
        "gd_pass": "Paso",
        "gd_passed": "paso",
        "gd_your_turn": "Te toca",
        "gd_lead": "Abres tú",
        "gd_to_play": "Juega {name}",
        "gd_taken": "llevas {n}",
        "gd_nothing": "Coge cartas: ↑/Espacio en una columna",
        "gd_not_a_play": "No es una jugada",
        "gd_does_not_beat": "{play}: no gana a la mesa",
        "gd_readings": "{n} formas de contarla: Intro para elegir",
        "gd_as": "como {cards}",
        "gd_single": "Carta suelta {key}", "gd_pair": "Pareja de {key}", "gd_triple": "Trío de {key}",
        "gd_full_house": "Full de {key}", "gd_straight": "Escalera {low}–{key}",
        "gd_straight_flush": "Escalera de color {low}–{key}", "gd_tube": "Escalera de parejas {low}–{key}",
        "gd_plate": "Escalera de tríos {low}–{key}", "gd_bomb": "Bomba de {count} {key}",
        "gd_joker_bomb": "Bomba de 4 jokers",
        "gd_choose_title": "Elige cómo contarla (★ la más fuerte)",
        "gd_hint": "Pista",
        "gd_clear": "Deshacer",
        "gd_sort": "Ordenar",
        "gd_sort_rank": "por valor", "gd_sort_play": "por jugada",
        "gd_play": "Tirar",
        "gd_take": "Coger",
        "gd_put_back": "Dejar",
        "gd_no_hint": "Nada gana a la mesa: paso.",
        "gd_tribute_you_pay": "Tributo: das tu carta más alta a {name}.",
        "gd_tribute_pick": "Elige qué {card} das (cartas iguales).",
        "gd_return_you": "Devuelve una carta a {name} (del 2 al 10, no la de nivel): la recomendada ya está elegida.",
        "gd_return": "Devolver",
        "gd_tribute": "Pagar tributo",
        "gd_tribute_line": "{payer} → {receiver}: {card}",
        "gd_anti": "No hay tributo: {names} tiene(n) los dos jokers grandes.",
        "gd_summary": "Mano {hand}",
        "gd_places": "Puestos",
        "gd_rise": "{team} +{n}",
        "gd_no_rise": "no sube (ya está en los Ases)",
        "gd_us": "Nosotros", "gd_them": "Ellos",
        "gd_levels_now": "Niveles: nosotros {us} · ellos {them}",
        "gd_failure": "Fallo en los Ases ({n})",
        "gd_match_us": "¡Tu compañero y tú pasáis los Ases y ganáis!",
        "gd_match_them": "Vuestros rivales pasan los Ases y ganan.",
        "gd_tribute_first": "Primero se paga el tributo.",
        "gd_bad_tribute": "El tributo es tu carta más alta (nunca el comodín).",
        "gd_return_first": "Primero se devuelve el tributo.",
        "gd_bad_return": "Devuelve una carta del 2 al 10 que no sea la de nivel (la más baja si no tienes).",
        "gd_no_pass_lead": "Abres tú: no puedes pasar.",
        "gd_play_or_pass": "Tira cartas o pasa.",
        "gd_not_in_hand": "No tienes todas esas cartas.",
        "gd_wrong_reading": "Esas cartas no se pueden contar así.",
        "gd_level_up": "+{n}",
        "gd_short_single": "1", "gd_short_pair": "par", "gd_short_triple": "trío", "gd_short_full_house": "full",
        "gd_short_straight": "esc", "gd_short_tube": "esc2", "gd_short_plate": "esc3", "gd_short_bomb": "bomb",
        "gd_short_straight_flush": "e.c.", "gd_short_joker_bomb": "JJ",
    },
)


def seat_name(seat: int) -> str:
    return t(f"gd_seat_{seat}")


def combo_name(combo: Combo) -> str:
    """«Pair of 9s», «Straight 5–9», «Bomb of four 7s» in the player's language."""
    key = combo.key_name() or ""
    if combo.type == "joker_bomb":
        return t("gd_joker_bomb")
    low = ""
    if combo.type in ("straight", "straight_flush", "tube", "plate"):
        span = {"straight": 4, "straight_flush": 4, "tube": 2, "plate": 1}[combo.type]
        bottom = combo.key - span
        low = rules.rank_name(rules.ACE if bottom == 1 else bottom)
    words = NUMBER_WORDS_ES if i18n.language() == "es" else NUMBER_WORDS_EN
    return t(f"gd_{combo.type}", key=key, low=low, count=words.get(combo.size, str(combo.size)))


def place_name(index: int) -> str:
    return t(f"gd_place_{index + 1}")


# ---------------------------------------------------------------- widgets
class LevelBar(Static):
    DEFAULT_CSS = "LevelBar { height: 3; padding: 0 1; background: $boost; }"

    def show(self, view: GuandanView, flash: str = "") -> None:
        out = view.still_out()
        text = Text()
        text.append(t("gd_level_bar", us=rules.rank_name(view.levels[0]), them=rules.rank_name(view.levels[1]),
                      level=rules.rank_name(view.level)), style="bold")
        if flash:
            text.append(f"  {flash}", style="bold green reverse")
        text.append(f" · {t('gd_fails', us=view.a_failures[0], them=view.a_failures[1])}")
        text.append("\n")
        text.append(t("gd_out", bj=out["BJ"], sj=out["SJ"], wild=out["wild"], level=out["level"]), style="dim")
        tribute = self._tribute_text(view)
        if tribute:
            text.append("\n")
            text.append_text(tribute)
        self.update(text)

    @staticmethod
    def _tribute_text(view: GuandanView) -> Text:
        if view.tribute == "anti":
            return Text(t("gd_anti", names=", ".join(seat_name(s) for s in view.anti_holders)), style="yellow")
        text = Text()
        for kind, giver, receiver, card in view.tribute_moves:
            if text:
                text.append(" ")
            text.append(f"{seat_name(giver)}→{seat_name(receiver)} ", style="yellow")
            text.append_text(card_text(card, width=0))
        return text


class SeatPanel(Static):
    DEFAULT_CSS = """
    SeatPanel { border: round $panel-lighten-2; padding: 0 1; height: 100%; }
    SeatPanel.to-move { border: round $accent; }
    SeatPanel.partner { border: round $success-darken-1; }
    SeatPanel.partner.to-move { border: round $accent; }
    """

    def show_seat(self, view: GuandanView, seat: int, style: str) -> None:
        self.border_title = seat_name(seat)
        self.set_class(view.to_move == seat, "to-move")
        self.set_class(seat == partner(HUMAN), "partner")
        text = Text(card_count(view.counts[seat]), style="bold" if 0 < view.counts[seat] <= 6 else "")
        if seat in view.finish:
            text.append(f" · {place_name(view.finish.index(seat))}", style="bold green")
        action = view.actions[seat]
        text.append("\n")
        if isinstance(action, Play):
            text.append_text(cards_text(action.cards, style, sep=""))
        elif isinstance(action, Pass):
            text.append(t("gd_passed"), style="dim italic")
        self.update(text)


class TableView(Static):
    DEFAULT_CSS = "TableView { height: 100%; content-align: center middle; text-align: center; }"

    def show_table(self, view: GuandanView, style: str, status: str) -> None:
        text = Text()
        if view.top is not None:
            text.append(f"{seat_name(view.top.seat)}: ", style="bold")
            text.append(combo_name(view.top.combo))
            text.append("\n")
            text.append_text(cards_text(view.top.cards, style))
            if view.top.combo.wilds_as:
                text.append("  ")
                text.append(t("gd_as", cards=" ".join(card_label(c, style) for c in view.top.combo.wilds_as)),
                            style="italic")
            text.append("\n")
        mine = view.actions[HUMAN]
        if isinstance(mine, Pass):
            text.append(f"{seat_name(HUMAN)}: {t('gd_passed')}\n", style="dim")
        elif isinstance(mine, Play) and (view.top is None or view.top.seat != HUMAN):
            text.append(f"{seat_name(HUMAN)}: ", style="dim")
            text.append_text(cards_text(mine.cards, style, sep=""))
            text.append("\n")
        text.append(status, style="bold")
        self.update(text)


class ColumnsView(Widget, can_focus=True):
    """Your cards in columns, one per rank (or one per group when sorted by play). A press takes one card
    of the column, the next another; once the column is all taken the next press empties it."""

    DEFAULT_CSS = "ColumnsView { height: 1fr; width: 100%; }"
    WIDTH = 5

    cursor: reactive[int] = reactive(0)
    revealed: reactive[int] = reactive(99)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.columns: list[list[Card]] = []
        self.taken: list[int] = []
        self.lit: set[int] = set()
        self.labels: list[str] = []
        self.style_name = "colour"

    def set_columns(self, columns: list[list[Card]], labels: list[str], style: str) -> None:
        if [list(c) for c in columns] != self.columns:
            self.columns = [list(c) for c in columns]
            self.labels = labels
            self.taken = [0] * len(columns)
            self.cursor = min(self.cursor, max(0, len(columns) - 1))
        self.style_name = style
        self.refresh()

    def selection(self) -> list[Card]:
        return [card for column, n in zip(self.columns, self.taken) for card in column[:n]]

    def select(self, cards: list[Card]) -> None:
        """Take exactly ``cards`` (a hint or a recommended return)."""
        wanted = Counter(cards)
        self.taken = [0] * len(self.columns)
        for i, column in enumerate(self.columns):
            # take the cards of this column that are wanted, moving them to the front
            chosen = []
            rest = []
            for card in column:
                if wanted[card] > 0:
                    wanted[card] -= 1
                    chosen.append(card)
                else:
                    rest.append(card)
            self.columns[i] = chosen + rest
            self.taken[i] = len(chosen)
        self.refresh()

    def press(self, index: int | None = None) -> None:
        i = self.cursor if index is None else index
        if not self.columns:
            return
        self.taken[i] = 0 if self.taken[i] >= len(self.columns[i]) else self.taken[i] + 1
        self.refresh()

    def put_back(self) -> None:
        if self.columns and self.taken[self.cursor]:
            self.taken[self.cursor] -= 1
            self.refresh()

    def clear(self) -> None:
        self.taken = [0] * len(self.columns)
        self.refresh()

    def _offset(self) -> int:
        return max(0, (self.size.width - self.WIDTH * len(self.columns)) // 2)

    def render(self) -> Text:
        if not self.columns:
            return Text("")
        height = max(len(c) for c in self.columns)
        pad = " " * self._offset()
        lines = [Text(pad) for _ in range(height + 2)]
        shown = 0
        for i, column in enumerate(self.columns):
            lit = not self.lit or i in self.lit
            label = f"{self.taken[i]}/{len(column)}" if self.taken[i] else self.labels[i]
            lines[0].append(label.center(self.WIDTH),
                            style=("reverse " if i == self.cursor and self.has_focus else "") +
                            ("bold" if lit else "grey42"))
            for row in range(height):
                if row < len(column) and shown < self.revealed:
                    shown += 1
                    card = column[row]
                    taken = row < self.taken[i]
                    cell = card_text(card, self.style_name, dim=not lit and not taken, selected=taken, width=3)
                    lines[row + 1].append(" ")
                    lines[row + 1].append_text(cell)
                    lines[row + 1].append(" ")
                else:
                    lines[row + 1].append(" " * self.WIDTH)
            lines[height + 1].append(((MARKER_ASCII if self.style_name == "ascii" else MARKER) if i == self.cursor else " ").center(self.WIDTH), style="bold")
        return Text("\n").join(lines)

    def on_click(self, event: events.Click) -> None:
        index = (event.x - self._offset()) // self.WIDTH
        if 0 <= index < len(self.columns):
            self.cursor = index
            self.press(index)
            self.screen.selection_changed()

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()


# ---------------------------------------------------------------- modal screens
class GuandanSetup(SetupDialog):
    """The start: the objective, a card with the five key rules, the Aces option."""

    TITLE_KEY = "gd_setup"
    START_KEY = "gd_start"
    DEFAULT_CSS = """
    GuandanSetup .dialog { width: 78; }
    GuandanSetup #gd-rules { border: round $primary; padding: 0 1; }
    """

    def fields(self):
        yield Static(t("gd_objective"))
        yield Static(t("gd_key_rules"), id="gd-rules")
        yield radio_row("gd_aces", "gd-aces", (("gd_aces_unlimited", "unlimited", True),
                                               ("gd_aces_three", "three_strikes", False)))

    def options(self) -> GuandanOptions:
        return GuandanOptions(aces=self.choice("gd-aces", "unlimited"))


class ChooserScreen(AnswerOnce):
    """The readings of a selection with wilds, strongest first (marked ★)."""

    BINDINGS = [Binding("escape", "cancel", "cancel")]
    DEFAULT_CSS = "ChooserScreen { align: center top; } ChooserScreen .dialog { width: 60; margin-top: 6; }"

    def __init__(self, readings: list[Combo], style: str) -> None:
        super().__init__()
        self.readings = readings
        self.style_name = style

    def compose(self) -> ComposeResult:
        options = []
        for i, combo in enumerate(self.readings):
            line = Text(f"{i + 1}. {combo_name(combo)}")
            if combo.wilds_as:
                line.append("  " + t("gd_as", cards=" ".join(card_label(c, self.style_name) for c in combo.wilds_as)),
                            style="italic")
            if i == 0:
                line.append("  ★", style="bold yellow")
            options.append(Option(line, id=str(i)))
        with Vertical(classes="dialog"):
            yield Label(t("gd_choose_title"), classes="dialog-title")
            yield OptionList(*options, id="gd-readings")

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    def on_key(self, event: events.Key) -> None:
        if event.character and event.character.isdigit():
            index = int(event.character) - 1
            if 0 <= index < len(self.readings):
                event.stop()
                self.dismiss(index)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(int(event.option.id))

    def action_cancel(self) -> None:
        self.dismiss(None)


class SummaryScreen(HandEndDialog):
    """The places and the levels after a hand."""

    DEFAULT_CSS = "SummaryScreen .dialog { width: 60; }"

    def __init__(self, record: dict, match_over: bool) -> None:
        super().__init__(t("gd_summary", hand=record["hand"]), match_over)
        self.record = record

    def body(self):
        record = self.record
        table = Table(expand=False, pad_edge=False)
        table.add_column(t("gd_places"))
        table.add_column("")
        finish = record["finish"]
        out = min(finish.index(partner(finish[0])) + 1, 3)     # players out when the hand ended
        for index, seat in enumerate(finish):
            table.add_row(place_name(index if index < out else 3), seat_name(seat))
        team = t("gd_us") if record["winner_team"] == 0 else t("gd_them")
        rise = t("gd_rise", team=team, n=record["level_up"]) if record["level_up"] else t("gd_no_rise")
        yield Static(table)
        yield Label(Text(rise, style="bold green" if record["winner_team"] == 0 else "bold red"))
        yield Label(t("gd_levels_now", us=record["levels"][0], them=record["levels"][1]))
        yield Label(t("gd_fails", us=record["a_failures"][0], them=record["a_failures"][1]))


class MatchEndScreen(MatchEndDialog):
    DEFAULT_CSS = "MatchEndScreen .dialog { width: 56; }"

    def body(self):
        us = self.record["winner_team"] == 0
        yield Label(Text(t("gd_match_us") if us else t("gd_match_them"), style="bold green" if us else "bold red"))


# ---------------------------------------------------------------- the table
class GuandanScreen(GameScreen):
    BINDINGS = [
        Binding("left", "cursor(-1)", "move_left", show=False),
        Binding("right", "cursor(1)", "move_right", show=False),
        Binding("up,space", "take", "gd_take", show=False),
        Binding("down", "put_back", "gd_put_back", show=False),
        Binding("enter", "play", "gd_play"),
        Binding("p", "pass", "gd_pass"),
        Binding("h", "hint", "gd_hint"),
        Binding("x,backspace", "clear", "gd_clear"),
        Binding("s", "sort", "gd_sort"),
        Binding("r", "rules", "rules", show=False),
        Binding("escape", "continue_later", "continue_later"),
        Binding("question_mark", "app.help", "help"),
    ]
    DEFAULT_CSS = """
    GuandanScreen #gd-top { height: 4; }
    GuandanScreen #gd-north { width: 1fr; }
    GuandanScreen #gd-middle { height: 6; }
    GuandanScreen #gd-west, GuandanScreen #gd-east { width: 22; }
    GuandanScreen #gd-table { width: 1fr; }
    GuandanScreen #gd-status { height: 1; padding: 0 1; }
    """

    TITLE_KEY = "gd_title"
    STATUS_ID = "gd-status"
    DEAL_STEP = 0.03

    @classmethod
    def setup_screen(cls) -> GuandanSetup:
        return GuandanSetup()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.sort_by_play = False
        self.hint_index = -1
        self.flash = ""
        self._chooser_open = False

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
        yield Static(id="gd-status")
        yield Footer()

    @property
    def columns(self) -> ColumnsView:
        return self.query_one(ColumnsView)

    def hand_widget(self) -> ColumnsView:
        return self.columns

    # -- flow
    def cpu_may_move(self) -> bool:
        return super().cpu_may_move() and not self._chooser_open

    def after_move(self, seat: int, move: Any, records: list[dict]) -> None:
        if seat == HUMAN:
            self.hint_index = -1
        for record in records:
            if record["type"] == "hand_end":
                self.flash = t("gd_level_up", n=record["level_up"]) if record["level_up"] else ""
        super().after_move(seat, move, records)

    def advance(self) -> None:
        if self.dealing:
            return
        if (self.pending_results is None and self.pending_match_end is None and self.match.to_move() == HUMAN
                and self.match.phase == "tribute"):
            self._prepare_tribute()
            return
        super().advance()

    def _prepare_tribute(self) -> None:
        legal = self.match.legal_moves()
        if isinstance(legal[0], Tribute):
            receiver = self.match.receiver_of[HUMAN]
            if len(legal) == 1:
                self.notify(t("gd_tribute_you_pay", name=seat_name(receiver)))
                self.play(legal[0], HUMAN)
                return
            self.columns.select([legal[0].card])
            self.set_status(t("gd_tribute_pick", card=card_label(legal[0].card, self.style_name)))
        else:
            payer = next(p for p, r in self.match.receiver_of.items() if r == HUMAN)
            self.columns.select([recommended_return(self.match.view(HUMAN)).card])
            self.set_status(t("gd_return_you", name=seat_name(payer)))

    def results_dialog(self, record: dict) -> SummaryScreen:
        return SummaryScreen(record, self.pending_match_end is not None)

    def match_end_dialog(self, record: dict) -> MatchEndScreen:
        return MatchEndScreen(record)

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
        return [columns[v] for v in ordered], [rules.rank_name(columns[v][0].rank) for v in ordered]

    def refresh_table(self) -> None:
        if not self.query(ColumnsView):
            return
        view = self.match.view(HUMAN)
        style = self.style_name
        self.query_one(LevelBar).show(view, self.flash)
        for seat, widget_id in ((3, "#gd-west"), (2, "#gd-north"), (1, "#gd-east")):
            self.query_one(widget_id, SeatPanel).show_seat(view, seat, style)
        columns, labels = self._column_groups(view)
        keep = self.columns.selection() if [list(c) for c in columns] == self.columns.columns else None
        self.columns.set_columns(columns, labels, style)
        if keep:
            self.columns.select(keep)
        self.columns.lit = self._lit_columns(view)
        turn = view.to_move
        if turn == HUMAN and view.phase == "play":
            message = t("gd_lead") if view.top is None else t("gd_your_turn")
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
        """The play control (Enter in the footer) names the selection: «Pair of 9s», «Straight 5–9»;
        during the tribute it says «Return» (or «Pay tribute»)."""
        label = t("gd_play")
        if view.phase == "tribute" and view.to_move == HUMAN:
            label = t("gd_return") if isinstance(view.legal[0], Return) else t("gd_tribute")
        elif view.to_move == HUMAN:
            beating = self._beating_readings()
            if len(beating) == 1:
                label = combo_name(beating[0])
        self._bindings.key_to_bindings["enter"] = [
            dataclasses.replace(binding, description=label) for binding in self._bindings.key_to_bindings["enter"]]

    def _beating_readings(self) -> list[Combo]:
        cards = self.columns.selection()
        if not cards:
            return []
        readings = rules.classify(cards, self.match.level, self.match.options.straight_flush_as_straight)
        top = self.match.top.combo if self.match.top else None
        return [c for c in readings if rules.beats(c, top, self.match.level)]

    def _lit_columns(self, view: GuandanView) -> set[int]:
        """When answering, the columns that can be part of a beating play."""
        if view.to_move != HUMAN or view.top is None or view.phase != "play":
            return set()
        cards = rules.usable_cards(view.hand, view.level, view.top.combo, view.options.straight_flush_as_straight)
        lit = {i for i, column in enumerate(self.columns.columns) if any(c in cards for c in column)}
        return lit or {-1}

    def selection_changed(self, refresh: bool = True) -> None:
        """Name the selection in the status line and on the play control, or say why it is not a play."""
        self.set_status(self._describe_selection())
        if refresh:
            self._label_enter(self.match.view(HUMAN))
            self.refresh_bindings()

    def _describe_selection(self) -> str:
        if self.match.to_move() == HUMAN and self.match.phase == "tribute":
            return self.status
        cards = self.columns.selection()
        if not cards:
            if self.match.to_move() != HUMAN:
                return ""
            if self.match.top is not None and not any(isinstance(m, Play) for m in self.match.legal_moves()):
                return t("gd_no_hint")
            return t("gd_nothing")
        readings = rules.classify(cards, self.match.level, self.match.options.straight_flush_as_straight)
        if not readings:
            return t("gd_not_a_play")
        top = self.match.top.combo if self.match.top else None
        beating = [c for c in readings if rules.beats(c, top, self.match.level)]
        if not beating:
            return t("gd_does_not_beat", play=combo_name(readings[0]))
        if len(beating) > 1:
            return " / ".join(combo_name(c) for c in beating) + " — " + t("gd_readings", n=len(beating))
        combo = beating[0]
        text = combo_name(combo)
        if combo.wilds_as:
            text += "  " + t("gd_as", cards=" ".join(card_label(c, self.style_name) for c in combo.wilds_as))
        return text

    def reason(self, exc: Any) -> str:
        text = t(exc.key, **exc.params)
        return exc.reason if text == exc.key else text

    # -- actions
    def check_action(self, action: str, parameters: tuple) -> bool | None:
        mine = self.match.to_move() == HUMAN and not self.dealing
        if action in ("play", "hint", "clear", "take", "put_back", "cursor"):
            return mine
        if action == "pass":
            return mine and self.match.phase == "play" and self.match.top is not None
        return True

    def action_cursor(self, step: int) -> None:
        columns = self.columns
        if columns.columns:
            columns.cursor = (columns.cursor + step) % len(columns.columns)

    def action_take(self) -> None:
        self.columns.press()
        self.selection_changed()

    def action_put_back(self) -> None:
        self.columns.put_back()
        self.selection_changed()

    def action_clear(self) -> None:
        self.columns.clear()
        self.hint_index = -1
        self.selection_changed()

    def action_sort(self) -> None:
        self.sort_by_play = not self.sort_by_play
        self.notify(t("gd_sort_play") if self.sort_by_play else t("gd_sort_rank"))
        self.refresh_table()

    def action_pass(self) -> None:
        if self.play(Pass(), HUMAN):
            self.columns.clear()

    def action_hint(self) -> None:
        """Propose plays from the cheapest to the dearest, one per press."""
        plays = [m for m in self.match.legal_moves() if isinstance(m, Play)]
        if not plays:
            self.set_status(t("gd_no_hint"))
            return
        level = self.match.level

        def cost(move: Play) -> tuple:
            combo = rules.classify(move.cards, level, self.match.options.straight_flush_as_straight)
            combo = next(c for c in combo if c.type == move.type and c.key == move.key)
            return (combo.is_bomb, rules.rung(combo) if combo.is_bomb else 0, rules.strength(combo, level),
                    -len(move.cards))

        plays.sort(key=cost)
        suggestion = NormalBot().choose(self.match.view(HUMAN))
        if self.hint_index < 0 and isinstance(suggestion, Play) and suggestion in plays:
            plays.remove(suggestion)
            plays.insert(0, suggestion)
        self.hint_index = (self.hint_index + 1) % len(plays)
        self.columns.select(list(plays[self.hint_index].cards))
        self.selection_changed()

    def action_play(self) -> None:
        if self.match.to_move() != HUMAN:
            return
        cards = self.columns.selection()
        if self.match.phase == "tribute":
            legal = self.match.legal_moves()
            kind = type(legal[0])
            if len(cards) == 1 and kind(cards[0]) in legal:
                self.play(kind(cards[0]), HUMAN)
                self.columns.clear()
            else:
                self.set_status(t("gd_bad_tribute") if kind is Tribute else t("gd_bad_return"))
            return
        if not cards:
            self.set_status(t("gd_nothing"))
            return
        readings = rules.classify(cards, self.match.level, self.match.options.straight_flush_as_straight)
        top = self.match.top.combo if self.match.top else None
        beating = [c for c in readings if rules.beats(c, top, self.match.level)]
        if len(beating) > 1:
            self._chooser_open = True
            self.app.push_screen(ChooserScreen(beating, self.style_name),
                                 callback=lambda index: self._chosen(cards, beating, index))
            return
        combo = beating[0] if beating else (readings[0] if readings else Combo("single", None, len(cards)))
        self._play_cards(cards, combo)

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
