"""The hand review of Guiñote: the pinta, the draws, cantes, the 7 exchange and claims, the pairs'
points (cardtable.ui.review shows it)."""

from __future__ import annotations

from typing import Any, cast

from rich.text import Text

from cardtable.cards import parse_spanish_card
from cardtable.games.guinote import rules
from cardtable.i18n import t
from cardtable.review import Step
from cardtable.ui.cardart import spanish_text
from cardtable.ui.guinote.text import seat_name, suit_name, suit_text
from cardtable.ui.reviewdraw import YOU, Renderer


class GuinoteRenderer(Renderer):
    sides = 2

    def won(self, seat: int) -> str:
        return t("gn_you_take") if seat == YOU else t("gn_takes", name=self.seat_name(seat))

    def seat_name(self, seat: int) -> str:
        return seat_name(seat)

    def card(self, card: Any, selected: bool = False) -> Text:
        return spanish_text(card, self.style, selected=selected, width=0)

    def plays(self, step: Step) -> Text:
        if step.number:
            return super().plays(step)
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
        text = Text(f"{t('review_gn_trick_points')}: ", style="bold")
        # the pair that took the trick, even when it held no points (a numbered trick has its winner)
        side = cast(int, step.winner) % 2
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


RENDERER = GuinoteRenderer


def hand_result(record: dict[str, Any], style: str = "colour") -> str:
    """A short line for a finished hand in the hand list: who won it, and the totals."""
    winner = record.get("winner")
    head = t("gn_no_winner") if winner is None else t("gn_winner_us" if winner == 0 else "gn_winner_them")
    return f"{head} ({record['totals'][0]}–{record['totals'][1]})"
