"""The ``cardtable`` command line."""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import math
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from cardtable import __version__, games, i18n, output, safetext
from cardtable.engine import OptionError, check_seed

if TYPE_CHECKING:
    from _typeshed import SupportsWrite

MAX_JOBS = 64               # `sim --jobs`: processes
MAX_GAMES = 100_000          # `sim --games`: more is a mistake (hours of CPU), not a wish
MAX_BENCH_SECONDS = 600.0


class CliError(Exception):
    """A usage problem reported as one clear line and exit status 2."""


def _count(text: str) -> int:
    """A whole number in the digits 0-9 (``int`` would also take «١٢٣» and «1_000»)."""
    text = text.strip()
    if not (text.isascii() and text.isdigit()) or len(text) > 12:
        raise argparse.ArgumentTypeError(f"expected a whole number written with the digits 0-9, "
                                         f"not {text[:40]!r}")
    return int(text)


def _directory(text: str) -> Path:
    if not text.strip():
        raise argparse.ArgumentTypeError("an empty path is not a directory (use . for this one)")
    return Path(text)


class _Parser(argparse.ArgumentParser):
    """argparse, except that a failing --help/--version output is not silently dropped (argparse
    swallows OSError there): :func:`output.guarded` reports it."""

    def _print_message(self, message: str, file: SupportsWrite[str] | None = None) -> None:
        if message:
            (file or sys.stderr).write(message)


