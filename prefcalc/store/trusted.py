"""Ledgers this program wrote: the digests it vouches for, kept in the data directory.

Validating a ledger builds the file's pydantic models and runs the checks recording applies
to every deal; for a file this program wrote itself that repeats what is already known. The
digests of the files it writes are kept in a small side file of the cache folder
(:func:`cache_path`), each with the identity of the program that wrote it (:func:`program`);
a file whose digest is there is read by the inverse of the writer, without a model
(:func:`prefcalc.store.text.trusted_game`); otherwise, and whenever the cache is missing,
broken, foreign, unreadable or not a regular file, the file is validated in full, as without
a cache. Only a write adds to the cache: a command that reads, or is refused, changes no
file, the cache included. (The cache adds no trust: whoever can write the data directory can
write the ledgers themselves.)

- **what it keys on**: the sha256 of a ledger's bytes and the identity of the code that
  decides what a valid ledger is (:func:`program`), one ``DIGEST PROGRAM`` line each, the
  :data:`CACHE_KEYS` most recent.
- **what guards it**: the side file is replaced whole, atomically (a reader sees the old
  file or the new one, :func:`prefcalc.store.cache.replace`); two writers at once (two
  processes, two tables of ``serve --tournament``) may each drop the other's newest key,
  which costs that ledger one validation, never a wrong game. The program's identity is
  computed once per process (two threads that compute it at once compute the same value).
"""

from __future__ import annotations

from pathlib import Path

from prefcalc.store import LEDGER_SCHEMA, cache

CACHE_KEYS = 64
"""How many ledger contents the cache remembers (the most recent ones)."""

LIMIT = CACHE_KEYS * 160
"""The most bytes the side file may hold; a bigger one is no cache."""

_program: str | None = None


def program() -> str:
    """The identity of the code that decides what a valid ledger is and what it scores: the
    schema version and the sources of :mod:`prefcalc.rules` and :mod:`prefcalc.store` and
    the presets (path, size and modification time of each, :func:`prefcalc.store.cache.sources`),
    so a new version or an edited source never trusts what an older one vouched for."""
    global _program
    if _program is None:
        import hashlib

        parts = f"{LEDGER_SCHEMA}\n{cache.sources()}"
        _program = hashlib.sha256(parts.encode()).hexdigest()[:32]
    return _program


def cache_path() -> Path:
    """The side file of ledger digests known to be valid."""
    return cache.folder() / "validated-ledgers"


def vouched(signature: bytes) -> bool:
    """Whether this program wrote (or validated and wrote) a ledger of digest ``signature``."""
    return f"{signature.hex()} {program()}" in _keys()


def _keys() -> list[str]:
    """The cache's keys (``DIGEST PROGRAM`` lines); anything unreadable is an empty cache."""
    raw = cache.read(cache_path(), LIMIT)
    try:
        lines = raw.decode("ascii").splitlines() if raw is not None else []
    except ValueError:
        return []
    return [line for line in lines if len(line) == 97 and line[64] == " "]


def vouch(signature: bytes) -> None:
    """Add the digest of a ledger this program just wrote to the cache. A cache that
    cannot be written (a folder, a FIFO or a read-only file there, a full disk) is left as it
    is: the next command validates the file in full. Not synced to disk: a cache lost in a
    crash costs one validation, never a deal."""
    key = f"{signature.hex()} {program()}"
    keys = _keys()
    if keys and keys[-1] == key:
        return
    keys = [*[k for k in keys if k != key][-(CACHE_KEYS - 1) :], key]
    cache.replace(cache_path(), ("\n".join(keys) + "\n").encode("ascii"))
