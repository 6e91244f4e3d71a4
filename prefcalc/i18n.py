"""The language prefcalc speaks: which one, its words and its numbers.

Which language (the first that says): the voice an edge entered (``--lang ru|en`` for a
command, the table's language for a request of ``serve``, the page's for a call of the app's
engine, a game's own for its documents), ``PREFCALC_LANG``, then the locale (``LC_ALL``,
``LC_MESSAGES``, ``LANG``: the first non-empty one wins, as POSIX has it; ``ru_RU.UTF-8`` is
Russian, ``C``/``POSIX`` and anything else English). English is the default.

**The voice** is who is speaking and of whom: the language and the genders the players' names
are declined by (a game's ``genders``). Both are context variables, so each thread and each
task has its own (two tables of ``serve --tournament`` answer at once, each in its voice).
An edge enters it once, :func:`voice`, around all it does: a command of the CLI, a request
of ``serve`` (the hall's and each table's), a line of ``play``, a call of the app's engine,
an operation of the table service (:class:`prefcalc.table.service.Service`). What the edge
learns once it has begun (the game a command loads, the game as a line left it) it says with
:func:`speak`, for the rest of its voice. Nothing below the edges takes a language or sets
the genders: views and rules call :func:`_` and format names, and the voice in force decides.
Words of another language than the one in use (a document in a game's own language) are made
by entering that voice.

Words go through gettext: :func:`_`, :func:`ngettext` and :func:`pgettext` look a message up
in the compiled catalog of the language in use (``prefcalc/locale/ru/LC_MESSAGES/prefcalc.mo``),
read on first use and only for that language; English needs no catalog (the message ids are
the English text). A Russian message comes as a :class:`prefcalc.cases.Text`, whose
``.format()`` puts a name in the case its placeholder asks for (``висты на {player:acc}``).
:func:`did_you_mean` is the one suggestion made for a mistyped word.

A base module: it imports nothing of prefcalc but :mod:`prefcalc.errors` and
:mod:`prefcalc.cases` (itself a base module), so that every layer may speak (the rules
included). Numbers, money and dates in the language in use are the views'
(:mod:`prefcalc.views.numbers`).
"""

from __future__ import annotations

import gettext as _gettext
import os
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

from prefcalc.cases import GenderTable, Text, gender_table, genders_in_use
from prefcalc.errors import PrefcalcError, shown

LANGUAGES = ("en", "ru")
"""The languages prefcalc speaks; the first is the default."""

DEFAULT = "en"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
DOMAIN = "prefcalc"
LOCALE_VARS = ("LC_ALL", "LC_MESSAGES", "LANG")

_spoken: ContextVar[str | None] = ContextVar("prefcalc_lang", default=None)
"""The language of the voice in force (None: the environment's)."""
_voiced: ContextVar[bool] = ContextVar("prefcalc_voiced", default=False)
"""Whether a voice is in force (:func:`speak` changes only one that is)."""
_catalogs: dict[str, _gettext.NullTranslations] = {}


# --- which language ----------------------------------------------------------------------------


def check_language(text: str, where: str = "--lang") -> str:
    """``ru``/``en`` (any case, or a locale name such as ``ru_RU.UTF-8``) -> the language;
    anything else is refused in one line."""
    lang = _from_locale(text)
    if lang is None:
        raise PrefcalcError(
            _("{where}: unknown language '{text}' (use {languages})").format(
                where=where, text=shown(text), languages=_(" or ").join(sorted(LANGUAGES))
            )
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


def language() -> str:
    """The language in use: ``en`` or ``ru`` (the voice's, else the environment's)."""
    return _spoken.get() or from_environment()


@contextmanager
def voice(lang: str | None = None, genders: GenderTable | None = None) -> Iterator[None]:
    """Speak ``lang`` (``ru``/``en``, or a locale name: checked as ``--lang`` is) and decline
    the names by ``genders`` (a game's: name -> ``m``/``f``) inside the block; None leaves
    either as it is. The one entry of an edge (see the module's description); inside it,
    :func:`speak` changes either until the block ends. Nests; each thread and task has its
    own."""
    said = check_language(lang) if lang else _spoken.get()
    table = gender_table(genders) if genders is not None else genders_in_use.get()
    tokens = (_spoken.set(said), genders_in_use.set(table), _voiced.set(True))
    try:
        yield
    finally:
        _voiced.reset(tokens[2])
        genders_in_use.reset(tokens[1])
        _spoken.reset(tokens[0])


def speak(lang: str | None = None, genders: GenderTable | None = None) -> None:
    """From here to the end of the voice in force, speak ``lang`` and decline the names by
    ``genders`` (None: either as it is): what an edge learns once it has begun (the game a
    command loads, the game as a line left it, a new game's own language). Only inside a
    :func:`voice` (whose end undoes it): outside one it is a mistake of the program."""
    if not _voiced.get():
        raise RuntimeError("prefcalc.i18n.speak outside a voice: the edge enters one first")
    if lang:
        _spoken.set(check_language(lang))
    if genders is not None:
        genders_in_use.set(gender_table(genders))


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


def _cased(lang: str, text: str) -> str:
    """English as the catalog gives it; a Russian message as a :class:`prefcalc.cases.Text`,
    whose ``.format()`` declines a name written ``{player:dat}``."""
    return text if lang == DEFAULT else Text(text)


def did_you_mean(word: str, choices: Sequence[str]) -> str:
    """`` (did you mean show?)``: the closest of ``choices`` to a mistyped ``word``, or
    ``""``. The one suggestion every front end makes (commands, options, a deal's options)."""
    import difflib

    close = difflib.get_close_matches(word, choices, n=1, cutoff=0.5)
    if not close:
        return ""
    return _(" (did you mean {word}?)").format(word=close[0])