def build_parser() -> argparse.ArgumentParser:
    names = ", ".join(name for name in games.GAME_MODULES if games.is_available(name))
    parser = _Parser(
        prog="cardtable",
        description="A terminal card table: Guandan, Gong Zhu and Guiñote against three CPU players.",
        epilog="Run 'cardtable COMMAND --help' for the options of one command.")
    parser.add_argument("--version", action="version", version=f"cardtable {__version__}")
    parser.add_argument("--lang", choices=i18n.LANGUAGES, help="language of the interface (default: locale)")
    parser.add_argument("--save-dir", type=_directory, metavar="DIR",
                        help="where save slots live (default: $CARDTABLE_HOME/saves or the user data dir)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    new = sub.add_parser("new", help="start a new game", description="Start a new game at the table.")
    new.add_argument("game", help=f"one of: {names}")
    new.add_argument("--seed", help="game number (default: random)")
    new.add_argument("--level", default="normal", help="CPU level: easy, normal, hard or expert (default: normal)")
    new.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                     help="a rule option, e.g. target=1000 (repeatable)")

    cont = sub.add_parser("continue", help="resume a saved game", description="Resume a saved game.")
    cont.add_argument("slot", nargs="?", help="slot name (default: the most recent)")
    cont.add_argument("--read-only", action="store_true",
                      help="look at the game without saving (e.g. while it is open in another window)")

    sub.add_parser("saves", help="list the save slots", description="List the save slots.")

    host = sub.add_parser("host", help="make a shared table (over cardtable serve ssh)",
                          description="Make a table friends join with its code (served by 'cardtable serve ssh').")
    host.add_argument("game", help=f"one of: {names}")
    host.add_argument("--level", default="normal", help="the CPU players' level (default: normal)")
    host.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", help="a rule option")
    join = sub.add_parser("join", help="sit at a friend's shared table (over cardtable serve ssh)",
                          description="Sit at a shared table by its code (served by 'cardtable serve ssh').")
    join.add_argument("code", help="the table's code, e.g. K7QX2M")

    sim = sub.add_parser("sim", help="play CPU-only matches headless",
                         description="Play whole matches between CPU players, with no terminal.")
    sim.add_argument("game", help=f"one of: {names}")
    sim.add_argument("--games", type=_count, default=100,
                     help=f"number of matches, 1 to {MAX_GAMES} (default 100)")
    sim.add_argument("--seed", default="1", help="seed of the first match; the next ones count up")
    sim.add_argument("--history", type=Path, metavar="FILE", help="write the JSON Lines hand history here")
    sim.add_argument("--legal", action="store_true", help="write the legal moves on every move line")
    sim.add_argument("--players", default="normal",
                     help="CPU levels: one for all, or four comma-separated (seat 0 first)")
    sim.add_argument("--rotate", action="store_true",
                     help="play each deal under every seating (every distinct rotation, or both pair orders)")
    sim.add_argument("--hands", type=_count, metavar="H", help="stop each match after H hands")
    sim.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", help="a rule option")
    sim.add_argument("--jobs", type=_count, default=None, metavar="N",
                     help="play in N processes (default: the machine's cores); the results and the history "
                          "are the same as with --jobs 1")

    bench = sub.add_parser("bench", help="measure speed", description="Measure start-up and engine speed.")
    bench.add_argument("what", nargs="?", default="all",
                       help="all, startup, memory (RSS while a table plays hands), decisions (the search levels' decision "
                            "times, wall and CPU, per game), keys (key latency while a hard CPU thinks), "
                            "chaos (mutated saves, hostile settings, a full, locked or read-only statistics "
                            "database, odd lock paths: tries and failures), or a game name")
    bench.add_argument("--seconds", type=float, default=3.0,
                       help=f"time per measurement, more than 0 and at most {MAX_BENCH_SECONDS:g} (default 3)")
    bench.add_argument("--hands", type=_hands, default=20, help="hands the memory bench plays (1-200, default 20)")
    bench.add_argument("--game", choices=list(games.games()), default="guandan",
                       help="the table the memory bench plays (default guandan)")
    serve = bench.add_argument_group("bench serve")
    serve.add_argument("--players", type=_players, default=None, metavar="N,N,...",
                       help="bench serve: the numbers of concurrent players (default 1,4,8,16,24)")
    serve.add_argument("--spawn", type=_spawns, default=("plain", "zygote"), metavar="WAY,...",
                       help="bench serve: how tables start, compared in one run: plain (a fresh Python per "
                            "table), zygote (forked from a warm template, one search pool); default both")
    serve.add_argument("--ramp", type=float, default=0.0, metavar="S",
                       help="bench serve: the players connect spread over S seconds (default 0: at once)")
    serve.add_argument("--soak", action="store_true",
                       help="bench serve: --connections players over --seconds, each pressing a few keys and "
                            "leaving; then nothing may be left behind (by hand: 200 over 600 s)")
    serve.add_argument("--connections", type=_players_one, default=200, metavar="N",
                       help="bench serve --soak: connections in all (default 200)")
    serve.add_argument("--shared", action="store_true",
                       help="with 'serve': shared tables (4 tables of 2-4 people over SSH), a key to the "
                            "other people's screens")

    from cardtable.serve import add_parser as add_serve_parser

    add_serve_parser(sub)

    stats = sub.add_parser("stats", help="your statistics per game and CPU level",
                           description="Your statistics: matches, wins, hands, points, streaks, time played.")
    stats.add_argument("game", nargs="?", help=f"one of: {names} (default: all)")
    stats.add_argument("--json", action="store_true", help="print JSON instead of a table")

    export = sub.add_parser("export", help="write a saved match's hand history",
                            description="Write the JSON Lines hand history (docs/history-format.md) of a "
                                        "saved match, finished or not.")
    export.add_argument("slot", help="slot name (see 'cardtable saves')")
    export.add_argument("--history", type=Path, metavar="FILE", required=True,
                        help="where to write it ('-' for the standard output)")

    rules = sub.add_parser("rules", help="print the rules of a game", description="Print a game's rules.")
    rules.add_argument("game", help=f"one of: {names}")
    for command in sub.choices.values():      # `cardtable rules guandan --lang zh` as well as before it
        command.add_argument("--lang", choices=i18n.LANGUAGES, default=argparse.SUPPRESS,
                             help="language of the interface (default: locale)")
    return parser




def main(argv: list[str] | None = None) -> int:
    """Run one command. Every failure is one line on stderr and a non-zero status, never a traceback:
    2 for usage and file problems, 141 when the reader of the output went away (``| head``)."""
    output.prepare_streams()
    with output.guarded() as status:
        parser = build_parser()
        try:
            args = parser.parse_args(argv)
        except SystemExit as exc:    # --help, --version and usage errors: argparse has written
            status.code = exc.code if isinstance(exc.code, int) else 2
        else:
            try:
                status.code = _run(args)
            except CliError as exc:
                print(f"cardtable: {exc}", file=sys.stderr)
                status.code = 2
            except KeyboardInterrupt:
                print("cardtable: interrupted", file=sys.stderr)
                status.code = 130
        status.flush()
    return status.code


