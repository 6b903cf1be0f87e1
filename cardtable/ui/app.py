"""The cardtable Textual application: the shell that hosts the home screen and the game screens."""

from __future__ import annotations

import asyncio
import functools
import importlib
import os
import signal
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Any, cast

from textual import events
from textual.app import App, ScreenStackError, SystemCommand
from textual.binding import Binding

from cardtable import games, i18n, safetext
from cardtable.i18n import t
from cardtable.saves import SaveError, SaveStore, SlotBusy
from cardtable.settings import Settings, load_settings, save_settings
from cardtable.ui.bindings import translate_bindings
from cardtable.ui.guard import on_top
from cardtable.ui.toosmall import MIN_HEIGHT, MIN_WIDTH

HANGUP_GRACE = 2.0   # seconds the app has to leave by itself after a hangup, before os._exit
QUIT_KEYS = ("ctrl+q", "ctrl+c")
# Input the app holds back while a screen is not ready: keys and presses of the mouse.
GATED_EVENTS = (events.Key, events.MouseDown, events.MouseUp, events.Click)


def _plain(text: str) -> str:
    """Text without accents (ñ → n) for searching."""
    import unicodedata

    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


def exit_for_sure(grace: float) -> threading.Timer:
    """End the process with ``os._exit(0)`` after ``grace`` seconds unless it has ended by then: a
    daemon timer thread, so a blocked event loop or a blocked writer thread cannot stop it."""
    timer = threading.Timer(grace, os._exit, args=(0,))
    timer.daemon = True
    timer.start()
    return timer


