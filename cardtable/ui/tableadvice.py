"""The search's advice at a table: hints and the play checker, asked of the table's seat (its
``hint`` and ``check``: in the app's worker at a terminal's own table), and how the table writes them."""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING, Any

from textual.widgets import Static

from cardtable.i18n import t
from cardtable.ui.numbers import in_style

if TYPE_CHECKING:
    from cardtable.ui.app import CardTableApp

HUMAN = 0
HINT_ROWS = 2       # the rows a hint may take on a table's status line (80×24 has room for no more)


class AdviceLine(Static):
    """The quiet line under the table: the play checker's notes and the search's hint (Guandan). Hidden
    while empty, so a table without advice keeps its layout; a second row when the text needs it (a
    Spanish hint with its reason passed 80 columns and was cut)."""

    DEFAULT_CSS = "AdviceLine { height: auto; max-height: 2; padding: 0 1; color: $text-muted; display: none; }"

    def say(self, text: str) -> None:
        self.update(text)
        self.display = bool(text)


class TableAdvice:
    """Hints and the checker for a :class:`GameScreen` (mixed into it: ``seat``, ``spec``, ``app``,
    ``set_status`` and the move texts are the screen's)."""

    if TYPE_CHECKING:        # the screen's (Textual's and GameScreen's): declared for the type checker only
        seat: Any
        spec: Any
        app: CardTableApp
        size: Any
        is_mounted: bool
        flags: list[Any]
        _hint: tuple[Hashable, Any] | None
        _hint_pending: Hashable | None
        query: Any       # (DOMNode's overloads)

        @property
        def style_name(self) -> str: ...

        @property
        def level(self) -> str: ...

        def set_status(self, text: str) -> None: ...

        def run_worker(self, *args: Any, **kwargs: Any) -> Any: ...

    def position(self) -> Hashable:
        """What a hint is for: the seat's table as it is now (a move or a take-back changes it)."""
        return self.seat.position()

    def _same_position(self, key: Hashable) -> bool:
        return key == self.seat.position()

    def request_hint(self, again: bool = True) -> bool:
        """Ask the search what to play here (the `hard` level, see cardtable.hints) in the worker;
        :meth:`show_hint` gets the answer if the position has not changed meanwhile. A second press while
        it thinks changes nothing; a press after it answered shows the same hint again at once, or the
        next hint when that one spared the partner's play (the partner rule: the search's own choice is
        asked for then; ``again`` False: the same hint, for a key that takes it). Returns whether a hint
        is on its way (False: not the human's turn, or no hints for this game)."""
        if self.spec.advice is None or self.seat.view().to_move != HUMAN:
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
        self.run_worker(self._hint_turn(key, over_partner), group="hint")
        return True

    async def _hint_turn(self, key: Hashable, over_partner: bool = False) -> None:
        try:
            reply = await self.seat.hint(over_partner)
            hint = reply.data if reply.ok else None
        except Exception:  # noqa: BLE001 - advice is never worth a crash (a table edited by hand, a sampler limit)
            hint = None
        if self._hint_pending == key:
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
        if self.spec.advice is None or setting == "off":
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
            flag = await self.seat.check(view, move)
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
