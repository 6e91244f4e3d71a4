"""The table's words, in both languages: one table.

Everything a scorer types or reads for a thing of the table is here: the suits, the
defenders' answers (roles), the kinds of deal, the commands of a ``play`` line, the penalties,
the settlement's methods and roundings, and the genders of a name. The grammar
(:mod:`prefcalc.rules.notation`) reads by it, :func:`~prefcalc.rules.notation.describe`
writes by it, the commands (:mod:`prefcalc.commands`) and the completion offer from it,
:mod:`prefcalc.terms` prints the words of it that are said, and the pages are served it as
data (:func:`table_words`).

A thing has two kinds of word:

- **written**: the shorthand a scorer types and prefcalc writes back (:data:`WRITTEN`:
  ``7h``/``7ч``, ``w``/``в``, ``game``/``игра``, ``undo``/``отмена``), the grammar's own, held
  here as data for each language, with the other spellings a table uses (:data:`ALSO`:
  ``пики``, ``♠``, ``распас``);
- **said**: the words prefcalc prints for the same things (``whist``/``вист``,
  ``all-pass``/``распасы``, ``NT``/``БК``, ``by the average``/``по средней``): messages of the
  catalog (:func:`said`), looked up in every language when a word is read, so that whatever
  prefcalc prints is read back.

Every word is read in both languages whatever the language in use, in any case, with ё as е
and without its hyphens and spaces (``Half-Whist``, ``ПАС``, ``по средней``): :func:`fold`.
A base module of the rules: it imports only the catalog (:mod:`prefcalc.i18n`) and the
errors, so that the grammar and every layer above may read by it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, cast, get_args

from prefcalc.errors import DealError, shown
from prefcalc.i18n import LANGUAGES, _, catalog, language

if TYPE_CHECKING:
    from gettext import NullTranslations

    from prefcalc.cases import Gender
    from prefcalc.rules.model import Offence, Role, Suit

Method = Literal["pairwise", "average"]
"""How a night is settled (docs/rules.md §5.3-§5.4): method 1, pairwise (whists on each other),
or method 2, the average mountain."""
Rounding = Literal["exact", "whole"]
"""Exact whists, or the paper's whole whists where each method rounds (docs/rules.md §5.5)."""

METHODS: tuple[Method, ...] = get_args(Method)
ROUNDINGS: tuple[Rounding, ...] = get_args(Rounding)

Category = Literal[
    "suits", "roles", "kinds", "commands", "penalties", "terms", "methods", "roundings",
    "genders",
]  # fmt: skip

WRITTEN: dict[Category, dict[str, dict[str, str]]] = {
    "suits": {
        "en": {"s": "s", "c": "c", "d": "d", "h": "h", "nt": "nt"},
        # пики, трефы, бубны, черви, без козыря
        "ru": {"s": "п", "c": "т", "d": "б", "h": "ч", "nt": "бк"},
    },
    "roles": {
        "en": {"w": "w", "p": "p", "h": "h", "r": "r"},
        # вист, пас, полвиста, вернул (вист)
        "ru": {"w": "в", "p": "п", "h": "пв", "r": "вернул"},
    },
    "kinds": {
        "en": {
            "game": "game", "misere": "misere", "passes": "passes", "adjust": "adjust",
            "penalty": "penalty", "join": "join", "preference": "preference", "set": "set",
        },
        "ru": {
            "game": "игра", "misere": "мизер", "passes": "распасы", "adjust": "поправка",
            "penalty": "штраф", "join": "посадка", "preference": "преферанс",
        },
    },
    "commands": {
        "en": {
            "undo": "undo", "redo": "redo", "insert": "insert", "edit": "edit",
            "delete": "delete", "show": "show", "log": "log", "settle": "settle",
            "explain": "explain", "player": "player", "help": "help", "quit": "quit",
        },
        "ru": {
            "undo": "отмена", "redo": "вернуть", "insert": "вставить", "edit": "исправить",
            "delete": "удалить", "show": "лист", "log": "журнал", "settle": "расчёт",
            "explain": "почему", "player": "пол", "help": "помощь", "quit": "выход",
        },
    },
    "penalties": {
        "en": {
            "peek": "peek", "dealing": "dealing", "illegal": "illegal", "cards": "cards",
            "miscount": "miscount", "entry": "entry", "trick": "trick",
        },
        "ru": {
            "peek": "прикуп", "dealing": "сдача", "illegal": "недопустимая", "cards": "карты",
            "miscount": "розыгрыш", "entry": "запись", "trick": "взятка",
        },
    },
    "terms": {
        "en": {"target": "target", "whist_price": "whist_price"},
        "ru": {"target": "пуля", "whist_price": "цена"},
    },
    "methods": {
        "en": {"pairwise": "pairwise", "average": "average"},
        "ru": {"pairwise": "попарно", "average": "средняя"},
    },
    "roundings": {
        "en": {"exact": "exact", "whole": "whole"},
        "ru": {"exact": "точно", "whole": "целые"},
    },
    "genders": {
        "en": {"f": "f", "m": "m", "auto": "auto"},
        "ru": {"f": "ж", "m": "м", "auto": "авто"},
    },
}  # fmt: skip
"""The shorthand of each thing in each language: what a scorer types and what prefcalc writes
back (:func:`written`). Each is read in every language."""

