"""Sealed ledgers: a ledger closed to ordinary changes by whoever owns its folder.

A file ``NAME.sealed`` beside a ledger ``NAME`` seals it: every change of the ledger
(a deal, an edit, a delete, an undo, a replacement by ``new --force``) is refused in one line
that says why and what changes it instead, both written in the seal. The store knows nothing
of who seals or why: a tournament seals the tables of a round once the next round is drawn
from its standings (docs/tournament.md §4.5), and changes them only through its own command,
which lifts the seal for that one write (:func:`unsealed`).

A seal is a small JSON object::

    {"sealed": 1, "message": "<an English message of the catalog>", "values": {...}}

The message is said in the language in use, with ``values`` filled in, and ``{folder}`` as
the ledger's folder as the user named it (quoted for a shell), so the command it names runs
as printed. A seal that cannot be read still seals: it is said as it is.
"""

from __future__ import annotations

import json
import os
import shlex
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from contextvars import ContextVar
from pathlib import Path

from prefcalc.errors import DealError
from prefcalc.i18n import _

SUFFIX = ".sealed"
MAX_SEAL = 64 * 1024

_lifted: ContextVar[frozenset[str]] = ContextVar("prefcalc_unsealed", default=frozenset())


def path_of(ledger: Path) -> Path:
    """The seal of the ledger at ``ledger`` (its real path): ``NAME.sealed`` beside it."""
    return ledger.with_name(ledger.name + SUFFIX)


@contextmanager
def unsealed(ledger: Path) -> Iterator[None]:
    """Within the block, this thread may change the sealed ledger at ``ledger`` (its real
    path): the seal's owner making its own change."""
    token = _lifted.set(_lifted.get() | {os.path.realpath(ledger)})
    try:
        yield
    finally:
        _lifted.reset(token)


def check(real: Path, shown: str) -> None:
    """Refuse a change of the ledger at ``real`` (links resolved) when it is sealed and its
    seal is not lifted here; ``shown`` is the ledger's path as the user named it."""
    seal = path_of(real)
    try:
        fd = os.open(
            seal, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0)
        )
    except FileNotFoundError:
        return
    except OSError:
        raw = b""
    else:
        try:
            raw = os.read(fd, MAX_SEAL)
        except OSError:
            raw = b""
        finally:
            os.close(fd)
    if os.path.realpath(real) in _lifted.get():
        return
    raise DealError(_said(raw, shown))


def _said(raw: bytes, shown: str) -> str:
    folder = shlex.quote(str(Path(shown).parent))
    try:
        data = json.loads(raw)
        message = data["message"]
        values = dict(data.get("values", {}))
        if not isinstance(message, str):
            raise TypeError(message)
        return _(message).format(folder=folder, **values)
    except (ValueError, TypeError, KeyError, IndexError, AttributeError):
        return _("this ledger is sealed ({seal}): it is changed only by whoever sealed it").format(
            seal=path_of(Path(shown)).name
        )


def write(ledger: Path, message: str, **values: object) -> None:
    """Seal the ledger at ``ledger``: changes are refused with ``message`` (a message of the
    catalog, in English) and ``values``."""
    from prefcalc.store import files

    text = json.dumps({"sealed": 1, "message": message, "values": values}, ensure_ascii=False)
    files.write_atomic(path_of(ledger), text + "\n")


def remove(ledger: Path) -> None:
    """Lift the seal of the ledger at ``ledger`` for good (none: nothing to do)."""
    with suppress(FileNotFoundError):
        os.unlink(path_of(ledger))


def is_sealed(ledger: Path) -> bool:
    return os.path.lexists(path_of(ledger))
