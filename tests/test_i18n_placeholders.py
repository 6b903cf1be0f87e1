"""No UI string ever shows an unfilled ``{placeholder}``, in either language, for any table.

The whole i18n catalogue is checked against every place in the code that uses a key: ``t("key", ...)``
``IllegalMove(reason, "key", ...)``, ``SaveError(slot, reason, "key", ...)`` and ``SettingsProblem("key", ...)`` must give every placeholder the template has in English and in
Spanish (keys built with f-strings are matched against every key they can produce), and a key with
placeholders may not be handed around any other way (a binding description, a ``TITLE_KEY``, a
``radio_row`` label…), since those paths call ``t`` without parameters."""

from __future__ import annotations

import ast
import importlib
import pkgutil
import re
import string
from pathlib import Path

import cardtable
from cardtable import i18n

ROOT = Path(cardtable.__file__).parent


def _load_every_catalogue() -> None:
    """Import every module so that every table registers its strings."""
    for module in pkgutil.walk_packages([str(ROOT)], prefix="cardtable."):
        if module.name.endswith("__main__"):
            continue
        importlib.import_module(module.name)


def placeholders(template: str) -> set[str]:
    names = set()
    for _, field, _, _ in string.Formatter().parse(template):
        if field is not None:
            names.add(re.split(r"[.\[!:]", field)[0])
    return names


def needed(key: str) -> set[str]:
    return set().union(*(placeholders(i18n.catalog(lang).get(key, "")) for lang in i18n.LANGUAGES))


def _key_pattern(node: ast.JoinedStr) -> re.Pattern:
    parts = [re.escape(v.value) if isinstance(v, ast.Constant) else ".+" for v in node.values]
    return re.compile("".join(parts) + r"\Z")


