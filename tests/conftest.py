import os

import pytest
from hypothesis import HealthCheck, settings

# A quick default for every run; `HYPOTHESIS_PROFILE=soak pytest` for long runs started by hand.
settings.register_profile("default", max_examples=40, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("soak", max_examples=2000, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path, monkeypatch):
    """Every test gets its own save directory and settings, and English unless it asks otherwise."""
    monkeypatch.setenv("CARDTABLE_HOME", str(tmp_path / "home"))
    from cardtable import i18n

    i18n.set_language("en")
    yield
    i18n.set_language("en")
