"""What every game screen shares: the match, the CPU players off the event loop, autosave, the status line.

The searches (`hard` and `expert` decisions, hints, the play checker) run in the app's worker process
(``app.thinker``, cardtable.workers), so that they never hold the interpreter the keys are handled by;
the cheap `easy` and `normal` decisions run in a thread. Either way the screen only awaits them."""

from __future__ import annotations

import asyncio
import dataclasses
from typing import Any

from textual import events
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Static

from cardtable import workers
from cardtable.engine import IllegalMove, Match, next_auto_move
from cardtable.games import GameSpec
from cardtable.i18n import t
from cardtable.saves import SaveError
from cardtable.stats import HandClock
from cardtable.ui.numbers import in_style

HUMAN = 0


HINT_ROWS = 2       # the rows a hint may take on a table's status line (80×24 has room for no more)


def reason_text(exc: IllegalMove) -> str:
    """The refusal in the player's language when the game registered a translation, else English."""
    text = t(exc.key, **exc.params)
    return exc.reason if text == exc.key else text


class AdviceLine(Static):
    """The quiet line under the table: the play checker's notes and the search's hint (Guandan). Hidden
    while empty, so a table without advice keeps its layout; a second row when the text needs it (a
    Spanish hint with its reason passed 80 columns and was cut)."""

    DEFAULT_CSS = "AdviceLine { height: auto; max-height: 2; padding: 0 1; color: $text-muted; display: none; }"

    def say(self, text: str) -> None:
        self.update(text)
        self.display = bool(text)


class OptionalAsk:
    """``next_step``'s mark for a CPU that may make an optional move out of turn: its bot is asked about
    ``view`` off the event loop (:meth:`GameScreen.decide`), and None means it makes none."""

    __slots__ = ("view",)

    def __init__(self, view: Any) -> None:
        self.view = view


class _Ask:
    """Stands in for every CPU's bot in ``engine.next_auto_move``: an optional move out of turn is not
    chosen there (on the event loop) but marked, to be asked in :meth:`GameScreen._cpu_turn`."""

    level = None

    def choose(self, view: Any) -> OptionalAsk:
        return OptionalAsk(view)


_ASK = _Ask()