def _uses() -> list[tuple[str, int, ast.expr, set[str] | None]]:
    """(file, line, key expression, keyword names given or None when ``**`` passes unknown ones)."""
    uses = []
    for path in sorted(ROOT.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (isinstance(node, ast.Tuple) and len(node.elts) == 3 and isinstance(node.elts[2], ast.Dict)
                    and isinstance(node.elts[1], ast.Constant)):
                # a refusal handed on as (reason, key, params) and raised as IllegalMove(*...)
                given = {k.value for k in node.elts[2].keys if isinstance(k, ast.Constant)}
                uses.append((path.relative_to(ROOT.parent).as_posix(), node.lineno, node.elts[1], given))
                _REFUSALS.add(id(node.elts[1]))
                continue
            if not isinstance(node, ast.Call):
                continue
            name = node.func.id if isinstance(node.func, ast.Name) else \
                node.func.attr if isinstance(node.func, ast.Attribute) else ""
            if (name == "t" or _is_reason(node)) and node.args:
                key = node.args[0]
            elif name == "IllegalMove" and len(node.args) >= 2:
                key = node.args[1]
                _REFUSALS.add(id(key))
            elif name == "SaveError" and len(node.args) >= 3:      # SaveError(slot, reason, "key", ...)
                key = node.args[2]
            elif name == "SettingsProblem" and node.args:           # SettingsProblem("key", ...)
                key = node.args[0]
            else:
                continue
            given = None if any(k.arg is None for k in node.keywords) else {k.arg for k in node.keywords}
            uses.append((path.relative_to(ROOT.parent).as_posix(), node.lineno, key, given))
    return uses


_REFUSALS: set[int] = set()


def _is_reason(call: ast.Call) -> bool:
    """``Reason.of("key", **params)`` (cardtable.hints): a reason's key with the parameters it is rendered with."""
    func = call.func
    if not (isinstance(func, ast.Attribute) and func.attr == "of"):
        return False
    owner = func.value
    return (isinstance(owner, ast.Name) and owner.id == "Reason") or \
        (isinstance(owner, ast.Attribute) and owner.attr == "Reason")


def _is_refusal(key: ast.expr) -> bool:
    return id(key) in _REFUSALS


def _filled_by_ui_refusals() -> set[str]:
    """Parameters a table's ``reason()`` adds to a refusal before translating it (``params["lead"] = …``)."""
    names = set()
    for path in sorted((ROOT / "ui").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store) \
                    and isinstance(node.value, ast.Name) and node.value.id == "params" \
                    and isinstance(node.slice, ast.Constant):
                names.add(node.slice.value)
    return names


def test_every_use_of_a_key_fills_all_its_placeholders():
    _load_every_catalogue()
    keys = set(i18n.catalog("en")) | set(i18n.catalog("es"))
    problems = []
    uses = _uses()
    ui_filled = _filled_by_ui_refusals()
    literal = {key.value for _, _, key, _ in uses if isinstance(key, ast.Constant)}
    for where, line, key, given in uses:
        if isinstance(key, ast.Constant) and isinstance(key.value, str):
            matching = [key.value] if key.value in keys else []
        elif isinstance(key, ast.JoinedStr):
            # t(f"gd_{combo.type}", ...): every key the pattern can produce that no literal use names
            pattern = _key_pattern(key)
            matching = [k for k in keys if pattern.match(k) and k not in literal]
        else:
            continue                    # a key held in a variable: see the next test
        if given is None:
            continue
        if _is_refusal(key):
            given = given | ui_filled
        for k in matching:
            missing = needed(k) - given
            if missing:
                problems.append(f"{where}:{line} {k!r} lacks {sorted(missing)}")
    assert not problems, "\n".join(problems)


def test_keys_with_placeholders_are_only_used_where_they_are_filled():
    _load_every_catalogue()
    with_fields = {k for k in set(i18n.catalog("en")) | set(i18n.catalog("es")) if needed(k)}
    filled_at = set()
    elsewhere = []
    for path in sorted(ROOT.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        first_args = set()
        for node in ast.walk(tree):
            if (isinstance(node, ast.Tuple) and len(node.elts) == 3 and isinstance(node.elts[2], ast.Dict)):
                first_args.add(id(node.elts[1]))
            if isinstance(node, ast.Compare):       # exc.key == "gn_must_trump" is no use of the text
                first_args.update(id(c) for c in [node.left, *node.comparators])
            if isinstance(node, ast.Call):
                name = node.func.id if isinstance(node.func, ast.Name) else \
                    node.func.attr if isinstance(node.func, ast.Attribute) else ""
                if (name == "t" or _is_reason(node)) and node.args:
                    first_args.add(id(node.args[0]))
                elif name == "IllegalMove" and len(node.args) >= 2:
                    first_args.add(id(node.args[1]))
                elif name == "SaveError" and len(node.args) >= 3:
                    first_args.add(id(node.args[2]))
                elif name == "SettingsProblem" and node.args:
                    first_args.add(id(node.args[0]))
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and node.value in with_fields:
                if id(node) in first_args:
                    filled_at.add(node.value)
                elif not _is_catalogue_entry(tree, node):
                    elsewhere.append(f"{path.name}:{node.lineno} {node.value!r}")
    assert not elsewhere, "keys with placeholders passed where t() gets no parameters:\n" + "\n".join(elsewhere)


def _is_catalogue_entry(tree: ast.AST, constant: ast.Constant) -> bool:
    """The key of a ``register(en={...}, es={...})`` dict."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict) and any(k is constant for k in node.keys):
            return True
    return False


def test_the_check_catches_a_missing_placeholder():
    _load_every_catalogue()
    tree = ast.parse('t("n_cards")\nIllegalMove("x", "save_failed")\nt("n_cards", n=3)')
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call)]
    given = [{k.arg for k in c.keywords} for c in calls]
    assert needed("n_cards") - given[0] == {"n"}
    assert needed("save_failed") - given[1] == {"reason"}
    assert not needed("n_cards") - given[2]
