"""Plain-text building blocks of the terminal views: columns aligned (:func:`table`), an amount
with its sign (:func:`signed`), money in the currency's minor unit (:func:`money_text`) and a
stored time in this computer's local time (:func:`local_time`).

Plain text, no colour library: recording a deal must stay fast, and the output must read the
same in any terminal, a pipe or a test.
"""

from __future__ import annotations

from collections.abc import Sequence

from prefcalc.rules.amounts import Amount
from prefcalc.rules.settlement import minor_unit, to_decimal
from prefcalc.views.numbers import money
from prefcalc.views.numbers import number as fmt


def table(
    rows: Sequence[Sequence[str]], right: Sequence[bool] | None = None, gap: str = "  "
) -> list[str]:
    """Align ``rows`` (first row is the header) in columns."""
    widths = [max(len(row[c]) for row in rows) for c in range(len(rows[0]))]
    right = right or [False] + [True] * (len(widths) - 1)
    out = []
    for row in rows:
        cells = [
            cell.rjust(w) if r else cell.ljust(w)
            for cell, w, r in zip(row, widths, right, strict=True)
        ]
        out.append(gap.join(cells).rstrip())
    return out


def local_time(stamp: str, pattern: str = "%Y-%m-%d %H:%M") -> str:
    """A stored time (ISO with its offset) in this computer's local time; a time without
    an offset, or one that cannot be read, is shown as stored."""
    from datetime import datetime

    try:
        when = datetime.fromisoformat(stamp)
    except ValueError:
        return stamp
    if when.tzinfo is None:
        return when.strftime(pattern)
    return when.astimezone().strftime(pattern)


def signed(value: Amount) -> str:
    """``+4``, ``-2½``, ``0``: an amount with its sign."""
    text = fmt(value)
    return text if text.startswith(("-", "\N{MINUS SIGN}")) or text == "0" else f"+{text}"


def money_text(value: Amount, currency: str) -> str:
    return money(to_decimal(value, minor_unit(currency)), currency)
