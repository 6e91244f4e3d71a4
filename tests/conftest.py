"""Shared pytest configuration: make ``tests/support.py`` importable and set hypothesis profiles."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile("default", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile(
    "ci", deadline=None, max_examples=200, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

# The tests pin prefcalc's English output: a developer whose locale is Russian runs them in
# English too (the tests of the language choice set PREFCALC_LANG and the locale themselves).
os.environ["PREFCALC_LANG"] = "en"
