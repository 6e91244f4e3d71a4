"""Shared pytest configuration: make ``tests/support.py`` importable and set hypothesis profiles."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings

from tests.browser_support import browser, data_home, phones

__all__ = ["browser", "data_home", "phones"]  # the browser tests' fixtures, for every module

settings.register_profile("default", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile(
    "ci", deadline=None, max_examples=200, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

# The tests pin prefcalc's English output: a developer whose locale is Russian runs them in
# English too (the tests of the language choice set PREFCALC_LANG and the locale themselves).
os.environ["PREFCALC_LANG"] = "en"

# A test that does not choose a data directory never writes to the developer's own (the
# ledger's validation cache lives there, and so do the current-game pointer and the games).
os.environ["XDG_DATA_HOME"] = _DATA = tempfile.mkdtemp(prefix="prefcalc-tests-data-")
atexit.register(shutil.rmtree, _DATA, True)


@pytest.fixture(autouse=True)
def _no_voice_left() -> Iterator[None]:
    """Every voice a test enters (a command in process with ``--lang ru``, a request, a
    table's operation, its own ``with voice(...)``) ends with it: the next test starts in
    English (PREFCALC_LANG) with no game's genders in force."""
    yield
    from prefcalc.cases import genders_in_use
    from prefcalc.i18n import language

    assert language() == "en" and not genders_in_use.get(), "a voice outlived its test"
