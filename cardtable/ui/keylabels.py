"""What the key bar says a table's keys do now: «⏎ Lift» until the card under the cursor is lifted,
then «⏎ Play» (docs/decisions.md «Enter lifts, then plays»)."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from cardtable.i18n import t


class KeyLabels:
    """Relabelling a screen's bindings (mixed into a Textual screen)."""

    if TYPE_CHECKING:
        _bindings: Any
        is_mounted: bool

        def refresh_bindings(self) -> None: ...

    def relabel_keys(self) -> None:
        """After the bindings are translated: labels that say what a key does now (see :meth:`relabel`)."""

    def relabel(self, action: str, label: str) -> None:
        """The key bar names what the keys bound to ``action`` do now (``label``, already translated):
        «⏎ Lift» until the card under the cursor is lifted, then «⏎ Play»."""
        bindings = self._bindings.key_to_bindings
        changed = False
        for key, bound in bindings.items():
            if any(b.action == action and b.description != label for b in bound):
                bindings[key] = [dataclasses.replace(b, description=label) if b.action == action else b
                                 for b in bound]
                changed = True
        if changed and self.is_mounted:
            self.refresh_bindings()


class LiftThenPlay:
    """Gong Zhu's and Guiñote's Enter: the first press lifts the card under the cursor, the second plays
    it (docs/decisions.md «Enter lifts, then plays»). The key bar says which of the two Enter does now;
    the table calls :meth:`label_choose` when the cursor or the lifted card may have changed."""

    PLAY_LABEL = ""         # i18n key of «Play» on this table

    if TYPE_CHECKING:
        def hand_widget(self) -> Any: ...

        def relabel(self, action: str, label: str) -> None: ...

        def watch(self, obj: Any, attribute_name: str, callback: Any, init: bool = True) -> None: ...

    def label_choose(self, *_: Any) -> None:
        hand = self.hand_widget()
        ready = hand.lifted is not None and hand.lifted == hand.cursor
        self.relabel("choose", t(self.PLAY_LABEL) if ready else t("choose_lift"))

    def watch_hand(self) -> None:
        """Relabel Enter whenever the cursor moves or a card is lifted or put down (keys, clicks, hints)."""
        hand = self.hand_widget()
        self.watch(hand, "lifted", self.label_choose, init=False)
        self.watch(hand, "cursor", self.label_choose, init=False)

    def relabel_keys(self) -> None:
        self.label_choose()
