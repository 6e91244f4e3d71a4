"""A convention in words: every option's value as the reader says it (:func:`value_text`),
and ``prefcalc rules``, every option with its value and its meaning (:func:`rules_text`).

An option's value is shown in the reader's language with what a user types for it beside it,
as ``--set`` and a convention file take it: ``gentleman's (gentleman)``, «джентльменский
(gentleman)», «да (true)»; a number as it is typed in that language (``0.5``, «0,5»). The
workbook's rules sheet shows the same words.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from prefcalc.i18n import N_, _, language, pgettext
from prefcalc.rules.amounts import exact_text
from prefcalc.rules.conventions import OPTIONS, Convention
from prefcalc.views.text_kit import table

_CHOICES: dict[tuple[str, str], str] = {
    ("consolation", "price"): N_("whists per trick"),
    ("lone_whister", "greedy"): N_("greedy"),
    ("lone_whister", "gentleman"): N_("gentleman's"),
    ("two_whisters", "split"): N_("split"),
    ("two_whisters", "both"): N_("both pay"),
    ("two_whisters", "each"): N_("each for himself"),
    ("passes.scoring", "mountain"): N_("into the mountain"),
    ("passes.scoring", "whists"): N_("in whists"),
    ("passes.after_last", "hold"): N_("held"),
    ("passes.after_last", "arithmetic"): N_("arithmetic progression"),
    ("passes.after_last", "geometric"): N_("geometric progression"),
    ("passes.zero_bonus", "price"): N_("the deal's price"),
    ("passes.ties", "each"): N_("each in full"),
    ("passes.ties", "split"): N_("shared"),
    ("passes.ends_streak", "any"): N_("any contract"),
    ("passes.ends_streak", "whisted"): N_("a whisted one, played"),
    ("passes.ends_streak", "whisted_made"): N_("a whisted one, made"),
    ("closing", "each"): N_("each pool"),
    ("closing", "total"): N_("the pools' total"),
    ("closing", "average"): N_("by time, against the average"),
    ("help", "most"): N_("the most points"),
    ("help", "hole"): N_("the biggest hole"),
    ("help", "none"): N_("nobody"),
    ("bombs.order", "oldest"): N_("the oldest"),
    ("bombs.order", "declared"): N_("the declared one"),
    ("liability_after_close", "none"): N_("unchanged"),
}
"""What each word an option takes means (the word is what a user types; the meaning is told in
the option's own terms)."""


def value_text(key: str, value: Any) -> str:
    """The value of option ``key`` as the reader reads it, with what a user types for it
    beside it when that differs: ``yes (true)``, «жлобский (greedy)», ``1, 2, 4``, «0,5»."""
    if isinstance(value, bool):
        words = pgettext("option value", "yes") if value else pgettext("option value", "no")
        return _with_typed(words, str(value).lower())
    if isinstance(value, str):
        meaning = _CHOICES.get((key, value))
        return _with_typed(_(meaning), value) if meaning else value
    if isinstance(value, tuple | list):
        if not value:
            return _with_typed(pgettext("option value", "none"), "[]")
        return ", ".join(_typed_number(v) for v in value)
    if isinstance(value, int | Fraction):
        return _typed_number(value)
    return str(value)


def _with_typed(words: str, typed: str) -> str:
    return typed if words == typed else f"{words} ({typed})"


def _typed_number(value: int | Fraction) -> str:
    """A number as it is typed in the language in use: ``0.5`` / «0,5», ``5/3``."""
    text = exact_text(value)
    return text.replace(".", ",") if language() == "ru" else text


def rules_text(conv: Convention) -> str:
    """``prefcalc rules``: the convention's name and description, then every option's key,
    value (:func:`value_text`) and meaning."""
    from prefcalc.rules.conventions import preset_words

    description = preset_words(conv.description)
    lines = [preset_words(conv.name) + (f": {description}" if description else "")]
    rows = [[_("option"), _("value"), _("meaning")]]
    for option in OPTIONS:
        rows.append([option.key, value_text(option.key, conv.value(option.key)), _(option.doc)])
    lines += table(rows, right=[False, False, False])
    return "\n".join(lines)