def _players_one(text: str) -> int:
    if not (text.isascii() and text.isdigit()) or not 1 <= int(text) <= 1000:
        raise argparse.ArgumentTypeError(f"must be a whole number from 1 to 1000, not {text!r}")
    return int(text)


def _players(text: str) -> tuple[int, ...]:
    """bench serve --players: "1,4,8"."""
    return tuple(_players_one(part.strip()) for part in text.split(","))


def _spawns(text: str) -> tuple[str, ...]:
    ways = tuple(part.strip() for part in text.split(","))
    if not ways or any(way not in ("plain", "zygote") for way in ways):
        raise argparse.ArgumentTypeError(f"the ways are plain and zygote, not {text!r}")
    return ways


def _hands(text: str) -> int:
    """The memory bench's hand count: a plain number from 1 to 200."""
    if not (text.isascii() and text.isdigit()) or not 1 <= int(text) <= 200:
        raise argparse.ArgumentTypeError(f"must be a whole number from 1 to 200, not {text!r}")
    return int(text)


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

    store = SaveStore(args.save_dir)
    store.clean_temp_files()      # left by a process that died while saving
    return store


def _list(store) -> list:
    from cardtable.saves import SaveDirError

    try:
        return store.list()
    except SaveDirError as exc:
        raise CliError(str(exc)) from None


def _run(args: argparse.Namespace) -> int:
    from cardtable.settings import read_settings

    settings, problem = read_settings()
    i18n.set_language(args.lang or settings.language or i18n.detect_language())
    command = args.command
    notices = (problem.text,) if problem is not None else ()
    if notices and command not in (None, "new", "continue"):      # the table says it at the table
        print(f"cardtable: {notices[0]}", file=sys.stderr)
    if command == "saves":
        return _cmd_saves(args, sys.stdout)
    if command == "sim":
        return _cmd_sim(args)
    if command == "stats":
        return _cmd_stats(args, sys.stdout)
    if command == "export":
        return _cmd_export(args)
    if command == "bench" and args.what == "serve" and args.shared:
        from cardtable.serve.sharedload import main as bench_shared

        return bench_shared(args.seconds if args.seconds != 3.0 else 60.0)
    if command == "bench" and args.what == "serve":
        from cardtable.serve.load import LEVELS
        from cardtable.serve.load import main as bench_serve

        if not (math.isfinite(args.ramp) and 0 <= args.ramp <= MAX_BENCH_SECONDS):
            raise CliError(f"--ramp must be from 0 to {MAX_BENCH_SECONDS:g} seconds, not {args.ramp}")
        return bench_serve(args.seconds if args.seconds != 3.0 else 90.0, args.players or LEVELS,
                           args.spawn, args.ramp, args.soak, args.connections)
    if command == "bench":
        from cardtable import bench

        if not (math.isfinite(args.seconds) and 0 < args.seconds <= MAX_BENCH_SECONDS):
            raise CliError(f"--seconds must be more than 0 and at most {MAX_BENCH_SECONDS:g}, "
                           f"not {args.seconds}")
        return bench.main(args.what, args.seconds, args.hands, args.game)
    if command == "serve":
        from cardtable import serve

        return serve.main(args)
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
    if command in ("host", "join"):
        launch = _shared_launch(args)
    store = _store(args)
    try:
        if command == "continue":
            launch = _continue(args, store)
        _check_terminal()
        _check_save_dir(store)
        return _start_app(args, settings, launch, store, notices)
    finally:
        store.unlock_all()


def _shared_launch(args: argparse.Namespace) -> tuple:
    """``host GAME`` / ``join CODE``: only in a table served with the shared tables' hub."""
    from cardtable.serve.tableclient import has_hub
    from cardtable.table import read_code

    if not has_hub():
        raise CliError("shared tables are played over 'cardtable serve ssh': "
                       "ssh -t -p PORT HOST host GAME, or join CODE")
    if args.command == "join":
        code = read_code(args.code)
        if code is None:
            raise CliError(f"{args.code[:20]!r} is not a table code (6 letters and digits)")
        return ("friends", "join", code)
    spec = _spec(args.game)
    if args.level not in spec.bots:
        raise CliError(f"unknown CPU level {args.level!r}; levels: {', '.join(spec.bots)}")
    options = _options(spec, args.option) if args.option else None      # None: the game's setup asks
    return ("friends", "host", spec.name, options, args.level)


