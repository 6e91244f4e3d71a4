"""prefcalc: keep the score of Preference and settle the night."""

__version__ = "0.1.0"
