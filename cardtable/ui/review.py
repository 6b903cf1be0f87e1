"""Hand review: step through a finished hand trick by trick with all four hands shown (←/→, Home/End),
from a hand summary or, for a finished match, from the saved games list (choose a hand, then review).

The steps come from :mod:`cardtable.review`; this module only draws them. Each game has a small
renderer for its cards, names and score lines."""

from __future__ import annotations

import importlib
from typing import Any

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Header, Label, OptionList, Static
from textual.widgets.option_list import Option

from cardtable import safetext
from cardtable.i18n import t
from cardtable.review import HandReview, Step
from cardtable.ui import cells
from cardtable.ui.bindings import translate_bindings
from cardtable.ui.footer import Footer
from cardtable.ui.guard import AnswerOnce
from cardtable.ui.numbers import signed
from cardtable.ui.widgets import MenuList

YOU = 0
NAME_WIDTH = 10
# Symbols, and their ASCII stand-ins for terminals that mis-measure anything else (the ASCII card style).
SYMBOLS = {"then": ("  →  ", "  ->  "), "out": ("★", "*"), "none": ("—", "-"),
           "first": ("⏮", "|<"), "previous": ("◀", "<"), "next": ("▶", ">"), "last": ("⏭", ">|")}


def symbol(name: str, style: str) -> str:
    return SYMBOLS[name][1 if style == "ascii" else 0]


# ---------------------------------------------------------------- per-game drawing
class Renderer:
    """How one game draws a step. Subclasses give the names, the cards and the game's own lines."""


    def __init__(self, review: HandReview, style: str) -> None:
        self.review = review
        self.style = style
        load_strings(review.game)

    def seat_name(self, seat: int) -> str:
        raise NotImplementedError

    def card(self, card: Any, selected: bool = False) -> Text:
        raise NotImplementedError

    def cards(self, cards: Any, selected: Any = ()) -> Text:
        """Cards in a row; those in ``selected`` (a multiset, as a list) reversed."""
        marked = list(selected)
        text = Text()
        for index, card in enumerate(cards):
            if index:
                text.append(" ")
            hit = card in marked
            if hit:
                marked.remove(card)
            text.append_text(self.card(card, selected=hit))
        return text

    def heading(self, step: Step) -> Text:
        total = len(self.review.steps) - 1
        if step.number == 0:
            text = Text(t("review_deal"), style="bold")
        else:
            text = Text(t("review_trick", n=step.number, total=total), style="bold")
        if step.leader is not None:
            text.append(f" · {self.led(step.leader)}")
        if step.winner is not None:
            text.append(" · ")
            text.append(self.won(step.winner), style="bold green" if step.winner % self.sides == 0 else "bold")
        return text

    def led(self, seat: int) -> str:
        """«you lead» / «West leads»."""
        return t("review_led_you") if seat == YOU else t("review_led", name=self.seat_name(seat))

    def won(self, seat: int) -> str:
        """«You take the trick» / «West takes the trick»."""
        raise NotImplementedError

    sides = 4                 # the winner line is green when it is you (or your pair: 2)

    def played_by(self, step: Step, seat: int) -> list[Any]:
        """The cards marked in ``seat``'s hand: those it plays in this step (at the deal: the cards it
        shows, or gives as tribute or return)."""
        out: list[Any] = []
        for mover, what in step.plays:
            if mover != seat:
                continue
            if hasattr(what, "rank"):                   # a card (cards are named tuples: first)
                out.append(what)
            elif hasattr(what, "cards"):                # Guandan: a play
                out.extend(what.cards)
            elif hasattr(what, "card"):                 # Guandan: a tribute or a return
                out.append(what.card)
            elif isinstance(what, tuple):               # Gong Zhu: the cards shown
                out.extend(what)
        return out

    def hands(self, step: Step) -> Table:
        """The four hands, one row each; a long hand wraps under its own column."""
        grid = Table.grid(padding=(0, 1))
        grid.add_column(width=NAME_WIDTH - 1, no_wrap=True)
        grid.add_column()
        for seat in range(4):
            cards = step.hands[seat]
            grid.add_row(Text(self.seat_name(seat)[:NAME_WIDTH - 1], style="bold"),
                         self.cards(cards, self.played_by(step, seat)) if cards else Text(symbol("none", self.style), style="dim"))
        return grid

    def plays(self, step: Step) -> Text:
        """The trick in order, the winning card marked."""
        text = Text()
        for index, (seat, card) in enumerate(step.plays):
            if index:
                text.append(symbol("then", self.style), style="dim")
            text.append(f"{self.seat_name(seat)} ", style="bold" if seat == step.winner else "")
            text.append_text(self.card(card, selected=seat == step.winner))
        return text

    def notes(self, step: Step) -> Text:
        return Text()

    def score(self, step: Step) -> Text:
        raise NotImplementedError


