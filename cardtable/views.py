"""Helpers shared by the games' PlayerViews."""

from __future__ import annotations

import hashlib


def bot_seed(match_seed: int, move_number: int, seat: int) -> int:
    """A per-decision seed for a bot's own randomness. One-way (BLAKE2b), so it reveals nothing about
    the deal that the match seed determines; deterministic, so a game number replays exactly."""
    digest = hashlib.blake2b(f"{match_seed}:{move_number}:{seat}".encode(), digest_size=8,
                             person=b"cardtable-bot").digest()
    return int.from_bytes(digest, "big")
