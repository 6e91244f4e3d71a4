"""Shared pytest configuration: make ``tests/support.py`` importable and set hypothesis profiles."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile

from hypothesis import HealthCheck, settings

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
