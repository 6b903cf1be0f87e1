"""``cardtable serve web``: a tab runs ``python -P -s``, so nothing in the directory the server was started
from (every tab's working directory) is importable. Loopback only, bounded waits."""

from __future__ import annotations

import pytest

pytest.importorskip("textual_serve")
aiohttp = pytest.importorskip("aiohttp")

from tests.web_helpers import web_server


async def test_nothing_in_the_tabs_working_directory_is_importable(tmp_path):
    workdir = tmp_path / "work"
    marker = tmp_path / "imported"
    plant = f"open({str(marker)!r}, 'a').write(__name__ + chr(10))\n"
    (workdir / "cardtable").mkdir(parents=True)
    (workdir / "cardtable" / "__init__.py").write_text(plant)
    (workdir / "cardtable" / "__main__.py").write_text(plant)
    (workdir / "textual.py").write_text(plant)
    # the server itself runs with -P (else it would import the planted package): only its tabs are tried
    with web_server(tmp_path / "home", cwd=workdir, python_flags=("-P",)) as served:
        async with aiohttp.ClientSession() as session:
            ws = await session.ws_connect(served.ws_url(), headers={"Origin": served.base})
            received = 0
            while received < 2000:
                message = await ws.receive(timeout=40)
                if message.type != aiohttp.WSMsgType.BINARY:
                    break
                received += len(message.data)
            await ws.close()
    assert not marker.exists(), marker.read_text()
    assert received >= 2000, "the tab never drew"
