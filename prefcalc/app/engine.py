"""The engine of the app on a phone: what the Web Worker runs in the browser's Python.

Each game is a ledger file in the worker's memory (``/games/NAME.json``), written by the
CLI's own code: a play line goes through :func:`prefcalc.lines.run_line`, the runner of
``prefcalc play`` and of serve's score page (carried out under the ledger's lock,
atomically), its answer is the text ``prefcalc play`` prints, and the views are the JSON of ``show --json``, ``log
--json`` and ``settle --json``. After every change the ledger's text (and what ``undo``
keeps for ``redo``, ``NAME.json.redo``) goes back to the page, which keeps it in the
phone's storage: the page, not this memory, is where a game lives between two starts.

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
from prefcalc.i18n import LANGUAGES, _, set_language, speaking

MAX_LEDGER = 16 * 1024 * 1024
"""The largest ledger the phone opens or imports (bytes; a 10,000-deal night is ~2 MB)."""

MAX_LINE = 500
NAME = re.compile(r"^[^\W_][\w.-]{0,150}$")
"""A game's name: the stem of its ledger's file name, as the CLI makes it (letters and digits
of any script, ``.``, ``-``, ``_``; never a path, never hidden)."""

Answer = dict[str, Any]


class Engine:
    """The games open in this worker, as ledger files under ``root``."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.lang = "en"

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

    # --- operations --------------------------------------------------------------------------

    def hello(self, lang: str | None = None) -> Answer:
        import sys

        if lang is not None:
            self.set_lang(lang)
        return {
            "version": __version__,
            "python": sys.version.split()[0],
            "lang": self.lang,
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

    def line(self, name: str, line: str) -> Answer:
        """Carry out one ``play`` line; the answer holds what it printed, and the ledger's
        files when it changed them."""
        from prefcalc.lines import run_line

        if not isinstance(line, str) or len(line) > MAX_LINE:
            raise NotationError(
                _("the line is too long (at most {n} characters)").format(n=MAX_LINE)
            )
        if "\n" in line or "\r" in line:
            raise NotationError(_("one line at a time (no line breaks)"))
        path = self.path(name)
        before = self.files(name)
        ran = run_line(path, line)  # the runner of play and of serve's score page
        if ran.quit:
            raise NotationError(_("quit ends a play session; here there is nothing to quit"))
        after = self.files(name)
        answer: Answer = {"output": ran.text, "deals": len(ran.game.entries)}
        if after != before:
            answer["files"] = after
        return answer

    def show(self, name: str) -> Answer:
        from prefcalc.views.payloads import sheet_json

        game = self.game(name)
        return sheet_json(api.sheet(game), game)

    def log(self, name: str, last: int | None = None) -> list[Answer]:
        """The night's deals as serve's ``/api/log`` gives them to the score page
        (:func:`prefcalc.web.night.log_items`: ``log --json`` with each deal's players, who
        sat out, its lowest contract and its shorthand in the page's language)."""
        from prefcalc.web.night import log_items

        if last is not None and (isinstance(last, bool) or not isinstance(last, int) or last < 0):
            raise NotationError(_("last is a count of deals (0 or more)"))
        game = self.game(name)
        return log_items(game, api.sheet(game), last, self.lang)

    def settle(self, name: str, method: str = "pairwise", rounding: str = "exact") -> Answer:
        from prefcalc.views.payloads import settlement_json

        return settlement_json(api.settle(self.game(name), method, rounding))

    def seats(self, name: str) -> Answer:
        from prefcalc.web.night import seats_json

        game = self.game(name)
        return seats_json(game, api.sheet(game))

    def sheet(self, name: str) -> Answer:
        """The pool sheet as SVG: the drawing of serve's watch page."""
        from prefcalc.web.sheet import sheet_svg

        game = self.game(name)
        with speaking(self.lang):
            return {"svg": sheet_svg(api.sheet(game), game)}

    def cases(self, name: str) -> dict[str, dict[str, str]]:
        """The players' names in the Russian cases (``{"Борис": {"acc": "Бориса", ...}}``),
        for the page's own messages (``висты на {player:acc}``); none in English."""
        from prefcalc.web.night import name_forms

        return name_forms(self.game(name), self.lang)

    def explain(self, name: str, number: int) -> Answer:
        if isinstance(number, bool) or not isinstance(number, int):
            raise NotationError(_("explain N: N is a deal's number"))
        return {"output": self.line(name, f"explain {number}")["output"]}


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
    a refusal is ``{"ok": false, "error": "<one line>"}``, as the CLI would print it)."""
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
    except PrefcalcError as exc:
        return json.dumps({"ok": False, "error": one_line(str(exc))}, ensure_ascii=False)
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
    eng.set_lang("ru")
    timed("ru", lambda: (eng.show(name), eng.log(name), eng.line(name, "settle"), eng.cases(name)))
    eng.set_lang("en")
    timed("check", lambda: eng.check(eng.files(name)["ledger"] or ""))
    return {"version": __version__, "ms": took, "deals": eng.summary(name)["deals"]}