class GongZhuRenderer(Renderer):
    def won(self, seat: int) -> str:
        return t("gz_you_take") if seat == YOU else t("gz_takes", name=self.seat_name(seat))

    def seat_name(self, seat: int) -> str:
        from cardtable.ui.gongzhu import seat_name

        return seat_name(seat)

    def card(self, card: Any, selected: bool = False) -> Text:
        from cardtable.ui.cardart import card_text

        return card_text(card, self.style, selected=selected, width=0)

    def plays(self, step: Step) -> Text:
        if step.number:
            return super().plays(step)
        text = Text(f"{t('review_gz_shown')}: ", style="bold")
        shown = [(seat, cards) for seat, cards in step.plays if cards]
        if not shown:
            text.append(t("review_gz_nothing_shown"), style="dim")
        for index, (seat, cards) in enumerate(shown):
            if index:
                text.append(" · ")
            text.append(f"{self.seat_name(seat)} ")
            text.append_text(self.cards(cards))
        return text

    def notes(self, step: Step) -> Text:
        if not step.number:
            return Text()
        text = Text(f"{t('review_gz_points')}: ", style="bold")
        if step.gained:
            text.append_text(self.cards(step.gained))
        else:
            text.append(t("review_gz_no_points"), style="dim")
        return text

    def score(self, step: Step) -> Text:
        text = Text(f"{t('review_score') if step is not self.review.steps[-1] else t('review_final')}:\n",
                    style="bold")
        from cardtable.cards import parse_card

        for seat in range(4):
            text.append(f"{cells.ljust(self.seat_name(seat)[:NAME_WIDTH], NAME_WIDTH)}{signed(step.score['hand'][seat], self.style, 5)}  ",
                        style="bold" if seat == YOU else "")
            text.append_text(self.cards([parse_card(code) for code in step.score["taken"][seat]]))
            if seat < 3:
                text.append("\n")
        return text


