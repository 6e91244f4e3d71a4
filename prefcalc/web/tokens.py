"""The score link's token, kept per game: the next ``serve`` of the same ledger gives the same
link, so an open score page keeps working across a restart.

Each ledger's token is a file in prefcalc's data folder, ``tokens/<hash of the ledger's real
path>``, in a folder only its owner can enter; the file is the owner's alone (mode 0600),
written to a fresh temporary file and renamed into place (a reader sees the old token or
the new one). It is read without ever following a link or waiting: a folder, a FIFO, a
device or a symbolic link in its place is refused in one line (``--new-token`` replaces it).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import secrets
import stat
import tempfile
from pathlib import Path

from prefcalc.errors import PrefcalcError, one_line
from prefcalc.i18n import _

TOKEN = re.compile(r"[A-Za-z0-9._~-]{1,200}")
"""The letters a token may have: those a URL's fragment carries as they are."""

MIN_TOKEN = 16
"""Characters of a token at least: 16 random ones of 64 are 96 bits, never guessed; a short
one is (``--token 7`` fell to a guess in a fifth of a second)."""

MAX_FILE = 1024
"""Bytes read at most from a token file (a token is at most 200)."""

_READ = (
    os.O_RDONLY
    | getattr(os, "O_NOFOLLOW", 0)  # a link in the file's place is never followed
    | getattr(os, "O_NONBLOCK", 0)  # a FIFO in its place never blocks
    | getattr(os, "O_NOCTTY", 0)
    | getattr(os, "O_CLOEXEC", 0)
)


def new_token() -> str:
    """A random token: 22 characters, 128 bits."""
    return secrets.token_urlsafe(16)


def check_token(token: str) -> None:
    """Refuse a ``--token`` that cannot go into the score link as it is, or is guessable."""
    if not TOKEN.fullmatch(token):
        raise PrefcalcError(
            "--token takes letters, digits and - _ . ~ (it goes into the score link)"
        )
    if len(token) < MIN_TOKEN:
        raise PrefcalcError(
            _(
                "--token is too short ({length} characters): a score token has at least"
                " {least}, a shorter one can be guessed"
            ).format(length=len(token), least=MIN_TOKEN)
        )


def token_file(ledger: Path) -> Path:
    """Where the token of the ledger at ``ledger`` is kept."""
    from prefcalc.store.ledger import data_dir

    real = os.fsencode(ledger.resolve())
    return data_dir() / "tokens" / hashlib.sha256(real).hexdigest()


def kept_token(file: Path) -> str | None:
    """The token kept in ``file``, None when there is none (no file, or an empty one)."""
    try:
        mode = os.lstat(file).st_mode
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise _unreadable(file, exc) from None
    if not stat.S_ISREG(mode):
        raise _not_regular(file, mode)
    try:
        fd = os.open(file, _READ)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise _unreadable(file, exc) from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):  # put in its place after the look above
            raise _not_regular(file, mode)
        raw = os.read(fd, MAX_FILE + 1)
    except OSError as exc:
        raise _unreadable(file, exc) from None
    finally:
        os.close(fd)
    try:
        token = raw.decode("ascii").strip()
    except UnicodeDecodeError:
        token = "?"
    if not token:
        return None
    if len(raw) > MAX_FILE or not TOKEN.fullmatch(token) or len(token) < MIN_TOKEN:
        raise PrefcalcError(
            _("the score token file {file} holds no valid token; --new-token replaces it").format(
                file=file
            )
        )
    return token


def keep_token(file: Path, token: str) -> None:
    """Write ``token`` to ``file``: a temporary file of the owner's alone (``mkstemp`` makes
    it 0600), flushed to disk, renamed over whatever was there (a link is replaced, never
    followed)."""
    try:
        file.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd, name = tempfile.mkstemp(prefix=".token.", dir=file.parent)
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(token.encode("ascii") + b"\n")
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(name, file)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(name)
            raise
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise PrefcalcError(
            _("cannot keep the score token in {file}: {reason}").format(
                file=file, reason=one_line(reason)
            )
        ) from None


def score_token(ledger: Path, given: str | None = None, new: bool = False) -> str:
    """The token for serving ``ledger``: ``given`` (``--token``, checked), a new random one
    (``new``: ``--new-token``) or the one kept from the last time, else a new one; whichever
    it is, it is kept for the next time."""
    if given is not None and new:
        raise PrefcalcError(_("--new-token makes a random token: it cannot go with --token"))
    if given is not None:
        check_token(given)
    file = token_file(ledger)
    kept = None if new else kept_token(file)
    token = given or kept or new_token()
    if token != kept:
        keep_token(file, token)
    return token


def _not_regular(file: Path, mode: int) -> PrefcalcError:
    from prefcalc.store.files import kind_of

    return PrefcalcError(
        _(
            "the score token file {file} is not a regular file (it is {kind});"
            " --new-token replaces it"
        ).format(file=file, kind=kind_of(mode))
    )


def _unreadable(file: Path, exc: OSError) -> PrefcalcError:
    reason = exc.strerror or str(exc)
    return PrefcalcError(
        _("cannot read the score token file {file}: {reason}; --new-token replaces it").format(
            file=file, reason=one_line(reason)
        )
    )
