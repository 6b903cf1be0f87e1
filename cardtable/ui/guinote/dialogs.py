"""The Guiñote dialogs: setup, the claim, the 7 exchange, the hand summary, the match end and the last
trick."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Checkbox, Input, Label, Static

from cardtable.cards import SpanishCard
from cardtable.games.guinote import rules
from cardtable.games.guinote.state import GuinoteOptions, GuinoteView
from cardtable.i18n import t
from cardtable.tricks import team_of
from cardtable.ui import cells
from cardtable.ui.cardart import spanish_text
from cardtable.ui.dialogs import HandEndDialog, LastTrickDialog, MatchEndDialog, SetupDialog, radio_row
from cardtable.ui.gamescreen import HUMAN
from cardtable.ui.guard import AnswerOnce
from cardtable.ui.guinote.text import (
    card_name,
    seat_name,
    the_card,
)
from cardtable.ui.toggles import TickBox


# ---------------------------------------------------------------- modal screens
class GuinoteSetup(SetupDialog):
    """Before the deal: cotos and the hands (partidas) to a coto, how a hand de vueltas ends, cantes per
    trick, and the two house rules (las últimas in the 30 rule, the exchange for any pinta)."""

    TITLE_KEY = "gn_setup"
    START_KEY = "gn_deal"
    DEFAULT_CSS = """
    GuinoteSetup .dialog { width: 76; }
    GuinoteSetup .form-help { width: 1fr; color: $text-muted; margin-left: 1; }
    """
    MAX_PARTIDAS = 99                    # GuinoteOptions.points_per_coto's range

    def fields(self):
        yield radio_row("gn_cotos", "gn-cotos", (("gn_one_coto", "1", False), ("gn_two_cotos", "2", True)))
        partidas = Input(str(GuinoteOptions().points_per_coto), id="gn-partidas", restrict=r"[0-9]*", max_length=2)
        partidas.styles.width = 6        # inline: the shared «.dialog Input» rule makes inputs 1fr
        yield Horizontal(Label(t("gn_partidas"), classes="form-label"), partidas,
                         Label(t("gn_partidas_help"), classes="form-help"), classes="form-row")
        yield radio_row("gn_vueltas", "gn-vueltas", (("gn_vueltas_claim", "claim", True),
                                                     ("gn_vueltas_auto", "auto", False)))
        yield radio_row("gn_cantes", "gn-cantes", (("gn_cantes_unlimited", "unlimited", True),
                                                   ("gn_cantes_one", "one_per_player", False)))
        yield TickBox(t("gn_thirty_ultimas"), value=GuinoteOptions().thirty_includes_ultimas, id="gn-thirty")
        yield TickBox(t("gn_any_pinta"), value=GuinoteOptions().exchange_any_pinta, id="gn-any-pinta")

    def partidas(self) -> int | None:
        """The hands to win a coto, or None when the box holds no number in range."""
        raw = self.query_one("#gn-partidas", Input).value.strip()
        return int(raw) if raw.isdigit() and 1 <= int(raw) <= self.MAX_PARTIDAS else None

    def action_start(self) -> None:
        if self.partidas() is None:      # «0» (or nothing) is no match length: say so, start nothing
            self.notify(t("gn_partidas_bad", most=self.MAX_PARTIDAS), severity="error")
            self.query_one("#gn-partidas", Input).focus()
            return
        super().action_start()

    def options(self) -> GuinoteOptions:
        return GuinoteOptions(cotos=int(self.choice("gn-cotos", "2")), vueltas_end=self.choice("gn-vueltas", "claim"),
                              cantes_per_win=self.choice("gn-cantes", "unlimited"),
                              points_per_coto=self.partidas() or GuinoteOptions().points_per_coto,
                              thirty_includes_ultimas=self.query_one("#gn-thirty", Checkbox).value,
                              exchange_any_pinta=self.query_one("#gn-any-pinta", Checkbox).value)


class ClaimScreen(AnswerOnce):
    """Asked de vueltas after a trick the pair won: announce that the pair has passed 100, or play on.
    «Play on», the safe step forward, has the focus (and so the highlight) from the first frame. It sits
    at the top, over the north seat and the pinta: the trick just won, the score and the hand stay in
    sight, and `l` shows the last trick. The yes key is the language's («s» for «sí»)."""

    AUTO_FOCUS = "#no"
    BINDINGS = [Binding("n,escape", "answer(False)", "gn_claim_no"), Binding("l", "last_trick", "last_trick")]
    # Its place and size are in app.tcss («The exchange of the 7 and the claim»).

    def __init__(self, view: GuinoteView, count_help: bool = False, style: str = "unicode") -> None:
        super().__init__()
        self.view_ = view
        self.count_help = count_help
        self.style = style

    def adjust_bindings(self) -> None:
        self._bindings.bind(t("key_yes"), "answer(True)", t("gn_claim_yes"))

    def compose(self) -> ComposeResult:
        view, pair = self.view_, team_of(self.view_.seat)
        with Vertical(classes="dialog"):
            yield Label(t("gn_claim_title"), classes="dialog-title")
            text = t("gn_claim_text")
            if self.count_help:
                text = t("gn_claim_count", total=view.total(pair), cards=view.card_points[pair],
                         cantes=view.cante_points(pair), carry=view.carry[pair]) + " " + text
            yield Static(text)
            with Horizontal(classes="dialog-buttons"):
                yield Button(t("gn_claim_no"), id="no", compact=True)
                yield Button(t("gn_claim_yes"), id="yes", compact=True)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")

    def action_answer(self, value: bool) -> None:
        self.dismiss(value)

    def action_last_trick(self) -> None:
        self.app.push_screen(last_trick_dialog(self.view_, self.style))