class CardTableApp(App[None]):
    """Home, settings, rules, help and the save slots; games are screens from each game's UI module."""

    CSS_PATH = Path(__file__).with_name("app.tcss")
    TITLE = "cardtable"
    ENABLE_COMMAND_PALETTE = True
    BINDINGS = [
        Binding("ctrl+q", "quit", "quit", show=False, priority=True),
        Binding("ctrl+c", "quit", "quit", show=False, priority=True),
        # A priority binding: the Keys screen opens from every screen and every dialog (a modal screen
        # stops the app's ordinary bindings). check_action hands «?» on where it means something else.
        Binding("question_mark", "help", "help", priority=True),
        # Textual's own palette key, bound here so that its footer label is translated like the rest.
        Binding("ctrl+p", "command_palette", "palette", show=False, priority=True, tooltip="palette_open"),
    ]
    # Textual's own palette commands, in the UI language ((title, help) catalog keys). Its «Keys» command
    # (the widget help panel) is left out: «?» and our «Keys» command open the Keys screen.
    SYSTEM_COMMANDS = {"Theme": ("sys_theme", "sys_theme_help"), "Quit": ("sys_quit", "sys_quit_help"),
                       "Minimize": ("sys_minimize", "sys_minimize_help"),
                       "Maximize": ("sys_maximize", "sys_maximize_help"),
                       "Screenshot": ("sys_screenshot", "sys_screenshot_help")}

    def __init__(self, store: SaveStore | None = None, settings: Settings | None = None,
                 launch: tuple | None = None, language_override: str | None = None,
                 notices: tuple[str, ...] = ()) -> None:
        from cardtable import earlystart

        earlystart.app_starting()         # Ctrl+C is the app's from here (a key, or SIGINT as before)
        super().__init__()
        self.startup_notices = tuple(notices)       # said once the app is up (e.g. settings.json ignored)
        self.store = store or SaveStore()
        self.settings = settings or load_settings()
        self.language_override = language_override
        i18n.set_language(language_override or self.settings.language or i18n.detect_language())
        self.launch = launch
        self.exit_message: str | None = None
        self._key_screens: OrderedDict[int, Any] = OrderedDict()    # key event id → screen it was typed at
        self._quit_waits = 0
        self._hung_up = False

    # -- lifecycle
    def get_default_screen(self) -> Any:
        from cardtable.ui.home import HomeScreen

        return HomeScreen()

    def on_mount(self) -> None:
        translate_bindings(self)          # «? Keys» in the footers is the app's binding
        self.theme_changed_signal.subscribe(self, self._theme_changed)
        self.screen_change_signal.subscribe(self, lambda _screen: self.call_after_refresh(self.forget_closed_widgets))
        self._theme_changed(self.current_theme)
        self.set_class(self.settings.card_style == "ascii", "ascii-mode")
        self._install_signal_handlers()
        for notice in self.startup_notices:
            self.notify(notice, severity="warning", markup=False, timeout=12)
        if self.launch is not None:
            # Pushed before the first refresh: a launched table is the first frame drawn, not the home
            # screen under it (issue 30: `continue` flashed the hub before the table).
            self._do_launch()
        self.call_after_refresh(self._check_size)

    def _do_launch(self) -> None:
        launch, self.launch = self.launch, None
        if launch is None:
            return
        if launch[0] == "new":
            _, game, options, seed, level = launch
            self.start_game(game, options, seed, level)
        elif launch[0] == "friends":               # host GAME / join CODE over serve ssh (ui/friends.py)
            from cardtable.ui.friends import launch_shared

            launch_shared(self, launch[1:])
        elif launch[0] == "continue":
            # ("continue", slot) or, from the command line, ("continue", slot, (match, data), read_only)
            _, slot, loaded, read_only = (*launch, None, False)[:4]
            self.resume(slot, loaded, read_only)

    def _install_signal_handlers(self) -> None:
        try:
            loop = asyncio.get_running_loop()
            for sig in (signal.SIGHUP, signal.SIGTERM):
                loop.add_signal_handler(sig, self._on_hangup)
        except (NotImplementedError, RuntimeError, ValueError, AttributeError):
            pass   # not on the main thread (tests) or no such signal on this platform

    def get_driver_class(self) -> Any:
        """Textual's driver, watched for a terminal that vanishes without a SIGHUP (cardtable.ui.hangup)."""
        from cardtable.ui.hangup import watched_driver

        return watched_driver(super().get_driver_class(), self._on_hangup)

    def _on_hangup(self) -> None:
        """A dropped SSH connection (SIGHUP), SIGTERM or a terminal gone without a signal: save the
        running game and leave. The terminal may be gone, and Textual's writer thread can then block for
        ever on it (~40 % of closed terminals left a process behind): once the games are saved, the
        process ends for sure."""
        if self._hung_up:
            return
        self._hung_up = True
        self.autosave()
        self.close_thinker()
        exit_for_sure(HANGUP_GRACE)
        self.exit()

    @functools.cached_property
    def statistics(self) -> Any:
        """The statistics database, behind its own thread (created on first use). What goes wrong with
        it (a full disk, a lock, a damaged file) is said at the table, once per session."""
        from cardtable.stats import StatsService

        return StatsService(on_notice=self._statistics_notice)

    def _statistics_notice(self, notice: Any) -> None:
        """Called in the statistics thread: ``notify`` posts a message, which is thread-safe."""
        self.notify(notice.text, severity="warning", markup=False, timeout=12)

    def close_statistics(self) -> None:
        """Wait for the last statistics write (called once the app has stopped)."""
        if "statistics" in self.__dict__:
            self.statistics.close()

    @functools.cached_property
    def thinker(self) -> Any:
        """The search's worker process (hard and expert decisions, hints, the play checker), started
        when first needed; see cardtable.workers."""
        from cardtable.workers import Thinker

        return Thinker()

    def close_thinker(self) -> None:
        """End the worker process at once (the app is leaving; safe to call again)."""
        if "thinker" in self.__dict__:
            self.thinker.close()

    def on_unmount(self) -> None:
        self.close_thinker()     # the screens are closed: nothing will ask it again

    # -- type-ahead
    def _top_screen(self) -> Any:
        try:
            return self.screen
        except ScreenStackError:
            return None

    def ready_for_input(self) -> bool:
        """Whether keys may reach the screen on top: no game is being launched and the screen is
        mounted (a table typed at before it exists raised NoMatches)."""
        return self.launch is None and on_top(self.screen)

    async def on_event(self, event: events.Event) -> None:
        # A key goes to the focused widget, then bubbles back up to the app, which runs the bindings of
        # the screen on top *then*. If handling the key opened another screen (Enter on home opens the
        # setup dialog; Enter at the dialog opens a table not composed yet: NoMatches ColumnsView), that
        # screen's binding must not run too: a key acts only on the screen it was typed at.
        if isinstance(event, events.Key):
            if not event.is_forwarded:
                self._key_screens[id(event)] = self._top_screen()
                while len(self._key_screens) > 64:
                    self._key_screens.popitem(last=False)
            elif self._key_screens.pop(id(event), None) is not self._top_screen():
                event.stop()
                event.prevent_default()
                return
        # Keys typed ahead while a game launches, or while the next screen is not mounted yet, are
        # dropped: they were meant for a screen that is not there (and Enter on the home screen would
        # stack setup dialogs). Quitting is only put off until the screen is ready.
        if isinstance(event, GATED_EVENTS) and not event.is_forwarded and not self.ready_for_input():
            if isinstance(event, events.Key) and event.key in QUIT_KEYS:
                await self.action_quit()
            event.stop()
            event.prevent_default()
            return
        await super().on_event(event)

    def forget_closed_widgets(self) -> None:
        """Drop what the app holds for widgets that are gone. A Header watches the app's title and
        sub-title, a textual-plotext chart subscribes to the app's theme changes, and Textual drops
        those only when the title or the theme changes next: every closed table kept its Header and
        its charts alive (5 widgets and ~1.5 MB per finished match, `cardtable bench memory`)."""
        from textual.signal import Signal

        def gone(node: Any) -> bool:
            return node is not self and (node._closing or node._closed or node._pruning or not node.is_attached)

        for watchers in getattr(self, "__watchers", {}).values():
            watchers[:] = [(node, callback) for node, callback in watchers if not gone(node)]
        for value in vars(self).values():
            if isinstance(value, Signal):
                for node in [node for node in list(value._subscriptions) if gone(node)]:
                    value.unsubscribe(node)

    def get_theme_variable_defaults(self) -> dict[str, str]:
        """The tables' frame colours for the current theme (a theme's own variables win)."""
        from cardtable.ui.seats import frame_variables

        return frame_variables(self.current_theme)

    def _theme_changed(self, theme: Any) -> None:
        """Cards are drawn with inks for a dark or a light background (or the theme's own): redraw."""
        from cardtable.ui import cardart
        from cardtable.ui.gamescreen import GameScreen

        cardart.use_theme(theme.dark, theme.variables)
        for screen in self.screen_stack:
            if isinstance(screen, GameScreen) and screen.is_mounted:
                screen.refresh_table()

    # -- the terminal size
    def on_resize(self, event: Any) -> None:
        self.call_after_refresh(self._check_size)

    def _check_size(self) -> None:
        """Cover the app with the "enlarge the terminal" message while it is under 80×24."""
        from cardtable.ui.toosmall import TooSmallScreen

        width, height = self.size
        small = width < MIN_WIDTH or height < MIN_HEIGHT
        screen = self.screen
        on_top = isinstance(screen, TooSmallScreen)
        if small and not on_top:
            self.push_screen(TooSmallScreen())
        elif small and isinstance(screen, TooSmallScreen):     # (on top)
            screen.update_size()
        elif on_top:
            self.pop_screen()

    def push_screen(self, *args: Any, **kwargs: Any) -> Any:
        result = super().push_screen(*args, **kwargs)
        self.call_after_refresh(self._check_size)
        return result

    # -- games
    def game_screen_class(self, game: str) -> Any:
        module_name, _, class_name = games.get(game).ui.partition(":")
        return getattr(importlib.import_module(module_name), class_name)

    def start_game(self, game: str, options: Any = None, seed: int | None = None, level: str | None = None,
                   ask: bool = False) -> None:
        """Open a game. With ``ask`` the game's own setup screen asks for the options first."""
        screen_class = self.game_screen_class(game)
        if ask:
            self.push_screen(screen_class.setup_screen(), callback=lambda choice: self._started(game, choice))
            return
        self._started(game, (options, seed, level or "normal"))

    def _started(self, game: str, choice: Any) -> None:
        if choice is None:
            return
        options, seed, level = choice
        screen_class = self.game_screen_class(game)
        spec = games.get(game)
        if seed is None:
            import secrets

            seed = secrets.randbelow(1_000_000_000)
        match = spec.new_match(options, seed)
        players = ["human"] + [f"cpu:{level}"] * 3
        try:
            slot = self.store.claim_new_slot(game)     # locked for this process
        except (SaveError, OSError):
            slot = self.store.new_slot_name(game)      # saving will fail and say why
        self.push_screen(screen_class(spec, match, players, slot, fresh=True))

    def resume(self, slot: str, loaded: tuple | None = None, read_only: bool = False) -> bool:
        """Open a saved game. The slot is locked first; when another cardtable holds it, ask whether to
        open it read-only or not at all. ``loaded`` is the (match, data) the command line already read."""
        from cardtable.ui.gamescreen import GameScreen
        from cardtable.ui.screens import SlotBusyDialog

        shown = safetext.clean(slot, safetext.SHORT)     # file text: shown with markup off
        if any(isinstance(s, GameScreen) and s.slot == slot for s in self.screen_stack):
            self.notify(t("already_open", slot=shown), severity="warning", markup=False)
            return False
        if not read_only:
            try:
                self.store.lock(slot)
            except SlotBusy:
                # Asked from the app itself: the slot list pops itself before it calls resume, and a
                # dialog pushed from a closed screen sends its answer to that screen, never to us.
                self.call_later(lambda: self.push_screen(SlotBusyDialog(slot),
                                                         callback=lambda choice: self._busy_answer(slot, choice)))
                return False
            except SaveError as exc:      # not a slot name
                self.notify(t("save_damaged", slot=shown, reason=exc.text),
                            severity="error", timeout=8, markup=False)
                return False
        try:
            match, data = loaded if loaded is not None else self.store.load(slot)
        except SaveError as exc:
            self.store.unlock(slot)
            self.notify(t("save_damaged", slot=shown, reason=exc.text), severity="error",
                        timeout=8, markup=False)
            return False
        spec = games.get(data.game)
        screen = self.game_screen_class(data.game)(spec, match, data.players, slot, fresh=False)
        screen.read_only = read_only
        screen.undo_used = data.undo
        screen.restore_table(data.table or {})
        self.push_screen(screen)
        return True

    def _busy_answer(self, slot: str, choice: str | None) -> None:
        if choice == "read_only":
            self.resume(slot, read_only=True)

    def autosave(self) -> None:
        from cardtable.ui.gamescreen import GameScreen

        for screen in self.screen_stack:
            if isinstance(screen, GameScreen):
                screen.autosave(quiet=True)

    # -- the command palette (Ctrl+P)
    def get_system_commands(self, screen: Any) -> Any:
        from functools import partial

        from cardtable.ui.screens import RulesScreen, SettingsScreen, SlotsScreen

        for name in games.games():
            title = f"{t('new_game')}: {t('game_' + name)}"
            start = partial(self.start_game, name, ask=True)
            yield SystemCommand(title, t("desc_" + name), start)
            plain = _plain(title)
            if plain != title:   # so that "guinote" finds «Guiñote»
                yield SystemCommand(plain, t("desc_" + name), start, discover=False)
        yield SystemCommand(t("continue"), t("saves_title"), lambda: self.push_screen(SlotsScreen()))
        for name in games.games():
            yield SystemCommand(t("rules_title", game=t("game_" + name)), t("rules"),
                                partial(self.push_screen, RulesScreen(name)))
        yield SystemCommand(t("settings"), f"{t('language')} · {t('card_style')} · {t('cpu_speed')}",
                            lambda: self.push_screen(SettingsScreen()))
        yield SystemCommand(t("stats_title"), t("stats_palette"), self.action_statistics)
        yield SystemCommand(t("help"), t("keys_palette"), self.action_help)
        over_ssh = os.environ.get("CARDTABLE_SERVED") == "ssh"
        for command in super().get_system_commands(screen):
            # A screenshot over SSH would be a file on the server, never the player's, and one a client
            # could repeat until the server's disk is full.
            if command.title == "Keys" or (over_ssh and command.title == "Screenshot"):
                continue
            words = self.SYSTEM_COMMANDS.get(command.title)
            if words is not None:
                title, help_text = words
                command = SystemCommand(t(title), t(help_text), command.callback, command.discover)
            yield command

    def search_themes(self) -> None:
        """Textual's theme picker, with its search prompt in the UI language."""
        from textual.theme import ThemeProvider

        from cardtable.ui.palette import SafeCommandPalette

        self.push_screen(SafeCommandPalette(providers=[ThemeProvider], placeholder=t("palette_themes")))

    def action_command_palette(self) -> None:
        """Textual's command palette, with its search prompt in the UI language."""
        from cardtable.ui.palette import SafeCommandPalette

        if self.use_command_palette and not SafeCommandPalette.is_open(cast("App[object]", self)):
            self.push_screen(SafeCommandPalette(placeholder=t("palette_search"), id="--command-palette"))

    # -- actions
    def action_statistics(self) -> None:
        from cardtable.ui.statistics import StatisticsScreen

        self.push_screen(StatisticsScreen())

    async def action_quit(self) -> None:
        """Save every open game and leave. Before the first screen is ready (Ctrl+Q in the first
        instant) the exit waits for it a little: leaving mid-mount raised NoMatches in the Header."""
        from cardtable.ui.gamescreen import GameScreen

        if not self.ready_for_input() and self._quit_waits < 100:
            self._quit_waits += 1
            self.set_timer(0.02, self.action_quit)
            return
        lines = []
        for screen in self.screen_stack:
            if not isinstance(screen, GameScreen) or getattr(screen, "practice", False):
                continue        # a practice table is never saved, by design: nothing to say
            slot = safetext.clean(screen.slot, safetext.SHORT)
            if screen.read_only:
                lines.append(t("quit_read_only", slot=slot))
            elif screen.autosave(quiet=True):
                lines.append(t("quit_saved", slot=slot))
            else:
                lines.append(t("quit_not_saved", slot=slot, reason=screen.save_error or "?"))
        if lines:
            self.exit_message = "\n".join(lines)
        self.exit()

    def action_help(self) -> None:
        from cardtable.ui.screens import HelpScreen

        if self.keys_screen_available():
            self.push_screen(HelpScreen(self.screen))

    def keys_screen_available(self) -> bool:
        """Whether «?» opens the Keys screen here. Not on the Keys screen itself (its own «?» closes it),
        not over the «enlarge the terminal» message, not while the screen on top is not ready (type-ahead).
        (A focused box that takes «?» as text keeps it: Textual drops the binding for it.)"""
        from cardtable.ui.screens import HelpScreen
        from cardtable.ui.toosmall import TooSmallScreen

        try:
            screen = self.screen
        except ScreenStackError:
            return False
        return not isinstance(screen, (HelpScreen, TooSmallScreen)) and on_top(screen)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "help":
            return self.keys_screen_available()
        return True

    def apply_settings(self, settings: Settings) -> None:
        self.settings = settings
        try:
            save_settings(settings)
        except OSError as exc:
            self.notify(t("save_failed", reason=safetext.clean(exc.strerror or str(exc))), severity="error",
                        markup=False)
        i18n.set_language(self.language_override or settings.language or i18n.detect_language())
        translate_bindings(self)
        self.set_class(settings.card_style == "ascii", "ascii-mode")
        for screen in self.screen_stack:
            if hasattr(screen, "settings_changed"):
                screen.settings_changed()
