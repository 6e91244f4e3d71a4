"""An exclusive lock on a side file, so two terminals never interleave their writes.

Uses ``fcntl.flock`` on POSIX and ``msvcrt.locking`` on Windows (both in the standard
library; the third-party ``filelock`` package costs ~60 ms to import, more than a whole
recording should take). The lock dies with the process, so a crash never leaves it held.
"""

import os
import stat
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from prefcalc.errors import LedgerError
from prefcalc.i18n import _
from prefcalc.store.files import os_reason

_O_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_O_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_O_CLOEXEC = getattr(os, "O_CLOEXEC", 0)


@contextmanager
def locked(path: Path, timeout: float = 30.0) -> Iterator[None]:
    """Hold an exclusive lock on ``path`` + ``.lock`` for the duration of the block.

    The lock file is opened without following a symbolic link (a link planted there could
    make prefcalc create or lock some other file) and without blocking, and must be a
    regular file.
    """
    lock_path = path.with_name(path.name + ".lock")
    _check_kind(lock_path)
    flags = os.O_RDWR | os.O_CREAT | _O_NOFOLLOW | _O_NONBLOCK | _O_CLOEXEC
    try:
        fd = os.open(lock_path, flags, 0o644)
    except OSError as exc:
        _check_kind(lock_path)  # a link or a FIFO planted after the check above
        raise LedgerError(
            _("cannot create lock file: {reason}").format(reason=os_reason(exc)), str(lock_path)
        ) from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise LedgerError(_NOT_REGULAR, str(lock_path))
        _acquire(fd, lock_path, timeout)
        try:
            yield
        finally:
            _release(fd)
    finally:
        os.close(fd)


_NOT_REGULAR = "the lock file is not a regular file (remove it)"


def _check_kind(lock_path: Path) -> None:
    """Refuse a lock file that is a symbolic link or not a regular file, without opening it."""
    try:
        mode = os.lstat(lock_path).st_mode
    except OSError:
        return
    if stat.S_ISLNK(mode):
        raise LedgerError(
            "the lock file is a symbolic link; refusing to follow it (remove it)", str(lock_path)
        )
    if not stat.S_ISREG(mode):
        raise LedgerError(_NOT_REGULAR, str(lock_path))


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
