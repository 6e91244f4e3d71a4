"""An exclusive lock on a side file, so two terminals never interleave their writes.

Uses ``fcntl.flock`` on POSIX and ``msvcrt.locking`` on Windows (both in the standard
library; the third-party ``filelock`` package costs ~60 ms to import, more than a whole
recording should take). The lock dies with the process, so a crash never leaves it held.
"""

import os
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from prefcalc.errors import LedgerError


@contextmanager
def locked(path: Path, timeout: float = 30.0) -> Iterator[None]:
    """Hold an exclusive lock on ``path`` + ``.lock`` for the duration of the block."""
    lock_path = path.with_name(path.name + ".lock")
    try:
        fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        raise LedgerError(f"cannot create lock file: {exc.strerror}", str(lock_path)) from None
    try:
        _acquire(fd, lock_path, timeout)
        try:
            yield
        finally:
            _release(fd)
    finally:
        os.close(fd)


if sys.platform == "win32":  # pragma: no cover - exercised on Windows only
    import msvcrt

    def _acquire(fd: int, lock_path: Path, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while True:
            try:
                msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
                return
            except OSError:
                if time.monotonic() > deadline:
                    raise LedgerError(
                        "the game is locked by another prefcalc", str(lock_path)
                    ) from None
                time.sleep(0.01)

    def _release(fd: int) -> None:
        os.lseek(fd, 0, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)

else:
    import fcntl

    def _acquire(fd: int, lock_path: Path, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise LedgerError(
                        "the game is locked by another prefcalc", str(lock_path)
                    ) from None
                time.sleep(0.005)

    def _release(fd: int) -> None:
        fcntl.flock(fd, fcntl.LOCK_UN)