class ExchangeScreen(AnswerOnce):
    """Asked before the draw when the human holds the 7 of trumps and the pair has just won a trick:
    exchange it for the pinta or keep it. «Exchange» (what the hint and the CPU do) has the focus."""

    BINDINGS = [Binding("p,y", "answer(True)", "gn_exchange_yes"),
                Binding("k,n", "answer(False)", "gn_exchange_no"),
                Binding("escape", "answer(None)", "gn_exchange_later")]
    AUTO_FOCUS = "#yes"
    # Its place and size are in app.tcss («The exchange of the 7»): they must win over the dialogs' own.

    def __init__(self, view: GuinoteView) -> None:
        super().__init__()
        self.view_ = view

    def compose(self) -> ComposeResult:
        view = self.view_
        with Vertical(classes="dialog"):
            yield Label(t("gn_exchange_title"), classes="dialog-title")
            yield Static(t("gn_exchange_text", seven=card_name(SpanishCard(rules.SEVEN, view.trump)),
                           pinta=the_card(view.pinta)))
            with Horizontal(classes="dialog-buttons"):
                yield Button(t("gn_exchange_no"), id="no", compact=True)
                yield Button(t("gn_exchange_yes"), id="yes", compact=True)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")

    def action_answer(self, value: bool | None) -> None:
        self.dismiss(value)


def summary_rows(record: dict, deal: dict) -> list[tuple[str, ...]]:
    """The rows of the hand's table as (label key, us, them), adding up to the total: las últimas
    (already in the record's card points) get a row of their own, where they count."""
    ultimas = [rules.ULTIMAS if record["ultimas"] == p else 0 for p in (0, 1)]
    rows = [("gn_row_cards", *(str(p - u) for p, u in zip(record["points"], ultimas, strict=True)))]
    if record["ultimas"] is not None:
        rows.append(("gn_row_ultimas", *(f"+{u}" if u else "" for u in ultimas)))
    rows.append(("gn_row_cantes", *(str(c) for c in record["cantes"])))
    if deal["vueltas"]:
        rows.append(("gn_row_carry", *(str(c) for c in deal["carry"])))
    rows.append(("gn_row_total", *(str(v) for v in record["totals"])))
    return rows


class SummaryScreen(HandEndDialog):
    """The end of a hand: who won and why, points of each pair, partidas and cotos."""

    DEFAULT_CSS = "SummaryScreen .dialog { width: 66; }"

    def __init__(self, record: dict, deal: dict, options: GuinoteOptions, match_over: bool) -> None:
        title = t("gn_summary", hand=record["hand"]) + (f" · {t('gn_de_vueltas')}" if deal["vueltas"] else "")
        super().__init__(title, match_over)
        self.record = record
        self.deal = deal
        self.options = options

    def body(self):
        record = self.record
        reason = rules.hand_reason(record, self.options.thirty_includes_ultimas, self.deal["vueltas"])
        if record["winner"] is None:
            headline = Text(t("gn_no_winner"), style="bold yellow")
        else:
            headline = Text(t("gn_winner_us") if record["winner"] == 0 else t("gn_winner_them"),
                            style="bold green" if record["winner"] == 0 else "bold red")
            if reason.startswith("claim_"):
                reason += "_us" if record["claim"]["pair"] == team_of(HUMAN) else "_them"
            headline.append(f" — {t('gn_reason_' + reason)}", style="")
        table = Table(expand=False, pad_edge=False)
        table.add_column("")
        table.add_column(t("gn_us"), justify="right")
        table.add_column(t("gn_them"), justify="right")
        rows = summary_rows(record, self.deal)
        for key, us, them in rows[:-1]:
            table.add_row(t(key), us, them)
        key, us, them = rows[-1]
        table.add_row(Text(t(key), style="bold"), Text(us, style="bold"), Text(them, style="bold"))
        yield Static(headline)
        yield Static(table)
        yield Label(t("gn_score", us=record["score"][0], them=record["score"][1], cu=record["cotos"][0],
                      ct=record["cotos"][1]))


class MatchEndScreen(MatchEndDialog):
    DEFAULT_CSS = "MatchEndScreen .dialog { width: 56; }"

    def body(self):
        us = self.record["winner"] == 0
        yield Label(Text(t("gn_match_us") if us else t("gn_match_them"), style="bold green" if us else "bold red"))
        yield Label(f"cotos {self.record['cotos'][0]}–{self.record['cotos'][1]}")


def last_trick_dialog(view: GuinoteView, style: str) -> LastTrickDialog:
    if not view.tricks:
        return LastTrickDialog([], None)
    lines = [Text(cells.ljust(seat_name(seat), 11)) + spanish_text(card, style, width=2) + Text(f"  {card_name(card)}")
             for seat, card in view.tricks[-1]]
    winner = view.winners[-1]
    return LastTrickDialog(lines, t("gn_you_take") if winner == HUMAN else t("gn_takes", name=seat_name(winner)))
