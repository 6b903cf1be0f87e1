"""Hand review: step through a finished hand trick by trick with all four hands shown (←/→, Home/End),
from a hand summary or, for a finished match, from the saved games list (choose a hand, then review).

The steps come from :mod:`cardtable.review`; this module only shows them. Each game draws its steps in
``review`` beside its table (``cardtable.ui.<game>.review``, found through the registry's
``GameSpec.ui``): a ``RENDERER`` (a :class:`cardtable.ui.reviewdraw.Renderer`) and ``hand_result``."""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Header, Label, OptionList, Static
from textual.widgets.option_list import Option

from cardtable import games, safetext
from cardtable.i18n import t
from cardtable.review import HandReview, Step
from cardtable.ui.bindings import translate_bindings
from cardtable.ui.footer import Footer
from cardtable.ui.guard import AnswerOnce
from cardtable.ui.reviewdraw import Renderer, symbol
from cardtable.ui.widgets import MenuList


# ---------------------------------------------------------------- each game's drawing
def game_review(game: str) -> ModuleType:
    """The game's review module: ``review`` in the package of its table (``GameSpec.ui``). Importing it
    imports that package, which registers the game's strings: the review may be opened from the saved
    games list before any table of that game was."""
    package = games.get(game).ui.partition(":")[0]
    return importlib.import_module(f"{package}.review")


def renderer_for(review: HandReview, style: str) -> Renderer:
    """The game's drawing of ``review``'s steps, in the card ``style``."""
    renderer: Renderer = game_review(review.game).RENDERER(review, style)
    return renderer


def hand_result(game: str, record: dict[str, Any], style: str = "colour") -> str:
    """A short line for a finished hand in the hand list (said by the game's review module)."""
    line: str = game_review(game).hand_result(record, style)
    return line


# ---------------------------------------------------------------- the screen
class ReviewScreen(Screen):
    """One finished hand, step by step: the deal, then each trick. ←/→ step, Home/End jump, Esc back;
    the buttons below do the same with the mouse."""

    BINDINGS = [
        Binding("left", "step(-1)", "review_previous"),
        Binding("right", "step(1)", "review_next"),
        Binding("home", "jump(0)", "review_first"),
        Binding("end", "jump(-1)", "review_last"),
        Binding("escape,q", "back", "back"),
    ]
    DEFAULT_CSS = """
    ReviewScreen #review-body { height: 1fr; padding: 0 1; scrollbar-size-vertical: 1; }
    ReviewScreen #review-heading { margin-bottom: 1; }
    ReviewScreen #review-hands { margin-bottom: 1; }
    ReviewScreen #review-plays { margin-bottom: 1; }
    ReviewScreen #review-notes { margin-bottom: 1; }
    ReviewScreen #review-buttons { height: 1; align: center middle; }
    ReviewScreen #review-buttons Button { margin: 0 1; min-width: 10; }
    """

    def __init__(self, review: HandReview, style: str = "colour", index: int = 0) -> None:
        super().__init__()
        self.review = review
        self.renderer = renderer_for(review, style)
        self.index = max(0, min(index, len(review.steps) - 1))

    @property
    def step(self) -> Step:
        return self.review.steps[self.index]

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll(id="review-body"):
            yield Static(id="review-heading")
            yield Static(id="review-hands")
            yield Static(id="review-plays")
            yield Static(id="review-notes")
            yield Static(id="review-score")
        with Horizontal(id="review-buttons"):
            style = self.renderer.style
            yield Button(f"{symbol('first', style)} {t('review_first')}", id="review-first", compact=True)
            yield Button(f"{symbol('previous', style)} {t('review_previous')}", id="review-previous", compact=True)
            yield Button(f"{t('review_next')} {symbol('next', style)}", id="review-next", compact=True)
            yield Button(f"{t('review_last')} {symbol('last', style)}", id="review-last", compact=True)
            yield Button(t("back"), id="review-back", compact=True)
        yield Footer()

    def on_mount(self) -> None:
        translate_bindings(self)
        self.sub_title = t("review_title", game=t(f"game_{self.review.game}"), hand=self.review.hand)
        self.show()
        self.query_one("#review-next", Button).focus()

    def show(self) -> None:
        step, renderer = self.step, self.renderer
        self.query_one("#review-heading", Static).update(renderer.heading(step))
        self.query_one("#review-hands", Static).update(renderer.hands(step))
        self.query_one("#review-plays", Static).update(renderer.plays(step))
        notes = renderer.notes(step)
        self.query_one("#review-notes", Static).update(notes)
        self.query_one("#review-notes", Static).display = bool(notes.plain)
        score = renderer.score(step) if step.number else Text()
        self.query_one("#review-score", Static).update(score)
        last = len(self.review.steps) - 1
        for name, disabled in (("first", self.index == 0), ("previous", self.index == 0),
                               ("next", self.index == last), ("last", self.index == last)):
            self.query_one(f"#review-{name}", Button).disabled = disabled

    def action_step(self, delta: int) -> None:
        self.go(self.index + delta)

    def action_jump(self, index: int) -> None:
        self.go(index if index >= 0 else len(self.review.steps) - 1)

    def go(self, index: int) -> None:
        index = max(0, min(index, len(self.review.steps) - 1))
        if index != self.index:
            self.index = index
            self.show()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        actions = {"review-first": lambda: self.action_jump(0), "review-previous": lambda: self.action_step(-1),
                   "review-next": lambda: self.action_step(1), "review-last": lambda: self.action_jump(-1),
                   "review-back": self.action_back}
        actions[event.button.id or ""]()
        if event.button.disabled:        # the end reached: keep the keyboard focus on a live button
            self.query_one("#review-back" if self.index else "#review-next", Button).focus()

    def action_back(self) -> None:
        if self.is_current:
            self.dismiss(None)