def _check_terminal() -> None:
    if os.environ.get("TEXTUAL_DRIVER", "").endswith(":WebDriver"):
        return          # served in a browser (cardtable serve web): the page is the terminal
    if not sys.stdout.isatty() or not sys.stdin.isatty():
        raise CliError(i18n.t("no_tty"))
    term = os.environ.get("TERM", "")
    if term in ("dumb", "unknown"):
        raise CliError(i18n.t("term_dumb", term=term))


def _check_save_dir(store) -> None:
    """The table saves after every move: a save directory it cannot use is said now, in one line."""
    from cardtable.saves import SaveDirError

    try:
        store.check_usable()
    except SaveDirError as exc:
        raise CliError(str(exc)) from None


def _continue(args: argparse.Namespace, store) -> tuple:
    """Load (and replay) the slot once, and lock it; the app gets the match ready to show."""
    from cardtable.saves import SaveError, SlotBusy

    slot = args.slot
    if slot is None:
        usable = [info for info in _list(store) if not info.damaged]
        if not usable:
            raise CliError("there is no saved game to continue")
        slot = usable[0].slot
    read_only = bool(args.read_only)
    try:
        if not read_only:
            try:
                store.lock(slot)       # first: nobody else can write the slot once it is read
            except SlotBusy:
                read_only = _ask_read_only(slot)
        loaded = store.load(slot)
    except SaveError as exc:
        raise CliError(i18n.t("save_damaged", slot=exc.slot, reason=exc.text)) from None
    return ("continue", slot, loaded, read_only)


def _ask_read_only(slot: str) -> bool:
    """The slot is open in another cardtable: open it read-only, or not at all (the default)."""
    busy = i18n.t("slot_busy", slot=safetext.clean(slot, safetext.SHORT))
    if sys.stdin.isatty() and sys.stderr.isatty():
        print(busy, file=sys.stderr)
        print(i18n.t("slot_busy_ask"), end="", file=sys.stderr, flush=True)
        try:
            answer = sys.stdin.readline()
        except (OSError, UnicodeDecodeError):
            answer = ""
        if answer.strip().lower()[:1] == "r":
            return True
    raise CliError(f"{busy} ({i18n.t('slot_busy_hint')})")


def _start_app(args: argparse.Namespace, settings, launch, store, notices: tuple[str, ...] = ()) -> int:
    if not output.can_encode_unicode(sys.__stderr__):
        # The table is drawn through stderr: on an ASCII-only terminal the cards are drawn in ASCII
        # for this session (the rest is transliterated by the output error handler).
        settings = dataclasses.replace(settings, card_style="ascii")
    from cardtable.ui.app import CardTableApp

    app = CardTableApp(store=store, settings=settings, launch=launch, language_override=args.lang,
                       notices=notices)
    try:
        app.run()
    finally:
        app.close_thinker()
        app.close_statistics()
    if app.exit_message:
        print(app.exit_message)
    return app.return_code or 0


def _cmd_stats(args: argparse.Namespace, out: TextIO) -> int:
    import dataclasses
    import json

    from rich.console import Console

    from cardtable.stats import StatsDB, StatsError, format_row, summary_columns

    game = _spec(args.game).name if args.game else None
    db = StatsDB()
    try:
        rows = db.summary(game)
    except StatsError as exc:          # an unusable home: one line, like `cardtable saves`
        raise CliError(safetext.clean(exc.notice.text)) from None
    finally:
        db.close()
    if db.notice:
        print(f"cardtable: {safetext.clean(db.notice.text)}", file=sys.stderr)
    if args.json:
        out.write(json.dumps([row.to_json() for row in rows], ensure_ascii=False, indent=1) + "\n")
        return 0
    console = Console(file=out, highlight=False, markup=False, emoji=False)
    if not rows:
        console.print(i18n.t("stats_none"))
        return 0
    console.print(i18n.t("stats_title"), style="bold")
    names = summary_columns()
    for row in rows:
        cells = format_row(row)
        # «Gong Zhu · normal · with undo», as the statistics screen's first column reads (no ASCII brackets
        # in Chinese)
        name = format_row(dataclasses.replace(row, undo=False))[0]
        console.print(name + (f" · {i18n.t('stats_with_undo')}" if row.undo else ""), style="bold")
        items = [f"{name} {_minus(cell)}" for name, cell in zip(names[1:], cells[1:])]
        for line in stats_lines(items, console.width):
            console.print(line, soft_wrap=True)       # wrapped here, between items, never inside one
    return 0


