"""Why a selection is not a play, or does not beat the table, in a player's words: the source's beginner
mistakes first (a straight of six, a pair of the two different jokers, an Ace against the level card)."""

from __future__ import annotations

from collections.abc import Sequence

from cardtable.cards import Card
from cardtable.games.guandan import rules
from cardtable.games.guandan.rules import Combo
from cardtable.i18n import t
from cardtable.ui.guandan.text import combo_name


def why_not_a_play(cards: Sequence[Card], level: int) -> str:
    """The reason ``cards`` (which read as no play at all) are not one."""
    count = len(cards)
    jokers = [c for c in cards if c.is_joker]
    plain = [c for c in cards if not c.is_joker and not rules.is_wild(c, level)]
    if count == 2 and {c.rank for c in jokers} == {15, 16}:
        return t("gd_why_not_joker_pair")
    if count == 2:
        return t("gd_why_not_pair")
    if count == 3:
        return t("gd_why_not_triple")
    if count == 4:
        return t("gd_why_not_joker_bomb") if jokers else t("gd_why_not_bomb")
    if count >= 6 and not jokers and len({c.rank for c in plain}) == len(plain):
        return t("gd_why_not_long_straight")          # six or more different ranks: a straight of six
    if jokers and count in (5, 6):
        return t("gd_why_not_jokers_in_run")
    if count == 5:
        return t("gd_why_not_five")
    if count == 6:
        return t("gd_why_not_six")
    return t("gd_why_not_many")


def why_no_beat(combo: Combo, top: Combo, level: int, short: bool = False) -> str:
    """The reason ``combo`` (a play) does not beat ``top``, the play on the table; ``short``: without
    naming ``combo`` (the play control beside the status line names it), for a narrow status line."""
    play, table = combo_name(combo), combo_name(top)
    if combo.is_bomb:                                 # only a bomb above on the ladder beats it
        if short:
            return t("gd_why_bomb_lower_short", top=table)
        return t("gd_why_bomb_lower", play=play, top=table)
    if top.is_bomb:
        return t("gd_why_needs_bomb", top=table)
    if combo.type != top.type:
        if short:
            return t("gd_why_other_kind_short", top=table)
        return t("gd_why_other_kind", play=play, top=table)
    if rules.strength(combo, level) == rules.strength(top, level):
        if short:
            return t("gd_why_equal_short", top=table)
        return t("gd_why_equal", play=play, top=table)
    if combo.key == rules.ACE and top.key == level and top.type in ("single", "pair", "triple", "full_house",
                                                                     "bomb"):
        return t("gd_why_level_over_ace", level=rules.rank_name(level))
    if short:
        return t("gd_why_lower_short", top=table)
    return t("gd_why_lower", play=play, top=table)
