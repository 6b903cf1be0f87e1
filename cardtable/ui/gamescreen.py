"""What every game screen shares: its seat at the table, the dialogs between hands, the status line.

A table screen is a view of a seat (:mod:`cardtable.ui.seatlink`): it draws from the seat's view and
events and sends the seat's commands; the turn loop, the CPU players (off the event loop, in the app's
worker), take-back, autosave and statistics are the seat's session's. The screen keeps the pacing (a
CPU's move is shown for a moment; any key hurries it) and the dialogs."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from textual import events
from textual.binding import Binding
from textual.screen import Screen

from cardtable import workers
from cardtable.engine import IllegalMove, Match
from cardtable.games import GameSpec
from cardtable.i18n import t
from cardtable.table import Event, Play, Reply, TakeBack
from cardtable.ui.betweenhands import BetweenHands
from cardtable.ui.dealing import DealAnimation
from cardtable.ui.keylabels import KeyLabels, LiftThenPlay
from cardtable.ui.numbers import in_style
from cardtable.ui.seatlink import SeatLink
from cardtable.ui.seats import Plate
from cardtable.ui.solotable import SoloTable
from cardtable.ui.tableadvice import HINT_ROWS, HUMAN, AdviceLine, TableAdvice

if TYPE_CHECKING:
    from textual import getters

    from cardtable.ui.app import CardTableApp
    from cardtable.ui.dialogs import HandEndDialog, MatchEndDialog

__all__ = ["HINT_ROWS", "HUMAN", "AdviceLine", "GameScreen", "LiftThenPlay", "reason_text"]


def reason_text(exc: IllegalMove | Reply) -> str:
    """The refusal in the player's language when the game registered a translation, else English."""
    text = t(exc.key, **exc.params)
    return exc.reason if text == exc.key else text


