"""The Keys screen's content, built from the bindings themselves so it never lists a key that does not
apply: the keys of the screen it was opened from first, exactly as bound, then the keys that work
everywhere (the app's and Textual's focus keys), then how dialogs answer."""

from __future__ import annotations

from typing import Any

from textual.binding import Binding
from textual.dom import DOMNode
from textual.screen import Screen

from cardtable.i18n import t

SYMBOLS = {"left": "←", "right": "→", "up": "↑", "down": "↓", "question_mark": "?"}
NAMED = {"enter": "key_enter", "escape": "key_escape", "space": "key_space", "backspace": "key_backspace",
         "delete": "key_delete", "tab": "key_tab", "shift+tab": "key_shift_tab", "home": "key_home",
         "end": "key_end", "pageup": "key_pageup", "pagedown": "key_pagedown"}
# Keys whose name is a word printed on the key cap («Inicio», «Fin» on a Spanish keyboard): the key bars
# write them in the player's language too (Textual's own display is the English «home»).
WORDED = ("home", "end", "pageup", "pagedown")


def key_name(key: str) -> str:
    """How a key is written for people: ←, Enter/Intro, Ctrl+Q, p."""
    if key in SYMBOLS:
        return SYMBOLS[key]
    if key in NAMED:
        return t(NAMED[key])
    if key.startswith("ctrl+"):
        return "Ctrl+" + key_name(key[5:]).upper()
    if len(key) == 1 and key.isupper():          # a capital letter is typed with Shift: say so
        return t("key_shift_letter", key=key)
    return key


def own_bindings(node_class: type[DOMNode]) -> list[Binding]:
    """The bindings ``node_class`` binds beyond Textual's own Screen (whose focus keys are listed
    with the keys that work everywhere), one per key, in the order bound."""
    base = {key for key in Screen._merged_bindings.key_to_bindings} if Screen._merged_bindings else set()
    merged = node_class._merged_bindings
    if merged is None:
        return []
    return [binding for key, bindings in merged.key_to_bindings.items() if key not in base
            for binding in bindings]


def rows(bindings: list[Binding], skip_keys: frozenset[str] = frozenset()) -> list[tuple[str, str]]:
    """(keys, what they do): the keys of one action together («Enter / Space»)."""
    grouped: dict[tuple[str, str], list[str]] = {}
    for binding in bindings:
        if binding.key in skip_keys:
            continue
        description = t(binding.description) if binding.description else binding.action
        grouped.setdefault((binding.action, description), []).append(key_name(binding.key))
    return [(" / ".join(keys), description) for (_, description), keys in grouped.items()]


def table(pairs: list[tuple[str, str]]) -> str:
    lines = [f"| {t('key_column')} | {t('action_column')} |", "|---|---|"]
    lines += [f"| {keys.replace('|', '¦')} | {what.replace('|', '¦')} |" for keys, what in pairs]
    return "\n".join(lines)


# Textual's Screen binds Tab and Shift+Tab to move the focus: listed with our own words.
FOCUS = (Binding("tab", "app.focus_next", "focus_next"), Binding("shift+tab", "app.focus_previous", "focus_previous"))


def everywhere_bindings(app: Any) -> list[Binding]:
    """The keys that work on every screen: the app's (quit, keys), the command palette, the focus."""
    app_bindings = [b for bindings in type(app)._merged_bindings.key_to_bindings.values() for b in bindings
                    if b.action != "command_palette"]
    palette = Binding(app.COMMAND_PALETTE_BINDING, "command_palette", "command_palette")
    return [*app_bindings, palette, *FOCUS]


def keys_markdown(app: Any, screen: Screen, heading: str) -> str:
    """The Keys screen for ``screen``: its own keys first, then the ones that work everywhere."""
    mine = own_bindings(type(screen))
    shown = frozenset(binding.key for binding in mine)
    parts = [f"# {t('keys_title')}", f"## {heading}", table(rows(mine)) if mine else t("keys_none"),
             f"## {t('keys_everywhere')}", table(rows(everywhere_bindings(app), shown)),
             f"## {t('keys_dialogs')}", t("keys_dialogs_text")]
    return "\n\n".join(parts) + "\n"