# ---------------------------------------------------------------- choosing a hand of a saved match
class HandPickerDialog(AnswerOnce):
    """The finished hands of a saved match: Enter reviews the one chosen (the list stays open behind the
    review, so another hand can be chosen after it); Esc goes back."""

    BINDINGS = [Binding("escape", "close", "back")]
    DEFAULT_CSS = """
    HandPickerDialog .dialog { width: 76; }
    HandPickerDialog OptionList { height: auto; max-height: 14; }
    """

    def __init__(self, match: Any, style: str, title: str) -> None:
        super().__init__()
        self.match = match
        self.style = style
        self.title_text = title
        from cardtable.review import finished_hands

        self.records = finished_hands(match)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(Text(self.title_text), classes="dialog-title")
            if not self.records:
                yield Static(t("review_no_hands"))
            else:
                yield MenuList(*(Option(Text(t("review_pick_row", hand=r["hand"],
                                                  result=hand_result(self.match.game, r, self.style))), id=str(r["hand"]))
                                   for r in self.records), id="review-hands-list")
            yield Label(t("review_pick_hint"), classes="dialog-hint")
            with Horizontal(classes="dialog-buttons"):
                yield Button(t("back"), id="picker-back")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "picker-back":
            self.action_close()

    def on_mount(self) -> None:
        translate_bindings(self)
        if self.records:
            option_list = self.query_one(OptionList)
            option_list.highlighted = len(self.records) - 1      # the last hand, where the match ended
            option_list.focus()

    _opening = False        # a review is being opened or is open: a second Enter typed ahead waits

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if self.app.screen is not self or self._opening:
            return
        self.open_review(int(event.option.id or 0))

    def open_review(self, hand: int) -> None:
        """Review hand ``hand``: the replay runs in a thread (a long match takes a moment)."""
        self._opening = True
        self.run_worker(self._open(hand), group="review", exclusive=True)

    async def _open(self, hand: int) -> None:
        import asyncio

        from cardtable.review import NotReviewable, review

        try:
            result = await asyncio.to_thread(review, self.match, hand)
        except NotReviewable as exc:
            self._opening = False
            self.notify(t("review_cannot", reason=safetext.markup(str(exc))), severity="error")
            return
        if not self.is_mounted:
            return
        self.app.push_screen(ReviewScreen(result, self.style), callback=self._review_closed)

    def _review_closed(self, _result: Any) -> None:
        self._opening = False

    def action_close(self) -> None:
        self.dismiss(None)
