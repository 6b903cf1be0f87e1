"""The Guiñote table: setup, pinta and stock, cantes and the 7 exchange (pre-armable), arrastre,
claims in a hand de vueltas, the end-of-hand summary and the match end."""

from __future__ import annotations

from typing import Any

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Header, Label, Static

from cardtable.cards import SpanishCard, parse_spanish_card
from cardtable.games.guinote import rules
from cardtable.games.guinote.state import Cante, Claim, Exchange, GuinoteOptions, GuinoteView, KeepSeven, Play
from cardtable.i18n import card_count, t
from cardtable.tricks import team_of
from cardtable.ui import cells
from cardtable.ui.cardart import spanish_colour, spanish_text
from cardtable.ui.dialogs import HandEndDialog, LastTrickDialog, MatchEndDialog, SetupDialog, radio_row
from cardtable.ui.footer import Footer
from cardtable.ui.gamescreen import HUMAN, AdviceLine, GameScreen
from cardtable.ui.guard import AnswerOnce
from cardtable.ui.widgets import HandView, TrickView

SUITS = "OCEB"
RANK_NAMES = {1: "As", 10: "Sota", 11: "Caballo", 12: "Rey"}

# This module's UI strings are in cardtable/locales/<lang>.toml (en, es, zh).


def seat_name(seat: int) -> str:
    return t(f"gn_seat_{seat}")


def taken_by(seat: int) -> str:
    """Who drew the pinta in the last round: «la robaste tú» / «la robó Izquierda» (each seat sentence has
    its own key for you: its own grammar)."""
    return t("gn_taken_by_you") if seat == HUMAN else t("gn_taken_by", name=seat_name(seat))


def exchanged(seat: int) -> str:
    return t("gn_exchanged_you") if seat == HUMAN else t("gn_exchanged", name=seat_name(seat))


def exchange_news(seat: int, card: SpanishCard) -> str:
    """«Cambiaste el 7 por la Sota de oros» / «Derecha cambió el 7 por el As de copas»."""
    if seat == HUMAN:
        return t("gn_exchange_news_you", card=the_card(card))
    return t("gn_exchange_news", name=seat_name(seat), card=the_card(card))


def cante_sentence(seat: int, points: int, suit: str | None) -> str:
    """«Left sings 20 in copas», «You sing 40», «Izquierda canta las 20 en copas» (a hidden 20 has no suit;
    a 40 needs none: there is one trump)."""
    where = t("gn_sang_suit", suit=suit_name(suit)) if suit is not None and points == 20 else ""
    if seat == HUMAN:
        return t("gn_sang_you", points=points, suit=where)
    return t("gn_sang", name=seat_name(seat), points=points, suit=where)


def exchange_block_reason(view: GuinoteView) -> str | None:
    """Why the exchange of the 7 can never happen again in this hand (so arming it is refused), or None."""
    if view.exchange is not None:
        return t("gn_arm_done")
    if view.pinta_taker is not None:
        return t("gn_arm_drawn")
    if view.pinta.rank == rules.SEVEN:
        return t("gn_arm_seven")
    if not rules.exchange_allowed(view.pinta, view.options.exchange_any_pinta):
        return t("gn_arm_not_counting", card=card_name(view.pinta))
    if SpanishCard(rules.SEVEN, view.trump) in view.played:
        return t("gn_arm_played")
    return None


def suit_name(suit: str) -> str:
    return t(f"gn_suit_{suit}")


def card_name(card: SpanishCard) -> str:
    return t("gn_card", rank=RANK_NAMES.get(card.rank, str(card.rank)), suit=suit_name(card.suit))


def the_card(card: SpanishCard, to: bool = False) -> str:
    """The card's name with its article: «la Sota de oros», «el 7 de copas»; with ``to``, «a la Sota»,
    «al 7» (the Sota is the one feminine name)."""
    name = card_name(card)
    if card.rank == rules.SOTA:
        return t("gn_to_the_f", card=name) if to else t("gn_the_f", card=name)
    return t("gn_to_the", card=name) if to else t("gn_the", card=name)


def suit_text(suit: str) -> Text:
    return Text(suit_name(suit), style=f"bold {spanish_colour(suit)}")


