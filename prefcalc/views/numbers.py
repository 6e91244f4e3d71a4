"""Numbers, money and dates for people, in the language in use.

In English they are written exactly as prefcalc always wrote them (:func:`number` is
:func:`prefcalc.rules.amounts.fmt`, the language-independent exact text); in Russian Babel
formats them (Russian grouping, the decimal comma, the minus sign, ``1 декабря 2026``),
imported only when a Russian number is formatted.
"""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal
from fractions import Fraction

from prefcalc.i18n import DEFAULT, language
from prefcalc.rules.amounts import Amount, fmt, norm

MINUS = "\N{MINUS SIGN}"
"""Russian typography writes a negative number with the minus sign, not the hyphen."""


def _babel_locale() -> str:
    return {"ru": "ru_RU"}.get(language(), "en")


def _minus(text: str) -> str:
    return MINUS + text[1:] if text.startswith("-") else text


def number(value: Amount, style: str = "vulgar", places: int = 2) -> str:
    """An exact amount for people: in English :func:`prefcalc.rules.amounts.fmt` as it always was;
    in Russian with Russian grouping, decimal comma and minus sign (``1 234``, ``−2½``,
    ``1 234,50``)."""
    if language() == DEFAULT:
        return fmt(value, style, places)
    from babel.numbers import format_decimal

    value = norm(value)
    loc = _babel_locale()
    if isinstance(value, int):
        return _minus(format_decimal(value, locale=loc))
    if style == "decimal":
        exact = Decimal(value.numerator) / Decimal(value.denominator)
        pattern = "#,##0." + "0" * places if places else "#,##0"
        return _minus(format_decimal(exact, format=pattern, locale=loc))
    if style == "plain":
        return _minus(f"{value.numerator}/{value.denominator}")
    # vulgar: the whole part grouped, the fraction as English writes it (16⅔, 7/9, 2 1/7)
    whole, rest = divmod(abs(value.numerator), value.denominator)
    tail = fmt(Fraction(rest, value.denominator))
    sign = MINUS if value < 0 else ""
    if not whole:
        return sign + tail
    head = format_decimal(whole, locale=loc)
    return sign + head + (tail if len(tail) == 1 else f" {tail}")


def price(value: Amount) -> str:
    """A price in money without its currency (a change of terms, a game without one): as a
    decimal, never as a fraction (``0.25``, Russian ``0,25``); a whole price as a whole number
    (``2``); only a price no decimal writes exactly keeps its fraction (``⅓``)."""
    value = norm(value)
    if isinstance(value, int):
        return number(value)
    denominator, places = value.denominator, 0
    while denominator % 10 == 0 or denominator % 2 == 0 or denominator % 5 == 0:
        if denominator % 10 == 0:
            denominator //= 10
        elif denominator % 2 == 0:
            denominator //= 2
        else:
            denominator //= 5
        places += 1
    if denominator != 1:
        return number(value)
    return number(value, "decimal", max(2, places))


def money(amount: Decimal, currency: str) -> str:
    """A sum of money already rounded to its unit: ``12.67 EUR`` in English (as always),
    ``−12,67 ₽`` / ``5,00 €`` in Russian (a currency Babel does not know keeps its code)."""
    if language() == DEFAULT:
        return f"{amount} {currency}".strip()
    from babel.numbers import format_currency, format_decimal

    loc = _babel_locale()
    places = max(0, -int(amount.as_tuple().exponent))
    pattern = "#,##0." + "0" * places if places else "#,##0"
    if currency.isascii() and currency.isalpha() and len(currency) == 3:
        text = format_currency(
            amount, currency.upper(), format=pattern + "\xa0¤", locale=loc, currency_digits=False
        )
        return _minus(text)
    text = format_decimal(amount, format=pattern, locale=loc)
    return _minus(f"{text}\xa0{currency}" if currency else text)


def day(when: date | datetime | str) -> str:
    """A date for people: ``2026-12-01`` in English (as stored), ``1 декабря 2026`` in
    Russian. A text that is no ISO date is returned as it is."""
    if isinstance(when, str):
        try:
            moment: date = datetime.fromisoformat(when)
        except ValueError:
            return when
    else:
        moment = when
    if language() == DEFAULT:
        return moment.strftime("%Y-%m-%d")
    from babel.dates import format_date

    return str(format_date(moment, "d MMMM y", locale=_babel_locale()))
