"""`.ci/run` runs exactly the test command the README gives, as its last line; before it, it installs
Chromium from the system packages only when it is missing and the job is root with apt-get."""

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def _readme_command() -> str:
    section = (ROOT / "README.md").read_text(encoding="utf-8").split("## Run the tests", 1)[1]
    return re.search(r"```sh\n(.+?)\n```", section, re.DOTALL).group(1).strip()


def test_ci_runs_the_readme_test_command_last():
    lines = [line for line in SCRIPT.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    assert lines[-1] == _readme_command()
    assert SCRIPT.count("pytest") == 1
    assert subprocess.run(["bash", "-n", str(ROOT / ".ci" / "run")], check=False).returncode == 0


def _run_setup(tmp_path: Path, uid: int, tools: tuple[str, ...]) -> str | None:
    """The script's part before the tests, with fake ``id`` and ``apt-get`` (and whatever of ``tools``)
    alone on PATH; returns what apt-get was asked, or None."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    record = tmp_path / "apt.log"
    fakes = {"id": f"echo {uid}", "apt-get": f'echo "$DEBIAN_FRONTEND $*" >> {record}'}
    fakes.update({tool: "exit 0" for tool in tools})
    for name, body in fakes.items():
        (bin_dir / name).write_text(f"#!/bin/sh\n{body}\n")
        (bin_dir / name).chmod(0o755)
    os.symlink(shutil.which("dirname"), bin_dir / "dirname")
    (tmp_path / ".ci").mkdir()
    setup = tmp_path / ".ci" / "setup"
    setup.write_text(SCRIPT.split("python3 -m venv", 1)[0])
    env = {"PATH": str(bin_dir), "HOME": str(tmp_path)}
    subprocess.run([shutil.which("bash"), str(setup)], env=env, check=True, timeout=30)
    return record.read_text() if record.exists() else None


@pytest.mark.parametrize("uid,tools,installs", [(0, (), True), (1000, (), False), (0, ("chromium",), False)],
                         ids=["root-without-chromium", "not-root", "chromium-there"])
def test_ci_installs_chromium_only_when_missing_as_root(tmp_path, uid, tools, installs):
    asked = _run_setup(tmp_path, uid, tools)
    if installs:
        assert asked is not None and "noninteractive update" in asked
        assert "noninteractive install -y" in asked and asked.strip().endswith("chromium")
    else:
        assert asked is None
