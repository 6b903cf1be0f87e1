"""Guandan (掼蛋) rules as pure functions, in three modules re-exported here: the card order at a level
(:mod:`.ranks`), the one classifier of selections and comparison with the bomb ladder (:mod:`.combos`),
and the move generator, every playable form with a frugal realisation (:mod:`.generator`).

Source: docs/rules/guandan.md (from the Spanish source document).
"""

from __future__ import annotations

from cardtable.games.guandan.combos import (
    Combo,
    Form,
    Shape,
    beats,
    classify,
    describe,
    power,
    rung,
    strength,
)
from cardtable.games.guandan.generator import (
    Option,
    PlayForm,
    generate,
    play_forms,
    prepare_hand,
    reading,
    usable_cards,
)
from cardtable.games.guandan.ranks import (
    ACE,
    BOMB_TYPES,
    RANKS,
    SEQUENCE_TYPES,
    TYPES,
    card_value,
    guandan_deck_counts,
    hand_sort_key,
    is_wild,
    rank_from_name,
    rank_name,
    sort_keys,
    value,
)

__all__ = [
    "ACE", "BOMB_TYPES", "RANKS", "SEQUENCE_TYPES", "TYPES", "Combo", "Form", "Option", "PlayForm",
    "Shape", "beats", "card_value", "classify", "describe", "generate", "guandan_deck_counts",
    "hand_sort_key", "is_wild", "play_forms", "power", "prepare_hand", "rank_from_name", "rank_name",
    "reading", "rung", "sort_keys", "strength", "usable_cards", "value",
]
