"""The Guiñote table screen: pinta and stock, cantes and the 7 exchange, arrastre and claims."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.widgets import Header, Static

from cardtable.cards import SpanishCard, parse_spanish_card
from cardtable.games.guinote import rules
from cardtable.games.guinote.state import Cante, Claim, Exchange, GuinoteView, KeepSeven, Play
from cardtable.i18n import t
from cardtable.tricks import team_of
from cardtable.ui.cardart import spanish_label, spanish_text
from cardtable.ui.footer import Footer
from cardtable.ui.gamescreen import HUMAN, AdviceLine, GameScreen, LiftThenPlay
from cardtable.ui.guinote.dialogs import (
    ClaimScreen,
    ExchangeScreen,
    GuinoteSetup,
    MatchEndScreen,
    SummaryScreen,
    last_trick_dialog,
)
from cardtable.ui.guinote.text import (
    SUITS,
    cante_block_reason,
    cante_sentence,
    card_name,
    exchange_block_reason,
    exchange_news,
    partner_hides,
    seat_name,
    suit_name,
    the_card,
)
from cardtable.ui.guinote.widgets import TablePanel, seat_plate, show_trick
from cardtable.ui.seats import SeatPanel
from cardtable.ui.widgets import HandView, TrickView


# ---------------------------------------------------------------- the table
class GuinoteScreen(LiftThenPlay, GameScreen):
    BINDINGS = [
        Binding("left", "move(-1)", "move_left", show=False),
        Binding("right", "move(1)", "move_right", show=False),
        Binding("home", "move_to(0)", "first_card", show=False),     # the first / last card of the hand
        Binding("end", "move_to(-1)", "last_card", show=False),
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
        Binding("a", "claim", "gn_claim_key", show=False),
        Binding("s", "count_help", "count_help", show=False),
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
    GuinoteScreen #gn-status { height: auto; max-height: 2; padding: 0 1; color: $warning; }
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
        self._claim_declined: tuple[int, int] | None = None     # saved with the match (table_state)
        self.exchange_open = False
        self._exchange_asked: tuple[int, int] | None = None
        self._window_passed: tuple[int, int] | None = None   # the window the human let go (Enter: play on)
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

    PLAY_LABEL = "gn_play"

    def hand_widget(self) -> HandView:
        return self.query_one(HandView)

    def on_mount(self) -> None:        # (GameScreen's on_mount runs too: Textual calls each class's)
        self.watch_hand()

    def label_choose(self, *_: Any) -> None:
        if self.window_waits():
            self.relabel("choose", t("gn_play_on"))
        else:
            super().label_choose()

    # -- flow
    def cpu_may_move(self) -> bool:
        return super().cpu_may_move() and not (self.claim_open or self._should_ask_claim() or self.exchange_open
                                                or self._should_ask_exchange() or self.window_waits())

    def waits_for_human(self) -> bool:
        return self.window_waits()

    def window_waits(self) -> bool:
        """The pair has won a trick, the partner is to lead and the human may still sing: the partner
        waits for the human (a cante, or Enter to play on), as at a real table, at every CPU speed."""
        view = self.human_view()
        if (self.hand_over or view.window_pair != team_of(HUMAN) or view.to_move in (HUMAN, None)
                or self._window_passed == self._window_here()):
            return False
        return any(isinstance(move, Cante) for move in view.legal)

    def _window_here(self) -> tuple[int, int]:
        """Which window this is: the hand's number and the tricks played in it."""
        view = self.human_view()
        return view.hand_number, len(view.tricks)

    def window_suits(self) -> list[str]:
        """The suits the human may sing now (out of turn too)."""
        return [move.suit for move in self.human_view().legal if isinstance(move, Cante)]

    def armed_move(self) -> Any:
        legal = self.human_view().legal      # (the seat's moves now: in turn or out of it)
        if self.armed_exchange:
            for move in legal:
                if isinstance(move, Exchange):
                    return move
        for move in legal:
            if isinstance(move, Cante) and move.suit in self.armed_cantes:
                return move
        return None

    def after_move(self, seat: int, move: Any, records: list[dict]) -> None:
        # What another seat did is read from the views before and after its move (only the seat's own
        # moves are told as such).
        if seat == HUMAN:
            self.set_status("")
        new_deal = self.new_deal(records)
        before, view = self.before, self.after
        if isinstance(move, Exchange):
            self.armed_exchange = False
        if isinstance(move, Cante):
            self.armed_cantes.discard(move.suit)
        if not new_deal and view.exchange is not None and view.exchange != before.exchange:
            self.news.append(exchange_news(seat, view.exchange[1]))
        if not new_deal and len(view.cantes) > len(before.cantes):
            sung = view.cantes[-1]           # (a partner's 20 in arrastre keeps its suit until `v`)
            self.news.append(cante_sentence(seat, sung.points, None if partner_hides(view, sung) else sung.suit))
        if before.trick and not view.trick:
            self.news = []                   # a trick is complete: the news were about the one before
        if new_deal:
            self.armed_exchange = False
            self.armed_cantes.clear()
            self.revealed = False
            self.news = []
        if self.armed_exchange and exchange_block_reason(view) is not None:
            self.armed_exchange = False      # it can no longer happen (another seat exchanged, the 7 played…)
        if self.armed_cantes:                # an armed cante that can no longer happen goes dark, with why
            for suit in sorted(self.armed_cantes):
                why = cante_block_reason(view, suit)
                if why is not None:
                    self.armed_cantes.discard(suit)
                    self.set_status(why)
        super().after_move(seat, move, records)

    def advance(self) -> None:
        """The optional moves of a window in a fixed order (docs/decisions.md «The order of a window»):
        the exchange question (before the draw), then the human's armed exchange and cantes, then the
        claim question with the score they made, then the CPUs."""
        if self.pending_results is not None or self.pending_match_end is not None or self.dealing:
            super().advance()
            return
        if self._should_ask_exchange():
            self.exchange_open = True
            self.app.push_screen(ExchangeScreen(self.human_view()), callback=self._exchange_answered)
            return
        armed = self.armed_move()
        if armed is not None and self.human_may_move():    # (else the CPU turn makes it, after the partner's)
            self.play(armed, HUMAN)
            return
        if self._should_ask_claim():
            self.ask_claim()
            return
        super().advance()

    def ask_claim(self) -> None:
        self.claim_open = True
        self._claim_asked = self._window_here()
        self.refresh_table()             # the score the question is about, updated before it comes up
        self.app.push_screen(ClaimScreen(self.human_view(), self.count_help, self.style_name),
                             callback=self._claimed)

    def _should_ask_exchange(self) -> bool:
        """The human is asked before the draw, holds the 7 (without it the table keeps for them:
        ``Match.automatic_move``) and has not armed the exchange."""
        view = self.human_view()
        return (view.deciding == HUMAN and any(isinstance(move, Exchange) for move in view.legal)
                and not self.armed_exchange and not self.exchange_open
                and self._exchange_asked != self._window_here())

    def _exchange_answered(self, exchange: bool | None) -> None:
        """Exchange, keep, or (Escape) decide later on the table with p or k."""
        self.exchange_open = False
        self._exchange_asked = self._window_here()
        view = self.human_view()
        seven = SpanishCard(rules.SEVEN, view.trump)
        if exchange is not None and view.deciding == HUMAN:
            self.play(Exchange(seven) if exchange else KeepSeven(seven), HUMAN)
        else:
            self.refresh_table()
            self.advance()

    def _should_ask_claim(self) -> bool:
        view = self.human_view()
        if view.window_pair != team_of(HUMAN) or Claim() not in view.legal:
            return False
        return self._claim_asked != self._window_here()

    def _claimed(self, claim: bool | None) -> None:
        self.claim_open = False
        if claim:
            self.play(Claim(), HUMAN)
        else:
            self._claim_declined = self._claim_asked
            self.autosave(quiet=True)        # «Play on» is no move: the save keeps it (table_state)
            self.refresh_table()
            self.advance()

    # A claim declined («Play on») is no move (the engine has none: declining is not claiming), so the
    # table keeps it with the save, as the position it was asked at: a resumed table does not ask again.
    def table_state(self) -> dict[str, Any]:
        declined = self._claim_declined
        if declined is None or declined != self._window_here():
            return {}
        return {"claim_declined_hand": declined[0], "claim_declined_tricks": declined[1]}

    def restore_table(self, state: dict[str, Any]) -> None:
        hand, tricks = state.get("claim_declined_hand"), state.get("claim_declined_tricks")
        if type(hand) is int and type(tricks) is int:
            self._claim_declined = self._claim_asked = (hand, tricks)

    def results_dialog(self, record: dict) -> SummaryScreen:
        local = self.local()       # (a shared table's seat is to be told the deal with the hand's end)
        log = local.log() if local is not None else []
        deal = next(r for r in reversed(log) if r["type"] == "deal" and r["hand"] == record["hand"])
        return SummaryScreen(record, deal, self.human_view().options, self.pending_match_end is not None)

    def match_end_dialog(self, record: dict) -> MatchEndScreen:
        return MatchEndScreen(record)

    # -- rendering
    def refresh_table(self) -> None:
        if not self.query(HandView):
            return
        view = self.fresh_view()
        style = self.style_name
        for seat, widget_id in ((3, "#gn-west"), (2, "#gn-north"), (1, "#gn-east")):
            self.query_one(widget_id, SeatPanel).show_plate(
                self.named(seat_plate(view, seat, view.counts[seat], self.revealed), seat))
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
        elif self.window_waits():
            message = t("gn_window_you", suits=" ".join(suit.lower() for suit in self.window_suits()))
        elif turn == HUMAN:
            message = t("gn_your_turn")
        else:
            message = t("gn_to_play", name=seat_name(turn)) if turn is not None else ""
        show_trick(self.query_one(TrickView), view, style, message, self.news)
        self.label_choose()
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
        options = []
        seven = SpanishCard(rules.SEVEN, view.trump)
        if self.armed_exchange or (seven in view.hand and exchange_block_reason(view) is None):
            options.append(Text(t("gn_exchange_key"), style="reverse" if self.armed_exchange else ""))
        sung = {c.suit for c in view.cantes}
        suits = [suit for suit in SUITS if suit in self.armed_cantes
                 or (rules.can_sing(view.hand, suit) and suit not in sung)]
        if suits:                        # only the suits this hand can sing (or has armed)
            keys = Text(t("gn_cante_keys") + " ")
            for suit in suits:
                keys.append(suit.lower(), style="reverse" if suit in self.armed_cantes else "bold")
                keys.append(" ")
            options.append(keys)
        if view.vueltas and not full:    # say that the card points are hidden, and how to show them
            options.append(Text(t("gn_points_hidden_key"), style="dim"))
        text.append("\n")               # the row stays when it is empty: the table below does not jump
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
        if action == "choose" and self.window_waits():
            return True                  # Enter: play on (the partner leads)
        if action in ("choose", "lift", "lower", "move", "move_to"):
            return True if mine and view.deciding is None else None
        if action == "keep_seven":
            return view.deciding == HUMAN
        if action == "hint":
            return True if mine else None
        return True

    def action_move(self, step: int) -> None:
        hand = self.query_one(HandView)
        self._explain(hand.step(step))

    def action_move_to(self, index: int) -> None:
        self._explain(self.query_one(HandView).point(index))

    def _explain(self, card: SpanishCard | None) -> None:
        if card is None or self.human_view().to_move != HUMAN:
            return
        refusal = self.refusal(Play(card))
        self.set_status(self.reason(refusal) if refusal else card_name(card))

    def action_lift(self) -> None:
        hand = self.query_one(HandView)
        if hand.current is None:
            return
        if self.refusal(Play(hand.current)) is not None:
            self._explain(hand.current)
            self.app.bell()
            return
        hand.lifted = hand.cursor

    def action_lower(self) -> None:
        self.query_one(HandView).lifted = None

    @on(HandView.Chosen)
    def card_clicked(self) -> None:
        self.action_choose()

    def action_choose(self) -> None:
        if self.window_waits():          # the human lets the window go: the partner leads
            self._window_passed = self._window_here()
            self.set_status("")
            self.refresh_table()
            self.advance()
            return
        hand = self.query_one(HandView)
        if hand.current is None or self.human_view().to_move != HUMAN:
            return
        if hand.lifted == hand.cursor:
            self.play(Play(hand.current), HUMAN)
        else:
            self.action_lift()

    def action_pinta(self) -> None:
        """Press the pinta: exchange the 7 now if allowed, else arm (or disarm) the exchange."""
        view = self.human_view()
        move = next((m for m in view.legal if isinstance(m, Exchange)), None)
        if move is not None and self.refusal(move) is None:
            self.play(move, HUMAN)
            return
        blocked = exchange_block_reason(view)
        if blocked is not None and not self.armed_exchange:
            self.set_status(blocked)
            self.app.bell()
            return
        self.armed_exchange = not self.armed_exchange
        self.set_status(t("gn_exchange_armed") if self.armed_exchange else t("gn_exchange_disarmed"))
        self.refresh_table()

    def action_claim(self) -> None:
        """Claim in the window after a trick the pair won (de vueltas), the question asked again."""
        refusal = self.refusal(Claim())
        if refusal is not None or self.claim_open:
            self.set_status(self.reason(refusal) if refusal else "")
            return
        self.ask_claim()

    def action_count_help(self) -> None:
        """`s`: the counting help (Settings) on or off from the table: de vueltas the card points show."""
        import dataclasses

        settings = dataclasses.replace(self.app.settings, count_help="off" if self.count_help else "on")
        self.app.apply_settings(settings)

    def action_keep_seven(self) -> None:
        """Decline the exchange offered before the draw."""
        self.play(KeepSeven(SpanishCard(rules.SEVEN, self.human_view().trump)), HUMAN)

    def action_cante(self, suit: str) -> None:
        move = Cante(suit)
        if self.refusal(move) is None:
            self.play(move, HUMAN)
            return
        blocked = cante_block_reason(self.human_view(), suit)
        if suit in self.armed_cantes:
            self.armed_cantes.discard(suit)
            self.set_status(t("gn_cante_disarmed", suit=suit_name(suit)))
        elif blocked is not None:
            self.set_status(blocked)
            self.app.bell()
            return
        else:
            self.armed_cantes.add(suit)
            self.set_status(t("gn_cante_armed", suit=suit_name(suit)))
        self.refresh_table()

    def action_reveal(self) -> None:
        view = self.human_view()
        hidden = [c for c in view.cantes if partner_hides(view, c)]
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

    def param_text(self, value: Any) -> str:
        """Cards inside a hint's reason carry their article, several joined as a list: «arrastra: tienes
        el As de copas y el 3 de copas» (not «tienes As de copas 3 de copas»), «da la Sota de oros»."""
        if isinstance(value, SpanishCard):
            return the_card(value)
        if type(value) is tuple and value and all(isinstance(card, SpanishCard) for card in value):
            names = [the_card(card) for card in value]
            return names[0] if len(names) == 1 else t("list_and", first=", ".join(names[:-1]), last=names[-1])
        return super().param_text(value)

    def short_param_text(self, value: Any) -> str:
        """Cards as in the hand, «Ce 3c», where the named ones would not fit the status line."""
        if isinstance(value, SpanishCard):
            return spanish_label(value, self.style_name)
        if type(value) is tuple and value and all(isinstance(card, SpanishCard) for card in value):
            return " ".join(spanish_label(card, self.style_name) for card in value)
        return super().short_param_text(value)

    def flag_text(self, flag: Any) -> str:
        """The checker's sentence names the card with its article: «La CPU habría jugado el Rey de copas»
        (was «jugado Rey de copas»)."""
        better = flag.better.card if isinstance(flag.better, Play) else flag.better
        if isinstance(better, SpanishCard):
            return self.spec.advice.cost_text(the_card(better), flag.cost)
        return super().flag_text(flag)

    def move_text(self, move: Any) -> str:
        if isinstance(move, Play):
            move = move.card
        if isinstance(move, SpanishCard):
            return card_name(move)
        if isinstance(move, Cante):
            return suit_name(move.suit)
        return str(move)

    def action_last_trick(self) -> None:
        self.app.push_screen(last_trick_dialog(self.human_view(), self.style_name))

    def action_rules(self) -> None:
        from cardtable.ui.screens import RulesScreen

        self.app.push_screen(RulesScreen("guinote"))

    def wait_text(self, seat: int) -> str:
        return t("gn_wait_first", name=seat_name(seat))

    def cpu_delay(self, seat: int, move: Any) -> float:
        # A keep of the 7 is silent at a real table: no pause for it (forced or not), so the time the
        # table takes shows nothing about who holds the 7.
        return 0.0 if isinstance(move, KeepSeven) else super().cpu_delay(seat, move)