ALSO: dict[Category, dict[str, str]] = {
    "suits": {
        "♠": "s", "♤": "s", "♣": "c", "♧": "c", "♦": "d", "♢": "d", "♥": "h", "♡": "h",
        "n": "nt", "notrump": "nt", "notrumps": "nt",
        "spades": "s", "clubs": "c", "diamonds": "d", "hearts": "h",
        "пик": "s", "пики": "s", "треф": "c", "трефы": "c",
        "бубен": "d", "бубны": "d", "буби": "d", "черв": "h", "черви": "h",
        "б/к": "nt", "безкозыря": "nt", "бескозырка": "nt",
    },
    "roles": {
        "returned": "r", "вернулвист": "r", "возврат": "r",
    },
    "kinds": {
        "распас": "passes", "рас": "passes", "allpass": "passes", "allpasses": "passes",
        "adjustment": "adjust", "поправку": "adjust", "поправки": "adjust", "попр": "adjust",
    },
    "commands": {"exit": "quit", "q": "quit", "?": "help"},
    "penalties": {},
    "terms": {"ценависта": "whist_price"},
    "methods": {
        "попарный": "pairwise", "попарная": "pairwise", "средней": "average",
        "средний": "average", "посредней": "average", "посреднейгоре": "average",
    },
    "roundings": {
        "точный": "exact", "точное": "exact", "целыми": "whole", "вцелых": "whole",
        "доцелых": "whole",
    },
    "genders": {
        "female": "f", "жен": "f", "женский": "f", "male": "m", "муж": "m", "мужской": "m",
        "-": "auto",
    },
}  # fmt: skip
"""Other spellings a table uses, in either language (folded: :func:`fold`)."""


SHORT_KINDS: dict[str, str] = {
    "m": "misere", "м": "misere",
    "p": "passes", "р": "passes", "рас": "passes",
}  # fmt: skip
"""At the start of a ``play`` line ``m``/``м`` always mean misère and ``p``/``р``/``рас``
passes (``мизер`` and ``распасы`` are kinds anyway): a player whose name starts with M, P, М
or Р is written there with one more letter (``ма 7ч 7 п:в в:п`` for Маша)."""


def fold(word: str) -> str:
    """``word`` as the table's words are compared: in any case, ё as е, è as e, without
    hyphens, spaces or underscores (``Half-Whist`` is ``halfwhist``, ``ПАС`` is ``пас``,
    ``по средней`` is ``посредней``); a word of only such marks (``-``) is kept."""
    text = word.strip().casefold().replace("ё", "е").replace("è", "e")
    bare = text.replace("-", "").replace(" ", "").replace("_", "")
    return bare or text


