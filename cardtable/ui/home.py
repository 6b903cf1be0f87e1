"""The home screen: the three games, new game, continue, settings, rules and keys."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, Footer, Header, OptionList, Static
from textual.widgets.option_list import Option

from cardtable import games
from cardtable.i18n import t


class HomeScreen(Screen):
    BINDINGS = [
        Binding("n", "new_game", "New game"),
        Binding("c", "continue", "Continue"),
        Binding("r", "rules", "Rules"),
        Binding("s", "settings", "Settings"),
        Binding("question_mark", "app.help", "Keys"),
        Binding("q", "app.quit", "Quit"),
    ]

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(id="home-body"):
            yield Static(id="home-title")
            yield Static(id="home-subtitle")
            yield OptionList(id="game-list")
            with Horizontal(id="home-buttons"):
                yield Button(id="btn-new", variant="primary")
                yield Button(id="btn-continue")
                yield Button(id="btn-rules")
                yield Button(id="btn-settings")
                yield Button(id="btn-quit", variant="error")
            yield Static(id="home-saves-title")
            yield Static(id="home-saves")
        yield Footer()

    def on_mount(self) -> None:
        self.fill()
        self.query_one("#game-list", OptionList).focus()

    def on_screen_resume(self) -> None:
        self.fill()

    def settings_changed(self) -> None:
        self.fill()

    def fill(self) -> None:
        self.query_one("#home-title", Static).update(t("home_pick"))
        self.query_one("#home-subtitle", Static).update(t("home_subtitle"))
        playable = games.games()
        option_list = self.query_one("#game-list", OptionList)
        highlighted = option_list.highlighted
        option_list.clear_options()
        for name in games.GAME_MODULES:
            line = Text()
            line.append(f"{t('game_' + name):<10}", style="bold")
            line.append(" " + t("desc_" + name))
            if name not in playable:
                line.append(f"  ({t('not_available')})", style="italic")
            option_list.add_option(Option(line, id=name, disabled=name not in playable))
        first = next((i for i, n in enumerate(games.GAME_MODULES) if n in playable), 0)
        option_list.highlighted = highlighted if highlighted is not None else first
        for button_id, key in (("btn-new", "new_game"), ("btn-continue", "continue"), ("btn-rules", "rules"),
                               ("btn-settings", "settings"), ("btn-quit", "quit")):
            self.query_one(f"#{button_id}", Button).label = t(key)
        self.query_one("#home-saves-title", Static).update(t("saves_title"))
        self.query_one("#home-saves", Static).update(self._saves_text())

    def _saves_text(self) -> Text:
        infos = self.app.store.list()
        if not infos:
            return Text(t("no_saves"))
        text = Text()
        for info in infos[:6]:
            if text:
                text.append("\n")
            text.append(f"{info.slot}  ", style="bold")
            if info.damaged:
                text.append(f"{t('damaged')}: {info.error}", style="red")
            else:
                text.append(info.summary)
        if len(infos) > 6:
            text.append(f"\n… +{len(infos) - 6}")
        return text

    @property
    def chosen_game(self) -> str | None:
        option_list = self.query_one("#game-list", OptionList)
        if option_list.highlighted is None:
            return None
        name = option_list.get_option_at_index(option_list.highlighted).id
        return name if name in games.games() else None

    # -- actions
    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.action_new_game()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        actions = {"btn-new": self.action_new_game, "btn-continue": self.action_continue,
                   "btn-rules": self.action_rules, "btn-settings": self.action_settings,
                   "btn-quit": self.app.action_quit}
        result = actions[event.button.id]()
        if result is not None:
            self.run_worker(result)

    def action_new_game(self) -> None:
        game = self.chosen_game
        if game is not None:
            self.app.start_game(game, ask=True)

    def action_continue(self) -> None:
        from cardtable.ui.screens import SlotsScreen

        self.app.push_screen(SlotsScreen())

    def action_rules(self) -> None:
        from cardtable.ui.screens import RulesScreen

        self.app.push_screen(RulesScreen(self.chosen_game or next(iter(games.games()))))

    def action_settings(self) -> None:
        from cardtable.ui.screens import SettingsScreen

        self.app.push_screen(SettingsScreen())
