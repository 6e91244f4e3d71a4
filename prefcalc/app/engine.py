"""The engine of the app on a phone: what the Web Worker runs in the browser's Python.

Each game is a ledger file in the worker's memory (``/games/NAME.json``), answered by the
table service serve's routes call too (:class:`prefcalc.table.service.Service`, one per
game): a play line is carried out by the runner of ``prefcalc play`` (under the ledger's
lock, atomically, once per request id), its answer is the text ``prefcalc play`` prints,
and the readings are the JSON of ``show --json``, ``log --json``, ``settle --json`` and the
one reading of them all. After every change the ledger's text (and what ``undo`` keeps for
``redo``, ``NAME.json.redo``) goes back to the page, which keeps it in the phone's storage:
the page, not this memory, is where a game lives between two starts. What is only the
phone's (its list of games, a game opened from its storage, a file imported) is here.

The worker calls :func:`handle` with one JSON request, ``{"op": ..., "args": {...}}``, and
posts its JSON answer, ``{"ok": true, "result": ...}`` or ``{"ok": false, "error": "<one
line>"}``; ``docs/engine-protocol.md`` lists the operations. Nothing here is specific to a
browser: the tests run it in CPython on a temporary folder.
"""

from __future__ import annotations

import functools
import json
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from prefcalc import __version__, api
from prefcalc.errors import LedgerError, NotationError, PrefcalcError, one_line
from prefcalc.i18n import LANGUAGES, _, set_language
from prefcalc.table.answers import KEPT_ANSWERS
from prefcalc.table.service import Service

MAX_LEDGER = 16 * 1024 * 1024
"""The largest ledger the phone opens or imports (bytes; a 10,000-deal night is ~2 MB)."""

NAME = re.compile(r"^[^\W_][\w.-]{0,150}$")
"""A game's name: the stem of its ledger's file name, as the CLI makes it (letters and digits
of any script, ``.``, ``-``, ``_``; never a path, never hidden)."""

Answer = dict[str, Any]

TABLES = 64
"""How many games' tables the worker keeps at once (each with the answers of its requests);
the one used longest ago goes first (a phone holds a few games)."""


