"""Footer labels in the player's language: binding descriptions are catalog keys, translated here."""

from __future__ import annotations

import dataclasses
from typing import Any

from textual.app import App
from textual.widget import Widget

from cardtable.i18n import t
from cardtable.ui.keys import WORDED, key_name


def translate_bindings(node: Widget | App[Any]) -> None:
    """Rebuild ``node``'s bindings from its class's, with each description passed through ``t`` (and the
    keys named by a word, Home/End, named in the player's language). Keys
    the node bound at run time (the app's command palette key) are kept as they are."""
    merged = type(node)._merged_bindings
    if merged is None:
        return
    node._bindings.key_to_bindings.update({
        key: [dataclasses.replace(b, description=t(b.description) if b.description else b.description,
                                  tooltip=t(b.tooltip) if b.tooltip else b.tooltip,
                                  key_display=key_name(key) if key in WORDED and not b.key_display
                                  else b.key_display) for b in bindings]
        for key, bindings in merged.key_to_bindings.items()
    })
    if isinstance(node, App) or node.is_mounted:     # (the app's is_mounted asks about a widget)
        node.refresh_bindings()