class GameScreen(Screen):
    """Base of the game screens. Subclasses render the table in :meth:`refresh_table`, name their hand
    widget (focused, and revealed card by card by the deal animation) and may pause the CPU (panels,
    prompts) by extending :meth:`cpu_may_move`."""

    # Not in the footer (it is full at 80 columns): the Keys screen and the README list it.
    BINDINGS = [Binding("u", "take_back", "take_back", show=False)]

    TITLE_KEY = ""          # i18n key of the screen title
    STATUS_ID = ""          # id of the status line (a Static)
    DEAL_STEP = 0.05        # seconds per card of the deal animation

    def __init__(self, spec: GameSpec, match: Match, players: list[str], slot: str, fresh: bool) -> None:
        super().__init__()
        self.spec = spec
        self._view: Any = None
        self.match = match
        self.players = players
        self.slot = slot
        self.fresh = fresh
        self.bots: dict[int, Any] = {}
        for seat, player in enumerate(players):
            if player.startswith("cpu:"):
                level = player.split(":", 1)[1]
                # The partner rule: the human's partner is told so when it is made (GameSpec.bot).
                partner_human = spec.partner_rule and players[(seat + 2) % 4] == "human"
                self.bots[seat] = spec.bot(level, True) if partner_human else spec.bot(level)
        self._skip_pause = asyncio.Event()
        self._cpu_running = False
        self.pending_results: dict | None = None      # a hand_end record waiting for its dialog
        self.pending_match_end: dict | None = None    # the match_end record
        self.status = ""
        self.dealing = False
        self._deal_timer: Any = None
        self.practice = False           # a replayed deal: neither saved over the real match nor counted
        self.undo_used = False          # a move was taken back in this match: its statistics count apart
        self.hand_clock = HandClock()
        self.read_only = False          # opened while another cardtable has the slot: never saved
        self.save_error: str | None = None   # why the last save failed (None: the last save worked)
        # The search's advice (cardtable.hints): the last hint and the position it is for, the position a
        # hint is being computed for, and the plays the checker flagged in this hand (shown in its summary).
        self._hint: tuple[tuple[Any, int], Any] | None = None
        self._hint_pending: tuple[Any, int] | None = None
        self.flags: list[Any] = []
        # A CPU's optional moves out of turn (Guiñote's cantes and claims) are asked off the loop too: the
        # position whose optional move is being decided or shown, and the CPUs that declined theirs here.
        self._optional_step: tuple[tuple[Any, int], int] | None = None
        self._declined: tuple[tuple[Any, int], tuple[int, ...]] | None = None
        # The hand just finished, as its last move left the table (the next one is already dealt in
        # ``match``): what the table shows while its results are up (see :meth:`human_view`).
        self._hand_over: Match | None = None

    @property
    def match(self) -> Match:
        return self._table_match

    @match.setter
    def match(self, match: Match) -> None:       # a take-back or a practice deal: a new match
        self._table_match = match
        self._view = None
        self._hand_over = None

    def human_view(self) -> Any:
        """What the human at this table sees, which is all the table draws from (issue 15: what a served
        or multi-human table will have). Made once per state: a move forgets it, and
        :meth:`fresh_view` (what ``refresh_table`` starts with) makes it again."""
        if self._view is None:
            if self.hand_over:           # the finished hand: nobody is to move in it
                self._view = dataclasses.replace(self._hand_over.view(HUMAN), to_move=None, legal=())
            else:
                self._view = self.match.view(HUMAN)
        return self._view

    @property
    def hand_over(self) -> bool:
        """Whether the table shows a finished hand behind its results (the next deal waits until the
        player goes on; its view names nobody to move)."""
        return self._hand_over is not None and self.pending_results is not None

    def _keep_finished_hand(self, records: list[dict]) -> None:
        """A move ended the hand and the next one was dealt: keep the finished hand to show."""
        kinds = [record["type"] for record in records]
        if "hand_end" in kinds and "deal" in kinds[kinds.index("hand_end"):]:
            from cardtable.undo import finished_hand

            self._hand_over = finished_hand(self.match)
            self._view = None

    def fresh_view(self) -> Any:
        self._view = None
        return self.human_view()

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
        if any(workers.searches(self.spec, bot) for bot in self.bots.values()):
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

    def after_move(self, seat: int, move: Any, records: list[dict]) -> None:
        """Called after each applied move with the log records it produced: notes the end of a hand or
        of the match, then shows the results or moves the game on. Subclasses add their own first."""
        self.note_move(seat, records)
        self.call_after_refresh(self.show_results if self.pending_results is not None else self.advance)

    def note_move(self, seat: int, records: list[dict]) -> None:
        """What every move's records must leave behind, whenever its results are shown: the hand clock,
        the pending results and match end, and a finished hand in the statistics."""
        if seat == HUMAN:
            self.hand_clock.tick()
        for record in records:
            if record["type"] == "hand_end":
                self.pending_results = record
            elif record["type"] == "match_end":
                self.pending_match_end = record
        self.record_statistics(records)

    def record_statistics(self, records: list[dict]) -> None:
        """A finished hand (and the match's end) goes to the statistics, in the background. Practice
        deals, read-only tables and CPU-only tables do not count."""
        hand = next((r for r in records if r["type"] == "hand_end"), None)
        if hand is None or self.practice or self.read_only or self.players[HUMAN] != "human":
            return
        end = next((r for r in records if r["type"] == "match_end"), None)
        self.app.statistics.submit(
            "record_hand", slot=self.slot, game=self.spec.name, level=self.level, seed=self.match.seed,
            options=self.match.options.to_dict(), number=hand["hand"], record=hand,
            seconds=self.hand_clock.lap(), undo=self.undo_used,
            outcome=self.match.outcome() if end is not None else None)

    def advance(self) -> None:
        """What happens next when nobody waits on a dialog: by default the CPU moves."""
        if self.pending_results is not None or self.dealing:
            return
        if self.pending_match_end is not None:
            self.show_match_end()
            return
        self.schedule_cpu()

    def results_dialog(self, record: dict) -> Screen:
        raise NotImplementedError

    def match_end_dialog(self, record: dict) -> Screen:
        raise NotImplementedError

    def new_hand_started(self) -> None:
        """A new deal: the cards appear one by one (any key skips it)."""
        self.start_deal_animation()

    # -- the deal animation
    def start_deal_animation(self) -> None:
        if self.app.settings.cpu_delay <= 0:
            return
        self.dealing = True
        self.hand_widget().revealed = 0
        self._deal_timer = self.set_interval(self.DEAL_STEP, self._deal_step)

    def _deal_step(self) -> None:
        widget = self.hand_widget()
        widget.revealed += 1
        self.refresh_table()
        if widget.revealed >= len(self.match.view(HUMAN).hand):
            self.finish_deal()

    def finish_deal(self) -> None:
        if self._deal_timer is not None:
            self._deal_timer.stop()
            self._deal_timer = None
        self.hand_widget().revealed = 99
        if self.dealing:
            self.dealing = False
            self.refresh_table()
            self.advance()

    def show_results(self) -> None:
        if self.pending_results is not None:
            self.refresh_table()
            dialog = self.results_dialog(self.pending_results)
            dialog.practice = self.practice
            dialog.flags = [self.flag_text(flag) for flag in self.flags
                            if flag.hand == self.pending_results.get("hand")]
            self.app.push_screen(dialog, callback=self._results_done)

    def _results_done(self, choice: str | None) -> None:
        if choice == "review":
            self.review_hand(self.pending_results["hand"])
            return
        if self.practice:                # a practice deal is one deal: back to the real match
            self.dismiss(None)
            return
        if choice == "replay":
            self.replay_deal(self.pending_results["hand"])
            return
        self.pending_results = None
        self._hand_over = None           # the next deal comes to the table now
        self._view = None
        if choice == "later":
            self.action_continue_later()
            return
        self.flags = []
        self.say_advice("")
        if self.pending_match_end is None:
            self.new_hand_started()
        self.refresh_table()
        self.advance()

    def show_match_end(self) -> None:
        from cardtable.stats import running_scores

        dialog = self.match_end_dialog(self.pending_match_end)
        dialog.chart = (f"chart_running_{self.spec.name}", running_scores(self.spec.name, self.match.log))
        dialog.ascii_only = self.style_name == "ascii"
        self.app.push_screen(dialog, callback=self._match_end_done)

    def _match_end_done(self, choice: str | None) -> None:
        self.app.pop_screen()
        if choice == "new":
            self.app.start_game(self.spec.name, ask=True)

    def resume_state(self) -> None:
        """A resumed match that had already ended shows its end again."""
        if self.match.is_over():
            self.pending_match_end = self.match.log[-1]

    def set_status(self, text: str) -> None:
        text = in_style(text, self.style_name)       # a hint's «−30» is «-30» in the ASCII card style
        self.status = text
        for status in self.query(f"#{self.STATUS_ID}").results():
            status.update(text)

    def reason(self, exc: IllegalMove) -> str:
        return reason_text(exc)

    @classmethod
    def setup_screen(cls) -> Screen:
        raise NotImplementedError

    # -- the flow
    @property
    def level(self) -> str:
        cpu = [p for p in self.players if p.startswith("cpu:")]
        return cpu[0].split(":", 1)[1] if cpu else "normal"

    def play(self, move: Any, seat: int | None = None) -> bool:
        """Apply the human's (or any) move; on refusal say why in the status line and change nothing."""
        seat = self.match.to_move() if seat is None else seat
        if seat == HUMAN and not self.human_may_move():
            self.set_status(self.wait_text(self._optional_step[1]))
            return False
        start = len(self.match.log)
        before = self.match.view(seat) if seat == HUMAN and self.checker_on else None
        try:
            self.match.apply(move, seat)
        except IllegalMove as exc:
            self.set_status(self.reason(exc))
            self.app.bell()
            return False
        if seat == HUMAN:
            self.say_advice("")          # the last hint or flag is about an older position
        if before is not None:
            self.start_check(before, move)
        self._view = None
        self.autosave(quiet=True)
        self._keep_finished_hand(self.match.log[start:])
        self.after_move(seat, move, self.match.log[start:])
        self.refresh_table()
        self.schedule_cpu()
        return True

    # -- off the event loop
    async def think(self, function: Any, *args: Any) -> Any:
        """``function(*args)`` (one of cardtable.workers') in the app's worker process, awaited from a
        thread that only waits on its pipe; computed in that thread if the worker is not to be had.
        Raises what the function raises, and ``workers.ThinkerClosed`` when the app is leaving."""
        return await asyncio.to_thread(self.app.thinker.call, function, *args)

    async def decide(self, seat: int, view: Any) -> Any:
        """The CPU's move at ``seat``: a search level's in the worker process (the same move: the
        worker builds the same bot), the others in a thread."""
        bot = self.bots[seat]
        level = workers.searches(self.spec, bot)
        if level is not None:
            seating = (True,) if getattr(bot, "spare_partner", False) else ()   # its partner is the human
            return await self.think(workers.decide, self.spec.name, level, view, *seating)
        return await asyncio.to_thread(bot.choose, view)

    # -- the search's advice: hints and the play checker, computed in the worker like the CPU's moves
    def position(self) -> tuple[Any, int]:
        """What a hint is for: this match object (a take-back replaces it) and its number of moves."""
        return (self.match, len(self.match.moves))

    def _same_position(self, key: tuple[Any, int]) -> bool:
        return key[0] is self.match and key[1] == len(self.match.moves)

    def request_hint(self, again: bool = True) -> bool:
        """Ask the search what to play here (the `hard` level, see cardtable.hints) in the worker;
        :meth:`show_hint` gets the answer if the position has not changed meanwhile. A second press while
        it thinks changes nothing; a press after it answered shows the same hint again at once, or the
        next hint when that one spared the partner's play (the partner rule: the search's own choice is
        asked for then; ``again`` False: the same hint, for a key that takes it). Returns whether a hint
        is on its way (False: not the human's turn, or no hints for this game)."""
        advice = self.spec.advice
        if advice is None or self.match.to_move() != HUMAN:
            return False
        key = self.position()
        over_partner = False
        if self._hint is not None and self._same_position(self._hint[0]):
            if not again or not getattr(self._hint[1], "spared_partner", False):
                self.show_hint(self._hint[1])
                return True
            over_partner = True
        if self._hint_pending is not None and self._same_position(self._hint_pending):
            return True
        self._hint_pending = key
        self.hint_thinking()
        self.run_worker(self._hint_turn(key, self.match.view(HUMAN), over_partner), group="hint")
        return True

    async def _hint_turn(self, key: tuple[Any, int], view: Any, over_partner: bool = False) -> None:
        try:
            hint = await self.think(workers.hint, self.spec.name, view, *((True,) if over_partner else ()))
        except Exception:  # noqa: BLE001 - advice is never worth a crash (a table edited by hand, a sampler limit)
            hint = None
        if self._hint_pending is key:
            self._hint_pending = None
        if not self.is_mounted or not self._same_position(key):
            return
        if hint is None:
            self.hint_failed()
            return
        self._hint = (key, hint)
        self.show_hint(hint)

    def hint_thinking(self) -> None:
        """While the search thinks about a hint (the status line says so; tables may do otherwise)."""
        self.set_status(t("hint_thinking"))

    def hint_failed(self) -> None:
        self.set_status(t("hint_none"))

    def show_hint(self, hint: Any) -> None:
        """Show a hint that just arrived (or again): the tables select its cards and say why."""
        raise NotImplementedError

    def move_text(self, move: Any) -> str:
        """A move as the table names it in hints and checker notes."""
        return str(move)

    def param_text(self, value: Any) -> str:
        """A card, cards or a move among a reason's parameters, as the table writes them."""
        if type(value) is tuple:         # several cards (a card itself may be a named tuple)
            return " ".join(self.param_text(v) for v in value)
        return self.move_text(value)

    def short_param_text(self, value: Any) -> str:
        """A reason's parameter in as few cells as the table can write it (for a hint that would not fit
        its two rows otherwise); the table's usual form unless it has a shorter one."""
        return self.param_text(value)

    def fits(self, text: str, rows: int) -> bool:
        """Whether ``text`` wraps onto at most ``rows`` rows of a status line (padding 1 each side)."""
        from rich.text import Text as RichText

        width = max(20, self.size.width - 2)
        return len(RichText(text).wrap(self.app.console, width)) <= rows

    def hint_text(self, hint: Any, with_gain: bool = True) -> str:
        """«Hint: 7♣ — ducks under the 9♣ (+12 points vs 10♣)» in the player's language. The status line
        wraps it onto a second row (Spanish names are long: «el Caballo de espadas»); a reason naming so
        many cards that even two rows are too few writes them short («Ce»)."""
        from cardtable.hints import render

        advice = self.spec.advice
        move = self.move_text(hint.move)
        line = t("hint_line", move=move, why=render(hint.reason, self.param_text))
        if not self.fits(line, HINT_ROWS):
            line = t("hint_line", move=move, why=render(hint.reason, self.short_param_text))
        if getattr(hint, "spared_partner", False):     # the partner rule's pass: say how to ask for more
            more = f"{line} · {t('hint_next_over_partner')}"
            return more if self.fits(more, HINT_ROWS) else line
        if with_gain and hint.gain is not None and hint.runner_up is not None and hint.gain >= advice.GAIN_MIN:
            gain = advice.gain_text(hint.gain, self.move_text(hint.runner_up))
            longer = t("hint_with_gain", line=line, gain=gain)
            if len(longer) <= max(40, self.size.width - 2):   # the statistics only where they fit
                return longer
        return line

    @property
    def checker_on(self) -> bool:
        """The play checker's setting: «auto» checks at easy and normal tables, not at hard ones."""
        setting = getattr(self.app.settings, "checker", "auto")
        if self.spec.advice is None or setting == "off" or self.players[HUMAN] != "human":
            return False
        return setting == "on" or self.level in ("easy", "normal")

    def start_check(self, view: Any, move: Any) -> None:
        """Check the human's play ``move`` (made in ``view``) in the worker: never for a forced move,
        never interrupting — a flag only writes the quiet line under the table."""
        if len(view.legal) <= 1:
            return
        self.run_worker(self._check_turn(view, move), group="checker")

    async def _check_turn(self, view: Any, move: Any) -> None:
        try:
            flag = await self.think(workers.check, self.spec.name, view, move)
        except Exception:  # noqa: BLE001 - the checker is never worth a crash
            return
        if flag is None or not self.is_mounted:
            return
        self.flags.append(flag)
        self.say_advice(self.flag_text(flag))

    def flag_text(self, flag: Any) -> str:
        advice = self.spec.advice
        return advice.cost_text(self.move_text(flag.better), flag.cost)

    def say_advice(self, text: str) -> None:
        for line in self.query(AdviceLine).results():
            line.say(in_style(text, self.style_name))

    def armed_move(self) -> Any:
        """A move the human armed in advance (Guiñote's exchange or cante) that is legal now, or None."""
        return None

    def next_step(self) -> tuple[int, Any] | None:
        """What happens next without asking the human, in ``engine.next_auto_move``'s order, decided
        nothing on the event loop: an armed move of theirs, a forced move, then ``(seat, OptionalAsk)`` for a
        CPU that may make an optional move out of turn (a partner's cante or claim: :meth:`_cpu_turn` asks
        its bot off the loop, like a decision), or ``(seat, None)`` for the CPU to move. A CPU that
        declined its optional move at this position is not asked again (its bot would answer the same)."""
        armed = self.armed_move()
        declined = self._declined_here()

        def bot_for(seat: int) -> Any:
            return _ASK if seat in self.bots and seat not in declined else None

        return next_auto_move(self.match, bot_for, armed=None if armed is None else (HUMAN, armed),
                              decide=False)

    def schedule_cpu(self) -> None:
        if self._cpu_running or not self.cpu_may_move():
            return
        if self.next_step() is None:
            return
        self._cpu_running = True
        self.run_worker(self._cpu_turn, group="cpu", exclusive=True)   # called when it starts

    def human_may_move(self) -> bool:
        """False while the human is to move and a CPU's optional move out of turn at this position (the
        partner's cante) is being decided or shown (its pause): the human's move waits for it, so that a
        quick lead does not close the window on the partner, as it could not at a real table."""
        step = self._optional_step
        return step is None or not self._same_position(step[0]) or self.match.to_move() != HUMAN

    def wait_text(self, seat: int) -> str:
        """The status line when the human moved while ``seat`` made its optional move first."""
        return t("wait_first_cpu")

    async def _cpu_turn(self) -> None:
        try:
            while self.cpu_may_move():
                step = self.next_step()
                if step is None:
                    return
                seat, move = step
                key = self.position()
                if isinstance(move, OptionalAsk):
                    self._optional_step = (key, seat)
                if move is None or isinstance(move, OptionalAsk):
                    view = move.view if isinstance(move, OptionalAsk) else self.match.view(seat)
                    try:
                        answer = await self.decide(seat, view)
                    except workers.ThinkerClosed:     # the app is leaving
                        return
                    if not self.is_mounted:
                        return
                    if not self._same_position(key) or self.armed_move() is not None:
                        continue                      # the human moved or armed a move meanwhile: ask again
                    if answer is None:                # an optional move declined
                        self._declined = (key, (*self._declined_here(), seat))
                        self._end_optional_step()
                        continue
                    move = answer
                if seat != HUMAN:
                    await self._pause(self.cpu_delay(seat, move))
                self._end_optional_step()
                if not self.is_mounted:
                    return
                if not self._same_position(key):
                    continue                          # a move of the human's came first: look again
                if self.match.why_illegal(move, seat) is not None:
                    return
                start = len(self.match.log)
                self.match.apply(move, seat)
                self._view = None
                self.autosave(quiet=True)
                self._keep_finished_hand(self.match.log[start:])
                self.after_move(seat, move, self.match.log[start:])
                self.refresh_table()
        finally:
            self._cpu_running = False
            self._end_optional_step()

    def _end_optional_step(self) -> None:
        """The CPU's optional move is made or declined: the human may move, and «A moment…» goes."""
        step, self._optional_step = self._optional_step, None
        if step is not None and self.status == self.wait_text(step[1]):
            self.set_status("")

    def _declined_here(self) -> tuple[int, ...]:
        return self._declined[1] if self._declined and self._same_position(self._declined[0]) else ()

    def cpu_delay(self, seat: int, move: Any) -> float:
        return self.app.settings.cpu_delay

    async def _pause(self, seconds: float) -> None:
        if seconds <= 0:
            return
        self._skip_pause.clear()
        try:
            await asyncio.wait_for(self._skip_pause.wait(), timeout=seconds)
        except TimeoutError:
            pass

    def on_key(self, event: events.Key) -> None:
        # Any key hurries the CPU along (the pause only lets you see each card land) and skips the deal.
        self._skip_pause.set()
        if self.dealing:
            self.finish_deal()
            event.stop()
            event.prevent_default()

    # -- saving
    # -- taking a move back
    def action_take_back(self) -> None:
        """Take back your last play or pass and the CPU moves after it (see :mod:`cardtable.undo`)."""
        from cardtable.undo import take_back, undo_floor

        if self.app.settings.undo == "off":
            self.set_status(t("take_back_off"))
            return
        if (self.pending_results or self.pending_match_end or self.dealing or self._cpu_running
                or self.match.to_move() != HUMAN):
            self.set_status(t("take_back_wait"))
            return
        back = take_back(self.match, HUMAN)
        if back is None:
            mine = any(seat == HUMAN for seat, _ in self.match.moves)
            self.set_status(t("take_back_floor" if mine and undo_floor(self.match, HUMAN) > 0
                              else "take_back_none"))
            self.app.bell()
            return
        self.match = back
        if not self.undo_used and not (self.practice or self.read_only):
            self.app.statistics.submit("mark_undo", self.slot, self.match.seed)
        self.undo_used = True
        self.autosave(quiet=True)
        self.match_changed()
        self.refresh_table()
        self.set_status(t("take_back_done"))
        self.schedule_cpu()

    def match_changed(self) -> None:
        """The match object was replaced (a move taken back): tables drop what they derived from the
        old one (selections, hints). The base has nothing to drop."""

    def autosave(self, quiet: bool = False) -> bool:
        if self.read_only or self.practice:
            return False
        try:
            self.app.store.save(self.slot, self.match, self.players, undo=self.undo_used,
                                table=self.table_state())
        except SaveError as exc:
            self.save_error = exc.text
            self.notify(t("save_failed", reason=exc.text), severity="error", markup=False)   # cleaned by SaveError
            return False
        self.save_error = None
        if not quiet:
            self.notify(t("saved_to", slot=self.slot), markup=False)
        return True

    def table_state(self) -> dict[str, Any]:
        """What the player answered at this table that no move records, saved with the match (a few
        plain values; see ``saves.envelope``). The base has nothing."""
        return {}

    def restore_table(self, state: dict[str, Any]) -> None:
        """A resumed table takes back :meth:`table_state` (from a file: check every value)."""

    def on_unmount(self) -> None:
        if not (self.read_only or self.practice):
            self.app.store.unlock(self.slot)     # another cardtable may open the slot now

    def action_continue_later(self) -> None:
        if self.practice:
            self.dismiss(None)
            return
        self.autosave()
        self.app.pop_screen()

    # -- reviewing the hand just played
    def review_hand(self, hand: int) -> None:
        """Step through the hand just finished trick by trick; its results come back afterwards. The
        review replays the match up to that hand: in a thread, over a copy of the match."""
        self.run_worker(self._open_review(self.match.clone(), hand), group="review", exclusive=True)

    async def _open_review(self, match: Match, hand: int) -> None:
        from cardtable.review import review
        from cardtable.ui.review import ReviewScreen

        result = await asyncio.to_thread(review, match, hand)
        if self.is_mounted:
            self.app.push_screen(ReviewScreen(result, self.style_name), callback=lambda _: self.show_results())

    # -- replaying a deal
    def replay_deal(self, hand: int) -> None:
        """Play the same cards of hand ``hand`` again, as practice: another table over a copy of the
        match at that deal, never saved and never counted. When it ends, this hand's results come back."""
        from cardtable.undo import deal_again

        practice = type(self)(self.spec, deal_again(self.match, hand), self.players, self.slot, fresh=True)
        practice.practice = True
        self.app.push_screen(practice, callback=lambda _: self.show_results())


    def settings_changed(self) -> None:
        from cardtable.ui.bindings import translate_bindings

        translate_bindings(self)
        self.relabel_keys()
        self.refresh_table()

    def relabel_keys(self) -> None:
        """After the bindings are translated: labels that say what a key does now (see :meth:`relabel`)."""

    def relabel(self, action: str, label: str) -> None:
        """The key bar names what the keys bound to ``action`` do now (``label``, already translated):
        «⏎ Lift» until the card under the cursor is lifted, then «⏎ Play»."""
        bindings = self._bindings.key_to_bindings
        changed = False
        for key, bound in bindings.items():
            if any(b.action == action and b.description != label for b in bound):
                bindings[key] = [dataclasses.replace(b, description=label) if b.action == action else b
                                 for b in bound]
                changed = True
        if changed and self.is_mounted:
            self.refresh_bindings()


class LiftThenPlay:
    """Gong Zhu's and Guiñote's Enter: the first press lifts the card under the cursor, the second plays
    it (docs/decisions.md «Enter lifts, then plays»). The key bar says which of the two Enter does now;
    the table calls :meth:`label_choose` when the cursor or the lifted card may have changed."""

    PLAY_LABEL = ""         # i18n key of «Play» on this table

    def label_choose(self, *_: Any) -> None:
        hand = self.hand_widget()
        ready = hand.lifted is not None and hand.lifted == hand.cursor
        self.relabel("choose", t(self.PLAY_LABEL) if ready else t("choose_lift"))

    def watch_hand(self) -> None:
        """Relabel Enter whenever the cursor moves or a card is lifted or put down (keys, clicks, hints)."""
        hand = self.hand_widget()
        self.watch(hand, "lifted", self.label_choose, init=False)
        self.watch(hand, "cursor", self.label_choose, init=False)

    def relabel_keys(self) -> None:
        self.label_choose()
