"""Storage: the ledger file and its pydantic schemas, careful file handling, the lock, the
saved games, the caches of the data directory. Imports only :mod:`prefcalc.rules`."""

LEDGER_SCHEMA = 2
"""The schema version of the ledger this prefcalc writes (it reads 1 and 2)."""
