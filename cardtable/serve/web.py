"""``cardtable serve web``: the table in a browser tab, through textual-serve.

textual-serve runs one ``cardtable`` process per browser tab with Textual's web driver and relays its
output to the page. Every tab of one server shares that server's saves and settings (the data
directory of the user who runs the server): this mode is for playing on your own machine from a
browser, or for a trusted few; serve SSH for per-player saves.
"""

from __future__ import annotations

import os
import shlex
import sys

from cardtable.serve import child_command, package_root


def run_web_server(host: str, port: int) -> int:
    try:
        from textual_serve.server import Server
    except ImportError:
        print("cardtable: serving the web needs textual-serve (pip install 'cardtable[serve]')",
              file=sys.stderr)
        return 2
    os.environ["PYTHONPATH"] = package_root()      # every tab runs this very package
    server = Server(shlex.join(child_command()), host=host, port=port, title="cardtable")
    print(f"cardtable: serving in the browser at http://{host}:{port}", flush=True)
    try:
        server.serve()
    except OSError as exc:
        print(f"cardtable: cannot listen on {host}:{port}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    return 0
