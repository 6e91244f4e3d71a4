"""Players' names in the Russian grammatical cases: «висты на Борю», «Аня платит Вере».

A Russian message asks for the case a name takes with a format spec on its placeholder::

    msgid  "whists on {player}"
    msgstr "висты на {player:acc}"

The codes are :data:`CASES`: ``nom`` (кто: Аня), ``gen`` (кого: Ани), ``dat`` (кому: Ане),
``acc`` (кого: Аню), ``ins`` (кем: Аней), ``pre`` (о ком: об Ане). :class:`Text` is the
``str`` the Russian catalog's messages come as (:func:`prefcalc.i18n._` and its siblings):
its ``.format()`` declines a value whose spec is a case code (:class:`CaseFormatter`), and the
views' reason formatter does the same for the scoring reasons (:func:`decline`).

The declension is pytrovich's (the petrovich rules for first names), imported on the first
name that needs a case, never in English. A name is declined only when it is one word of
Russian letters (or words joined by a hyphen: Анна-Мария), each of two letters at least; a
Latin name, a name with a digit, a space, a mark the eye cannot see or a letter of another
alphabet that looks Russian stays as it was typed, in every case, and so does a name the rules
do not know. The grammatical gender comes from the game the words are about (its ``genders``,
in force as :data:`genders_in_use` from the edge that speaks of it: :func:`prefcalc.i18n.voice`),
else from pytrovich's guess on the first name (Саша and Женя are open, and decline alike either
way); the guess is never stored.
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterable, Mapping
from contextvars import ContextVar
from functools import lru_cache
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:  # pragma: no cover
    from pytrovich.enums import Gender as _PGender

Case = Literal["nom", "gen", "dat", "acc", "ins", "pre"]
Gender = Literal["m", "f"]

CASES: tuple[Case, ...] = ("nom", "gen", "dat", "acc", "ins", "pre")
"""The case codes a Russian message writes on a name's placeholder: ``{player:dat}``."""

GENDERS: tuple[Gender, ...] = ("m", "f")

MAX_NAME = 40
"""A longer name is not declined (a player's name is short; this bounds the work)."""

_WORD = "[А-ЯЁа-яё]{2,}"
_DECLINABLE = re.compile(rf"{_WORD}(?:-{_WORD})*")
_HUSHING_INS = re.compile(r"([жшчщ])ой$")

GenderTable = Mapping[str, str] | Iterable[tuple[str, str]]
"""A game's ``genders`` as it is kept: name -> ``"m"``/``"f"``, or those pairs."""

_EMPTY: Mapping[str, Gender] = MappingProxyType({})

genders_in_use: ContextVar[Mapping[str, Gender]] = ContextVar("prefcalc_genders", default=_EMPTY)
"""The genders the names are declined by now (a :func:`gender_table`): set with the language,
at an edge, by :func:`prefcalc.i18n.voice` and :func:`prefcalc.i18n.speak`, never by hand;
each thread and task has its own."""


# --- gender ------------------------------------------------------------------------------------


def gender_table(table: GenderTable | None) -> Mapping[str, Gender]:
    """A game's ``genders`` (name -> ``"m"``/``"f"``, or its pairs) as the table names are
    declined by: a value other than ``m``/``f`` is left out (the guess then decides), and each
    name is found in another case too (``мишель`` in a refusal)."""
    clean: dict[str, Gender] = {
        name: value for name, value in dict(table or {}).items() if value in GENDERS and name
    }
    clean.update({name.casefold(): value for name, value in list(clean.items())})
    return MappingProxyType(clean) if clean else _EMPTY


def guess_gender(name: str) -> Gender | None:
    """The gender pytrovich reads in a first name (Боря: ``m``, Вера: ``f``); None when the
    name is open (Саша, Женя) or not one prefcalc declines."""
    if not declinable(name):
        return None
    return _guess(name)


@lru_cache(maxsize=1024)
def _guess(name: str) -> Gender | None:
    from pytrovich.enums import Gender as PGender

    found = _detector().detect(firstname=name)
    words: dict[Any, Gender] = {PGender.MALE: "m", PGender.FEMALE: "f"}
    return words.get(found)


def _given(name: str) -> Gender | None:
    """The gender the genders in use give ``name`` (as typed, or in another case)."""
    table = genders_in_use.get()
    return (table.get(name) or table.get(name.casefold())) if table else None


# --- declension --------------------------------------------------------------------------------


