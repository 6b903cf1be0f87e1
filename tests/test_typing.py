"""mypy at its default settings finds nothing in the package: the engine, the core, the games and the
Textual UI (but for the UI modules pyproject.toml lists as not clean yet). Run here so that CI's one test command (README, .ci/run) enforces it; the scope is
``[tool.mypy]`` in pyproject.toml."""

from pathlib import Path

import mypy.api

ROOT = Path(__file__).resolve().parent.parent


def test_mypy_is_clean_on_the_package(monkeypatch):
    monkeypatch.chdir(ROOT)
    out, err, status = mypy.api.run(["--config-file", str(ROOT / "pyproject.toml")])
    assert status == 0, out + err
    assert "Success: no issues found" in out