class Engine:
    """The games open in this worker, as ledger files under ``root``."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.lang = "en"
        self.tables: dict[str, Service] = {}

    # --- files -------------------------------------------------------------------------------

    def path(self, name: object) -> Path:
        if not isinstance(name, str) or not NAME.match(name) or name.endswith(".json"):
            raise LedgerError(_("not a game's name: {name}").format(name=one_line(str(name), 60)))
        return self.root / f"{name}.json"

    def files(self, name: str) -> dict[str, str | None]:
        """The ledger's text and what ``undo`` keeps for ``redo`` (None when nothing)."""
        path = self.path(name)
        redo = path.with_name(path.name + ".redo")
        return {
            "ledger": path.read_text(encoding="utf-8"),
            "redo": redo.read_text(encoding="utf-8") if redo.is_file() else None,
        }

    def game(self, name: str) -> Any:
        return api.load_current(self.path(name))

    def table(self, name: str) -> Service:
        """The table service of the game ``name``, in the page's language."""
        path = self.path(name)
        service = self.tables.pop(name, None)
        if service is None:
            service = Service(path, self.lang)
        service.lang = self.lang
        self.tables[name] = service  # the most recent last
        while len(self.tables) > TABLES:
            del self.tables[next(iter(self.tables))]
        return service

    # --- operations --------------------------------------------------------------------------

    def hello(self, lang: str | None = None) -> Answer:
        import sys

        if lang is not None:
            self.set_lang(lang)
        return {
            "version": __version__,
            "python": sys.version.split()[0],
            "lang": self.lang,
            "remembered": KEPT_ANSWERS,
        }

    def set_lang(self, lang: str) -> Answer:
        if lang not in LANGUAGES:
            raise NotationError(
                _("unknown language '{lang}' (use {choices})").format(
                    lang=one_line(str(lang), 20), choices=" or ".join(LANGUAGES)
                )
            )
        self.lang = lang
        set_language(lang)
        return {"lang": lang}

    def new(
        self,
        players: list[str],
        convention: str = "sochi",
        target: int | None = None,
        price: str = "1",
        currency: str = "",
        dealer: str | None = None,
        taken: list[str] | None = None,
    ) -> Answer:
        """A new game, written as ``prefcalc new`` writes it; its name is the CLI's file name
        for it (one not in ``taken``, the names already on the phone)."""
        from prefcalc.rules.amounts import AmountError, parse_amount
        from prefcalc.store import ledger

        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise NotationError(_("the players are names separated by spaces"))
        try:
            amount = parse_amount(str(price))
        except AmountError as exc:
            raise PrefcalcError(exc.about(_("the whist price"))) from None
        game = api.new_game(
            players,
            convention,
            target,
            whist_price=amount,
            currency=currency,
            dealer=dealer or None,
            lang=self.lang if self.lang != "en" else None,
        )
        stem = ledger.new_game_path(game.players).stem
        name, number = stem, 2
        busy = set(taken or ())
        while name in busy or self.path(name).exists():
            name, number = f"{stem}-{number}", number + 1
        path = self.path(name)
        path.parent.mkdir(parents=True, exist_ok=True)
        ledger.create(path, game)
        return {"name": name, "files": self.files(name), "game": self.summary(name)}

    def open(self, name: str, ledger: str, redo: str | None = None) -> Answer:
        """Put a game kept on the phone back in this worker's memory (validated first)."""
        from prefcalc.store.ledger import game_from_bytes

        path = self.path(name)
        raw = _text(ledger).encode("utf-8")
        game_from_bytes(raw, f"{name}.json")  # a ledger that is not one is refused here
        self.tables.pop(name, None)  # another ledger: its answers are not this one's
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(raw)
        keep = path.with_name(path.name + ".redo")
        if redo:
            keep.write_text(_text(redo), encoding="utf-8")
        else:
            keep.unlink(missing_ok=True)
        return {"name": name, "game": self.summary(name)}

    def close(self, name: str) -> Answer:
        path = self.path(name)
        self.tables.pop(name, None)
        for one in (path, path.with_name(path.name + ".redo")):
            one.unlink(missing_ok=True)
        return {"name": name}

    def check(self, ledger: str) -> Answer:
        """What an imported file holds, refused in one line if it is not a ledger."""
        from prefcalc.rules.model import deal_count, seating
        from prefcalc.store.ledger import game_from_bytes

        raw = _text(ledger).encode("utf-8")
        game = game_from_bytes(raw, _("the file"))
        return {
            "players": list(game.players),
            "seating": list(seating(game)),
            "created": game.created,
            "deals": deal_count(game),
            "convention": api.rules(game).name,
        }

    def summary(self, name: str) -> Answer:
        """One line of the phone's list of games."""
        from prefcalc.rules.model import deal_count, seating

        game = self.game(name)
        sheet = api.sheet(game)
        return {
            "name": name,
            "players": list(game.players),
            "seating": list(seating(game)),
            "created": game.created,
            "deals": deal_count(game),
            "finished": sheet.finished,
            "convention": sheet.convention.name,
            "preset": game.convention.preset,
            "target": sheet.target,
            "balance": self.balance(game),
        }

    def balance(self, game: Any) -> dict[str, str]:
        """Each player's money (pairwise, exact: a Fraction's text) as this engine scores the
        game: the phone keeps it with every write, and a later prefcalc that scores the same
        record otherwise is said so when the game is opened (locked rules)."""
        from prefcalc.rules.model import seating

        settled = api.settle(game, "pairwise", "exact")
        return {p: str(settled.money[p]) for p in seating(game) if p in settled.money}

    def line(self, name: str, line: str, id: str | None = None) -> Answer:
        """Carry out one ``play`` line, once per request ``id`` (the same id again: the
        first answer, nothing written); the answer holds what it printed and the ledger's
        version, and the ledger's files when it changed them."""
        before = self.files(name)
        done = self.table(name).line(line, id)
        if done.status != 200:
            raise PrefcalcError(done.body["error"])
        after = self.files(name)
        answer: Answer = {**done.body, "version": _version(after)}
        if after != before:
            answer["files"] = after
        return answer

    def answer(self, name: str, id: str) -> Answer | None:
        """What the request ``id`` was answered: its answer when the line was carried out,
        its refusal when it was refused, None when no request of that id was carried out."""
        done = self.table(name).answer(id)
        if done is None:
            return None
        if done.status != 200:
            raise PrefcalcError(done.body["error"])
        return dict(done.body)

    def show(self, name: str) -> Answer:
        return self.table(name).game()

    def log(self, name: str, last: int | None = None) -> list[Answer]:
        """The night's deals as serve's ``/api/log`` gives them to the score page."""
        return self.table(name).log(last)

    def settle(self, name: str, method: str = "pairwise", rounding: str = "exact") -> Answer:
        return self.table(name).settle(method, rounding)

    def seats(self, name: str) -> Answer:
        return self.table(name).seats()

    def sheet(self, name: str) -> Answer:
        """The pool sheet as SVG: the drawing of serve's watch page."""
        return {"svg": self.table(name).sheet_svg()}

    def cases(self, name: str) -> dict[str, dict[str, str]]:
        """The players' names in the Russian cases (``{"Борис": {"acc": "Бориса", ...}}``),
        for the page's own messages (``висты на {player:acc}``); none in English."""
        return self.table(name).cases()

    def reading(
        self,
        name: str,
        last: int | None = None,
        method: str = "pairwise",
        rounding: str = "exact",
        sheet: bool = False,
    ) -> Answer:
        """All the page draws from one load of the ledger, with its version (serve's
        ``GET /api/reading``)."""
        return self.table(name).reading(last, method, rounding, sheet)

    def explain(self, name: str, number: int) -> Answer:
        return {"output": self.table(name).explain(number)}


