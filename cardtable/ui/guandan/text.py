"""Guandan words: seat, rank, combination and place names, the anti-tribute and A-failure lines,
the level rise."""

from __future__ import annotations

from typing import Any

from rich.text import Text

from cardtable.cards import Card
from cardtable.games.guandan import rules
from cardtable.games.guandan.rules import Combo
from cardtable.i18n import t
from cardtable.ui.gamescreen import HUMAN


def seat_name(seat: int) -> str:
    return t(f"gd_seat_{seat}")


def rank_label(rank: int) -> str:
    """A rank as the player reads it: jokers in the language's notation (SJ/BJ, JP/JG)."""
    if rank == 15:
        return t("joker_sj")
    if rank == 16:
        return t("joker_bj")
    return rules.rank_name(rank)


def combo_name(combo: Combo) -> str:
    """«Pair of 9s», «Straight 5–9», «Bomb of four 7s» in the player's language."""
    key = "" if combo.key is None else rank_label(combo.key)
    if combo.type == "joker_bomb":
        return t("gd_joker_bomb")
    low = ""
    if combo.type in ("straight", "straight_flush", "tube", "plate") and combo.key is not None:
        span = {"straight": 4, "straight_flush": 4, "tube": 2, "plate": 1}[combo.type]
        bottom = combo.key - span
        low = rules.rank_name(rules.ACE if bottom == 1 else bottom)
    count = t(f"number_{combo.size}") if 4 <= combo.size <= 10 else str(combo.size)
    return t(f"gd_{combo.type}", key=key, low=low, count=count)


def place_name(index: int) -> str:
    return t(f"gd_place_{index + 1}")


def anti_text(holders: tuple[int, ...]) -> str:
    """Why there is no tribute, reading well for «you» and for the others."""
    if len(holders) == 1:
        return t("gd_anti_you") if holders[0] == HUMAN else t("gd_anti_one", name=seat_name(holders[0]))
    if HUMAN in holders:
        return t("gd_anti_us")
    return t("gd_anti_them", a=seat_name(3), b=seat_name(1))       # «Left and Right», «Izquierda y Derecha»


def fails_text(view_or_options: Any, failures: tuple[int, int] | list[int]) -> str:
    options = getattr(view_or_options, "options", view_or_options)
    if options.aces == "three_strikes":
        return t("gd_fails_three", us=failures[0], them=failures[1])
    return t("gd_fails_unlimited", us=failures[0], them=failures[1])


def rise_text(record: dict) -> Text:
    """What a hand_end record means for the levels: «Us +2», «We pass the Aces!», «Them: no rise»."""
    us = record["winner_team"] == 0
    if record.get("match_won"):
        rise = t("gd_pass_aces_us") if us else t("gd_pass_aces_them")
    elif record["level_up"]:
        rise = t("gd_rise", team=t("gd_us") if us else t("gd_them"), n=record["level_up"])
    else:
        rise = t("gd_no_rise_us") if us else t("gd_no_rise_them")
    return Text(rise, style="bold green" if us else "bold red")


# ---------------------------------------------------------------- a play's cards, the wilds marked
_SPAN = {"straight": 4, "straight_flush": 4, "tube": 2, "plate": 1}


def combo_of(cards: Any, kind: str, key: int | None, level: int, sf_as_straight: bool = True) -> Combo | None:
    """The reading of ``cards`` that a move (its type and key) played."""
    return next((c for c in rules.classify(cards, level, sf_as_straight) if c.type == kind and c.key == key), None)


def stand_in_label(card: Any, combo: Combo, style: str) -> str:
    """What a wild stands for: the rank alone, or the card where its suit decides (a straight flush)."""
    from cardtable.ui.cardart import card_label

    return card_label(card, style) if combo.type == "straight_flush" else rank_label(card.rank)


def arrow(style: str) -> str:
    return "->" if style == "ascii" else "→"


def marked_cards(cards: Any, combo: Combo | None, level: int) -> list[tuple[Any, Any]]:
    """(card, the card a wild stands for or None) in the order the play reads: a run from its low end (an
    Ace first in A–5), the other plays by rank with the largest group first; each wild beside its rank."""
    if combo is None:
        return [(card, None) for card in cards]
    wilds = [c for c in cards if rules.is_wild(c, level)]
    stand_ins = list(combo.wilds_as)
    items: list[tuple[Card, Card | None]] = [(c, None) for c in cards if not rules.is_wild(c, level)]
    items += [(wild, stand_ins[i] if i < len(stand_ins) else None) for i, wild in enumerate(wilds)]

    def rank(item: tuple[Any, Any]) -> int:
        return (item[1] or item[0]).rank

    if combo.type in _SPAN and combo.key is not None:
        low_ace = combo.key - _SPAN[combo.type] == 1
        items.sort(key=lambda item: (1 if low_ace and rank(item) == rules.ACE else rank(item)))
    else:
        counts: dict[int, int] = {}
        for item in items:
            counts[rank(item)] = counts.get(rank(item), 0) + 1
        items.sort(key=lambda item: (-counts[rank(item)], rules.value(rank(item), level)))
    return items


def play_cards(cards: Any, combo: Combo | None, level: int, style: str, sep: str = " ") -> Text:
    """A play's cards as the table shows them everywhere: «2♣ 3♥ 4♠ 5♣» from the low end of a run, each
    wild marked on the card with what it stands for («2♥→6», «2♥→6♠» in a straight flush)."""
    from cardtable.ui.cardart import card_text

    text = Text()
    marked = False
    for index, (card, stand_in) in enumerate(marked_cards(cards, combo, level)):
        if index:
            text.append(sep or (" " if marked else ""))      # «3♠2♥→3 4♣», not «2♥→34♣»
        marked = stand_in is not None
        text.append_text(card_text(card, style, width=0))
        if stand_in is not None and combo is not None:
            text.append(arrow(style) + stand_in_label(stand_in, combo, style), style="italic")
    return text


def wild_marks(cards: Any, combo: Combo, level: int, style: str) -> str:
    """The wilds of a reading alone, as «2♥→6 2♥→9» (the status line and the readings chooser)."""
    from cardtable.ui.cardart import card_label

    return " ".join(f"{card_label(card, style)}{arrow(style)}{stand_in_label(stand_in, combo, style)}"
                    for card, stand_in in marked_cards(cards, combo, level) if stand_in is not None)
