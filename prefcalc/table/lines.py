"""One ``play`` line, carried out: the runner every front end that takes lines shares, and the
limits of a line and of a request's id, decided once.

``prefcalc play`` (its prompt and its lines on stdin), the score page of ``prefcalc serve``
(``POST /api/lines``) and the app's engine (its ``line`` operation) all hand a line to
:func:`run_line` and show what it returns: the command layer's grammar reads the line
(:func:`prefcalc.commands.parse_line`), its executor carries it out through :mod:`prefcalc.api`
(:func:`prefcalc.commands.execute`) and the play view says what it did
(:func:`prefcalc.views.results.play_result_text`). What differs between the front ends stays with
them: where the text goes, and what ``quit`` means (a session ends; a page has nothing to end,
and the executor refuses it there).

A page's line is at most :data:`MAX_LINE` characters and one line (:func:`check_line`), and a
request's id is :data:`MIN_ID` to :data:`MAX_ID` of ``[A-Za-z0-9_-]`` (:func:`check_id`):
serve's body model (:mod:`prefcalc.web.models`) and the engine read these very numbers and
messages.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from prefcalc import api, commands
from prefcalc.cases import genders
from prefcalc.errors import NotationError
from prefcalc.i18n import N_, _
from prefcalc.rules.model import Game

MAX_LINE = 500
"""Characters of a page's play line (``play`` on a terminal reads longer ones: its own limit
is in bytes, :data:`prefcalc.play.MAX_LINE`)."""
MIN_ID, MAX_ID = 8, 64
"""Characters of a request's id."""
ID_CHARS = r"[A-Za-z0-9_-]+"
"""What a request's id is made of."""
ID_PATTERN = f"^{ID_CHARS}$"
"""The same, as a pattern of the whole text (the request body's model)."""

ONE_LINE = N_("one line at a time (no line breaks)")
LINE_TOO_LONG = N_("the line is too long (at most {n} characters)")
BAD_ID = N_("the request's id is {least} to {most} letters, digits, - or _")


@dataclass(frozen=True)
class Ran:
    """What one line did.

    ``game`` is the game after the line (the ledger as the line left it). ``text`` is what
    the line prints: what it wrote and the compact sheet, or what a viewing command shows;
    empty for a blank line, a comment and ``quit``. ``result`` is the command's own account
    (:class:`prefcalc.commands.Result`: its kind, the deal it concerns, what it removed),
    ``None`` when nothing was carried out. ``quit`` is true for ``quit`` (or ``exit``, ``q``,
    ``выход``) in a session: the line asks to end it, which is the front end's to do.
    """

    game: Game
    text: str = ""
    result: commands.Result | None = None
    quit: bool = False


def run_line(path: Path, line: str, session: bool = True) -> Ran:
    """Carry out one ``play`` line on the ledger at ``path`` and say what it did.

    A change is written before this returns (:func:`prefcalc.api.update`: atomic, under the
    ledger's lock); a refused line raises :class:`~prefcalc.errors.PrefcalcError` and writes
    nothing, a failing disk raises :class:`OSError` (the write was atomic: nothing is lost).
    No question is ever asked: the same deal twice is recorded, with a note in ``text``.
    ``quit`` ends a ``session`` (``Ran.quit``); outside one (a page's line) the executor
    refuses it. The ledger is parsed again only when its bytes changed since this process
    last read it.
    """
    from prefcalc.views.results import play_result_text

    game = api.load_current(path)
    with genders(game.genders):  # a refusal names the players as the game declines them
        command = commands.parse_line(line, game)
    if command is None:
        return Ran(game)
    if session and isinstance(command, commands.Quit):
        return Ran(game, quit=True)
    result = commands.execute(command, path)
    return Ran(result.game, play_result_text(result), result)


def check_line(line: object) -> str:
    """``line`` if it is a page's line (text, one line, at most :data:`MAX_LINE` characters);
    refused in one line else."""
    if not isinstance(line, str) or len(line) > MAX_LINE:
        raise NotationError(_(LINE_TOO_LONG).format(n=MAX_LINE))
    if "\n" in line or "\r" in line:
        raise NotationError(_(ONE_LINE))
    return line


_ID = re.compile(ID_CHARS)


def check_id(request: object) -> str:
    """``request`` if it is a request's id (:data:`MIN_ID` to :data:`MAX_ID` of
    :data:`ID_PATTERN`); refused in one line else."""
    if not (
        isinstance(request, str) and MIN_ID <= len(request) <= MAX_ID and _ID.fullmatch(request)
    ):
        raise NotationError(_(BAD_ID).format(least=MIN_ID, most=MAX_ID))
    return request
