"""Exact amounts (whists, mountain and pool points) and how they are shown.

Every number on the sheet is an ``int`` or a ``fractions.Fraction``; integral fractions
are normalised back to ``int`` so that the common case stays fast and prints plainly.
Rounding never happens here: a value is only *formatted* at the edge.
"""

from decimal import Decimal, InvalidOperation
from fractions import Fraction

Amount = int | Fraction

MAX_AMOUNT = 10**9
"""The largest magnitude of any amount a user types or a file holds."""

_VULGAR = {
    (1, 2): "½",
    (1, 3): "⅓",
    (2, 3): "⅔",
    (1, 4): "¼",
    (3, 4): "¾",
    (1, 5): "⅕",
    (2, 5): "⅖",
    (3, 5): "⅗",
    (4, 5): "⅘",
    (1, 6): "⅙",
    (5, 6): "⅚",
    (1, 8): "⅛",
    (3, 8): "⅜",
    (5, 8): "⅝",
    (7, 8): "⅞",
}


def norm(value: Amount) -> Amount:
    """Return ``value`` as an ``int`` when it is integral."""
    if value.__class__ is int:  # the common case, without an ABC isinstance check
        return value
    if value.denominator == 1:
        return value.numerator
    return value


def parse_amount(text: str) -> Amount:
    """Parse ``"12"``, ``"-3"``, ``"2.5"`` or ``"5/3"`` into an exact amount."""
    raw = text.strip()
    try:
        if "/" in raw:
            return norm(Fraction(raw))
        return norm(Fraction(Decimal(raw)))
    except (ValueError, ZeroDivisionError, InvalidOperation):
        raise ValueError(f"'{text}' is not a number") from None


def fmt(value: Amount, style: str = "vulgar", places: int = 2) -> str:
    """Format an exact amount.

    ``vulgar``: ``16⅔``, ``-2½``, ``7/9`` when no glyph exists; ``decimal``: ``16.67``
    (rounded to ``places`` only for display); ``plain``: ``50/3``.
    """
    value = norm(value)
    if isinstance(value, int):
        return str(value)
    if style == "plain":
        return f"{value.numerator}/{value.denominator}"
    if style == "decimal":
        q = Decimal(value.numerator) / Decimal(value.denominator)
        return f"{q:.{places}f}"
    sign = "-" if value < 0 else ""
    whole, rest = divmod(abs(value.numerator), value.denominator)
    glyph = _VULGAR.get((rest, value.denominator))
    if glyph is None:
        return (
            f"{sign}{whole} {rest}/{value.denominator}"
            if whole
            else f"{sign}{rest}/{value.denominator}"
        )
    return f"{sign}{whole}{glyph}" if whole else f"{sign}{glyph}"


def to_json_number(value: Amount) -> int | float:
    """An exact amount as a JSON number: ints stay ints, fractions become floats."""
    value = norm(value)
    return value if isinstance(value, int) else float(value)


def exact_text(value: Amount) -> str:
    """An exact amount as text that parses back to the same value: ``2.5`` or ``5/3``."""
    value = norm(value)
    if isinstance(value, int):
        return str(value)
    d = value.denominator
    for p in (2, 5):
        while d % p == 0:
            d //= p
    if d != 1:
        return f"{value.numerator}/{value.denominator}"
    places = 0
    while (value * 10**places).denominator != 1:
        places += 1
    return f"{Decimal(value.numerator) / Decimal(value.denominator):.{places}f}"
