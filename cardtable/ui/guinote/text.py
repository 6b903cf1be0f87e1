"""Guiñote words: seat, suit and card names, the exchange and cante sentences, the cantes line."""

from __future__ import annotations

from rich.text import Text

from cardtable.cards import SpanishCard
from cardtable.games.guinote import rules
from cardtable.games.guinote.state import GuinoteView, SungCante
from cardtable.i18n import t
from cardtable.tricks import team_of
from cardtable.ui.cardart import spanish_colour
from cardtable.ui.gamescreen import HUMAN

SUITS = "OCEB"


RANK_NAMES = {1: "As", 10: "Sota", 11: "Caballo", 12: "Rey"}


def seat_name(seat: int) -> str:
    return t(f"gn_seat_{seat}")


def taken_by(seat: int) -> str:
    """Who drew the pinta in the last round: «la robaste tú» / «la robó Izquierda» (each seat sentence has
    its own key for you: its own grammar)."""
    return t("gn_taken_by_you") if seat == HUMAN else t("gn_taken_by", name=seat_name(seat))


def exchanged(seat: int) -> str:
    return t("gn_exchanged_you") if seat == HUMAN else t("gn_exchanged", name=seat_name(seat))


class Announcement(str):
    """A sentence announced in the trick area, with ``broken``: the same in two clean lines, for a trick
    area too narrow for it (at 80 columns it is 40 wide; Rich would leave «espadas» alone below)."""

    broken: tuple[str, ...] = ()


def exchange_news(seat: int, card: SpanishCard) -> Announcement:
    """«Cambiaste el 7 por la Sota de oros» / «Derecha cambió el 7 por el As de copas»; broken after the
    7 («Derecha cambió el 7» / «por el As de copas»)."""
    if seat == HUMAN:
        news = Announcement(t("gn_exchange_news_you", card=the_card(card)))
    else:
        news = Announcement(t("gn_exchange_news", name=seat_name(seat), card=the_card(card)))
    news.broken = (exchanged(seat), t("gn_exchange_news_for", card=the_card(card)))
    return news


def partner_hides(view: GuinoteView, cante: SungCante) -> bool:
    """A 20 the partner sang in arrastre: the human sees its suit only after `v` (the table's word)."""
    return (cante.seat != view.seat and team_of(cante.seat) == team_of(view.seat)
            and rules.hidden_cante(cante.points, cante.trick))


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


def cante_block_reason(view: GuinoteView, suit: str) -> str | None:
    """Why the human can never sing ``suit`` in this hand (so arming it is refused, and an armed one
    goes), from what the table shows: the suit sung, its Rey or Sota played or drawn by another seat
    with the pinta, or the stock gone without both in the hand. None while it may still happen."""
    if any(cante.suit == suit for cante in view.cantes):
        return t("gn_arm_cante_sung", suit=suit_name(suit))
    for rank in (rules.REY, rules.SOTA):
        card = SpanishCard(rank, suit)
        if card in view.hand:
            continue
        if card in view.played:
            return t("gn_arm_cante_played", suit=suit_name(suit), card=the_card(card))
        if card == view.pinta and view.pinta_taker not in (None, view.seat):
            return t("gn_arm_cante_played", suit=suit_name(suit), card=the_card(card))
    if view.arrastre and not rules.can_sing(view.hand, suit):
        return t("gn_arm_cante_hand", suit=suit_name(suit))
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
        hidden = cante.suit is None or (not revealed and partner_hides(view, cante))
        if hidden or cante.suit is None:        # (hidden: no suit either)
            text.append(t("gn_hidden"), style="bold")
        else:
            text.append(f"{cante.points} ", style="bold")
            text.append_text(suit_text(cante.suit))
    return text
