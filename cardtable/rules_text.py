"""The rules pages shown by the rules viewer and ``cardtable rules``: Markdown shipped in each game's
package as ``rules_<lang>.md`` (en, es, zh); a language without its page shows the English one."""

from __future__ import annotations

from importlib import resources

from cardtable import games


def rules_markdown(game: str, lang: str) -> str:
    spec = games.get(game)
    package = resources.files(spec.rules_package)
    for name in (f"rules_{lang}.md", "rules_en.md"):
        page = package / name
        if page.is_file():
            return page.read_text(encoding="utf-8")
    return f"# {spec.title}\n"