def _index(category: Category) -> dict[str, str]:
    found: dict[str, str] = {}
    for words in WRITTEN[category].values():
        for key, word in words.items():
            found.setdefault(fold(word), key)
            found.setdefault(fold(key), key)
    for word, key in ALSO[category].items():
        found.setdefault(fold(word), key)
    return found


_READ: dict[Category, dict[str, str]] = {category: _index(category) for category in WRITTEN}
"""Every written spelling of each category, folded, to the thing it names."""


# --- the words prefcalc says -------------------------------------------------------------------


def _said_words(t: NullTranslations) -> dict[str, dict[str, str]]:
    """The words prefcalc prints for the table's things in the language of ``t`` (the
    catalog's messages: :mod:`prefcalc.terms` prints them)."""
    return {
        "suits": {"nt": t.pgettext("contract", "NT")},
        "roles": {
            "w": t.pgettext("role", "whist"),
            "p": t.pgettext("role", "pass"),
            "h": t.pgettext("role", "half-whist"),
            "r": t.pgettext("role", "returned the whist"),
        },
        # Gusarik: the lone defender who half-whists "leaves for his own tricks"
        "alone": {"h": t.pgettext("role", "left for own tricks")},
        "kinds": {
            "misere": t.pgettext("contract", "misère"),
            "passes": t.pgettext("deal", "all-pass"),
        },
        "methods": {
            "pairwise": t.pgettext("method", "pairwise"),
            "average": t.pgettext("method", "average"),
        },
        "roundings": {
            "exact": t.pgettext("rounding", "exact"),
            "whole": t.pgettext("rounding", "whole"),
        },
    }


_SAID: dict[str, dict[str, dict[str, str]]] = {}
""":func:`_said_words` by language, made on first use (a language's catalog is read once and
never changes while prefcalc runs; two threads making it at once make the same value)."""


def _said_in(lang: str) -> dict[str, dict[str, str]]:
    found = _SAID.get(lang)
    if found is None:
        found = _SAID[lang] = _said_words(catalog(lang))
    return found


def said(category: str, key: str) -> str:
    """The word prefcalc prints for ``key`` of ``category`` in the language in use:
    ``said("roles", "w")`` is ``whist`` / ``вист``, ``said("kinds", "passes")`` is
    ``all-pass`` / ``распасы``, ``said("alone", "h")`` is Gusarik's ``left for own tricks`` /
    ``уходит на свои``."""
    return _said_in(language())[category][key]


_HEARD: dict[str, dict[str, str]] = {}
"""The said words of every language, folded, to the thing they name (made on first miss)."""


_SAID_CATEGORIES = frozenset({"suits", "roles", "kinds", "methods", "roundings"})
"""The categories that have said words (the others are only written)."""


def _heard(category: str) -> dict[str, str]:
    if category not in _SAID_CATEGORIES:
        return {}
    if not _HEARD:
        heard: dict[str, dict[str, str]] = {}
        for lang in LANGUAGES:
            for group, words in _said_in(lang).items():
                into = "roles" if group == "alone" else group
                for key, word in words.items():
                    heard.setdefault(into, {}).setdefault(fold(word), key)
        _HEARD.update(heard)
    return _HEARD.get(category, {})


# --- reading -----------------------------------------------------------------------------------


def read(category: Category, word: str) -> str | None:
    """The thing of ``category`` that ``word`` names, in either language, written or said
    (``read("roles", "вист")`` is ``w``); None when it names none."""
    folded = fold(word)
    found = _READ[category].get(folded)
    if found is None:
        found = _heard(category).get(folded)
    return found


def suit_of(word: str) -> Suit | None:
    """The suit ``word`` names: ``h``, ``ч``, ``♥``, ``черви``; ``nt``, ``бк``, ``NT``, ``БК``."""
    return cast("Suit | None", read("suits", word))


def role_of(word: str) -> Role | None:
    """The answer ``word`` names: ``w``/``в``/``whist``/``вист``, ``p``/``п``/``pass``/``пас``,
    ``h``/``пв``/``half-whist``/``полвиста``, ``r``/``вернул``/``returned``."""
    return cast("Role | None", read("roles", word))


