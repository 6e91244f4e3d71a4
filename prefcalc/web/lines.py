"""One ``play`` line executed for the web: the command layer's grammar and executor, and the
play session's view of the result (the same code as the ``prefcalc play`` session)."""

from __future__ import annotations

from pathlib import Path

from prefcalc import api, commands
from prefcalc.errors import NotationError


def execute_line(path: Path, line: str) -> str:
    """Carry out one ``play`` line on the ledger at ``path``; return what it printed.
    A refused line raises :class:`~prefcalc.errors.PrefcalcError` (nothing written); a
    session asks no question (the same deal twice is recorded with a note)."""
    from prefcalc.views.text import play_result_text

    command = commands.parse_line(line, api.load_current(path))
    if command is None:
        return ""
    if isinstance(command, commands.Quit):
        raise NotationError("quit ends a play session; here there is nothing to quit")
    return play_result_text(commands.execute(command, path))