def _minus(cell: str) -> str:
    """«−320» with the typographic minus of the tables (the output stream turns it ASCII where needed)."""
    return "\u2212" + cell[1:] if cell.startswith("-") else cell


def stats_lines(items: list[str], width: int, indent: str = "  ", sep: str = " · ") -> list[str]:
    """``items`` joined by ``sep`` in lines of at most ``width`` cells, broken between items only, so that
    no line ends with «· » and no item (a Chinese one neither) is cut in two."""
    from rich.cells import cell_len

    lines: list[str] = []
    line = ""
    for item in items:
        candidate = f"{line}{sep}{item}" if line else indent + item
        if line and cell_len(candidate) > width:
            lines.append(line)
            candidate = indent + item
        line = candidate
    if line:
        lines.append(line)
    return lines


def _cmd_export(args: argparse.Namespace) -> int:
    """The slot is checked as `continue` checks it (read, validated, replayed: the same one-line errors),
    then its history is written to a temp file beside the target and renamed: a failure leaves no
    partial file. To the standard output, a reader that goes away ends it quietly (status 141)."""
    from cardtable.history import HistoryWriter
    from cardtable.saves import SaveError, rebuild

    store = _store(args)
    try:
        data = store.read(args.slot)
        rebuild(args.slot, data)
    except SaveError as exc:
        raise CliError(i18n.t("save_damaged", slot=exc.slot, reason=exc.text)) from None
    spec = games.get(data.game)
    fresh = spec.new_match(spec.options_type.from_dict(data.options), data.seed)
    moves = [(seat, fresh.decode_move(move)) for seat, move in data.moves]

    def write(stream: TextIO) -> None:
        writer = HistoryWriter(stream, fresh, data.players)
        for seat, move in moves:
            writer.apply(move, seat)
        stream.flush()

    if str(args.history) == "-":
        write(sys.stdout)         # a reader that went away or a full disk: output.guarded says it
    else:
        _write_export(args.history, write)
    return 0


