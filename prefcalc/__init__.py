"""prefcalc: keep the score of Preference and settle the night.

The public API (see :mod:`prefcalc.api` and the README's "Python API")::

    import prefcalc
    g = prefcalc.new_game(["Anna", "Boris", "Vera"], convention="sochi", target=20)
    g = prefcalc.record(g, "game Anna 7h 7 Boris:w Vera:p")
    s = prefcalc.sheet(g)
    r = prefcalc.settle(g, method="average", rounding="exact")
    report = prefcalc.api.report(g)  # what the exports show, computed once (prefcalc.Report)

The API is imported on first use, so ``prefcalc --version`` and the other light commands do
not pay for the scoring engine and the file models.
"""

from typing import TYPE_CHECKING, Any

from prefcalc.errors import ConventionError, DealError, LedgerError, NotationError, PrefcalcError

__version__ = "0.2.0"

if TYPE_CHECKING:
    from prefcalc.api import (
        delete,
        edit,
        insert,
        join,
        load,
        new_game,
        price_in_force,
        record,
        redo,
        rules,
        save,
        set_term,
        settle,
        sheet,
        undo,
        update,
    )
    from prefcalc.report import Report
    from prefcalc.rules.model import Game
    from prefcalc.rules.scoring import Sheet
    from prefcalc.rules.settlement import Settlement

_LAZY = {
    "delete": "prefcalc.api",
    "edit": "prefcalc.api",
    "join": "prefcalc.api",
    "insert": "prefcalc.api",
    "redo": "prefcalc.api",
    "set_term": "prefcalc.api",
    "load": "prefcalc.api",
    "new_game": "prefcalc.api",
    "price_in_force": "prefcalc.api",
    "record": "prefcalc.api",
    "rules": "prefcalc.api",
    "save": "prefcalc.api",
    "settle": "prefcalc.api",
    "sheet": "prefcalc.api",
    "undo": "prefcalc.api",
    "update": "prefcalc.api",
    "Game": "prefcalc.rules.model",
    "Report": "prefcalc.report",
    "Sheet": "prefcalc.rules.scoring",
    "Settlement": "prefcalc.rules.settlement",
}

__all__ = [
    "ConventionError",
    "DealError",
    "Game",
    "LedgerError",
    "NotationError",
    "PrefcalcError",
    "Report",
    "Settlement",
    "Sheet",
    "__version__",
    "delete",
    "edit",
    "insert",
    "join",
    "load",
    "new_game",
    "price_in_force",
    "record",
    "redo",
    "rules",
    "save",
    "set_term",
    "settle",
    "sheet",
    "undo",
    "update",
]


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'prefcalc' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value