class GuinoteRenderer(Renderer):
    sides = 2

    def won(self, seat: int) -> str:
        return t("gn_you_take") if seat == YOU else t("gn_takes", name=self.seat_name(seat))

    def seat_name(self, seat: int) -> str:
        from cardtable.ui.guinote import seat_name

        return seat_name(seat)

    def card(self, card: Any, selected: bool = False) -> Text:
        from cardtable.ui.cardart import spanish_text

        return spanish_text(card, self.style, selected=selected, width=0)

    def plays(self, step: Step) -> Text:
        if step.number:
            return super().plays(step)
        from cardtable.cards import parse_spanish_card
        from cardtable.ui.guinote import suit_text

        deal = self.review.deal
        pinta = parse_spanish_card(deal["pinta"])
        out = self.filled(t("review_gn_trumps", suit="\0", card="\1", name=self.seat_name(deal["dealer"])),
                          pinta, suit_text(pinta.suit))
        if deal.get("vueltas"):
            out.append("\n" + t("review_gn_carry", us=deal["carry"][0], them=deal["carry"][1]))
        return out

    def filled(self, sentence: str, card: Any, suit: Text | None = None) -> Text:
        """A translated sentence with its «\1» placeholder drawn as ``card`` and «\0» as ``suit``."""
        out = Text()
        for index, part in enumerate(sentence.split("\0")):
            if index and suit is not None:
                out.append_text(suit)
            for piece_index, piece in enumerate(part.split("\1")):
                if piece_index:
                    out.append_text(self.card(card))
                out.append(piece)
        return out

    def notes(self, step: Step) -> Text:
        if not step.number:
            return Text()
        from cardtable.cards import parse_spanish_card
        from cardtable.games.guinote import rules
        from cardtable.ui.guinote import suit_name

        text = Text(f"{t('review_gn_trick_points')}: ", style="bold")
        side = step.winner % 2                   # the pair that took the trick, even when it held no points
        text.append(f"{t('gn_us') if side == 0 else t('gn_them')} +{step.gained[side]}")
        if step.number == 10:
            text.append(f"  ({t('review_gn_ultimas')})", style="italic")
        # In the order of the table: an exchange of the 7 (before the draw), the draw, cantes, a claim.
        exchanges = [(seat, move) for seat, move in step.after if "exchange" in move.to_json()]
        for seat, _move in exchanges:       # the 7 goes to the pinta's place: the pinta was still the deal's
            text.append("\n")
            text.append_text(self.filled(t("review_gn_exchange", name=self.seat_name(seat), card="\1"),
                                         parse_spanish_card(self.review.deal["pinta"])))
        if step.draws:
            text.append(f"\n{t('review_gn_draws')}: ", style="bold")
            for index, (seat, card) in enumerate(step.draws):
                if index:
                    text.append(" · ")
                text.append(f"{self.seat_name(seat)} ")
                text.append_text(self.card(card))
        for seat, move in step.after:
            data = move.to_json()
            name = self.seat_name(seat)
            if "cante" in data:
                points = rules.cante_value(move.suit, self.review.deal["pinta"][-1])
                text.append("\n")
                text.append(t("review_gn_cante", name=name, points=points, suit=suit_name(move.suit)),
                            style="bold")
            elif "claim" in data:
                claim = self.review.end.get("claim") or {}
                said = t("review_gn_claim_right", name=name) if claim.get("right") else \
                    t("review_gn_claim_wrong", name=name)
                text.append("\n")
                text.append(said, style="bold")
        return text

    def score(self, step: Step) -> Text:
        final = step is self.review.steps[-1]
        text = Text(f"{t('review_final') if final else t('review_score')}:\n", style="bold")
        carry = self.review.deal.get("carry", [0, 0])
        for pair in (0, 1):
            extra = t("gn_carry", carry=carry[pair]) if self.review.deal.get("vueltas") else ""
            text.append(t("review_gn_line", pair=t("gn_us") if pair == 0 else t("gn_them"),
                          cards=step.score["points"][pair], cantes=step.score["cantes"][pair], carry=extra,
                          total=step.score["totals"][pair]), style="bold" if pair == 0 else "")
            if pair == 0:
                text.append("\n")
        return text


