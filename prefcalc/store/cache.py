"""The data directory's cache folder: small side files that save work, never hold a deal.

Every file here is an optimisation: it is read only if it is a regular file of sane size
(a folder, a FIFO, a device or an oversized file there is ignored, never waited on), any
problem reading it means "no cache", writing it is best effort (a folder, a FIFO or a
read-only file there, a full disk: left as it is), and deleting it is always safe. A cache
adds no trust: whoever can write the data directory can write the ledgers themselves.
Each entry is keyed by the identity of the code that made it (:func:`sources`), so a new
version or an edited source never uses what an older one kept.
"""

from __future__ import annotations

import contextlib
import os
import sys
from pathlib import Path

from prefcalc.errors import PrefcalcError
from prefcalc.store import files


def data_dir() -> Path:
    """Where prefcalc keeps its games: the user's data directory (platformdirs). In the
    browser's Python (the app on a phone) a folder of its home in memory: there are no user
    folders to look up, and platformdirs is not shipped there."""
    if sys.platform == "emscripten":
        return Path.home() / ".local" / "share" / "prefcalc"
    import platformdirs

    return Path(platformdirs.user_data_dir("prefcalc", appauthor=False))


def folder() -> Path:
    """The cache folder of the data directory."""
    return data_dir() / "cache"


_sources: str | None = None

_DECIDING = ("rules", "store")
"""The packages whose code decides what a valid ledger is and what it scores: every source
file in them counts (a module added or split, such as a package of scoring, counts too)."""


def sources() -> str:
    """The identity of the code that reads, validates and scores a ledger: the path, size
    and modification time of every module of :data:`_DECIDING` and of every bundled preset
    (read once per process)."""
    global _sources
    if _sources is None:
        import hashlib

        from prefcalc.resources import bundled

        package = Path(__file__).resolve().parent.parent
        paths: list[Path] = []
        for name in _DECIDING:
            paths += _python_files(package / name)
        presets = bundled("templates")
        with contextlib.suppress(OSError):  # no presets there: not part of the identity
            paths += sorted(presets.iterdir())
        parts = []
        for source in paths:
            try:
                st = source.stat()
            except OSError:
                continue
            parts.append(f"{source}:{st.st_size}:{st.st_mtime_ns}")
        _sources = hashlib.sha256("\n".join(parts).encode()).hexdigest()[:32]
    return _sources


def _python_files(top: Path) -> list[Path]:
    """The ``.py`` files under ``top``, in a stable order."""
    found: list[Path] = []
    for root, dirs, names in os.walk(top):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        found += [Path(root) / n for n in sorted(names) if n.endswith(".py")]
    return found


def read(path: Path, limit: int) -> bytes | None:
    """The bytes of the cache file ``path`` if it is a regular file of at most ``limit``
    bytes (links followed); None for anything else: missing, unreadable, a folder, a FIFO (never
    opened in a way that waits), too big."""
    try:
        return files.read_regular(path, "a cache file", limit)
    except (OSError, ValueError, PrefcalcError):
        return None


def replace(path: Path, data: bytes) -> bool:
    """Replace the cache file ``path`` by ``data`` (best effort: False when it cannot be
    written, nothing raised). A reader sees the old file or the new one; a symbolic link
    there is replaced, never written through; not synced (a cache lost in a crash costs
    work, never a deal)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        files.check_writable_target(path, "a cache file")
        _replace_unsynced(path, data)
    except (OSError, ValueError, PrefcalcError):
        return False
    return True


def _replace_unsynced(target: Path, data: bytes) -> None:
    """Replace ``target`` by a fresh file holding ``data`` (written beside it, then renamed:
    a reader sees the old cache or the new one); never through a link, never synced."""
    import time

    tmp = target.with_name(f".{target.name}.{os.getpid()}.{time.monotonic_ns()}.tmp")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(tmp, flags, 0o644)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, target)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
