"""Errors as values with a location, in the style of beancount.

Every problem the user can cause is a :class:`PrefcalcError` (or a subclass) whose message is
one line a scorekeeper can act on. The CLI prints it and exits with code 2.

The bottom of the tree: this module imports nothing of prefcalc, and every other module may
import it (:mod:`prefcalc.i18n` does, to refuse an unknown language).
"""

import os
from typing import IO


class PrefcalcError(Exception):
    """A problem with the user's input, record or files; ``str()`` is one line."""

    def __init__(self, message: str, where: str | None = None) -> None:
        self.message = message
        self.where = where
        super().__init__(f"{where}: {message}" if where else message)


class NotationError(PrefcalcError):
    """A deal written in the table's shorthand could not be read."""


class DealError(PrefcalcError):
    """A deal does not fit the game (unknown player, tricks that do not add up...)."""


class ConventionError(PrefcalcError):
    """A convention option is unknown or has a bad value."""


class LedgerError(PrefcalcError):
    """The ledger file is missing, unreadable, corrupt or of an unknown schema."""


# --- showing the user's words back ------------------------------------------------------------

# Characters that must never reach a terminal raw: C0/C1 controls (ESC starts an ANSI escape,
# newlines break the one-line rule), invisible format characters (bidi overrides, zero-width
# spaces), line/paragraph separators and lone surrogates (undecodable bytes in argv).
_UNSAFE_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})


def _escaped(char: str) -> str:
    import unicodedata

    if unicodedata.category(char) not in _UNSAFE_CATEGORIES:
        return char
    return char.encode("unicode_escape", "backslashreplace").decode("ascii")


def shown(text: str, limit: int = 40) -> str:
    """``text`` made safe to quote in a one-line message: control and invisible characters
    escaped repr-style (``\\x1b``, ``\\n``, ``\\u200b``) and cut to ``limit`` characters
    with an ellipsis."""
    if text.isprintable() and len(text) <= limit:  # the common case, no per-character work
        return text
    out: list[str] = []
    size = 0
    for char in text:
        piece = _escaped(char)
        if size + len(piece) > limit - 1:
            out.append("…")
            break
        out.append(piece)
        size += len(piece)
    return "".join(out)


def one_line(message: str, limit: int = 500) -> str:
    """A whole message as exactly one safe line: every control character escaped, cut to
    ``limit`` characters (the CLI's last line of defence before printing an error)."""
    return shown(message, limit)


def silence(stream: IO[str]) -> None:
    """Point a broken standard stream at the null device, so that what is still buffered
    in it is dropped quietly when the process exits (instead of a second error there)."""
    try:
        fd = stream.fileno()
        null = os.open(os.devnull, os.O_WRONLY)
    except (OSError, ValueError, AttributeError):
        return
    try:
        os.dup2(null, fd)
    except OSError:
        pass
    finally:
        os.close(null)