def _write_export(target: Path, write) -> None:
    """``write(stream)`` into a temp file in ``target``'s directory, then rename it to ``target``."""
    import stat
    import tempfile

    shown = safetext.clean(str(target), 300)
    try:
        mode = os.stat(target).st_mode
    except OSError:
        mode = None
    try:
        if mode is not None and stat.S_ISDIR(mode):
            raise IsADirectoryError(21, "Is a directory")
        if mode is not None and not stat.S_ISREG(mode):     # /dev/null, a FIFO: a stream, never replaced
            with target.open("w", encoding="utf-8") as stream:
                write(stream)
            return
        fd, temp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    except OSError as exc:
        raise CliError(f"cannot write {shown}: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as stream:
            write(stream)
            os.fsync(stream.fileno())
        os.chmod(temp, 0o666 & ~_umask())
        os.replace(temp, target)
    except OSError as exc:
        raise CliError(f"cannot write {shown}: {exc.strerror or exc}") from None
    finally:
        with contextlib.suppress(OSError):
            os.unlink(temp)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _cmd_saves(args: argparse.Namespace, out: TextIO) -> int:
    from rich.table import Table
    from rich.text import Text

    store = _store(args)
    infos = _list(store)
    console = output.console(file=out, highlight=False, soft_wrap=True, markup=False, emoji=False)
    where = safetext.clean(str(store.directory), 300)
    if not infos:
        console.print(Text(f"{i18n.t('no_saves')} ({where})"))
        return 0
    table = Table(title=Text(f"{i18n.t('saves_title')} — {where}"))
    # A slot name is for copying onto a command line: its column never wraps nor cuts it (the summary
    # and the time wrap instead).
    from rich.cells import cell_len

    longest = max(cell_len(safetext.clean(info.slot, safetext.SHORT)) for info in infos)
    table.add_column(i18n.t("slot"), no_wrap=True, min_width=max(longest, cell_len(i18n.t("slot"))))
    for column in ("game", "summary", "saved_at"):
        table.add_column(i18n.t(column))
    for info in infos:
        slot = safetext.text(info.slot, safetext.SHORT)
        if info.damaged:
            game = safetext.text(info.game or "?", safetext.SHORT)
            table.add_row(slot, game, safetext.text(f"{i18n.t('damaged')}: {info.problem}", style="red"),
                          Text(""))
        else:
            table.add_row(slot, Text(i18n.t("game_" + info.game)), safetext.text(info.describe()),
                          safetext.text(info.saved_at.replace("T", " "), safetext.SHORT))
    console.print(table)
    return 0


def _cmd_sim(args: argparse.Namespace) -> int:
    from cardtable import sim

    spec = _spec(args.game)
    options = _options(spec, args.option)
    seed = _seed(args.seed)
    if not 1 <= args.games <= MAX_GAMES:
        raise CliError(f"--games must be at least 1 and at most {MAX_GAMES}")
    if args.jobs is not None and not 1 <= args.jobs <= MAX_JOBS:
        raise CliError(f"--jobs must be at least 1 and at most {MAX_JOBS}")
    if args.hands is not None and args.hands < 1:
        raise CliError("--hands must be at least 1")
    try:
        players = sim.parse_players(spec, args.players)
    except ValueError as exc:
        raise CliError(str(exc)) from None
    history = None
    if args.history is not None:
        try:
            history = args.history.open("w", encoding="utf-8")
        except OSError as exc:
            raise CliError(f"cannot write {args.history}: {exc.strerror or exc}") from None
    try:
        result = _sim_with_progress(spec, options, args, seed, players, history)
        if history is not None:
            history.flush()
    except OSError as exc:
        if history is None:
            raise
        raise CliError(f"cannot write {args.history}: {exc.strerror or exc}") from None
    finally:
        if history is not None:
            with contextlib.suppress(OSError):
                history.close()
    _print_sim(spec, result, players)
    return 0


def _sim_with_progress(spec, options, args, seed, players, history):
    from cardtable import sim

    jobs = args.jobs if args.jobs is not None else sim.default_jobs()
    if not sys.stderr.isatty() or os.environ.get("CI"):
        return sim.run(spec, options, args.games, seed, players, history, args.legal, args.rotate, jobs=jobs,
                       hands=args.hands)
    from rich.progress import Progress

    with Progress(transient=True) as progress:
        task = progress.add_task(f"{spec.title}", total=args.games)
        return sim.run(spec, options, args.games, seed, players, history, args.legal, args.rotate,
                       progress=lambda done: progress.update(task, completed=done), jobs=jobs,
                       hands=args.hands)


def _rate_text(rate: float) -> str:
    """A rate to three significant figures at most, never rounded to 0 (a hard arena plays 0.35 hands/s)."""
    if rate >= 100 or rate == float("inf"):
        return f"{rate:.0f}"
    return f"{rate:.3g}"


def _print_sim(spec, result, players) -> None:
    from rich.table import Table

    console = output.console(highlight=False)
    rate = result.hands / result.seconds if result.seconds else float("inf")
    console.print(f"{spec.title}: {result.matches} matches, {result.hands} hands, {result.moves} moves "
                  f"in {result.seconds:.2f} s ({_rate_text(rate)} hands/s)")
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
    for level, stats in sorted(result.decided_by_level.items()):
        console.print(f"{level}: wins {stats.mean:.1%} ± {stats.ci95:.1%} of {stats.n} decided team-hands")
    if result.paired is not None and result.paired.n:
        first, second = result.paired_levels
        console.print(f"duplicate deals: {first} − {second} = {result.paired.mean:+.3f} ± {result.paired.ci95:.3f} "
                      f"(95% CI, {result.paired.n} deals, {spec.score_label})")
