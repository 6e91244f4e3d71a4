"""The table's own words in the language in use: contracts, roles, columns, tricks.

Russian players write ``8БК`` for eight no-trumps, ``пуля``, ``гора``, ``висты``, ``вист``,
``пас``, ``полвиста``, ``распасы``, ``мизер``; English keeps the
words prefcalc has always printed (``8NT``, pool, mountain, whists, whist, pass...).
Every view names these things through here, so a word is translated once. The words of the
table's things that are also read back (the no-trump suit, the answers, misère, all-pass)
are the lexicon's (:func:`prefcalc.rules.lexicon.said`): what is printed here is read as
input in every language.
"""

from __future__ import annotations

from prefcalc.i18n import _, ngettext, pgettext
from prefcalc.rules.lexicon import said
from prefcalc.rules.model import SUIT_SYMBOLS, Role, Suit


def no_trumps() -> str:
    """The no-trump "suit" of a contract: ``NT`` / ``БК`` (без козыря)."""
    return said("suits", "nt")


def suit(s: Suit) -> str:
    """A suit as a symbol (♠ ♣ ♦ ♥), no trumps as ``NT`` / ``БК``."""
    return no_trumps() if s == "nt" else SUIT_SYMBOLS[s]


def contract(level: int, s: Suit) -> str:
    """A contract as players write it: ``7♥``, ``8NT`` / ``8БК``."""
    return f"{level}{suit(s)}"


def misere() -> str:
    """The misère: misère / мизер."""
    return said("kinds", "misere")


def all_pass() -> str:
    """The deal everybody passed: all-pass / распасы."""
    return said("kinds", "passes")


def role(r: Role, alone: bool = False) -> str:
    """A defender's answer in words: whist / вист, pass / пас, half-whist / полвиста,
    returned the whist / возврат виста; the lone defender of Gusarik who half-whists
    "leaves for his own tricks" / уходит на свои."""
    if alone and r == "h":
        return said("alone", "h")
    return said("roles", r)


def column(name: str) -> str:
    """A column of the sheet: pool / пуля, mountain / гора, whists / висты."""
    words = {
        "pool": pgettext("column", "pool"),
        "mountain": pgettext("column", "mountain"),
        "whists": pgettext("column", "whists"),
    }
    return words.get(name, name)


def into(column: str, on: str | None = None) -> str:
    """Where a write goes, after its amount: ``+4 pool`` / ``+4 в пулю``, ``+12 mountain`` /
    ``+12 в гору``, ``+12 whists on Anna`` / ``+12 висты на Аню``."""
    if column == "whists" and on:
        return whists_on(on)
    words = {
        "pool": pgettext("into", "pool"),
        "mountain": pgettext("into", "mountain"),
        "whists": pgettext("into", "whists"),
    }
    return words.get(column, column)


def whists_on(player: str) -> str:
    """Whists written on a player: ``whists on Anna`` / ``висты на Аню`` (the Russian asks
    for the accusative: :mod:`prefcalc.cases`)."""
    return _("whists on {player}").format(player=player)


def tricks(n: int) -> str:
    """``1 trick``, ``5 tricks``; ``1 взятка``, ``2 взятки``, ``5 взяток``."""
    return ngettext("{n} trick", "{n} tricks", n).format(n=n)


def deals(n: int) -> str:
    """``1 deal``, ``24 deals``; ``1 раздача``, ``2 раздачи``, ``24 раздачи``."""
    return ngettext("{n} deal", "{n} deals", n).format(n=n)


def whists(n: int) -> str:
    """``1 whist``, ``3 whists``; ``1 вист``, ``3 виста``, ``5 вистов``."""
    return ngettext("{n} whist", "{n} whists", n).format(n=n)


def convention_name(name: str) -> str:
    """A preset's name as the table calls it (Sochi / Сочинка); a house-rules name as
    written in its file."""
    words = {
        "Sochi": pgettext("convention", "Sochi"),
        "Leningrad": pgettext("convention", "Leningrad"),
        "Rostov": pgettext("convention", "Rostov"),
        "Classic": pgettext("convention", "Classic"),
        "FSPR": pgettext("convention", "FSPR"),
    }
    if name in words:
        return words[name]
    from prefcalc.rules.conventions import preset_words  # a house-rules file named by its preset

    return preset_words(name)
