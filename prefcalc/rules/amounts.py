"""Exact amounts (whists, mountain and pool points) and how they are shown.

Every number on the sheet is an ``int`` or a ``fractions.Fraction``; integral fractions
are normalised back to ``int`` so that the common case stays fast and prints plainly.
Rounding never happens here: a value is only *formatted* at the edge.
"""

import math
import re
from decimal import Decimal
from fractions import Fraction
from typing import Any

from prefcalc.errors import shown
from prefcalc.i18n import N_, _

Amount = int | Fraction

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


# --- bounded parsing ---------------------------------------------------------------------------
#
# Every exact number the user types or a file holds goes through :func:`parse_amount` (text),
# :func:`to_amount` (a TOML/JSON value) or :func:`parse_whole` (whole numbers). The size is
# judged on the text before any big integer is built: ``Fraction(Decimal("1e999999999"))``
# would build a billion-digit integer, and ``inf``/``NaN`` have no exact value at all.

MAX_AMOUNT = 10**9
"""The largest size of any amount (pool, mountain, whists, prices): ``-MAX..MAX``."""
MAX_DENOMINATOR = 10**6
"""The finest amount: 6 decimal places, or a fraction whose denominator is at most this."""
MAX_NUMBER_TEXT = 40
"""The longest number text accepted (characters, after stripping spaces)."""

_DECIMAL = re.compile(r"([+-]?)(\d*)(?:\.(\d*))?", re.ASCII)
_COMMA = re.compile(r"([+-]?)(\d+),(\d+)", re.ASCII)
_POINT = re.compile(r"([+-]?)(\d+)\.(\d+)", re.ASCII)
_RATIO = re.compile(r"([+-]?)(\d+)\s*/\s*(\d+)", re.ASCII)
_EXPONENT = re.compile(r"[+-]?(\d+[.,]?\d*|[.,]\d+)[eE][+-]?\d+", re.ASCII)
_WHOLE = re.compile(r"[+-]?\d+", re.ASCII)
_THOUSAND = re.compile(r"[+-]?[1-9]\d{0,2}[,.]\d{3}", re.ASCII)
"""``1,000``, ``12,500``, and when typed ``1.000``: a thousand, or a decimal comma (point)?
Refused as ambiguous (``0,125`` and ``1,5000`` are decimals: no thousand is written so)."""
_GROUPED = re.compile(r"[+-]?[1-9]\d{0,2}(?:[ \u00a0\u202f'_.,]\d{3})+(?:[.,]\d+)?")
"""``1 000``, ``1.000,5``, ``1,000,000``, ``1'000``: a number with its thousands grouped."""
_MINUS_SIGN = "\N{MINUS SIGN}"

_LIMITS = {"chars": MAX_NUMBER_TEXT, "most": MAX_AMOUNT, "denominator": MAX_DENOMINATOR}


_NOT_NUMBER = (N_("a number"), N_("is not a number (write e.g. 12, -3, 2.5 or 5/3)"))
_AMBIGUOUS = (
    N_("{whole} or {decimal}"),
    N_("is ambiguous: write {whole} or {decimal}"),
)
_GROUPING = (
    N_("a number without a thousands separator"),
    N_("has its thousands grouped: write the digits together (e.g. 1000 or 2.5)"),
)
_NOT_WHOLE = (N_("a whole number"), N_("is not a whole number"))
_EXPONENT_USED = (
    N_("a number written without an exponent"),
    N_("is written with an exponent: write the number out (e.g. 1000 or 0.001)"),
)
_TOO_LONG = (
    N_("a number of at most {chars} characters"),
    N_("is too long for a number (at most {chars} characters)"),
)
_TOO_LARGE = (
    N_("between -{most:,} and {most:,}"),
    N_("is too large (at most {most:,} either way)"),
)
_TOO_FINE = (
    N_("a number with at most 6 decimal places or a denominator up to {denominator:,}"),
    N_("is too fine (at most 6 decimal places, or a denominator up to {denominator:,})"),
)


class AmountError(ValueError):
    """A number the user typed or a file holds that prefcalc refuses; ``str()`` is one line.

    :meth:`about` words it for a named field: ``--mountain must be a number, not 'x'``.
    """

    def __init__(self, text: str, problem: tuple[str, str], **values: str) -> None:
        self.text = text
        self.requirement, sentence = problem
        self.values = values
        super().__init__(
            _("'{text}' {sentence}").format(
                text=shown(text), sentence=_(sentence).format(**_LIMITS, **values)
            )
        )

    def about(self, what: str) -> str:
        return _("{what} must be {requirement}, not '{text}'").format(
            what=what,
            requirement=_(self.requirement).format(**_LIMITS, **self.values),
            text=shown(self.text),
        )


def _bounded(value: Amount, text: str) -> Amount:
    if value.__class__ is not int and value.denominator > MAX_DENOMINATOR:
        raise AmountError(text, _TOO_FINE)
    if not -MAX_AMOUNT <= value <= MAX_AMOUNT:
        raise AmountError(text, _TOO_LARGE)
    return norm(value)


