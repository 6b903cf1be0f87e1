"""Serving the table to other people: ``cardtable serve ssh`` and ``cardtable serve web``.

Each player gets their own ``cardtable`` process (the same program as in a local terminal), so a crash
or a dropped connection touches one player only, and every save path is the one the local app uses.
The servers here only connect a remote terminal to that process and decide where its files live.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from pathlib import Path

LOOPBACK_HOSTS = ("127.0.0.1", "::1", "localhost")


class ServeError(Exception):
    """A problem with the server's own set-up, reported as one line (exit status 2)."""


def data_dir() -> Path:
    """Where the servers keep their files: the host key and the players' directories."""
    home = os.environ.get("CARDTABLE_HOME")
    if home:
        return Path(home).expanduser() / "serve"
    from platformdirs import user_data_path

    return user_data_path("cardtable", appauthor=False) / "serve"


def child_command(*args: str) -> list[str]:
    """The command that runs one player's ``cardtable`` (this interpreter, this package; ``-P -s`` so
    nothing in its working directory or a user site directory is importable)."""
    return [sys.executable, "-P", "-s", "-m", "cardtable", *args]


def package_root() -> str:
    """The directory this ``cardtable`` package is imported from, for the tables' PYTHONPATH (so a
    table runs the very code of its server, installed or from a checkout)."""
    import cardtable

    return str(Path(cardtable.__file__).resolve().parent.parent)


def _port(text: str) -> int:
    if not text.isascii() or not text.isdigit() or not 0 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError(f"a port is a number from 0 to 65535, not {text!r}")
    return int(text)


def _count(text: str) -> int:
    if not text.isascii() or not text.isdigit() or not 1 <= int(text) <= 10_000:
        raise argparse.ArgumentTypeError(f"expected a whole number from 1 to 10000, not {text!r}")
    return int(text)


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, not {text!r}") from None
    if not math.isfinite(value) or value <= 0 or value > 7 * 24 * 3600:
        raise argparse.ArgumentTypeError(f"seconds must be above 0 and at most a week, not {text!r}")
    return value


def _turn_seconds(text: str) -> float:
    """0 (off) or a number of seconds from 5 to a day."""
    value = float(text) if text.replace(".", "", 1).isdigit() else -1.0
    if value != 0 and not 5 <= value <= 86400:
        raise argparse.ArgumentTypeError(f"must be 0 (off) or from 5 to 86400 seconds, not {text!r}")
    return value


def add_parser(sub: argparse._SubParsersAction) -> None:
    serve = sub.add_parser("serve", help="serve the table over SSH or the web",
                           description="Serve cardtable to other people: over SSH (every key its own "
                                       "saves) or in a browser.")
    kinds = serve.add_subparsers(dest="kind", metavar="KIND", required=True)
    ssh = kinds.add_parser("ssh", help="an SSH server: 'ssh -p PORT HOST' plays",
                           description="An SSH server that gives every connection its own table. Each "
                                       "public key gets its own saves, settings and statistics.")
    ssh.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    ssh.add_argument("--port", type=_port, default=2222, help="port (default 2222; 0 picks a free one)")
    ssh.add_argument("--max-sessions", type=_count, default=16, metavar="N",
                     help="most tables at once (default 16)")
    ssh.add_argument("--per-address", type=_count, default=4, metavar="N",
                     help="most tables at once from one address (default 4)")
    ssh.add_argument("--max-connections", type=_count, default=64, metavar="N",
                     help="most logged-in connections at once (default 64)")
    ssh.add_argument("--connections-per-address", type=_count, default=8, metavar="N",
                     help="most logged-in connections at once from one address (default 8)")
    ssh.add_argument("--session-timeout", type=_seconds, default=30.0, metavar="S",
                     help="close a connection that holds no table for S seconds (default 30)")
    ssh.add_argument("--idle-timeout", type=_seconds, default=1800.0, metavar="S",
                     help="end a session after S seconds without a key (default 1800; the game is saved)")
    ssh.add_argument("--max-players", type=_count, default=1000, metavar="N",
                     help="players' directories kept; a new player removes the one idle longest, never "
                          "a connected one (default 1000)")
    ssh.add_argument("--guest", action="store_true",
                     help="also let people without a key in, with throwaway storage")
    ssh.add_argument("--no-shared-tables", action="store_true",
                     help="no shared tables ('host GAME', 'join CODE', «Play with friends»)")
    ssh.add_argument("--turn-timeout", type=_turn_seconds, default=120.0, metavar="S",
                     help="at a shared table of several people, a person's CPU moves for them after S "
                          "seconds (default 120; 0: never)")
    web = kinds.add_parser("web", help="a web server: the table in a browser tab",
                           description="Serve cardtable in the browser (textual-serve). Every browser tab "
                                       "runs its own table; all of them share this server's saves.")
    web.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    web.add_argument("--port", type=_port, default=8000, help="port (default 8000)")
    web.add_argument("--max-tabs", type=_count, default=16, metavar="N",
                     help="most tables (browser tabs) at once (default 16)")
    web.add_argument("--per-address", type=_count, default=4, metavar="N",
                     help="most tables from one address (default 4)")


def is_loopback(host: str) -> bool:
    """Only this machine can reach it: localhost, 127.0.0.0/8 or ::1."""
    import ipaddress

    try:
        return host in LOOPBACK_HOSTS or ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def warn_if_public(host: str) -> None:
    if not is_loopback(host):
        print(f"cardtable: warning: listening on {host}, not only this machine: anyone who can reach it "
              f"can connect", file=sys.stderr)


def main(args: argparse.Namespace) -> int:
    if args.kind == "ssh":
        try:
            from cardtable.serve.ssh import SshLimits, run_ssh_server
        except ImportError as exc:
            print(f"cardtable: {exc}", file=sys.stderr)
            return 2

        limits = SshLimits(max_sessions=args.max_sessions, per_address=args.per_address,
                           max_connections=args.max_connections,
                           connections_per_address=args.connections_per_address,
                           session_timeout=args.session_timeout, idle_timeout=args.idle_timeout,
                           max_players=args.max_players, guests=args.guest,
                           shared_tables=not args.no_shared_tables, turn_timeout=args.turn_timeout)
        warn_if_public(args.host)
        return run_ssh_server(args.host, args.port, limits)
    from cardtable.serve.web import WebLimits, run_web_server

    warn_if_public(args.host)
    return run_web_server(args.host, args.port, WebLimits(max_tabs=args.max_tabs, per_address=args.per_address))
