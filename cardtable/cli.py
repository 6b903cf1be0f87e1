"""The ``cardtable`` command line."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TextIO

from cardtable import __version__, games, i18n
from cardtable.engine import OptionError, check_seed


class CliError(Exception):
    """A usage problem reported as one clear line and exit status 2."""


def build_parser() -> argparse.ArgumentParser:
    names = ", ".join(name for name in games.GAME_MODULES if games.is_available(name))
    parser = argparse.ArgumentParser(
        prog="cardtable",
        description="A terminal card table: Guandan, Gong Zhu and Guiñote against three CPU players.",
        epilog="Run 'cardtable COMMAND --help' for the options of one command.")
    parser.add_argument("--version", action="version", version=f"cardtable {__version__}")
    parser.add_argument("--lang", choices=i18n.LANGUAGES, help="language of the interface (default: locale)")
    parser.add_argument("--save-dir", type=Path, metavar="DIR",
                        help="where save slots live (default: $CARDTABLE_HOME/saves or the user data dir)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    new = sub.add_parser("new", help="start a new game", description="Start a new game at the table.")
    new.add_argument("game", help=f"one of: {names}")
    new.add_argument("--seed", help="game number (default: random)")
    new.add_argument("--level", default="normal", help="CPU level: easy or normal (default: normal)")
    new.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                     help="a rule option, e.g. target=1000 (repeatable)")

    cont = sub.add_parser("continue", help="resume a saved game", description="Resume a saved game.")
    cont.add_argument("slot", nargs="?", help="slot name (default: the most recent)")

    sub.add_parser("saves", help="list the save slots", description="List the save slots.")

    sim = sub.add_parser("sim", help="play CPU-only matches headless",
                         description="Play whole matches between CPU players, with no terminal.")
    sim.add_argument("game", help=f"one of: {names}")
    sim.add_argument("--games", type=int, default=100, help="number of matches (default 100)")
    sim.add_argument("--seed", default="1", help="seed of the first match; the next ones count up")
    sim.add_argument("--history", type=Path, metavar="FILE", help="write the JSON Lines hand history here")
    sim.add_argument("--legal", action="store_true", help="write the legal moves on every move line")
    sim.add_argument("--players", default="normal",
                     help="CPU levels: one for all, or four comma-separated (seat 0 first)")
    sim.add_argument("--rotate", action="store_true",
                     help="play each deal under every seating (all four rotations, or both pair orders)")
    sim.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", help="a rule option")

    bench = sub.add_parser("bench", help="measure speed", description="Measure start-up and engine speed.")
    bench.add_argument("what", nargs="?", default="all", help="all, startup, or a game name")
    bench.add_argument("--seconds", type=float, default=3.0, help="time per measurement (default 3)")

    rules = sub.add_parser("rules", help="print the rules of a game", description="Print a game's rules.")
    rules.add_argument("game", help=f"one of: {names}")
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return _run(args)
    except CliError as exc:
        print(f"cardtable: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("cardtable: interrupted", file=sys.stderr)
        return 130


def _spec(name: str) -> games.GameSpec:
    try:
        return games.get(name.lower())
    except KeyError as exc:
        raise CliError(exc.args[0]) from None


def _options(spec: games.GameSpec, pairs: list[str]):
    try:
        return spec.options_type.from_strings(pairs)
    except (OptionError, TypeError) as exc:
        raise CliError(str(exc)) from None


def _seed(text: str | None) -> int | None:
    if text is None:
        return None
    try:
        return check_seed(text)
    except OptionError as exc:
        raise CliError(str(exc)) from None


def _store(args: argparse.Namespace):
    from cardtable.saves import SaveStore

    return SaveStore(args.save_dir)


def _run(args: argparse.Namespace) -> int:
    from cardtable.settings import load_settings

    settings = load_settings()
    i18n.set_language(args.lang or settings.language or i18n.detect_language())
    command = args.command
    if command == "saves":
        return _cmd_saves(args, sys.stdout)
    if command == "sim":
        return _cmd_sim(args)
    if command == "bench":
        from cardtable import bench

        return bench.main(args.what, args.seconds)
    if command == "rules":
        from cardtable.rules_text import rules_markdown

        print(rules_markdown(_spec(args.game).name, i18n.language()))
        return 0
    launch = None
    if command == "new":
        spec = _spec(args.game)
        if args.level not in spec.bots:
            raise CliError(f"unknown CPU level {args.level!r}; levels: {', '.join(spec.bots)}")
        launch = ("new", spec.name, _options(spec, args.option), _seed(args.seed), args.level)
    elif command == "continue":
        store = _store(args)
        slot = args.slot
        if slot is None:
            usable = [info for info in store.list() if not info.damaged]
            if not usable:
                raise CliError("there is no saved game to continue")
            slot = usable[0].slot
        from cardtable.saves import SaveError

        try:
            store.load(slot)
        except SaveError as exc:
            raise CliError(str(exc)) from None
        launch = ("continue", slot)
    return _start_app(args, settings, launch)


def _start_app(args: argparse.Namespace, settings, launch) -> int:
    if not sys.stdout.isatty() or not sys.stdin.isatty():
        print(f"cardtable: {i18n.t('no_tty')}", file=sys.stderr)
        return 2
    from cardtable.ui.app import CardTableApp

    app = CardTableApp(store=_store(args), settings=settings, launch=launch,
                       language_override=args.lang)
    app.run()
    if app.exit_message:
        print(app.exit_message)
    return app.return_code or 0


def _cmd_saves(args: argparse.Namespace, out: TextIO) -> int:
    from rich.console import Console
    from rich.table import Table

    store = _store(args)
    infos = store.list()
    console = Console(file=out, highlight=False, soft_wrap=True)
    if not infos:
        console.print(f"{i18n.t('no_saves')} ({store.directory})")
        return 0
    table = Table(title=f"{i18n.t('saves_title')} — {store.directory}")
    for column in ("slot", "game", "summary", "saved_at"):
        table.add_column(i18n.t(column))
    for info in infos:
        if info.damaged:
            table.add_row(info.slot, info.game or "?", f"[red]{i18n.t('damaged')}: {info.error}[/]", "")
        else:
            table.add_row(info.slot, i18n.t("game_" + info.game), info.describe(), info.saved_at)
    console.print(table)
    return 0


def _cmd_sim(args: argparse.Namespace) -> int:
    from cardtable import sim

    spec = _spec(args.game)
    options = _options(spec, args.option)
    seed = _seed(args.seed)
    if args.games < 1:
        raise CliError("--games must be at least 1")
    try:
        players = sim.parse_players(spec, args.players)
    except ValueError as exc:
        raise CliError(str(exc)) from None
    history = None
    if args.history is not None:
        try:
            history = args.history.open("w", encoding="utf-8")
        except OSError as exc:
            raise CliError(f"cannot write {args.history}: {exc.strerror}") from None
    try:
        result = _sim_with_progress(spec, options, args, seed, players, history)
    finally:
        if history is not None:
            history.close()
    _print_sim(spec, result, players)
    return 0


def _sim_with_progress(spec, options, args, seed, players, history):
    from cardtable import sim

    if not sys.stderr.isatty() or os.environ.get("CI"):
        return sim.run(spec, options, args.games, seed, players, history, args.legal, args.rotate)
    from rich.progress import Progress

    with Progress(transient=True) as progress:
        task = progress.add_task(f"{spec.title}", total=args.games)
        return sim.run(spec, options, args.games, seed, players, history, args.legal, args.rotate,
                       progress=lambda done: progress.update(task, completed=done))


def _print_sim(spec, result, players) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console(highlight=False)
    rate = result.hands / result.seconds if result.seconds else float("inf")
    console.print(f"{spec.title}: {result.matches} matches, {result.hands} hands, {result.moves} moves "
                  f"in {result.seconds:.2f} s ({rate:.0f} hands/s)")
    table = Table(title=f"by CPU level ({spec.score_label})")
    table.add_column("level")
    table.add_column("team-hands" if spec.partnerships else "seat-hands", justify="right")
    table.add_column("mean", justify="right")
    table.add_column("95% CI", justify="right")
    table.add_column("matches won", justify="right")
    for level, stats in sorted(result.by_level.items()):
        table.add_row(level, str(stats.n), f"{stats.mean:.3f}", f"± {stats.ci95:.3f}",
                      str(result.wins_by_level.get(level, 0)))
    console.print(table)
