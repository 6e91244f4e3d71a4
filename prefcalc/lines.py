"""One ``play`` line, carried out: the runner the front ends that take lines share.

``prefcalc play`` (its prompt and its lines on stdin) and the score page of ``prefcalc serve``
(``POST /api/lines``) both hand a line to :func:`run_line` and show what it returns: the
command layer's grammar reads the line (:func:`prefcalc.commands.parse_line`), its executor
carries it out through :mod:`prefcalc.api` (:func:`prefcalc.commands.execute`) and the play
view says what it did (:func:`prefcalc.views.results.play_result_text`). What differs between the
front ends stays with them: where the text goes, and what ``quit`` means (a session ends;
a web request has nothing to end).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from prefcalc import api, commands
from prefcalc.cases import genders
from prefcalc.rules.model import Game


@dataclass(frozen=True)
class Ran:
    """What one line did.

    ``game`` is the game after the line (the ledger as the line left it). ``text`` is what
    the line prints: what it wrote and the compact sheet, or what a viewing command shows;
    empty for a blank line, a comment and ``quit``. ``result`` is the command's own account
    (:class:`prefcalc.commands.Result`: its kind, the deal it concerns, what it removed),
    ``None`` when nothing was carried out. ``quit`` is true for ``quit`` (or ``exit``, ``q``, ``выход``):
    the line asks to end the session, which is the front end's to do.
    """

    game: Game
    text: str = ""
    result: commands.Result | None = None
    quit: bool = False


def run_line(path: Path, line: str) -> Ran:
    """Carry out one ``play`` line on the ledger at ``path`` and say what it did.

    A change is written before this returns (:func:`prefcalc.api.update`: atomic, under the
    ledger's lock); a refused line raises :class:`~prefcalc.errors.PrefcalcError` and writes
    nothing, a failing disk raises :class:`OSError` (the write was atomic: nothing is lost).
    No question is ever asked: the same deal twice is recorded, with a note in ``text``.
    The ledger is parsed again only when its bytes changed since this process last read it.
    """
    from prefcalc.views.results import play_result_text

    game = api.load_current(path)
    with genders(game.genders):  # a refusal names the players as the game declines them
        command = commands.parse_line(line, game)
    if command is None:
        return Ran(game)
    if isinstance(command, commands.Quit):
        return Ran(game, quit=True)
    result = commands.execute(command, path)
    return Ran(result.game, play_result_text(result), result)
