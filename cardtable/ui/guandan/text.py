"""Guandan words: seat, rank, combination and place names, the anti-tribute and A-failure lines,
the level rise."""

from __future__ import annotations

from typing import Any

from rich.text import Text

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
    if combo.type in ("straight", "straight_flush", "tube", "plate"):
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
