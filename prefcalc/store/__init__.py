"""Storage: the ledger file and its pydantic schemas, careful file handling, the lock, the
saved games. Imports only :mod:`prefcalc.rules`."""