def parse_amount(text: str, typed: bool = False) -> Amount:
    """Parse ``"12"``, ``"-3"``, ``"2.5"``, ``"2,5"`` or ``"5/3"`` into an exact, bounded amount.

    The decimal point may be a comma, as Russian writes it (``0,5``, ``-2,5``: digits on both
    sides), and the minus the sign prefcalc prints in Russian (``−2,5``). Refused with an
    :class:`AmountError` (a ``ValueError``): ``1,000`` and ``12,500`` (a thousand or a
    decimal? ambiguous), grouped thousands (``1 000``, ``1.000,5``, ``1,000,000``), ``inf``,
    ``NaN``, ``1e3``, ``1_000``, non-ASCII digits, text over ``MAX_NUMBER_TEXT`` characters,
    sizes over ``MAX_AMOUNT`` and denominators over ``MAX_DENOMINATOR``.

    ``typed``: the text was typed by a person (an option, a line of ``play``), who may group
    a thousand with a point as well (``1.000``, as much of Europe writes it): that is refused
    as ambiguous too (``write 1000 or 1``). A file's text (``exact_text`` writes ``1.125``) is
    read as the decimal it is.
    """
    raw = _signed(text.strip())
    if len(raw) > MAX_NUMBER_TEXT:  # judged before any integer is built
        raise AmountError(text, _TOO_LONG)
    match = _DECIMAL.fullmatch(raw)
    if match and (match.group(2) or match.group(3)):
        if typed:
            _unambiguous(text, raw)
        return _decimal(text, match.group(1), match.group(2), match.group(3) or "")
    match = _COMMA.fullmatch(raw)
    if match:
        _unambiguous(text, raw)
        return _decimal(text, match.group(1), match.group(2), match.group(3))
    match = _RATIO.fullmatch(raw)
    if match:
        denominator = int(match.group(3))
        if denominator == 0:
            raise AmountError(text, _NOT_NUMBER)
        number = Fraction(int(match.group(2)), denominator)
        return _bounded(-number if match.group(1) == "-" else number, text)
    raise AmountError(text, _refusal(raw, _NOT_NUMBER))


def _signed(raw: str) -> str:
    """The minus sign Russian output prints (``−2,5``) read as the hyphen-minus."""
    return "-" + raw[1:] if raw.startswith(_MINUS_SIGN) else raw


def _decimal(text: str, sign: str, whole: str, decimals: str) -> Amount:
    number = Fraction(int(whole + decimals or "0"), 10 ** len(decimals))
    return _bounded(-number if sign == "-" else number, text)


def _unambiguous(text: str, raw: str) -> None:
    """Refuse ``1,000`` (and ``1.000`` where the caller says so): a comma or point before
    exactly three digits after a non-zero whole part of at most three digits reads as a
    thousands separator as well as a decimal mark. The refusal offers both readings written
    plainly: ``12500 or 12.5`` (``12500 или 12,5`` in Russian)."""
    if _THOUSAND.fullmatch(raw):
        whole, fraction = re.split("[,.]", raw)
        fraction = fraction.rstrip("0")
        decimal = f"{whole}{_point()}{fraction}" if fraction else whole
        raise AmountError(text, _AMBIGUOUS, whole=whole + fraction.ljust(3, "0"), decimal=decimal)


def _point() -> str:
    """The decimal point of the language in use (imported late, as :func:`_`)."""
    from prefcalc.i18n import DEFAULT, language

    return "." if language() == DEFAULT else ","


def _refusal(raw: str, otherwise: tuple[str, str]) -> tuple[str, str]:
    """Why a text that is no number is refused: an exponent, grouped thousands, or
    ``otherwise``."""
    if _EXPONENT.fullmatch(raw):
        return _EXPONENT_USED
    if _GROUPED.fullmatch(raw):
        return _GROUPING
    return otherwise


def parse_whole(text: str) -> int:
    """Parse a whole number such as ``"7"`` or ``"-3"`` (or ``"−3"``, as Russian prints it):
    ASCII digits, at most ``MAX_NUMBER_TEXT`` characters and ``MAX_AMOUNT`` in size (an
    :class:`AmountError` otherwise, ``1,000`` and ``1.000`` refused as ambiguous and ``1 000``
    as grouped). A person types a whole number: no file is read with it.
    Callers check their own, narrower range."""
    raw = _signed(text.strip())
    if len(raw) > MAX_NUMBER_TEXT:
        raise AmountError(text, _TOO_LONG)
    if not _WHOLE.fullmatch(raw):
        if _COMMA.fullmatch(raw) or _POINT.fullmatch(raw):
            _unambiguous(text, raw)
        raise AmountError(text, _refusal(raw, _NOT_WHOLE))
    value = int(raw)
    if not -MAX_AMOUNT <= value <= MAX_AMOUNT:
        raise AmountError(text, _TOO_LARGE)
    return value


def check_amount(value: Amount) -> Amount:
    """An ``int`` or ``Fraction`` already built (a JSON or TOML integer), bounded like
    :func:`parse_amount`."""
    if value.__class__ is int and -MAX_AMOUNT <= value <= MAX_AMOUNT:  # the common case
        return value
    # a value beyond Python's int-to-text digit limit cannot even be quoted
    huge = value.numerator.bit_length() > 14_000 or value.denominator.bit_length() > 14_000
    return _bounded(value, "…" if huge else str(value))


def to_amount(value: Any) -> Amount:
    """A value from a TOML or JSON file (``int``, ``float``, ``Fraction`` or number text)
    as a bounded exact amount; ``bool``, ``inf``, ``nan`` and anything else are refused
    with an :class:`AmountError`."""
    if isinstance(value, bool):
        raise AmountError(str(value).lower(), _NOT_NUMBER)
    if isinstance(value, str):
        return parse_amount(value)
    if isinstance(value, int | Fraction):
        return check_amount(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise AmountError(repr(value), _NOT_NUMBER)
        if abs(value) > MAX_AMOUNT:
            raise AmountError(repr(value), _TOO_LARGE)
        # the shortest text of the float (0.1 stays 1/10), with an exponent only for
        # tiny values, which the denominator bound then refuses
        return _bounded(Fraction(Decimal(repr(value))), repr(value))
    raise AmountError(shown(repr(value)), _NOT_NUMBER)


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