class GameScreen(SoloTable, DealAnimation, BetweenHands, KeyLabels, TableAdvice, Screen):
    """Base of the game screens. Subclasses render the table in :meth:`refresh_table`, name their hand
    widget (focused, and revealed card by card by the deal animation) and may hold the CPUs (panels,
    prompts) by extending :meth:`cpu_may_move`."""

    if TYPE_CHECKING:        # the app typed as ours (as ui/typedapp.py does; declared here over the mixins')
        app: getters.app[CardTableApp] = getters.app(CardTableApp)

    # Not in the footer (it is full at 80 columns): the Keys screen and the README list it.
    BINDINGS = [Binding("u", "take_back", "take_back", show=False)]

    TITLE_KEY = ""          # i18n key of the screen title
    STATUS_ID = ""          # id of the status line (a Static)

    def __init__(self, spec: GameSpec, match: Match, players: list[str], slot: str, fresh: bool) -> None:
        super().__init__()
        self.spec = spec
        self.players = players
        self.slot = slot
        self.fresh = fresh
        self._start = match             # the seat is made at mount, with the app's worker and store
        self._seat: SeatLink | None = None
        self._skip_pause = asyncio.Event()
        self.pending_results: dict | None = None      # a hand_end record waiting for its dialog
        self.pending_match_end: dict | None = None    # the match_end record
        self.status = ""
        self.dealing = False
        self._deal_timer: Any = None
        self.practice = False           # a replayed deal: neither saved over the real match nor counted
        self._undo_used = False         # a resumed save's (the seat's once it is made)
        self.read_only = False          # opened while another cardtable has the slot: never saved
        # The search's advice: the last hint and the position it is for, the position a hint is being
        # computed for, and the plays the checker flagged in this hand (shown in its summary).
        self._hint: Any = None
        self._hint_pending: Any = None
        self.flags: list[Any] = []
        self.before: Any = None         # the views before and after the move :meth:`after_move` is told of
        self.after: Any = None

    @property
    def seat(self) -> SeatLink:
        """The seat this screen is a view of (made when first asked: the app's worker and store)."""
        if self._seat is None:
            self._seat = self.make_seat()
            self._seat.listen(self.seat_events)
            self.before = self._seat.view()
        return self._seat

    @seat.setter
    def seat(self, seat: SeatLink) -> None:      # (a test's seat that shows nothing but its view)
        self._seat = seat

    def named(self, plate: Plate, seat: int) -> Plate:
        """A seat's plate as this table names it: by its place (a shared table names its people)."""
        return plate

    def human_view(self) -> Any:
        """What the person at this table sees, which is all the table draws from: the seat's view (the
        finished hand's, nobody to move, while its results are up)."""
        return self.seat.view()

    def fresh_view(self) -> Any:
        """The seat's view made again (what ``refresh_table`` starts with: a test may edit the match)."""
        local = self.local()
        if local is not None:
            local.forget_view()
        return self.seat.view()

    @property
    def hand_over(self) -> bool:
        """Whether the table shows a finished hand behind its results (the next deal waits until the
        player goes on)."""
        return self.pending_results is not None and self.pending_match_end is None

    # -- hooks for subclasses
    def refresh_table(self) -> None:
        raise NotImplementedError

    def hand_widget(self) -> Any:
        """The widget holding the human's cards; it has a ``revealed`` count for the deal animation."""
        raise NotImplementedError

    def cpu_may_move(self) -> bool:
        return not (self.pending_results or self.pending_match_end or self.dealing)

    def waits_for_human(self) -> bool:
        """Whether the CPUs wait for the human out of turn (a window to sing in: Enter plays on)."""
        return False

    @property
    def style_name(self) -> str:
        return self.app.settings.card_style

    def on_mount(self) -> None:
        from cardtable.ui.bindings import translate_bindings

        translate_bindings(self)
        self.relabel_keys()
        levels = {player.split(":", 1)[1] for player in self.players if player.startswith("cpu:")}
        if any(workers.searches(self.spec, self.spec.bot(level)) for level in levels):
            self.app.thinker.warm()      # the first hard decision need not wait for the worker to start
        self.title = t(self.TITLE_KEY) + (f" · {t('read_only')}" if self.read_only else "") + (
            f" · {t('practice')}" if self.practice else "")
        self.hand_widget().focus()
        if self.fresh:
            self.autosave(quiet=True)
            self.new_hand_started()
        else:
            self.resume_state()
        self.refresh_table()
        self.advance()

    # -- the seat's events
    def seat_events(self, batch: list[Event]) -> None:
        """What the seat was told: each move (with the records of a hand or match it ended) goes to
        :meth:`after_move`; a take-back redraws the table; a failed save is said."""
        moves: list[tuple[Event, list[dict]]] = []
        for event in batch:
            if event.type == "moved":
                moves.append((event, []))
            elif event.type in ("hand_over", "match_over") and moves:
                moves[-1][1].append(event.data["record"])
            elif event.type == "autosave_failed":
                self.notify(t("save_failed", reason=event.data["reason"]), severity="error", markup=False)
            elif event.type == "refused":
                self.refused(Reply(False, event.data.get("key", ""), event.data.get("reason", ""),
                                   dict(event.data.get("params") or {})))
            elif event.type == "take_back_done":
                self.taken_back()
            elif event.type == "waited" and self.status == self.wait_text(event.data["seat"]):
                self.set_status("")          # «A moment…» goes once the CPU has made its move
        for event, records in moves:
            data = event.data
            move = self.spec.match_type.decode_move(data["move"]) if "move" in data else None
            self.after = event.view
            self.after_move(data["seat"], move, records)
            self.before = event.view
        self.before = self.seat.view()
        if moves:
            self.refresh_table()

    def after_move(self, seat: int, move: Any, records: list[dict]) -> None:
        """Called after each move the seat is told of (``move`` only when it is the seat's own; the views
        before and after it in :attr:`before` and :attr:`after`) with the hand's and the match's end
        records it produced: notes them, then shows the results or moves the game on. Subclasses add
        their own first."""
        self.note_move(seat, records)
        self.call_after_refresh(self.show_results if self.pending_results is not None else self.advance)

    def note_move(self, seat: int, records: list[dict]) -> None:
        """The results and the match end a move left, to show whenever its dialogs come."""
        for record in records:
            if record["type"] == "hand_end":
                self.pending_results = record
            elif record["type"] == "match_end":
                self.pending_match_end = record

    @staticmethod
    def new_deal(records: list[dict]) -> bool:
        """Whether the move these records are of dealt the next hand (it ended one, not the match)."""
        kinds = {record["type"] for record in records}
        return "hand_end" in kinds and "match_end" not in kinds

    def advance(self) -> None:
        """What happens next when nobody waits on a dialog: by default the CPU moves."""
        if self.pending_results is not None or self.dealing:
            return
        if self.pending_match_end is not None:
            self.show_match_end()
            return
        self.schedule_cpu()

    def results_dialog(self, record: dict) -> HandEndDialog:
        raise NotImplementedError

    def match_end_dialog(self, record: dict) -> MatchEndDialog:
        raise NotImplementedError

    def new_hand_started(self) -> None:
        """A new deal: the cards appear one by one (any key skips it)."""
        self.start_deal_animation()

    # -- between hands
    def resume_state(self) -> None:
        """A resumed match that had already ended shows its end again."""
        local = self.local()
        if local is not None and local.over():
            self.pending_match_end = local.log()[-1]

    def set_status(self, text: str) -> None:
        text = in_style(text, self.style_name)       # a hint's «−30» is «-30» in the ASCII card style
        self.status = text
        for status in self.query(f"#{self.STATUS_ID}").results():
            status.update(text)

    def reason(self, exc: IllegalMove | Reply) -> str:
        return reason_text(exc)

    @classmethod
    def setup_screen(cls) -> Screen:
        raise NotImplementedError

    # -- the flow
    @property
    def level(self) -> str:
        cpu = [p for p in self.players if p.startswith("cpu:")]
        return cpu[0].split(":", 1)[1] if cpu else "normal"

    def play(self, move: Any, seat: int = HUMAN) -> bool:
        """Make the person's move; on refusal say why in the status line (the seat changed nothing)."""
        before = self.seat.view() if self.checker_on else None
        reply = self.seat.send(Play(move))
        if reply is not None and not reply.ok:
            self.refused(reply)
            return False
        self.say_advice("")              # the last hint or flag is about an older position
        if before is not None:
            self.start_check(before, move)
        self.schedule_cpu()
        return True

    def refused(self, reply: Reply) -> None:
        """A command of the seat's was refused: why, in the status line."""
        if reply.key == "wait_first":
            self.set_status(self.wait_text(reply.params["seat"]))
            return
        self.set_status(self.reason(reply))
        self.app.bell()

    def refusal(self, move: Any) -> IllegalMove | None:
        """Why the person may not make ``move`` now (None: they may)."""
        return self.seat.refusal(move)

    def schedule_cpu(self) -> None:
        self.seat.go_on()

    def human_may_move(self) -> bool:
        """False while the human is to move and a CPU's optional move out of turn at this position (the
        partner's cante) is being decided or shown (its pause): the human's move waits for it, so that a
        quick lead does not close the window on the partner, as it could not at a real table."""
        return self.seat.waiting_for() is None or self.seat.view().to_move != HUMAN

    def wait_text(self, seat: int) -> str:
        """The status line when the human moved while ``seat`` made its optional move first."""
        return t("wait_first_cpu")

    # -- pacing the seat's CPUs (seatlink.Pacing)
    def armed_move(self) -> Any:
        """A move the human armed in advance (Guiñote's exchange or cante) that is legal now, or None."""
        return None

    def cpu_delay(self, seat: int, move: Any) -> float:
        return self.app.settings.cpu_delay

    async def pause(self, seconds: float) -> None:
        if seconds <= 0:
            return
        self._skip_pause.clear()
        try:
            await asyncio.wait_for(self._skip_pause.wait(), timeout=seconds)
        except TimeoutError:
            pass

    def run_cpus(self, loop: Any) -> None:
        self.run_worker(loop, group="cpu", exclusive=True)

    @property
    def _cpu_running(self) -> bool:
        return self.seat.busy

    def on_key(self, event: events.Key) -> None:
        # Any key hurries the CPU along (the pause only lets you see each card land) and skips the deal.
        self._skip_pause.set()
        if self.dealing:
            self.finish_deal()
            event.stop()
            event.prevent_default()

    # -- taking a move back
    def action_take_back(self) -> None:
        """Take back your last play or pass and the CPU moves after it (see :mod:`cardtable.undo`)."""
        if self.app.settings.undo == "off":
            self.set_status(t("take_back_off"))
            return
        if (self.pending_results or self.pending_match_end or self.dealing or self.seat.busy
                or self.seat.view().to_move != HUMAN):
            self.set_status(t("take_back_wait"))
            return
        reply = self.seat.send(TakeBack())
        if reply is not None and not reply.ok:
            self.set_status(self.reason(reply))
            self.app.bell()

    def taken_back(self) -> None:
        """The seat's take-back was made: the table drops what it derived from the old position."""
        self.match_changed()
        self.refresh_table()
        self.set_status(t("take_back_done"))
        self.schedule_cpu()

    def match_changed(self) -> None:
        """A move was taken back: tables drop what they derived from the old position (selections,
        hints). The base has nothing to drop."""

    # -- saving
    def table_state(self) -> dict[str, Any]:
        """What the player answered at this table that no move records, saved with the match (a few
        plain values; see ``saves.envelope``). The base has nothing."""
        return {}

    def restore_table(self, state: dict[str, Any]) -> None:
        """A resumed table takes back :meth:`table_state` (from a file: check every value)."""

    def action_continue_later(self) -> None:
        if self.practice:
            self.dismiss(None)
            return
        self.autosave()
        self.app.pop_screen()

    def settings_changed(self) -> None:
        from cardtable.ui.bindings import translate_bindings

        translate_bindings(self)
        self.relabel_keys()
        self.refresh_table()