def declinable(name: str) -> bool:
    """Whether prefcalc declines ``name``: Russian letters only, two at least in each part."""
    return len(name) <= MAX_NAME and _DECLINABLE.fullmatch(name) is not None


def decline(name: str, case: str, gender: str | None = None) -> str:
    """``name`` in ``case`` (a code of :data:`CASES`): ``decline("Боря", "acc")`` -> Борю,
    ``decline("Любовь", "ins")`` -> Любовью. ``gender`` (``m``/``f``) overrides the genders
    in use and the guess. Anything prefcalc does not decline comes back as it is (an unknown
    case code too)."""
    if case == "nom" or case not in CASES or not declinable(name):
        return name
    given = gender if gender in GENDERS else _given(name)
    return _decline(name, case, given)


@lru_cache(maxsize=4096)
def _decline(name: str, case: Case, given: Gender | None) -> str:
    from pytrovich.enums import Case as PCase
    from pytrovich.enums import Gender as PGender
    from pytrovich.enums import NamePart

    codes = {
        "gen": PCase.GENITIVE,
        "dat": PCase.DATIVE,
        "acc": PCase.ACCUSATIVE,
        "ins": PCase.INSTRUMENTAL,
        "pre": PCase.PREPOSITIONAL,
    }
    if given is not None:
        pg: _PGender = PGender.FEMALE if given == "f" else PGender.MALE
        known = True
    else:
        pg, known = _detector().detect(firstname=name), False
    try:
        out = _maker().make(NamePart.FIRSTNAME, pg, codes[case], name, known_gender=known)
    except (KeyError, IndexError, ValueError, TypeError):  # a rule that does not fit: as typed
        return name
    if case == "ins" and name.endswith(("жа", "ша", "ча", "ща")):
        out = _HUSHING_INS.sub(r"\1ей", out)  # Серёжей, not Серёжой (the ending is unstressed)
    if name.isupper():
        out = out.upper()  # ВЕРА -> ВЕРЫ
    return out if _plausible(name, out) else name


def _plausible(name: str, out: str) -> bool:
    """A declined name keeps its first letter and at least two letters per part (Лев -> Льва);
    anything else means a rule did not fit, and the name stays as typed."""
    return (
        bool(out)
        and out[0] == name[0]
        and out.count("-") == name.count("-")
        and all(len(part) >= 2 for part in out.split("-"))
    )


@lru_cache(maxsize=1)
def _maker() -> Any:
    from pytrovich.maker import PetrovichDeclinationMaker

    return PetrovichDeclinationMaker()


@lru_cache(maxsize=1)
def _detector() -> Any:
    from pytrovich.detector import PetrovichGenderDetector

    return PetrovichGenderDetector()


# --- formatting --------------------------------------------------------------------------------

_MINUS = "\N{MINUS SIGN}"


class CaseFormatter(string.Formatter):
    """``str.format`` for Russian messages: ``{player:dat}`` declines the name given as
    ``player`` (a value that is no ``str`` is written as it is); ``{most:,}`` groups an integer
    the Russian way (``1 000 000 000``, minus sign); every other spec as ``str.format``."""

    def format_field(self, value: Any, format_spec: str) -> str:
        if format_spec in CASES:
            return decline(value, format_spec) if isinstance(value, str) else format(value)
        if format_spec == "," and isinstance(value, int) and not isinstance(value, bool):
            text = format(value, ",").replace(",", "\xa0")
            return _MINUS + text[1:] if value < 0 else text
        return str(super().format_field(value, format_spec))


FORMATTER = CaseFormatter()


class Text(str):
    """A Russian message: a ``str`` whose :meth:`format` and :meth:`format_map` understand the
    case codes (:class:`CaseFormatter`). Formatting gives a plain ``str``."""

    __slots__ = ()

    def format(self, /, *args: Any, **kwargs: Any) -> str:
        if ":" not in self:  # no spec at all: the built-in method, as fast as ever
            return str.format(self, *args, **kwargs)
        return FORMATTER.vformat(self, args, kwargs)

    def format_map(self, mapping: Mapping[str, Any]) -> str:  # type: ignore[override]
        if ":" not in self:
            return str.format_map(self, mapping)
        return FORMATTER.vformat(self, (), mapping)


def forms(names: Iterable[str]) -> dict[str, dict[str, str]]:
    """Each declinable name's forms in the cases (``{"Боря": {"gen": "Бори", ...}}``), by
    the genders in use: for a page whose script formats the messages itself."""
    return {
        name: {case: decline(name, case) for case in CASES[1:]}
        for name in names
        if declinable(name)
    }
