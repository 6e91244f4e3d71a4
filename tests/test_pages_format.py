"""The pages' formatting (``prefcalc/web/static/format.js``, run under Node) writes numbers and
money as :mod:`prefcalc.views.numbers` writes them, in English and in Russian: the pages keep
one module of their own, held to Python's by this test (the decimal comma, grouped thousands,
the minus sign, the currency's sign)."""

from __future__ import annotations

import json
import shutil
import subprocess
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest

from prefcalc.i18n import speaking
from prefcalc.views import numbers

STATIC = Path(__file__).resolve().parent.parent / "prefcalc" / "web" / "static"

INTEGERS = [0, 5, -3, 1234, -12345, 1000000]
DECIMALS = [Fraction(5, 2), Fraction(-1, 4), Fraction(24691, 20), Fraction(-50, 3)]
MONEY = [
    (Decimal("12.67"), "EUR"),
    (Decimal("-12.50"), "RUB"),
    (Decimal("5"), "EUR"),
    (Decimal("1234"), "RUB"),
    (Decimal("-3"), ""),
    (Decimal("7"), "фишки"),
]


def _node() -> str:
    found = shutil.which("node")
    if found is None:
        pytest.skip("Node.js is not installed")
    return found


def _js(calls: list[tuple[str, list[object]]]) -> list[str]:
    """Each call of format.js, run under Node, answered in order."""
    script = (
        f"const f = await import({json.dumps((STATIC / 'format.js').as_uri())});"
        f"const calls = {json.dumps(calls, ensure_ascii=False)};"
        "const given = (a) => (a === null ? undefined : a);"  # JSON's null: the argument left out
        "console.log(JSON.stringify(calls.map(([name, args]) => f[name](...args.map(given)))));"
    )
    done = subprocess.run(
        [_node(), "--input-type=module", "-e", script],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return list(json.loads(done.stdout))


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_numbers_and_money_as_python_writes_them(lang: str) -> None:
    calls: list[tuple[str, list[object]]] = []
    expected: list[str] = []
    with speaking(lang):
        for n in INTEGERS:
            calls.append(("number", [n, None, lang]))
            expected.append(numbers.number(n))
        for f in DECIMALS:
            calls.append(("number", [float(f), 2, lang]))
            expected.append(numbers.number(f, "decimal", 2))
        for amount, currency in MONEY:
            calls.append(("money", [float(amount), currency, lang]))
            expected.append(numbers.money(amount, currency))
    assert _js(calls) == expected
