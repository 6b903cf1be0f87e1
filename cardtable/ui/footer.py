"""The key bar at the bottom of every screen: Textual's Footer, rebuilt only when what it shows changes.

Textual's Footer throws its key widgets away and builds new ones on every ``refresh_bindings()`` (the
tables call it after every move), and each discarded key stays referenced from a watcher list on the
Footer (upstream Textualize/textual issue #6666): the table grew by ~13 MB per Guandan hand. This
Footer compares what it would show with what it shows and rebuilds only on a difference, and after a
rebuild drops the watchers its discarded keys left behind.

When the keys do not fit the terminal's width in their usual spacing (a narrow terminal, a longer
language), the footer turns to Textual's compact spacing rather than cutting the last key off."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from rich.cells import cell_len
from textual.app import ComposeResult
from textual.binding import BindingsMap
from textual.widget import Widget
from textual.widgets import Footer as TextualFooter
from textual.widgets._footer import FooterKey


def shown_keys(screen: Any) -> tuple:
    """What a footer on ``screen`` shows: each visible binding's key, label, action and state."""
    return tuple(
        (key, binding.key_display, binding.description, binding.action, binding.show, enabled, tooltip,
         binding.group.description if binding.group else None)
        for key, (_node, binding, enabled, tooltip) in screen.active_bindings.items()
        if binding.show or key == screen.app.COMMAND_PALETTE_BINDING
    )


def _same_keys(before: tuple, after: tuple) -> bool:
    """Whether two :func:`shown_keys` show the same keys, in the same order, and differ at most in
    labels (index 2) and enabled states (index 5)."""
    return len(before) == len(after) and all(
        old[:2] == new[:2] and old[3:5] == new[3:5] and old[6:] == new[6:]
        for old, new in zip(before, after, strict=True))


class Footer(TextualFooter):
    """A Footer that keeps its keys while the screen's bindings show the same."""

    def __init__(self, *args: Any, ready: bool = False, width: int = 0, **kwargs: Any) -> None:
        """``ready``: the screen's bindings are final already, so the first compose shows its keys;
        ``width``: the cells it will have, for its spacing before its first layout (the screen's)."""
        super().__init__(*args, **kwargs)
        self._width_before_layout = width
        self._shown: tuple | None = None
        self._always_compact = bool(kwargs.get("compact", False))
        self._bindings_ready = ready

    def compose(self) -> ComposeResult:
        if self._bindings_ready:
            self._shown = shown_keys(self.screen)        # what it shows: no rebuild for the same keys
        yield from super().compose()

    def bindings_changed(self, screen: Any) -> None:
        self._bindings_ready = True
        if not screen.app.app_focus:
            return
        if self.is_attached and screen is self.screen:
            shown = shown_keys(screen)
            if shown == self._shown:
                return
            before, self._shown = self._shown, shown
            if before is not None and self.is_mounted and _same_keys(before, shown):
                self.update_keys(shown)       # the same keys, relabelled, greyed or lit: no rebuild
                return
            self.call_after_refresh(self.recompose)

    def update_keys(self, shown: tuple) -> None:
        """Label, grey or light the key widgets there are as ``shown`` says: after a move the tables'
        keys change only so («Lift» is «Play», keys greyed while a CPU plays), and a rebuild cost a
        table some 20 style updates a move. What is drawn is what a rebuild would draw."""
        keys = {(entry[0], entry[3]): entry for entry in shown}
        relabelled = False
        for key in self.query(FooterKey).results():
            entry = keys.get((key.key, key.action))
            if entry is None:
                continue
            description, enabled = entry[2], entry[5]
            if key.has_class("-grouped") and not entry[6]:
                key.tooltip = description           # a group's keys show no label: their tooltip is it
            elif not key.has_class("-grouped") and key.description != description:
                key.description = description
                key.refresh(layout=True)
                relabelled = True
            if key._disabled == enabled:
                key._disabled = not enabled
                key.set_class(not enabled, "-disabled")
        if relabelled:
            self.fit_width()

    async def recompose(self) -> None:
        await super().recompose()
        self.prune_watchers()
        self.fit_width()

    def on_mount(self) -> None:
        self.fit_width()        # composed ready (DialogKeys): its keys are there before its first layout

    def on_resize(self) -> None:
        self.fit_width()

    def natural_width(self) -> int:
        """The cells the keys take in the usual (not compact) spacing."""
        width = 0
        for child in self.walk_children():
            if isinstance(child, FooterKey):
                width += cell_len(child.key_display) + 2
                width += cell_len(child.description) + 1 if child.description else 0
            elif isinstance(child, Widget) and child.parent is self and not child.children:
                width += child.outer_size.width
        return width + 1                         # the command palette key's left border

    def fit_width(self) -> None:
        width = self.size.width or self._width_before_layout   # before its first layout: as docked
        if width:
            self.compact = self._always_compact or self.natural_width() > width

    def prune_watchers(self) -> None:
        """Forget the watchers (``data_bind``) of key widgets that are gone (Textual #6666)."""
        watchers: dict[str, list[tuple[Any, Any]]] = getattr(self, "__watchers", {})
        for entries in watchers.values():
            entries[:] = [(node, callback) for node, callback in entries
                          if not (node._closing or node._closed)]


class DialogKeys:
    """A dialog's own key bar (mixed into the modal screens). Textual draws a modal screen over the
    screen below, whose Footer stays visible and shows that screen's keys, not the dialog's: under the
    «Exchange the 7?» question the table's keys (Play, Pinta…) were shown, which do nothing there, and at
    80 columns «? Keys» was cut off. Each dialog docks a Footer of its own over it, showing its keys
    (translated), then «? Keys»."""

    if TYPE_CHECKING:        # the modal screen's: declared for the type checker only
        _bindings: BindingsMap
        query: Any       # (DOMNode's overloads)
        mount: Any
        app: Any

    def on_mount(self) -> None:
        from cardtable.i18n import t
        from cardtable.ui.bindings import translate_bindings

        translate_bindings(cast("Widget", self))      # (mixed into a modal screen)
        self.adjust_bindings()
        # A modal screen's bindings stop at the screen, so the footer would not show the app's «? Keys»
        # (which works here: a priority binding): bound here too, last, as the tables bind it.
        if "question_mark" not in self._bindings.key_to_bindings:
            self._bindings.bind("question_mark", "app.help", t("help"))

    async def on_screen_resume(self) -> None:
        # Mounted when the dialog is on top and mounted, so its keys are final («? Keys» is shown only
        # then, App.check_action), and drawn with the dialog's first frame. Textual's Footer waits for
        # the next change of the bindings and fills in frames later: the results' key bar was blank for
        # a moment on a loaded machine, then «? Keys» came a frame after the others (issue 31).
        if not self.query(TextualFooter):
            await self.mount(Footer(ready=True, width=self.app.size.width))

    def adjust_bindings(self) -> None:
        """Change a key's label for this dialog (its button's words) once the bindings are translated."""

    def relabel(self, action: str, description: str) -> None:
        """Give every key bound to ``action`` the label ``description``."""
        import dataclasses

        keys = self._bindings.key_to_bindings
        for key, bindings in keys.items():
            keys[key] = [dataclasses.replace(b, description=description) if b.action == action else b
                         for b in bindings]