def cantes_text(view: GuinoteView, seat: int, revealed: bool) -> Text:
    text = Text()
    for cante in view.cantes:
        if cante.seat != seat:
            continue
        if text:
            text.append(" ")
        hidden = cante.suit is None or (team_of(cante.seat) == team_of(view.seat) and cante.seat != view.seat
                                        and cante.points == 20 and cante.trick > rules.PHASE1_TRICKS
                                        and not revealed)
        if hidden:
            text.append(t("gn_hidden"), style="bold")
        else:
            text.append(f"{cante.points} ", style="bold")
            text.append_text(suit_text(cante.suit))
    return text


# ---------------------------------------------------------------- widgets
class SeatPanel(Static):
    DEFAULT_CSS = """
    SeatPanel { border: round $panel-lighten-2; padding: 0 1; height: 100%; }
    SeatPanel.to-move { border: round $accent; }
    SeatPanel.partner { border: round $success-darken-1; }
    SeatPanel.partner.to-move { border: round $accent; }
    """

    def show_seat(self, view: GuinoteView, seat: int, count: int, revealed: bool) -> None:
        self.border_title = seat_name(seat)
        self.set_class(view.to_move == seat, "to-move")
        self.set_class(seat == 2, "partner")
        body = Text(card_count(count))
        won = sum(1 for w in view.winners if w == seat)
        if won:
            body.append(f" · {won} ✓")
        sung = cantes_text(view, seat, revealed)
        if sung:
            body.append("\n")
            body.append_text(sung)
        if view.pinta_taker == seat:
            body.append(f"\n{t('gn_pinta')} ✓", style="dim")
        self.update(body)


class TablePanel(Static):
    """The pinta by the stock, the trump suit and the count of cards left."""

    DEFAULT_CSS = "TablePanel { border: round $warning-darken-2; padding: 0 1; height: 100%; width: 30; }"

    def show_table(self, view: GuinoteView, style: str, armed: bool) -> None:
        self.border_title = t("gn_pinta")
        body = Text()
        body.append_text(spanish_text(view.pinta, style, width=2, dim=view.pinta_taker is not None))
        body.append(f"  {card_name(view.pinta)}\n")
        body.append(t("gn_trump", suit="") )
        body.append_text(suit_text(view.trump))
        body.append(f"  {t('gn_stock', n=view.stock_count)}")
        if view.pinta_taker is not None:
            body.append(f"\n{taken_by(view.pinta_taker)}", style="dim")
        elif view.exchange is not None:
            body.append(f"\n{exchanged(view.exchange[0])}", style="dim")
        elif armed:
            body.append(f"\n{t('gn_exchange_key')} · {t('gn_armed')}", style="bold reverse")
        self.update(body)


def show_trick(widget: TrickView, view: GuinoteView, style: str, status: str, news: list[str] | None = None) -> None:
    """The current trick, or the last one with who took it; then the announcements since that trick
    (cantes, the exchange) and whose turn it is."""
    trick, winner = view.trick, None
    if not trick and view.tricks:
        trick, winner = view.tricks[-1], view.winners[-1]
    cards = dict(trick)
    top = trick[rules.winner_index(trick, view.trump)][0] if trick else None

    def slot(seat: int) -> Text:
        if seat not in cards:
            return Text(" ." if style == "ascii" else " ·", style="grey30")
        return spanish_text(cards[seat], style, selected=seat == top and winner is not None, width=2)

    def name(seat: int) -> str:
        """Seat names; yours carries your own cantes (your plate: the others' are on their panels)."""
        if seat != HUMAN:
            return seat_name(seat)
        mine = cantes_text(view, HUMAN, True)
        return f"{seat_name(seat)} · {mine.plain}" if mine else seat_name(seat)

    taker = None if winner is None else t("gn_you_take") if winner == HUMAN else t("gn_takes", name=seat_name(winner))
    if news:
        status = "\n".join([*news[-2:], status])    # the latest two fit the cross at 80×24
    widget.show_cross(slot, name, left=3, right=1, taker=taker, status=status)


# ---------------------------------------------------------------- modal screens
class GuinoteSetup(SetupDialog):
    TITLE_KEY = "gn_setup"
    START_KEY = "gn_deal"
    DEFAULT_CSS = "GuinoteSetup .dialog { width: 76; }"

    def fields(self):
        yield radio_row("gn_cotos", "gn-cotos", (("gn_one_coto", "1", False), ("gn_two_cotos", "2", True)))
        yield radio_row("gn_vueltas", "gn-vueltas", (("gn_vueltas_claim", "claim", True),
                                                     ("gn_vueltas_auto", "auto", False)))
        yield radio_row("gn_cantes", "gn-cantes", (("gn_cantes_unlimited", "unlimited", True),
                                                   ("gn_cantes_one", "one_per_player", False)))

    def options(self) -> GuinoteOptions:
        return GuinoteOptions(cotos=int(self.choice("gn-cotos", "2")), vueltas_end=self.choice("gn-vueltas", "claim"),
                              cantes_per_win=self.choice("gn-cantes", "unlimited"))


