"""The language prefcalc speaks: which one, its words and its numbers.

Which language (the first that says): ``--lang ru|en``, ``PREFCALC_LANG``, then the locale
(``LC_ALL``, ``LC_MESSAGES``, ``LANG``: the first non-empty one wins, as POSIX has it;
``ru_RU.UTF-8`` is Russian, ``C``/``POSIX`` and anything else English). English is the default.

Words go through gettext: :func:`_`, :func:`ngettext` and :func:`pgettext` look a message up
in the compiled catalog of the language in use (``prefcalc/locale/ru/LC_MESSAGES/prefcalc.mo``),
read on first use and only for that language; English needs no catalog (the message ids are
the English text). A Russian message comes as a :class:`prefcalc.cases.Text`, whose
``.format()`` puts a name in the case its placeholder asks for (``висты на {player:acc}``). Numbers, money and dates are formatted by Babel in Russian, imported only
when a Russian number is formatted; in English they are written exactly as before.
"""

from __future__ import annotations

import gettext as _gettext
import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from datetime import date, datetime
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

from prefcalc.cases import Text
from prefcalc.errors import PrefcalcError, shown
from prefcalc.rules.amounts import Amount, fmt, norm

LANGUAGES = ("en", "ru")
"""The languages prefcalc speaks; the first is the default."""

DEFAULT = "en"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
DOMAIN = "prefcalc"
LOCALE_VARS = ("LC_ALL", "LC_MESSAGES", "LANG")

_chosen: str | None = None  # --lang, or the game's own language while its document is made
_catalogs: dict[str, _gettext.NullTranslations] = {}


# --- which language ----------------------------------------------------------------------------


def check_language(text: str, where: str = "--lang") -> str:
    """``ru``/``en`` (any case, or a locale name such as ``ru_RU.UTF-8``) -> the language;
    anything else is refused in one line."""
    lang = _from_locale(text)
    if lang is None:
        raise PrefcalcError(
            f"{where}: unknown language '{shown(text)}' (use {' or '.join(sorted(LANGUAGES))})"
        )
    return lang


def _from_locale(value: str) -> str | None:
    """The language of a locale name (``ru_RU.UTF-8`` -> ``ru``; ``C``, ``POSIX`` -> ``en``);
    None when it names a language prefcalc does not speak."""
    name = value.strip().split(".")[0].split("@")[0].replace("-", "_").lower()
    if name in ("c", "posix", ""):
        return DEFAULT
    lang = name.split("_")[0]
    return lang if lang in LANGUAGES else None


def from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The language the environment asks for: ``PREFCALC_LANG``, then the locale."""
    env = os.environ if environ is None else environ
    own = env.get("PREFCALC_LANG", "").strip()
    if own:
        return _from_locale(own) or DEFAULT
    for var in LOCALE_VARS:
        value = env.get(var, "").strip()
        if value:  # the first non-empty one decides, even when it is not a language we speak
            return _from_locale(value) or DEFAULT
    return DEFAULT


def check_environment(environ: Mapping[str, str] | None = None) -> None:
    """Refuse a ``PREFCALC_LANG`` naming a language prefcalc does not speak (the locale
    variables are the system's: an unknown one quietly means English)."""
    env = os.environ if environ is None else environ
    own = env.get("PREFCALC_LANG", "").strip()
    if own:
        check_language(own, "PREFCALC_LANG")


def set_language(lang: str | None) -> None:
    """Speak ``lang`` from now on (``--lang``); None: follow the environment again."""
    global _chosen
    _chosen = None if lang is None else check_language(lang)


def language() -> str:
    """The language in use: ``en`` or ``ru``."""
    return _chosen if _chosen is not None else from_environment()


@contextmanager
def speaking(lang: str | None) -> Iterator[None]:
    """Speak ``lang`` inside the block (a game's own language for its PDF); None: no change."""
    global _chosen
    before = _chosen
    if lang:
        _chosen = check_language(lang)
    try:
        yield
    finally:
        _chosen = before


# --- words -------------------------------------------------------------------------------------


def catalog(lang: str | None = None) -> _gettext.NullTranslations:
    """The translations of ``lang`` (default: the language in use), read once; English and a
    missing catalog translate nothing."""
    lang = lang or language()
    found = _catalogs.get(lang)
    if found is None:
        found = _load(lang)
        _catalogs[lang] = found
    return found


def _load(lang: str) -> _gettext.NullTranslations:
    if lang == DEFAULT:
        return _gettext.NullTranslations()
    path = LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"
    try:
        with path.open("rb") as handle:
            return _gettext.GNUTranslations(handle)
    except OSError:  # an installation without its catalogs still speaks English
        return _gettext.NullTranslations()


def N_(message: str) -> str:
    """Mark ``message`` for the catalog where it is defined once (a table of the module),
    untranslated: it is translated by :func:`_` where it is shown, in the language of then."""
    return message


def _(message: str) -> str:
    """``message`` in the language in use."""
    lang = language()
    return _cased(lang, catalog(lang).gettext(message))


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a message for ``n`` (Russian has three: 1 взятка, 2 взятки, 5 взяток)."""
    lang = language()
    return _cased(lang, catalog(lang).ngettext(singular, plural, n))


def pgettext(context: str, message: str) -> str:
    """``message`` in the language in use, told apart by ``context`` (``pass`` the role and
    ``pass`` the verb are different words in Russian)."""
    lang = language()
    return _cased(lang, catalog(lang).pgettext(context, message))


def npgettext(context: str, singular: str, plural: str, n: int) -> str:
    lang = language()
    return _cased(lang, catalog(lang).npgettext(context, singular, plural, n))


def _cased(lang: str, text: str) -> str:
    """English as the catalog gives it; a Russian message as a :class:`prefcalc.cases.Text`,
    whose ``.format()`` declines a name written ``{player:dat}``."""
    return text if lang == DEFAULT else Text(text)


# --- numbers, money and dates --------------------------------------------------------------------

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