def kind_of(word: str) -> str | None:
    """The kind of deal ``word`` names (``мизер``, ``misère`` -> ``misere``; ``распасы``,
    ``all-pass`` -> ``passes``; ``поправка`` -> ``adjust``), or None."""
    return read("kinds", word)


def command_of(word: str) -> str | None:
    """The command of a ``play`` line ``word`` names (``отмена`` -> ``undo``, ``расчет`` ->
    ``settle``, ``q`` -> ``quit``), or None."""
    return read("commands", word)


def penalty_of(word: str) -> Offence | Literal["trick"] | None:
    """The offence ``word`` names (``прикуп`` -> ``peek``), or None."""
    return cast("Offence | Literal['trick'] | None", read("penalties", word))


def parse_method(text: str) -> Method:
    """The settlement method ``text`` names, in either language (``pairwise``, ``попарно``;
    ``average``, ``средняя``, ``по средней``); refused in one line else. The one reader of a
    method: the CLI's ``--method``, ``play``'s ``расчёт``, the pages' and the app's settle."""
    found = read("methods", text) if isinstance(text, str) else None
    if found is None:
        raise DealError(
            _("unknown method '{method}' (use pairwise or average)").format(method=shown(str(text)))
        )
    return cast("Method", found)


def parse_rounding(text: str) -> Rounding:
    """The rounding ``text`` names, in either language (``exact``, ``точно``; ``whole``,
    ``целые``); refused in one line else."""
    found = read("roundings", text) if isinstance(text, str) else None
    if found is None:
        raise DealError(
            _("unknown rounding '{rounding}' (use exact or whole)").format(
                rounding=shown(str(text))
            )
        )
    return cast("Rounding", found)


def parse_gender(text: str) -> Gender | None:
    """The gender ``text`` gives, in either language: ``m`` (``m``, ``male``, ``м``, ``муж``,
    ``мужской``), ``f`` (``f``, ``female``, ``ж``, ``жен``, ``женский``), or None for the guess
    by the name (``auto``, ``авто``, ``-``); refused in one line else."""
    found = read("genders", text)
    if found is None:
        raise DealError(
            _("unknown gender '{word}' (use f or m, or auto for the guess by the name)").format(
                word=shown(text)
            )
        )
    return None if found == "auto" else cast("Gender", found)


# --- writing -----------------------------------------------------------------------------------


def written(category: Category, key: str, lang: str | None = None) -> str:
    """The shorthand of ``key`` in ``lang`` (None: the language in use): ``written("suits",
    "h")`` is ``h`` / ``ч``; a thing without a word of that language keeps its English one."""
    words = WRITTEN[category]
    return words.get(lang or language(), {}).get(key) or words["en"][key]


def words_of(category: Category, lang: str) -> tuple[str, ...]:
    """The shorthand of every thing of ``category`` in ``lang`` (what the completion offers)."""
    english = WRITTEN[category]["en"]
    return tuple(written(category, key, lang) for key in english)


def table_words() -> dict[str, dict[str, str]]:
    """The table's words in the language in use, as the pages read them (``WORDS.table``): the
    suits, the answers, the three kinds of deal a page builds and the commands of a line,
    each by its key: ``{"suits": {"s": "п", ...}, "roles": {"w": "в", ...}, "kinds": {"game":
    "игра", ...}, "commands": {"edit": "исправить", ...}}``. A line a page builds of them is
    read by the grammar like a typed one."""
    lang = language()
    kinds = ("game", "misere", "passes")
    return {
        "suits": {key: written("suits", key, lang) for key in WRITTEN["suits"]["en"]},
        "roles": {key: written("roles", key, lang) for key in WRITTEN["roles"]["en"]},
        "kinds": {key: written("kinds", key, lang) for key in kinds},
        "commands": {key: written("commands", key, lang) for key in WRITTEN["commands"]["en"]},
    }