def _version(files: dict[str, str | None]) -> str:
    """The version of the ledger whose text is in ``files`` (the events' and readings')."""
    from prefcalc.store.ledger import version

    return version((files["ledger"] or "").encode("utf-8"))


def _text(value: object) -> str:
    if not isinstance(value, str):
        raise LedgerError(_("not a prefcalc ledger (expected JSON data)"))
    if len(value) > MAX_LEDGER:
        raise LedgerError(
            _("the file is too large for a ledger (at most {size} MB)").format(
                size=MAX_LEDGER // (1024 * 1024)
            )
        )
    return value


OPERATIONS: dict[str, Callable[..., Any]] = {
    "hello": Engine.hello,
    "lang": Engine.set_lang,
    "new": Engine.new,
    "open": Engine.open,
    "close": Engine.close,
    "check": Engine.check,
    "summary": Engine.summary,
    "line": Engine.line,
    "game": Engine.show,
    "log": Engine.log,
    "settle": Engine.settle,
    "seats": Engine.seats,
    "sheet": Engine.sheet,
    "explain": Engine.explain,
    "cases": Engine.cases,
    "reading": Engine.reading,
    "answer": Engine.answer,
}
"""The operations of the protocol, by name (docs/engine-protocol.md)."""

_engine: Engine | None = None


def engine(root: Path = Path("/games")) -> Engine:
    global _engine
    if _engine is None:
        _engine = Engine(root)
    return _engine


def handle(request: str, root: Path = Path("/games")) -> str:
    """One request of the page, answered: the JSON in, the JSON out (never an exception:
    a refusal is ``{"ok": false, "error": "<one line>"}``, as serve's pages show it)."""
    from prefcalc.views.words import refusal_line

    try:
        data = json.loads(request)
        op = data.get("op") if isinstance(data, dict) else None
        args = data.get("args", {}) if isinstance(data, dict) else None
        if op not in OPERATIONS or not isinstance(args, dict):
            raise NotationError(_("unknown request: {op}").format(op=one_line(str(op), 40)))
        started = time.perf_counter()
        try:
            result = OPERATIONS[op](engine(root), **args)
        except TypeError as exc:  # a missing or unknown argument of the page
            raise NotationError(one_line(f"{op}: {exc}")) from None
        spent = round((time.perf_counter() - started) * 1000, 1)
        return json.dumps({"ok": True, "result": result, "ms": spent}, ensure_ascii=False)
    except PrefcalcError as exc:  # as a page shows it: a ledger named by its file name alone
        return json.dumps({"ok": False, "error": refusal_line(exc)}, ensure_ascii=False)
    except (ValueError, RecursionError) as exc:
        return json.dumps({"ok": False, "error": one_line(f"bad request: {exc}")})
    except OSError as exc:
        return json.dumps({"ok": False, "error": one_line(str(exc.strerror or exc))})


def selftest(root: Path) -> dict[str, Any]:
    """A short night through every operation (the build runs it in the browser's Python
    before it writes anything): the figures it took, or an exception."""
    eng = Engine(root)
    took: dict[str, float] = {}

    def timed(what: str, fn: Callable[[], Any]) -> Any:
        started = time.perf_counter()
        value = fn()
        took[what] = round((time.perf_counter() - started) * 1000, 1)
        return value

    made = timed("new", lambda: eng.new(["Anna", "Boris", "Vera"], "sochi", 20, "1"))
    name = made["name"]
    for k, line in enumerate(
        (
            "game Anna 7h 7 Boris:w Vera:p",
            "passes Anna=2 Boris=5 Vera=3",
            "misere Vera 0",
            "undo",
            "redo",
            "edit 1 game Anna 6s 6 Boris:w Vera:p",
            "insert 2 game Boris 6c 6 Anna:p Vera:w",
            "delete 2",
        )
    ):
        timed(f"line {k + 1}", functools.partial(eng.line, name, line))
    timed("show", lambda: eng.show(name))
    timed("log", lambda: eng.log(name))
    timed("settle", lambda: (eng.settle(name), eng.settle(name, "average", "whole")))
    timed("explain", lambda: eng.explain(name, 1))
    timed("sheet", lambda: eng.sheet(name))
    timed("reading", lambda: eng.reading(name, sheet=True))
    eng.set_lang("ru")
    timed("ru", lambda: (eng.show(name), eng.log(name), eng.line(name, "settle"), eng.cases(name)))
    eng.set_lang("en")
    timed("check", lambda: eng.check(eng.files(name)["ledger"] or ""))
    return {"version": __version__, "ms": took, "deals": eng.summary(name)["deals"]}