class GuandanRenderer(Renderer):
    sides = 2

    def won(self, seat: int) -> str:
        return t("gd_trick_you") if seat == YOU else t("gd_trick_won", name=self.seat_name(seat))

    def led(self, seat: int) -> str:
        return t("review_gd_led_you") if seat == YOU else t("review_gd_led", name=self.seat_name(seat))

    def __init__(self, review: HandReview, style: str) -> None:
        super().__init__(review, style)
        from cardtable.games.guandan import rules

        self.level = rules.rank_from_name(review.deal["level"])

    def seat_name(self, seat: int) -> str:
        from cardtable.ui.guandan import seat_name

        return seat_name(seat)

    def card(self, card: Any, selected: bool = False) -> Text:
        from cardtable.ui.cardart import card_text

        return card_text(card, self.style, selected=selected, width=0)

    def cards(self, cards: Any, selected: Any = ()) -> Text:
        """Guandan hands are long (27 cards): no gap between cards, a space between ranks."""
        marked = list(selected)
        text = Text()
        previous = None
        for card in cards:
            if previous is not None:
                text.append(" " if card.rank != previous.rank else "")
            hit = card in marked
            if hit:
                marked.remove(card)
            text.append_text(self.card(card, selected=hit))
            previous = card
        return text

    def play_text(self, move: Any) -> Text:
        from cardtable.games.guandan import rules
        from cardtable.ui.guandan import combo_name
        from cardtable.ui.guandan.text import play_cards

        if not hasattr(move, "cards"):
            return Text(t("gd_passed"), style="dim italic")
        options = self.review.options
        combo = next((c for c in rules.classify(move.cards, self.level, options.straight_flush_as_straight)
                      if c.type == move.type and c.key == move.key), None)
        text = Text(combo_name(combo) + "  " if combo is not None else "")
        text.append_text(play_cards(move.cards, combo, self.level, self.style, sep=""))
        return text

    def plays(self, step: Step) -> Text:
        deal = self.review.deal
        if step.number == 0:
            text = Text(t("review_gd_level", level=deal["level"], us=deal["levels"][0], them=deal["levels"][1]))
            text.append("\n")
            if not step.plays:
                text.append(t("review_gd_anti" if deal["tribute"] == "anti" else "review_gd_no_tribute"),
                            style="dim")
            for index, (seat, move) in enumerate(step.plays):
                if index:
                    text.append("\n")
                data = move.to_json()
                other = step.draws[index][0]          # who received the card
                if "tribute" in data:
                    text.append(t("review_gd_tribute", payer=self.seat_name(seat), receiver=self.seat_name(other)))
                else:
                    text.append(t("review_gd_return", receiver=self.seat_name(seat), payer=self.seat_name(other)))
                text.append(" ")
                text.append_text(self.card(move.card))
            return text
        # One line per play; the passes that follow it on the same line, so a round fits the screen.
        text = Text()
        passes: list[str] = []

        def flush() -> None:
            if passes:
                text.append("  " + t("gd_passes_after", names=t("gd_name_sep").join(passes)), style="dim italic")
                passes.clear()

        for index, (seat, move) in enumerate(step.plays):
            if not hasattr(move, "cards"):
                passes.append(self.seat_name(seat))
                continue
            flush()
            if text:
                text.append("\n")
            text.append(cells.ljust(self.seat_name(seat)[:NAME_WIDTH - 1], NAME_WIDTH), style="bold")
            text.append_text(self.play_text(move))
            if self.went_out_here(step, seat, index):
                place = step.score["finish"].index(seat)
                text.append(f"  {symbol('out', self.style)} {t('review_gd_went_out', name=self.seat_name(seat), place=t(f'gd_place_{place + 1}'))}",
                            style="bold yellow")
        flush()
        return text

    def went_out_here(self, step: Step, seat: int, index: int) -> bool:
        """Whether this play emptied the seat's hand (its last play in the step and nothing left)."""
        left = list(step.hands[seat])
        for mover, move in step.plays[: index + 1]:
            if mover == seat and hasattr(move, "cards"):
                for card in move.cards:
                    left.remove(card)
        return not left

    def notes(self, step: Step) -> Text:
        if step.number == 0:
            return Text()
        text = Text(f"{t('review_gd_out')}: ", style="bold")
        finish = step.score["finish"]
        final = step is self.review.steps[-1]
        out = finish if not final else finish[: self.out_count(finish)]
        if not out:
            text.append(t("review_gd_nobody_out"), style="dim")
        text.append(", ".join(f"{self.seat_name(seat)} {t(f'gd_place_{i + 1}')}" for i, seat in enumerate(out)))
        return text

    @staticmethod
    def out_count(finish: list[int]) -> int:
        from cardtable.tricks import partner

        return min(finish.index(partner(finish[0])) + 1, 3)

    def score(self, step: Step) -> Text:
        if step is not self.review.steps[-1]:
            return Text()
        from cardtable.ui.guandan import rise_text

        text = Text(f"{t('review_final')}: ", style="bold")
        text.append_text(rise_text(dict(self.review.end)))
        return text


RENDERERS = {"gongzhu": GongZhuRenderer, "guinote": GuinoteRenderer, "guandan": GuandanRenderer}


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
        self.renderer = RENDERERS[review.game](review, style)
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
def load_strings(game: str) -> None:
    """The game's table registers its strings (names, «takes the trick»…) when imported: the review
    may be opened from the saved games list before any table of that game was."""
    importlib.import_module(f"cardtable.ui.{game}")


def hand_result(game: str, record: dict[str, Any], style: str = "colour") -> str:
    """A short line for a finished hand in the hand list."""
    load_strings(game)
    if game == "gongzhu":
        from cardtable.ui.gongzhu import seat_name

        return " · ".join(f"{seat_name(s)} {signed(line['hand'], style)}" for s, line in enumerate(record["lines"]))
    if game == "guinote":
        winner = record.get("winner")
        head = t("gn_no_winner") if winner is None else t("gn_winner_us" if winner == 0 else "gn_winner_them")
        return f"{head} ({record['totals'][0]}–{record['totals'][1]})"
    from cardtable.ui.guandan import place_name, seat_name

    return ", ".join(f"{place_name(i)} {seat_name(s)}" for i, s in enumerate(record["finish"][:2]))


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
