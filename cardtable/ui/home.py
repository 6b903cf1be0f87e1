"""The home screen: the three games, new game, continue, settings, rules and keys."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Header, OptionList, Static
from textual.widgets.option_list import Option

from cardtable import games, safetext
from cardtable.i18n import t
from cardtable.saves import SaveDirError
from cardtable.ui import cells
from cardtable.ui.bindings import translate_bindings
from cardtable.ui.footer import Footer
from cardtable.ui.guard import on_top
from cardtable.ui.typedapp import CardtableScreen
from cardtable.ui.widgets import MenuList


def _served_with_friends() -> bool:
    """Whether this table was served with the shared tables' hub («Play with friends»)."""
    import os

    if os.environ.get("CARDTABLE_SERVED") != "ssh":     # (alone at a terminal: nothing more to import)
        return False
    from cardtable.ui import friends

    return friends.available()


class HomeScreen(CardtableScreen):
    BINDINGS = [
        Binding("n", "new_game", "new_game"),
        Binding("c", "continue", "continue"),
        Binding("f", "friends", "friends_title"),        # served with shared tables only (check_action)
        Binding("r", "rules", "rules"),
        Binding("s", "settings", "settings"),
        Binding("t", "app.statistics", "stats_title", show=False),
        Binding("question_mark", "app.help", "help"),
        Binding("q", "app.quit", "quit"),
    ]

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(id="home-body"):
            yield Static(id="home-title")
            yield Static(id="home-subtitle")
            yield MenuList(id="game-list")
            yield Static(id="home-hint")
            yield Static(id="home-saves-title")
            yield Static(id="home-saves")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        translate_bindings(self)
        self.fill()
        self.query_one("#game-list", OptionList).focus()

    def on_screen_resume(self) -> None:
        self.fill()

    def settings_changed(self) -> None:
        translate_bindings(self)
        self.fill()

    def fill(self) -> None:
        self.query_one("#home-title", Static).update(t("home_pick"))
        self.query_one("#home-subtitle", Static).update(t("home_subtitle"))
        playable = [name for name in games.GAME_MODULES if games.is_available(name)]
        option_list = self.query_one("#game-list", OptionList)
        highlighted = option_list.highlighted
        option_list.clear_options()
        for name in games.GAME_MODULES:
            line = Text()
            line.append(cells.ljust(t("game_" + name), 10), style="bold")
            line.append(" " + t("desc_" + name))
            if name not in playable:
                line.append(f"  ({t('not_available')})", style="italic")
            option_list.add_option(Option(line, id=name, disabled=name not in playable))
        first = next((i for i, n in enumerate(games.GAME_MODULES) if n in playable), 0)
        option_list.highlighted = highlighted if highlighted is not None else first
        hint = t("home_hint")
        if _served_with_friends():
            hint += "\n" + t("home_friends_hint")
        self.query_one("#home-hint", Static).update(hint)
        self.query_one("#home-saves-title", Static).update(t("saves_title"))
        self.query_one("#home-saves", Static).update(self._saves_text())

    def _saves_text(self) -> Text:
        try:
            infos = self.app.store.list()
        except SaveDirError as exc:
            return Text(t("saves_unreadable", reason=safetext.clean(exc.reason)), style="red")
        if not infos:
            return Text(t("no_saves"))
        text = Text()
        for info in infos[:6]:
            if text:
                text.append("\n")
            text.append(safetext.clean(info.slot, safetext.SHORT) + "  ", style="bold")
            if info.damaged:
                text.append(safetext.clean(f"{t('damaged')}: {info.problem}"), style="red")
            else:
                text.append(f"{t(f'game_{info.game}')} · {safetext.clean(info.describe())}")
        if len(infos) > 6:
            text.append(f"\n… +{len(infos) - 6}")
        return text

    @property
    def chosen_game(self) -> str | None:
        option_list = self.query_one("#game-list", OptionList)
        if option_list.highlighted is None:
            return None
        name = option_list.get_option_at_index(option_list.highlighted).id
        return name if name is not None and games.is_available(name) else None

    # -- actions
    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.action_new_game()

    # An Enter typed ahead reaches the game list (and comes back here as a message) after the first one
    # opened a dialog: the home screen acts only while it is on top, so it never stacks a second dialog.
    def action_new_game(self) -> None:
        game = self.chosen_game
        if game is not None and on_top(self):
            self.app.start_game(game, ask=True)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "friends":
            return _served_with_friends()
        return True

    def action_friends(self) -> None:
        if on_top(self) and _served_with_friends():
            from cardtable.ui import friends

            friends.open_friends(self.app, self.chosen_game or games.GAME_MODULES[0])

    def action_continue(self) -> None:
        from cardtable.ui.screens import SlotsScreen

        if on_top(self):
            self.app.push_screen(SlotsScreen())

    def action_rules(self) -> None:
        from cardtable.ui.screens import RulesScreen

        if on_top(self):
            self.app.push_screen(RulesScreen(self.chosen_game or games.GAME_MODULES[0]))

    def action_settings(self) -> None:
        from cardtable.ui.screens import SettingsScreen

        if on_top(self):
            self.app.push_screen(SettingsScreen())
