"""Guiñote's rule options."""

from __future__ import annotations

import dataclasses

from cardtable.engine import Options, check_bool, check_choice, check_positive_int


@dataclasses.dataclass(frozen=True)
class GuinoteOptions(Options):
    cotos: int = 2                          # the match is won by the first pair to 1 or 2 cotos
    points_per_coto: int = 3                # hands (partidas) to win a coto
    cantes_per_win: str = "unlimited"       # "unlimited" | "one_per_player" after each trick won
    vueltas_end: str = "claim"              # "claim" | "auto"
    thirty_includes_ultimas: bool = True    # the 30 rule counts las diez de últimas
    exchange_any_pinta: bool = False        # the 7 may be exchanged for a non-counting pinta too

    def __post_init__(self) -> None:
        check_choice("cotos", self.cotos, (1, 2))
        check_positive_int("points_per_coto", self.points_per_coto, 99)
        check_choice("cantes_per_win", self.cantes_per_win, ("unlimited", "one_per_player"))
        check_choice("vueltas_end", self.vueltas_end, ("claim", "auto"))
        check_bool("thirty_includes_ultimas", self.thirty_includes_ultimas)
        check_bool("exchange_any_pinta", self.exchange_any_pinta)




# ---------------------------------------------------------------- the match
