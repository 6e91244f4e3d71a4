"""The table service: the operations on one game, the same for every front end of a table.

``prefcalc serve``'s routes (:mod:`prefcalc.web.json_api`, :mod:`prefcalc.web.pages`) and the
app's engine (:mod:`prefcalc.app.engine`, in the phone's Python) are thin callers of a
:class:`Service`, one per game: they turn a request into a call and the answer into theirs
(JSON over HTTP, a worker's message). What a table answers is decided here once:

- the readings: :meth:`~Service.game` (``show --json``), :meth:`~Service.log` (the night's
  deals as the pages list them), :meth:`~Service.settle` (``settle --json``),
  :meth:`~Service.seats`, :meth:`~Service.cases`, :meth:`~Service.sheet_svg`, and
  :meth:`~Service.reading`, all of these from ONE load of the ledger with the ledger's
  version, so that a page never draws halves of two states;
- the one write, :meth:`~Service.line`: a ``play`` line (:func:`prefcalc.table.lines.run_line`)
  within the page's limits, carried out once per request id (:mod:`prefcalc.table.answers`),
  and :meth:`~Service.answer`, what a request of that id was answered;
- a refusal as a page shows it (:func:`prefcalc.views.words.refusal_line`).

Every operation goes through :meth:`Service.call`: one at a time on this table (its lock: a
request carried out is kept before the next one looks, and two requests never interleave
their reads and writes of this ledger in this process), in the table's language.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple, TypeVar

from prefcalc import api
from prefcalc.errors import NotationError, PrefcalcError
from prefcalc.i18n import DEFAULT, N_, _, speaking
from prefcalc.rules.model import Game
from prefcalc.table.answers import Answer, Answers
from prefcalc.table.lines import check_id, check_line, run_line

T = TypeVar("T")

ID_REUSED = N_("the request id {id} was used for another line: nothing was written")
NOT_A_COUNT = N_("last is a count of deals (0 or more)")
NOT_A_NUMBER = N_("explain N: N is a deal's number")
NOT_YES_OR_NO = N_("sheet is true or false")


class Loaded(NamedTuple):
    """The game as one load of its ledger found it, and the ledger's version then (the hex
    sha256 of the bytes it was read from: :func:`prefcalc.store.ledger.version`)."""

    game: Game
    version: str


class Service:
    """One game's table: the ledger at ``path``, answered in ``lang``, with the answers of
    its last requests kept by their id."""

    def __init__(self, path: Path, lang: str = DEFAULT) -> None:
        self.path = path
        self.lang = lang
        self.answers = Answers()
        self._lock = threading.Lock()

    def call(self, fn: Callable[[], T]) -> T:
        """``fn()`` as every operation of this table runs: one at a time, in the table's
        language. The one place a table's operation is entered."""
        with self._lock, speaking(self.lang):
            return fn()

    # --- readings ---------------------------------------------------------------------------

    def load(self) -> Loaded:
        """One load of the ledger: the game and its version (call it inside :meth:`call`)."""
        return Loaded(*api.load_current_version(self.path))

    def game(self) -> dict[str, Any]:
        """The sheet: the JSON of ``prefcalc show --json``."""
        return self.call(lambda: _game(self.load().game))

    def log(self, last: int | None = None) -> list[dict[str, Any]]:
        """The last ``last`` deals (all: None) as the pages list them
        (:func:`prefcalc.views.night.log_items`)."""
        return self.call(lambda: _log(self.load().game, _count(last), self.lang))

    def settle(self, method: str = "pairwise", rounding: str = "exact") -> dict[str, Any]:
        """The settlement: the JSON of ``prefcalc settle --json`` (the method and the
        rounding named in either language, read by the API's one parser)."""
        return self.call(lambda: _settle(self.load().game, method, rounding))

    def seats(self) -> dict[str, Any]:
        """Who deals next and who sits out (:func:`prefcalc.views.night.seats_json`)."""
        return self.call(lambda: _seats(self.load().game))

    def cases(self) -> dict[str, dict[str, str]]:
        """The players' names in the Russian cases (:func:`prefcalc.views.night.name_forms`)."""
        return self.call(lambda: _cases(self.load().game, self.lang))

    def sheet_svg(self) -> str:
        """The pool sheet as SVG (:func:`prefcalc.views.sheet_svg.sheet_svg`)."""
        return self.call(lambda: _sheet_svg(self.load().game))

    def reading(
        self,
        last: int | None = None,
        method: str = "pairwise",
        rounding: str = "exact",
        sheet: bool = False,
    ) -> dict[str, Any]:
        """Everything a page draws, from ONE load of the ledger: ``{"version", "game",
        "seats", "log", "settle", "cases"}`` and, with ``sheet``, ``"sheet"`` (the SVG);
        each part as its own operation answers it, all of one state of the ledger, whose
        version is ``version``."""

        def read() -> dict[str, Any]:
            if not isinstance(sheet, bool):
                raise NotationError(_(NOT_YES_OR_NO))
            loaded = self.load()
            game = loaded.game
            answer: dict[str, Any] = {
                "version": loaded.version,
                "game": _game(game),
                "seats": _seats(game),
                "log": _log(game, _count(last), self.lang),
                "settle": _settle(game, method, rounding),
                "cases": _cases(game, self.lang),
            }
            if sheet:
                answer["sheet"] = _sheet_svg(game)
            return answer

        return self.call(read)

    # --- the one write ----------------------------------------------------------------------

    def line(self, text: str, request: str | None = None) -> Answer:
        """Carry out one ``play`` line, once per ``request`` id: the answer kept for the id
        when there is one (the same id with another line is refused), else the line's own,
        kept for the id. A refused line is a 422 answer and writes nothing; a failing disk
        raises :class:`OSError` (nothing is lost, nothing kept)."""

        def run() -> Answer:
            if request is not None:
                check_id(request)
                kept = self.answers.get(request)
                if kept is not None:
                    if kept.line != text:
                        return Answer(text, 422, {"error": _(ID_REUSED).format(id=request)})
                    return kept
            try:
                ran = run_line(self.path, check_line(text), session=False)
                done = Answer(text, 200, {"output": ran.text, "deals": len(ran.game.entries)})
            except PrefcalcError as exc:  # a refused line: the CLI's message, nothing written
                from prefcalc.views.words import refusal_line

                done = Answer(text, 422, {"error": refusal_line(exc)})
            if request is not None:
                self.answers.keep(request, done)
            return done

        return self.call(run)

    def answer(self, request: str) -> Answer | None:
        """What the request of id ``request`` was answered (carried out or refused), or None
        when no request of that id was answered here."""
        return self.call(lambda: self.answers.get(check_id(request)))

    def explain(self, number: int) -> str:
        """What ``explain N`` prints for deal ``number``."""

        def checked() -> int:
            if isinstance(number, bool) or not isinstance(number, int):
                raise NotationError(_(NOT_A_NUMBER))
            return number

        done = self.line(f"explain {self.call(checked)}")
        if done.status != 200:
            raise PrefcalcError(done.body["error"])
        return str(done.body["output"])


def _count(last: object) -> int | None:
    """``last`` as a count of deals (None: all of them); refused in one line else."""
    if last is not None and (isinstance(last, bool) or not isinstance(last, int) or last < 0):
        raise NotationError(_(NOT_A_COUNT))
    return last


def _game(game: Game) -> dict[str, Any]:
    from prefcalc.views.payloads import sheet_json

    return sheet_json(api.sheet(game), game)


def _log(game: Game, last: int | None, lang: str) -> list[dict[str, Any]]:
    from prefcalc.views.night import log_items

    return log_items(game, api.sheet(game), last, lang)


def _settle(game: Game, method: str, rounding: str) -> dict[str, Any]:
    from prefcalc.views.payloads import settlement_json

    return settlement_json(api.settle(game, api.parse_method(method), api.parse_rounding(rounding)))


def _seats(game: Game) -> dict[str, Any]:
    from prefcalc.views.night import seats_json

    return seats_json(game, api.sheet(game))


def _cases(game: Game, lang: str) -> dict[str, dict[str, str]]:
    from prefcalc.views.night import name_forms

    return name_forms(game, lang)


def _sheet_svg(game: Game) -> str:
    from prefcalc.views.sheet_svg import sheet_svg

    return sheet_svg(api.sheet(game), game)
