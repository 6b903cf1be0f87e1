"""ruff (at the version the test extras pin, with ``[tool.ruff]`` of pyproject.toml) finds nothing in the
package and the tests. Run here so that CI's one test command (README, .ci/run) enforces it, as
tests/test_typing.py does for mypy."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_ruff_is_clean_on_the_package_and_the_tests():
    result = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "cardtable", "tests"],
                            check=False, cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "All checks passed" in result.stdout
