import gc
import os

import pytest
import textual._wait
from hypothesis import HealthCheck, settings

# A quick default for every run; `HYPOTHESIS_PROFILE=soak pytest` for long runs started by hand.
settings.register_profile("default", max_examples=40, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("soak", max_examples=2000, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

# Pilot's waits. Every `pilot.press` and `pilot.pause()` ends in textual's `wait_for_idle`, which sleeps
# in steps of SLEEP_GRANULARITY (20 ms) until a step passes in which the process used under SLEEP_IDLE
# of CPU time (a twentieth of the step). A test that presses 200 keys so sat idle for 8 s or more: more than
# half of the suite's wall time went on those sleeps. The same test of idleness in 2 ms steps (the same
# twentieth) waits as long as the app works, bot and hint threads included (process time counts every
# thread), and no longer. (Read at each call, so setting them here is enough; `wait_for_idle()` called
# with its defaults, as the snapshot plugin does, keeps its 20 ms minimum.)
textual._wait.SLEEP_GRANULARITY = 0.002
textual._wait.SLEEP_IDLE = 0.0001


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path, monkeypatch):
    """Every test gets its own save directory and settings, and English unless it asks otherwise."""
    monkeypatch.setenv("CARDTABLE_HOME", str(tmp_path / "home"))
    from cardtable import i18n

    i18n.set_language("en")
    yield
    i18n.set_language("en")


# The garbage collector and the end of an xdist worker. pytest ends every process with five full
# collections (to report a __del__ that raises), and execnet gives a worker's last task 5 s once the
# controller has said goodbye, then sends the worker a SIGINT: on a busy machine five passes over the
# whole heap (Textual, hypothesis, mypy, every test module: some 300,000 objects) took longer, and the
# SIGINT landed in hypothesis's gc callback (a PytestUnraisableExceptionWarning about a KeyboardInterrupt
# at the end of full runs). What is alive once the modules are imported lives to the end, and what is
# alive at the end of the session is about to go: both are collected once, then frozen out of the
# collector's sight, so the full collections during the run and the final five skip them.
def _collect_then_freeze() -> None:
    gc.collect()
    gc.freeze()


def pytest_collection_finish(session):
    _collect_then_freeze()


def pytest_sessionfinish(session, exitstatus):
    """Inside xdist's wrapper of this hook, so before the worker reports itself finished: the
    controller's 5 s for the worker to end start only after this collection."""
    _collect_then_freeze()


@pytest.fixture
def lang():
    """Sets the interface language for one test (``lang("es")``) and puts the previous one back."""
    from cardtable import i18n

    before = i18n.language()
    yield i18n.set_language
    i18n.set_language(before)
