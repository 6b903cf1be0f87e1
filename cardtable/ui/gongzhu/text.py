"""Gong Zhu words: seat and card names, the taken cards line and the hand points."""

from __future__ import annotations

from rich.text import Text

from cardtable.cards import Card
from cardtable.games.gongzhu import rules
from cardtable.games.gongzhu.state import GongZhuView
from cardtable.i18n import t
from cardtable.ui.cardart import card_text

SUIT_NAMES = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def seat_name(seat: int) -> str:
    return t(f"gz_seat_{seat}")


def card_name(card: Card) -> str:
    """«Queen of spades, the Pig», «7 de corazones»: a card in words, with its nickname if it has one."""
    rank = t(f"gz_rank_{card.rank}") if card.rank > 10 else str(card.rank)
    name = t("gz_card", rank=rank, suit=t(f"gz_suit_{card.suit}"))
    nick = {rules.PIG: "gz_pig", rules.GOAT: "gz_goat", rules.TRANSFORMER: "gz_transformer"}.get(card)
    return t("gz_card_nick", card=name, nick=t(nick)) if nick else name


def the_card(card: Card) -> str:
    """The card's name with its article, for a sentence: «la dama de picas, el Cerdo», «el 7 de
    tréboles» (the jota and the dama are feminine)."""
    name = card_name(card)
    return t("gz_the_f", card=name) if card.rank in (11, 12) else t("gz_the", card=name)


def taken_text(cards, style: str) -> Text:
    """Taken cards grouped by suit, ranks spaced: «Q♠  3 4 J K♥  10♣  J♦»."""
    text = Text()
    for suit in "SHCD":
        group = sorted((c for c in cards if c.suit == suit), key=rules.sort_key)
        if not group:
            continue
        if text:
            text.append("  ")
        last = card_text(group[-1], style, width=0)
        ranks = " ".join(c.code[:-1] for c in group[:-1])
        text.append(ranks + " " if ranks else "", style=last.style)
        text.append_text(last)
    return text


def hand_points(view: GongZhuView, seat: int) -> int:
    """What the cards a seat has taken would score if the hand ended now (shown to every player)."""
    return view.options.score_taken(view.taken[seat], view.all_shown).hand


def hand_label(view: GongZhuView) -> str:
    """The header's line: hand, ending (or the fixed length), the swap, and +400 all hearts if on."""
    options = view.options
    swap = t("on") if options.swap else t("off")
    if options.fixed_hands:
        label = t("gz_hand_of", hand=view.hand_number, n=options.max_hands, swap=swap)
    else:
        ending = t("gz_quick") if options.target == 500 else t("gz_standard")
        label = t("gz_hand_label", hand=view.hand_number, ending=ending, swap=swap)
    if options.all_hearts != 200:
        label += f" · {t('gz_all_hearts_label')} {options.all_hearts:+d}"
    return label
