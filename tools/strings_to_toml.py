"""Move the UI strings registered from Python (``register(en={...}, es={...})``) into the catalogue
files ``cardtable/locales/<lang>.toml``, and delete those calls from the modules.

Run from the repository root: ``python tools/strings_to_toml.py``. It checks its own work: the merged
catalogues after the move (read in a fresh interpreter) must equal those before, key for key. Strings
already in a catalogue file stay; a key found twice is an error. Rerunning it finds nothing to move.
"""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "cardtable"
LOCALES = PACKAGE / "locales"
DUMP = """
import importlib, json, pkgutil, sys
sys.path.insert(0, {root!r})
import cardtable
from cardtable import i18n
for m in pkgutil.walk_packages(cardtable.__path__, prefix="cardtable."):
    if not m.name.endswith("__main__"):
        importlib.import_module(m.name)
print(json.dumps({{lang: i18n.catalog(lang) for lang in i18n.LANGUAGES}}, ensure_ascii=False))
"""


def catalogues() -> dict[str, dict[str, str]]:
    out = subprocess.run([sys.executable, "-c", DUMP.format(root=str(ROOT))], capture_output=True, text=True,
                         check=True, cwd=ROOT)
    return json.loads(out.stdout)


def register_calls(tree: ast.Module) -> list[ast.Expr]:
    calls = []
    for node in tree.body:
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
            func = node.value.func
            name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
            if name == "register" and all(isinstance(k.value, ast.Dict) for k in node.value.keywords):
                calls.append(node)
    return calls


def toml_line(key: str, text: str) -> str:
    if not re.fullmatch(r"[A-Za-z0-9_-]+", key):
        raise ValueError(f"{key!r} is no bare TOML key")
    # JSON's string escapes (\" \\ \n \t \uXXXX) are TOML's basic-string escapes
    return f"{key} = {json.dumps(text, ensure_ascii=False)}"


def main() -> int:
    before = catalogues()
    moved: dict[str, list[str]] = {}
    seen: dict[str, set[str]] = {}
    edits: list[tuple[Path, list[ast.Expr]]] = []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        calls = register_calls(tree)
        if not calls:
            continue
        edits.append((path, calls))
        module = path.relative_to(ROOT).as_posix()
        for call in calls:
            for keyword in call.value.keywords:
                lang = keyword.arg
                strings = ast.literal_eval(keyword.value)
                lines = moved.setdefault(lang, [])
                label = "shared: the shell, dialogs, statistics" if module == "cardtable/i18n.py" else \
                    f"used by {module}"
                lines.append(f"\n# ---------------------------------------------------------------- {label}")
                for key, text in strings.items():
                    if key in seen.setdefault(lang, set()):
                        raise SystemExit(f"{lang}: {key!r} registered twice")
                    seen[lang].add(key)
                    lines.append(toml_line(key, text))
    if not edits:
        print("nothing to move")
        return 0
    for lang, lines in moved.items():
        page = LOCALES / f"{lang}.toml"
        head = page.read_text(encoding="utf-8") if page.exists() else (
            f"# The {lang} catalogue of cardtable's UI (read by cardtable/i18n.py): one `key = \"text\"` line\n"
            "# per string; the placeholders ({name}, {n}…) are the same in every language.\n")
        page.write_text(head.rstrip("\n") + "\n" + "\n".join(lines) + "\n", encoding="utf-8")
    for path, calls in edits:
        source = path.read_text(encoding="utf-8").split("\n")
        for call in sorted(calls, key=lambda c: -c.lineno):
            source[call.lineno - 1:call.end_lineno] = [
                "# This module's UI strings are in cardtable/locales/<lang>.toml (en, es, zh)."]
        text = re.sub(r"\n{4,}", "\n\n\n", "\n".join(source)).rstrip("\n") + "\n"
        path.write_text(text, encoding="utf-8")
    after = catalogues()
    if after != before:
        for lang in before:
            diff = set(before[lang].items()) ^ set(after.get(lang, {}).items())
            print(lang, sorted(diff)[:10], file=sys.stderr)
        raise SystemExit("the catalogues changed: revert with git checkout and look")
    print(f"moved {', '.join(f'{len(seen[lang])} {lang}' for lang in seen)} strings from "
          f"{len(edits)} modules; catalogues unchanged")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
