"""The sheets of Sochi, Leningrad and Rostov games (2 to 5 players, late arrivals) are
unchanged by the Classic rules (docs/rules.md §8: every new option is off outside Classic).

``fixtures/legacy-sheets.json`` holds a digest of 200 random games (pools, mountains, whists,
every write with its reason, the settlement) computed by prefcalc before the Classic rules
were added (commit 7ecd883) with this same digest; this code must reproduce every one.
A semi-responsible shortfall now shows its liability as a factor of its own (``1 missing × 2
× ½ = 1``, issue 26: it was ``1 missing × 1 = 1``): :func:`legacy_wording` turns it back into
the words of the digests, the amount and every other term still compared as they are.
Twenty-two were re-digested when docs/rules.md §8.8 put an all-pass deal's pool writes in seating
order from the dealer's left: the same writes, pools, mountains, whists and settlement (checked
as sorted writes against the old engine), in another order within a deal.
"""

from __future__ import annotations

import hashlib
import json
import re
from fractions import Fraction
from pathlib import Path

import pytest
from support import random_game

from prefcalc.rules.amounts import fmt
from prefcalc.rules.scoring import score
from prefcalc.rules.settlement import settle
from prefcalc.store.ledger import resolve_convention

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "legacy-sheets.json"
EXPECTED: dict[str, str] = json.loads(FIXTURE.read_text(encoding="utf-8"))["sheets"]


_HELPED = re.compile(r"^(.*): earned \S+, (\S+) into the pool, .*$")
_HELP_FROM = re.compile(r"^(help from .*?: \S+) of the \S+ for .*$")
_HELP_TO = re.compile(r"^(help to .*? = \S+) \(.*\)$")
_SHORT = re.compile(r"^(.*shortfall on \S+: \d+ missing × )(\d+) × ([½¼¾⅓⅔])((?: × .*)? = .*)$")
_GLYPHS = {"½": Fraction(1, 2), "¼": Fraction(1, 4), "¾": Fraction(3, 4)}
_GLYPHS |= {"⅓": Fraction(1, 3), "⅔": Fraction(2, 3)}


def legacy_wording(reason: str) -> str:
    """A reason of the help rule in the words the digests were computed with: issue 17 made
    each of its writes tell the whole story ("misère made: earned 10, 4 into the pool, 6 help
    to Аня for 60 whists" was "misère made: 4"); every amount, and every other reason, is
    still compared as it is. The new wording is pinned by tests/test_recording.py."""
    if match := _SHORT.match(reason):  # the shortfall's liability (issue 26): W × ½ was one number
        head, w, liability, tail = match.groups()
        return f"{head}{fmt(int(w) * _GLYPHS[liability])}{tail}"
    if match := _HELPED.match(reason):
        return f"{match.group(1)}: {match.group(2)}"
    for pattern in (_HELP_FROM, _HELP_TO):
        if match := pattern.match(reason):
            return match.group(1)
    return reason


def digest(seed: int) -> str:
    preset = ("sochi", "leningrad", "rostov")[seed % 3]
    players = (2, 3, 4, 5)[seed % 4]
    game = random_game(
        seed, 60, players, preset, target=(10, 20, 30)[seed % 3], joins=seed % 5 == 0
    )
    sheet = score(game, resolve_convention(game.convention))
    parts = [
        repr(sorted((p, fmt(v)) for p, v in sheet.pool.items())),
        repr(sorted((p, fmt(v)) for p, v in sheet.mountain.items())),
        repr(sorted((p, q, fmt(v)) for p, r in sheet.whists.items() for q, v in r.items())),
    ]
    for s in sheet.scored:
        for w in s.writes:
            reason = legacy_wording(w.reason)
            parts.append(f"{s.number}|{w.player}|{w.column}|{w.on}|{fmt(w.amount)}|{reason}")
    parts.append(repr(sorted((p, fmt(v)) for p, v in settle(sheet, "average").whists.items())))
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:16]


@pytest.mark.parametrize("seed", range(0, 200, 8))
def test_non_classic_sheets_are_unchanged(seed: int) -> None:
    for k in range(seed, seed + 8):
        assert digest(k) == EXPECTED[str(k)], f"seed {k}"
