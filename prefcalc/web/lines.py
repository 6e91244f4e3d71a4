"""One ``play`` line executed for the web: the same code as the ``prefcalc play`` session.

:func:`execute_line` is the only place the web front end builds a session; when the project's
one command layer replaces :class:`prefcalc.play.Session`, only :func:`_session` changes.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from prefcalc.errors import NotationError

if TYPE_CHECKING:
    from prefcalc.play import Session


def _session(path: Path, out: Callable[[str], None]) -> Session:
    """The play session on ``path`` writing its answers to ``out`` (a session asks no
    question: the same deal twice is recorded with a note)."""
    from prefcalc.play import Session

    return Session(path, out=out)


def execute_line(path: Path, line: str) -> str:
    """Carry out one ``play`` line on the ledger at ``path``; return what it printed.
    A refused line raises :class:`~prefcalc.errors.PrefcalcError` (nothing written)."""
    from prefcalc.play import Quit

    collected: list[str] = []
    session = _session(path, collected.append)
    try:
        session.handle(line)
    except Quit:
        raise NotationError("quit ends a play session; here there is nothing to quit") from None
    return "\n".join(collected)
