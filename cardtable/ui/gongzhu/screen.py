"""The Gong Zhu table screen: deal, showing, tricks and results."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.css.scalar import Scalar
from textual.widgets import Header, Static

from cardtable.cards import Card
from cardtable.games.gongzhu import rules
from cardtable.games.gongzhu.state import Play, Show
from cardtable.hints import render
from cardtable.i18n import t
from cardtable.ui.cardart import card_label, card_text, cards_text
from cardtable.ui.footer import Footer
from cardtable.ui.gamescreen import HUMAN, AdviceLine, GameScreen, LiftThenPlay
from cardtable.ui.gongzhu.dialogs import (
    GongZhuMatchEnd,
    GongZhuSetup,
    ResultsScreen,
    ShowPanel,
    last_trick_dialog,
)
from cardtable.ui.gongzhu.text import card_name, hand_label, hand_points, seat_name, taken_text, the_card
from cardtable.ui.gongzhu.widgets import seat_plate, show_trick
from cardtable.ui.numbers import in_style, signed
from cardtable.ui.seats import SeatPanel
from cardtable.ui.widgets import HandView, TrickView


# ---------------------------------------------------------------- the table
class GongZhuScreen(LiftThenPlay, GameScreen):
    BINDINGS = [
        Binding("left", "move(-1)", "move_left", show=False),
        Binding("right", "move(1)", "move_right", show=False),
        Binding("home", "move_to(0)", "first_card", show=False),     # the first / last card of the hand
        Binding("end", "move_to(-1)", "last_card", show=False),
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
    GongZhuScreen #gz-status { height: auto; max-height: 2; padding: 0 1; color: $warning; }
    """

    @classmethod
    def setup_screen(cls) -> GongZhuSetup:
        return GongZhuSetup()

    TITLE_KEY = "gz_title"
    STATUS_ID = "gz-status"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._show_panel_open = False
        self._show_panel: ShowPanel | None = None

    def compose(self) -> ComposeResult:
        yield Header()
        yield SeatPanel(id="gz-north")
        with Horizontal(id="gz-middle"):
            yield SeatPanel(id="gz-west")
            yield TrickView(id="gz-trick")
            yield SeatPanel(id="gz-east")
        yield Static(id="gz-me")
        yield HandView(card_text, id="gz-hand")
        yield Static(id="gz-status")
        yield AdviceLine(id="advice")
        yield Footer()

    PLAY_LABEL = "gz_play"

    def hand_widget(self) -> HandView:
        return self.query_one(HandView)

    SIDE_WIDTH, WIDE_SIDE_WIDTH = 24, 30      # the side plates: wider where the terminal has room

    def on_resize(self) -> None:
        width = self.WIDE_SIDE_WIDTH if self.size.width >= 110 else self.SIDE_WIDTH
        panels = list(self.query("#gz-west, #gz-east").results(SeatPanel))
        if panels and panels[0].styles.width != Scalar.parse(str(width)):
            for panel in panels:
                panel.styles.width = width
            self.call_after_refresh(self.refresh_table)     # the plates' lines fold to their new width

    def on_mount(self) -> None:        # (GameScreen's on_mount runs too: Textual calls each class's)
        self.watch_hand()

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
        view = self.human_view()
        if (self.pending_match_end is None and view.to_move == HUMAN and view.phase == "show"
                and not self._show_panel_open):
            showable = rules.showable_in(view.hand, view.options.showable_cards)
            if not showable:
                self.play(Show(()))
                return
            self._show_panel_open = True
            self._show_panel = ShowPanel(showable, self.style_name, ask_hint=self.request_hint)
            self.app.push_screen(self._show_panel, callback=self._shown)
            return
        super().advance()

    def _shown(self, cards: tuple[Card, ...] | None) -> None:
        self._show_panel_open = False
        self._show_panel = None
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
            panel = self.query_one(widget_id, SeatPanel)
            inner = panel.size.width or None           # (the content width: border and padding excluded)
            panel.show_plate(self.named(seat_plate(view, seat, count, style, wide=seat == 2, width=inner), seat))
        me = Text()
        me.append(f"{seat_name(HUMAN)}  ", style="bold")
        me.append(f"{t('gz_total')} {signed(view.totals[HUMAN], style)}", style="bold")
        if view.shown[HUMAN] or view.my_show:
            me.append(f"  {t('gz_shown')}: ")
            me.append_text(cards_text(view.shown[HUMAN] or view.my_show or (), style))
        if view.taken[HUMAN]:
            me.append(f"  {t('gz_taken_you')}: ")      # «te llevas» (the others' plates: «se lleva»)
            me.append_text(taken_text(view.taken[HUMAN], style))
            me.append(f"  {t('gz_hand_points')} {signed(hand_points(view, HUMAN), style)}")
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
        if action in ("choose", "hint", "lift", "lower", "move", "move_to"):   # shown dimmed while it is not your turn
            view = self.human_view()
            return True if view.to_move == HUMAN and view.phase == "play" and not self.dealing else None
        return True

    def action_move(self, step: int) -> None:
        hand = self.query_one(HandView)
        self._explain(hand.step(step))

    def action_move_to(self, index: int) -> None:
        self._explain(self.query_one(HandView).point(index))

    def _explain(self, card: Card | None) -> None:
        if card is None:
            return
        refusal = self.refusal(Play(card)) if self.human_view().to_move == HUMAN else None
        self.set_status(self.reason(refusal) if refusal else "")

    def action_lift(self) -> None:
        hand = self.query_one(HandView)
        if hand.current is None:
            return
        refusal = self.refusal(Play(hand.current))
        if refusal is not None:
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
        """Enter / Space / a click: lift the card under the cursor, or play it if already lifted."""
        hand = self.query_one(HandView)
        view = self.human_view()
        if hand.current is None or view.to_move != HUMAN or view.phase != "play":
            return
        if hand.lifted == hand.cursor:
            self.play(Play(hand.current))
        else:
            self.action_lift()

    def action_hint(self) -> None:
        """The `hard` search's play (in a worker), lifted, with why in the status line."""
        self.request_hint()

    # While the showing panel is open, a hint is about what to show: the panel ticks it and says why.
    def _open_show_panel(self) -> ShowPanel | None:
        panel = self._show_panel
        return panel if panel is not None and panel.is_mounted else None

    def hint_thinking(self) -> None:
        panel = self._open_show_panel()
        if panel is not None:
            panel.say(t("hint_thinking"))
        else:
            super().hint_thinking()

    def hint_failed(self) -> None:
        panel = self._open_show_panel()
        if panel is not None:
            panel.say(t("hint_none"))
        else:
            super().hint_failed()

    def show_hint(self, hint: Any) -> None:
        move = hint.move
        panel = self._open_show_panel()
        if isinstance(move, Show) and panel is not None:
            panel.show_hint(move.cards, in_style(t("gz_show_hint", why=render(hint.reason, self.param_text)),
                                                  self.style_name))
            return
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

    def flag_text(self, flag: Any) -> str:
        """The checker's sentence names the card with its article: «La CPU habría jugado el 7 de
        tréboles» (was «jugado 7 de tréboles», «jugado as de diamantes»)."""
        better = flag.better.card if isinstance(flag.better, Play) else flag.better
        if isinstance(better, Card):
            return self.spec.advice.cost_text(the_card(better), flag.cost)
        return super().flag_text(flag)

    def param_text(self, value: Any) -> str:
        """Cards inside a reason are drawn short (♠A), the hinted card is named in words."""
        if isinstance(value, Card):
            return card_label(value, self.style_name)
        return super().param_text(value)

    def action_last_trick(self) -> None:
        self.app.push_screen(last_trick_dialog(self.human_view(), self.style_name))

    def action_rules(self) -> None:
        from cardtable.ui.screens import RulesScreen

        self.app.push_screen(RulesScreen("gongzhu"))