class ClaimScreen(AnswerOnce):
    BINDINGS = [Binding("y", "answer(True)", "gn_claim_yes"), Binding("n,escape", "answer(False)", "gn_claim_no")]
    DEFAULT_CSS = "ClaimScreen { align: center top; } ClaimScreen .dialog { width: 64; margin-top: 4; }"

    def __init__(self, view: GuinoteView, count_help: bool = False) -> None:
        super().__init__()
        self.view_ = view
        self.count_help = count_help

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
                yield Button(t("gn_claim_no"), id="no")
                yield Button(t("gn_claim_yes"), id="yes", variant="warning")

    def on_mount(self) -> None:
        self.query_one("#no", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")

    def action_answer(self, value: bool) -> None:
        self.dismiss(value)


class ExchangeScreen(AnswerOnce):
    """Asked before the draw when the human holds the 7 of trumps and the pair has just won a trick:
    exchange it for the pinta or keep it. «Exchange» (what the hint and the CPU do) has the focus."""

    BINDINGS = [Binding("y,p", "answer(True)", "gn_exchange_yes"),
                Binding("n,k", "answer(False)", "gn_exchange_no"),
                Binding("escape", "answer(None)", "gn_exchange_later")]
    DEFAULT_CSS = "ExchangeScreen { align: center top; } ExchangeScreen .dialog { width: 64; margin-top: 4; }"

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
                yield Button(t("gn_exchange_no"), id="no")
                yield Button(t("gn_exchange_yes"), id="yes", variant="primary")

    def on_mount(self) -> None:
        self.query_one("#yes", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")

    def action_answer(self, value: bool | None) -> None:
        self.dismiss(value)


def summary_rows(record: dict, deal: dict) -> list[tuple[str, str, str]]:
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


# ---------------------------------------------------------------- the table
class GuinoteScreen(GameScreen):
    BINDINGS = [
        Binding("left", "move(-1)", "move_left", show=False),
        Binding("right", "move(1)", "move_right", show=False),
        Binding("up", "lift", "lift", show=False),
        Binding("down", "lower", "lower", show=False),
        Binding("enter,space", "choose", "gn_play"),
        Binding("p", "pinta", "gn_pinta_key"),
        Binding("k", "keep_seven", "gn_exchange_no"),
        Binding("o", "cante('O')", "sing_O", show=False),
        Binding("c", "cante('C')", "sing_C", show=False),
        Binding("e", "cante('E')", "sing_E", show=False),
        Binding("b", "cante('B')", "sing_B", show=False),
        Binding("v", "reveal", "gn_reveal", show=False),
        Binding("l", "last_trick", "last_trick"),
        Binding("h", "hint", "hint"),
        Binding("r", "rules", "rules", show=False),
        Binding("escape", "continue_later", "continue_later"),
        Binding("question_mark", "app.help", "help"),
    ]
    DEFAULT_CSS = """
    GuinoteScreen #gn-top { height: 5; }
    GuinoteScreen #gn-north { width: 1fr; }
    GuinoteScreen #gn-middle { height: 1fr; }
    GuinoteScreen #gn-west, GuinoteScreen #gn-east { width: 20; }
    GuinoteScreen #gn-trick { width: 1fr; }
    GuinoteScreen #gn-score { height: auto; padding: 0 1; }
    GuinoteScreen #gn-status { height: 1; padding: 0 1; color: $warning; }
    """

    TITLE_KEY = "gn_title"
    STATUS_ID = "gn-status"

    @classmethod
    def setup_screen(cls) -> GuinoteSetup:
        return GuinoteSetup()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.armed_exchange = False
        self.armed_cantes: set[str] = set()
        self.revealed = False
        self.claim_open = False
        self._claim_asked: tuple[int, int] | None = None
        self.exchange_open = False
        self._exchange_asked: tuple[int, int] | None = None
        self.news: list[str] = []       # announcements since the last trick, shown in the trick area

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="gn-top"):
            yield SeatPanel(id="gn-north")
            yield TablePanel(id="gn-table")
        with Horizontal(id="gn-middle"):
            yield SeatPanel(id="gn-west")
            yield TrickView(id="gn-trick")
            yield SeatPanel(id="gn-east")
        yield Static(id="gn-score")
        yield HandView(spanish_text, id="gn-hand")
        yield Static(id="gn-status")
        yield AdviceLine(id="advice")
        yield Footer()

    def hand_widget(self) -> HandView:
        return self.query_one(HandView)

    # -- flow
    def cpu_may_move(self) -> bool:
        return super().cpu_may_move() and not (self.claim_open or self._should_ask_claim() or self.exchange_open
                                                or self._should_ask_exchange())

    def armed_move(self) -> Any:
        legal = self.match.legal_moves(HUMAN) if HUMAN in self.match.optional_movers() or \
            self.match.to_move() == HUMAN else []
        if self.armed_exchange:
            for move in legal:
                if isinstance(move, Exchange):
                    return move
        for move in legal:
            if isinstance(move, Cante) and move.suit in self.armed_cantes:
                return move
        return None

    def after_move(self, seat: int, move: Any, records: list[dict]) -> None:
        if seat == HUMAN:
            self.set_status("")
        new_deal = any(record["type"] == "deal" for record in records)
        if isinstance(move, Exchange) and seat == HUMAN:
            self.armed_exchange = False
        if isinstance(move, Exchange) and not new_deal:
            self.news.append(exchange_news(seat, self.match.exchange[1]))
        if isinstance(move, Cante):
            self.armed_cantes.discard(move.suit)
            if not new_deal:
                sung = self.match.view(HUMAN).cantes[-1]
                self.news.append(cante_sentence(seat, sung.points, sung.suit))
        if isinstance(move, Play) and not self.match.trick:
            self.news = []                   # a trick is complete: the news were about the one before
        if new_deal:
            self.armed_exchange = False
            self.armed_cantes.clear()
            self.revealed = False
            self.news = []
        if self.armed_exchange and exchange_block_reason(self.match.view(HUMAN)) is not None:
            self.armed_exchange = False      # it can no longer happen (another seat exchanged, the 7 played…)
        super().after_move(seat, move, records)

    def advance(self) -> None:
        if self.pending_results is not None or self.pending_match_end is not None or self.dealing:
            super().advance()
            return
        if self._should_ask_exchange():
            self.exchange_open = True
            self.app.push_screen(ExchangeScreen(self.match.view(HUMAN)), callback=self._exchange_answered)
            return
        if self._should_ask_claim():
            self.claim_open = True
            self._claim_asked = (self.match.hand, len(self.match.tricks))
            self.app.push_screen(ClaimScreen(self.match.view(HUMAN), self.count_help), callback=self._claimed)
            return
        armed = self.armed_move()
        if armed is not None:
            self.play(armed, HUMAN)
            return
        super().advance()

    def _should_ask_exchange(self) -> bool:
        """The human holds the 7 and decides before the draw, and has not armed the exchange."""
        return (self.match.pending_draw is not None and self.match.exchange_seat == HUMAN
                and not self.armed_exchange and not self.exchange_open
                and self._exchange_asked != (self.match.hand, len(self.match.tricks)))

    def _exchange_answered(self, exchange: bool | None) -> None:
        """Exchange, keep, or (Escape) decide later on the table with p or k."""
        self.exchange_open = False
        self._exchange_asked = (self.match.hand, len(self.match.tricks))
        seven = SpanishCard(rules.SEVEN, self.match.trump)
        if exchange is not None and self.match.exchange_seat == HUMAN and self.match.pending_draw is not None:
            self.play(Exchange(seven) if exchange else KeepSeven(seven), HUMAN)
        else:
            self.refresh_table()
            self.advance()

    def _should_ask_claim(self) -> bool:
        if self.match.window_pair != team_of(HUMAN) or Claim() not in self.match.legal_moves(HUMAN):
            return False
        return self._claim_asked != (self.match.hand, len(self.match.tricks))

    def _claimed(self, claim: bool | None) -> None:
        self.claim_open = False
        if claim:
            self.play(Claim(), HUMAN)
        else:
            self.refresh_table()
            self.advance()

    def results_dialog(self, record: dict) -> SummaryScreen:
        deal = next(r for r in reversed(self.match.log) if r["type"] == "deal" and r["hand"] == record["hand"])
        return SummaryScreen(record, deal, self.match.options, self.pending_match_end is not None)

    def match_end_dialog(self, record: dict) -> MatchEndScreen:
        return MatchEndScreen(record)

    # -- rendering
    def refresh_table(self) -> None:
        if not self.query(HandView):
            return
        view = self.fresh_view()
        style = self.style_name
        for seat, widget_id in ((3, "#gn-west"), (2, "#gn-north"), (1, "#gn-east")):
            self.query_one(widget_id, SeatPanel).show_seat(view, seat, view.counts[seat], self.revealed)
        self.query_one(TablePanel).show_table(view, style, self.armed_exchange)
        self.query_one("#gn-score", Static).update(self._score_text(view))
        hand = self.query_one(HandView)
        playable = frozenset(m.card for m in view.legal if isinstance(m, Play))
        was_playable = hand.playable
        hand.set_cards(view.hand, playable, style)
        if playable and not was_playable:
            if hand.current not in playable:
                hand.cursor = next(i for i, c in enumerate(hand.cards) if c in playable)
            if not self.status:
                self.status = card_name(hand.current)     # the full name of the card under the cursor
        turn = view.to_move
        if self.dealing:
            message = t("dealing")
        elif view.deciding is not None:
            message = t("gn_deciding_you") if view.deciding == HUMAN else t("gn_deciding", name=seat_name(turn))
        elif turn == HUMAN:
            message = t("gn_your_turn")
        else:
            message = t("gn_to_play", name=seat_name(turn)) if turn is not None else ""
        show_trick(self.query_one(TrickView), view, style, message, self.news)
        self.query_one("#gn-status", Static).update(self.status)
        self.sub_title = t("gn_hand_label", hand=view.hand_number, us=view.score[0], them=view.score[1],
                           cu=view.cotos[0], ct=view.cotos[1]) + (f" · {t('gn_de_vueltas')}" if view.vueltas else "")
        self.refresh_bindings()

    @property
    def count_help(self) -> bool:
        return getattr(self.app.settings, "count_help", "off") == "on"

    def _score_text(self, view: GuinoteView) -> Text:
        """The pairs' points, then the keys. De vueltas, where counting is the skill of the claim, only
        the public part (cantes, carried) unless the counting help is on; then one pair per line, which
        keeps each line within 80 columns."""
        text = Text()
        full = not view.vueltas or self.count_help
        for pair, label in ((0, "gn_us"), (1, "gn_them")):
            carry = t("gn_carry", carry=view.carry[pair]) if view.vueltas else ""
            if pair:
                text.append("\n" if view.vueltas and full else "   ")
            text.append(f"{t(label)}: ", style="bold")
            if full:
                text.append(t("gn_points_line", cards=view.card_points[pair], cantes=view.cante_points(pair),
                              carry=carry, total=view.total(pair)))
            else:
                text.append(t("gn_public_line", cantes=view.cante_points(pair), carry=carry))
        text.append("\n")
        options = []
        if exchange_block_reason(view) is None:
            options.append(Text(t("gn_exchange_key"), style="reverse" if self.armed_exchange else ""))
        keys = Text(t("gn_cante_keys") + " ")
        for suit in SUITS:
            can = rules.can_sing(view.hand, suit) and suit not in {c.suit for c in view.cantes}
            style = "reverse" if suit in self.armed_cantes else ("bold" if can else "grey42")
            keys.append(suit.lower(), style=style)
            keys.append(" ")
        options.append(keys)
        return text + Text("   ").join(options)

    def reason(self, exc: Any) -> str:
        params = dict(exc.params)
        if "card" in params:
            card = parse_spanish_card(params["card"])
            params["card"] = the_card(card, to=exc.key == "gn_must_beat" or exc.key == "gn_must_overtrump")
        if "suit" in params:
            params["suit"] = suit_name(params["suit"])
        if exc.key == "gn_must_trump":
            trick = self.human_view().trick
            params["lead"] = suit_name(trick[0][1].suit) if trick else ""
        text = t(exc.key, **params)
        return exc.reason if text == exc.key else text

    # -- actions
    def check_action(self, action: str, parameters: tuple) -> bool | None:
        # Shown dimmed (None), not hidden, while they cannot be used: the footer keeps its place.
        view = self.human_view()
        mine = view.to_move == HUMAN and not self.pending_results and not self.dealing
        if action in ("choose", "lift", "lower", "move"):
            return True if mine and view.deciding is None else None
        if action == "keep_seven":
            return view.deciding == HUMAN
        if action == "hint":
            return True if mine else None
        return True

    def action_move(self, step: int) -> None:
        hand = self.query_one(HandView)
        if hand.cards:
            hand.cursor = (hand.cursor + step) % len(hand.cards)
            hand.lifted = None
            self._explain(hand.current)

    def _explain(self, card: SpanishCard | None) -> None:
        if card is None or self.match.to_move() != HUMAN:
            return
        refusal = self.match.why_illegal(Play(card), HUMAN)
        self.set_status(self.reason(refusal) if refusal else card_name(card))

    def action_lift(self) -> None:
        hand = self.query_one(HandView)
        if hand.current is None:
            return
        if self.match.why_illegal(Play(hand.current), HUMAN) is not None:
            self._explain(hand.current)
            self.app.bell()
            return
        hand.lifted = hand.cursor

    def action_lower(self) -> None:
        self.query_one(HandView).lifted = None

    def action_choose(self) -> None:
        hand = self.query_one(HandView)
        if hand.current is None or self.match.to_move() != HUMAN:
            return
        if hand.lifted == hand.cursor:
            self.play(Play(hand.current), HUMAN)
        else:
            self.action_lift()

    def action_pinta(self) -> None:
        """Press the pinta: exchange the 7 now if allowed, else arm (or disarm) the exchange."""
        move = next((m for m in self.match.legal_moves(HUMAN) if isinstance(m, Exchange)), None)
        if move is not None and self.match.why_illegal(move, HUMAN) is None:
            self.play(move, HUMAN)
            return
        blocked = exchange_block_reason(self.match.view(HUMAN))
        if blocked is not None and not self.armed_exchange:
            self.set_status(blocked)
            self.app.bell()
            return
        self.armed_exchange = not self.armed_exchange
        self.set_status(t("gn_exchange_armed") if self.armed_exchange else t("gn_exchange_disarmed"))
        self.refresh_table()

    def action_keep_seven(self) -> None:
        """Decline the exchange offered before the draw."""
        self.play(KeepSeven(SpanishCard(rules.SEVEN, self.match.trump)), HUMAN)

    def action_cante(self, suit: str) -> None:
        move = Cante(suit)
        if self.match.why_illegal(move, HUMAN) is None:
            self.play(move, HUMAN)
            return
        if suit in self.armed_cantes:
            self.armed_cantes.discard(suit)
            self.set_status(t("gn_cante_disarmed", suit=suit_name(suit)))
        else:
            self.armed_cantes.add(suit)
            self.set_status(t("gn_cante_armed", suit=suit_name(suit)))
        self.refresh_table()

    def action_reveal(self) -> None:
        view = self.match.view(HUMAN)
        hidden = [c for c in view.cantes if c.seat == 2 and c.points == 20 and c.trick > rules.PHASE1_TRICKS]
        if not hidden:
            self.set_status(t("gn_nothing_hidden"))
            return
        self.revealed = True
        self.set_status(t("gn_revealed", suit=", ".join(suit_name(c.suit) for c in hidden)))
        self.refresh_table()

    def action_hint(self) -> None:
        """The `hard` search's play (in a worker), lifted, with why in the status line; a cante or the
        exchange (kept from the `normal` rules) says which key makes it."""
        self.request_hint()

    def show_hint(self, hint: Any) -> None:
        move = hint.move
        if isinstance(move, Play):
            hand = self.query_one(HandView)
            if move.card in hand.cards:
                hand.cursor = hand.cards.index(move.card)
                hand.lifted = hand.cursor
            self.set_status(self.hint_text(hint))
        elif isinstance(move, Cante):
            self.set_status(t("gn_hint_cante", suit=suit_name(move.suit)))
        elif isinstance(move, Exchange):
            self.set_status(t("gn_hint_exchange"))

    def move_text(self, move: Any) -> str:
        if isinstance(move, Play):
            move = move.card
        if isinstance(move, SpanishCard):
            return card_name(move)
        if isinstance(move, Cante):
            return suit_name(move.suit)
        return str(move)

    def action_last_trick(self) -> None:
        self.app.push_screen(last_trick_dialog(self.match.view(HUMAN), self.style_name))

    def action_rules(self) -> None:
        from cardtable.ui.screens import RulesScreen

        self.app.push_screen(RulesScreen("guinote"))
