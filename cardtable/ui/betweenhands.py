"""Between the hands of a table: the results and the match's end, and what a terminal's own table
offers from them — the review of the hand just played and the replay of its deal, as practice."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, cast

from cardtable.engine import Match
from cardtable.table import NextHand

if TYPE_CHECKING:
    from cardtable.ui.app import CardTableApp
    from cardtable.ui.dialogs import HandEndDialog, MatchEndDialog
    from cardtable.ui.seatlink import LocalSeat


class BetweenHands:
    """The dialogs between hands for a :class:`GameScreen` (mixed into it)."""

    if TYPE_CHECKING:        # the screen's (Textual's and GameScreen's): declared for the type checker only
        seat: Any
        spec: Any
        app: CardTableApp
        players: list[str]
        slot: str
        practice: bool
        is_mounted: bool
        flags: list[Any]
        pending_results: dict | None
        pending_match_end: dict | None

        @property
        def style_name(self) -> str: ...

        def local(self) -> LocalSeat | None: ...

        def refresh_table(self) -> None: ...

        def advance(self) -> None: ...

        def new_hand_started(self) -> None: ...

        def say_advice(self, text: str) -> None: ...

        def flag_text(self, flag: Any) -> str: ...

        def action_continue_later(self) -> None: ...

        def results_dialog(self, record: dict) -> HandEndDialog: ...

        def match_end_dialog(self, record: dict) -> MatchEndDialog: ...

        def __init__(self, *args: Any, **kwargs: Any) -> None: ...

        def dismiss(self, result: Any = None) -> Any: ...

        def run_worker(self, *args: Any, **kwargs: Any) -> Any: ...

    def show_results(self) -> None:
        if self.pending_results is not None:
            self.refresh_table()
            dialog = self.results_dialog(self.pending_results)
            dialog.practice = self.practice
            dialog.flags = [self.flag_text(flag) for flag in self.flags
                            if flag.hand == self.pending_results.get("hand")]
            self.app.push_screen(dialog, callback=self._results_done)

    def _results_done(self, choice: str | None) -> None:
        results = cast(dict, self.pending_results)    # the results just answered: kept until here
        if choice == "review":
            self.review_hand(results["hand"])
            return
        if self.practice:                # a practice deal is one deal: back to the real match
            self.dismiss(None)
            return
        if choice == "replay":
            self.replay_deal(results["hand"])
            return
        self.pending_results = None
        if self.pending_match_end is None:
            self.seat.send(NextHand())   # the next deal comes to the table now
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

        dialog = self.match_end_dialog(cast(dict, self.pending_match_end))   # (shown when set)
        dialog.chart = (f"chart_running_{self.spec.name}", running_scores(self.spec.name, self.hand_ends()))
        dialog.ascii_only = self.style_name == "ascii"
        self.app.push_screen(dialog, callback=self._match_end_done)

    def hand_ends(self) -> list[dict]:
        """The match's ``hand_end`` records so far (the running-score chart's): a terminal's own table
        reads its log; a shared table's screen, the records its seat was sent."""
        local = self.local()
        return [r for r in local.log() if r.get("type") == "hand_end"] if local is not None else []

    def _match_end_done(self, choice: str | None) -> None:
        self.app.pop_screen()
        if choice == "new":
            self.app.start_game(self.spec.name, ask=True)

    # -- the solo services: reviewing the hand just played, replaying its deal
    def review_hand(self, hand: int) -> None:
        """Step through the hand just finished trick by trick; its results come back afterwards. The
        review replays the match up to that hand: in a thread, over a copy of the match."""
        local = self.local()
        if local is not None:
            self.run_worker(self._open_review(local.copy(), hand), group="review", exclusive=True)

    async def _open_review(self, match: Match, hand: int) -> None:
        from cardtable.review import review
        from cardtable.ui.review import ReviewScreen

        result = await asyncio.to_thread(review, match, hand)
        if self.is_mounted:
            self.app.push_screen(ReviewScreen(result, self.style_name), callback=lambda _: self.show_results())

    def replay_deal(self, hand: int) -> None:
        """Play the same cards of hand ``hand`` again, as practice: another table over a copy of the
        match at that deal, never saved and never counted. When it ends, this hand's results come back."""
        local = self.local()
        if local is None:
            return
        practice = type(self)(self.spec, local.deal_again(hand), self.players, self.slot, fresh=True)
        practice.practice = True
        self.app.push_screen(practice, callback=lambda _: self.show_results())
