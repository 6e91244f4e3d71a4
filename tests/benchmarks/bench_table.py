"""Issue 32: one reading of a table costs no more than the readings it replaces.

A page drew a change from five answers (game, seats, log, settlement, the names' cases), each
loading the ledger; the table service's reading gives all five from one load. In process, on
a 500-deal ledger (as serve and the app's engine answer it): the reading against the five
operations one after the other, CPU time of this process, best of 15 each, interleaved.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from run import Figure, interleaved
from support import random_game

from prefcalc import api
from prefcalc.table.service import Service

DEALS = 500


def reading_vs_parts() -> tuple[float, float, str]:
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        os.environ["XDG_DATA_HOME"] = str(folder / "data")
        path = folder / "g.json"
        api.save(random_game(32, DEALS, 3, "sochi", target=10**6, adjustments=False), path)
        table = Service(path, "ru")

        def reading() -> None:
            table.reading()

        def parts() -> None:
            table.game()
            table.seats()
            table.log()
            table.settle()
            table.cases()

        assert len(table.reading()["log"]) == DEALS
        ours, floor = interleaved(reading, parts, 15)
    return (
        ours,
        floor,
        f"game, seats, log, settle and cases one after the other (a {DEALS}-deal ledger, in"
        " Russian; ours: one reading of them all; best of 15 each, interleaved)",
    )


FIGURES: list[Figure] = [
    ("a table's reading vs the five answers it replaces", 1.0, reading_vs_parts),
]
