"""A deal as ``log`` prints it, read back: what prefcalc writes for a deal is a line it reads.

``prefcalc log`` (and ``журнал`` in ``play``) shows each deal in words, in the language in
use: ``Anna 7♥ took 7; Boris whist, Vera pass``, ``Аня 7♥: 7 взяток; Боря вист, Вера пас``,
``Vera misère, took 0``, ``распасы: Аня 2, Боря 5, Вера 3 (Аня втёмную)``, with the Classic
flags in brackets (``(dark, bomb ×4)``), a trick lost for looking at an old one after a
``;`` and a deal recorded against the rules marked ``(forced)``. :func:`log_words` turns such
a line, in either language whatever the language in use, into the shorthand's words
(``["game", "Anna", "7♥", "7", "Boris:w", "Vera:p"]``), which the one grammar
(:mod:`prefcalc.rules.notation`) then reads like a typed line: nothing is judged here.

The patterns are made of the log's own messages in each language (the catalog's), so a line
reads back as long as it is printed by them; the words inside (the answers, the kinds, the
suits) are the lexicon's. A change of terms, a late arrival and the Preference combination
read back too; an adjustment and a penalty do not (their amounts are not in the line).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache

from prefcalc.i18n import LANGUAGES, catalog
from prefcalc.rules import lexicon

Words = list[str]

# The messages of the log's lines (as the views write them), by what they say.
_CONTRACT_PLAYED = "{declarer} {contract}{flags} took {n}; {answers}"
_CONTRACT_NOT_PLAYED = "{declarer} {contract}{flags} not played; {answers}"
_MISERE = "{declarer} misère{flags}, took {n}"
_ALL_PASS = "all-pass: {tricks}"
_BLIND = "{players} blind"
_LOSES = "{player} loses a trick: {offence}"
_TAKES = "{player} takes a trick more: {offence}"
_LOOKED_OFFENCE = "looking at a trick other than the last (Code 3.9.11.2)"
_FORCED = "forced"
_FLAGS = {
    "--dark": "dark",
    "--no-talon": "no talon",
    "--bomb": "bomb ×{factor}",
    "--talon": "talon {tricks}",
    "--returned-by": "whist returned by {player}",
}
_TARGET = "target set to {value}"
_PRICE = "whist price set to {value}"
_PREFERENCE = "{player} declares the Preference combination: the game ends"
_JOIN_AFTER = "{player} joins the game, after {after}"
_JOIN_LAST = "{player} joins the game, in the last seat"

_FIELD = re.compile(r"\{(\w+)(?::(\w+))?\}")
_GROUPS = {
    "contract": r"\d+\S+",
    "n": r"\d+",
    "tricks": r"\d+(?:\s+\S+)?",  # 7, or 7 взяток (the Russian says the word)
    "factor": r"\d+",
    "flags": r"(?:\s\([^()]*\))?",
    "value": r"\S+(?:\s\d{3})*",  # 30, 0,5, 1 000
}


def _pattern(template: str, wide: frozenset[str] = frozenset()) -> re.Pattern[str]:
    """A log message as a pattern: its words as they are, each ``{field}`` (``{player:dat}``
    too) a named group; a name is anything, as short as the rest allows; a ``wide`` field
    anything at all (the all-pass deal's list of tricks)."""
    out = ""
    at = 0
    seen: set[str] = set()
    for match in _FIELD.finditer(template):
        out += re.escape(template[at : match.start()])
        name = match.group(1)
        if name in seen:
            out += f"(?P={name})"
        else:
            seen.add(name)
            inside = ".+" if name in wide else _GROUPS.get(name, ".+?")
            out += f"(?P<{name}>{inside})"
        at = match.end()
    out += re.escape(template[at:])
    return re.compile(out, re.IGNORECASE)


@cache
def _said(lang: str, message: str) -> str:
    return catalog(lang).gettext(message)


def _patterns(
    message: str, wide: frozenset[str] = frozenset()
) -> list[tuple[str, re.Pattern[str]]]:
    """``message`` as a pattern in every language (each once), with the case its name
    placeholders ask for there (the Russian looked clause declines the name)."""
    found: dict[str, tuple[str, re.Pattern[str]]] = {}
    for lang in LANGUAGES:
        text = _said(lang, message)
        found.setdefault(text, (text, _pattern(text, wide)))
    return list(found.values())


def _case_of(template: str, field: str) -> str | None:
    for match in _FIELD.finditer(template):
        if match.group(1) == field:
            return match.group(2)
    return None


def _match(
    message: str, text: str, wide: frozenset[str] = frozenset()
) -> tuple[str, re.Match[str]] | None:
    """The first language whose ``message`` is the whole of ``text``."""
    for template, pattern in _patterns(message, wide):
        found = pattern.fullmatch(text)
        if found:
            return template, found
    return None


def _tail(message: str, text: str, fill: dict[str, str]) -> tuple[str, re.Match[str]] | None:
    """``message`` (with ``fill``'s fields given) as the last ``; ``-clause of ``text``."""
    for lang in LANGUAGES:
        template = _said(lang, message)
        known = template
        for key, value in fill.items():
            known = known.replace("{" + key + "}", _said(lang, value))
        pattern = re.compile(r"(?P<head>.*); " + _pattern(known).pattern, re.IGNORECASE)
        found = pattern.fullmatch(text)
        if found:
            return template, found
    return None


def log_words(text: str, players: Sequence[str]) -> Words | None:
    """The shorthand's words of a deal written as ``log`` prints it (``Anna 7♥ took 7;
    Boris whist, Vera pass`` -> ``["game", "Anna", "7♥", "7", "Boris:w", "Vera:p"]``), in
    either language; None when ``text`` is not such a line. ``players`` (the seating) find
    the names: a name in the line may have spaces, or be declined (``Вере добавляется
    взятка``)."""
    text = " ".join(text.split())
    if not _looks_said(text):
        return None
    tail: Words = []
    for lang in LANGUAGES:
        mark = f" ({_said(lang, _FORCED)})"
        if text.lower().endswith(mark.lower()):
            text = text[: -len(mark)]
            tail.append("--force")
            break
    looked: list[str] = []
    while True:
        clause = _tail(_LOSES, text, {"offence": _LOOKED_OFFENCE}) or _tail(
            _TAKES, text, {"offence": _LOOKED_OFFENCE}
        )
        if clause is None:
            break
        template, found = clause
        looked.insert(0, _name(found.group("player"), players, _case_of(template, "player")))
        text = found.group("head")
    if looked:
        tail += ["--looked", ",".join(looked)]
    for read in (_contract, _misere, _all_pass, _terms, _seat):
        words = read(text, players)
        if words is not None:
            return words + tail
    return None


def _looks_said(text: str) -> bool:
    """Whether ``text`` may be a line in words (a cheap test before the catalogs are read):
    it has the marks the log writes between its parts and the shorthand never does, or it
    is words without the shorthand's ``:`` and ``=`` (``target set to 30``)."""
    if any(mark in text for mark in ("; ", ", ", ": ", " (")):
        return True
    return ":" not in text and "=" not in text and len(text.split()) >= 4


def _contract(text: str, players: Sequence[str]) -> Words | None:
    played = _match(_CONTRACT_PLAYED, text)
    found = played or _match(_CONTRACT_NOT_PLAYED, text)
    if found is None:
        return None
    _template, match = found
    groups = match.groupdict()
    tricks = _number(groups.get("n") or groups.get("tricks") or "") if played else "-"
    answers = []
    for answer in match.group("answers").split(", "):
        word = _answer(answer, players)
        if word is None:
            return None
        answers.append(word)
    declarer = _name(match.group("declarer"), players)
    flags = _flags(match.group("flags"), players)
    if flags is None:
        return None
    return ["game", declarer, match.group("contract"), tricks, *answers, *flags]


def _misere(text: str, players: Sequence[str]) -> Words | None:
    found = _match(_MISERE, text)
    if found is None:
        return None
    _template, match = found
    groups = match.groupdict()
    tricks = _number(groups.get("n") or groups.get("tricks") or "")
    flags = _flags(match.group("flags"), players)
    if flags is None:
        return None
    return ["misere", _name(match.group("declarer"), players), tricks, *flags]


def _all_pass(text: str, players: Sequence[str]) -> Words | None:
    blind: list[str] = []
    for lang in LANGUAGES:
        said = _said(lang, _BLIND)
        pattern = re.compile(r"(?P<head>.*) \(" + _pattern(said).pattern + r"\)", re.IGNORECASE)
        found = pattern.fullmatch(text)
        if found:
            text = found.group("head")
            blind = [_name(name, players) for name in found.group("players").split(", ")]
            break
    found_all = _match(_ALL_PASS, text, frozenset({"tricks"}))
    if found_all is None:
        return None
    tricks = []
    for item in found_all[1].group("tricks").split(", "):
        name, _space, count = item.rpartition(" ")
        if not name or not count.isdigit():
            return None
        tricks.append(f"{_name(name, players)}={count}")
    return ["passes", *tricks, *(["--blind", ",".join(blind)] if blind else [])]


def _terms(text: str, _players: Sequence[str]) -> Words | None:
    for message, key in ((_TARGET, "target"), (_PRICE, "whist_price")):
        found = _match(message, text)
        if found:
            return ["set", f"{key}={found[1].group('value').replace(' ', '')}"]
    return None


def _seat(text: str, players: Sequence[str]) -> Words | None:
    found = _match(_PREFERENCE, text)
    if found:
        return ["preference", _name(found[1].group("player"), players)]
    found = _match(_JOIN_AFTER, text)
    if found:
        after = _name(found[1].group("after"), players, _case_of(found[0], "after"))
        return ["join", found[1].group("player"), "--after", after]
    found = _match(_JOIN_LAST, text)
    if found:
        return ["join", found[1].group("player")]
    return None


def _flags(text: str, players: Sequence[str]) -> Words | None:
    """The Classic flags in words (`` (dark, bomb ×4)``) as the shorthand's (``--dark``,
    ``--bomb 4``); [] for none; None when a part is none of them."""
    inside = text.strip()[1:-1] if text.strip() else ""
    out: Words = []
    for part in filter(None, inside.split(", ")):
        for flag, message in _FLAGS.items():
            found = _match(message, part)
            if found is None:
                continue
            template, match = found
            values = match.groupdict()
            if "player" in values:
                out += [flag, _name(values["player"], players, _case_of(template, "player"))]
            elif values:
                out += [flag, _number(next(iter(values.values())))]
            else:
                out.append(flag)
            break
        else:
            return None
    return out


def _answer(text: str, players: Sequence[str]) -> str | None:
    """``Boris whist 3`` -> ``Boris:w3``, ``Вера пас`` -> ``Вера:p``, ``Tomás уходит на
    свои`` -> ``Tomás:h``: a name at the table, the answer's words, a whister's tricks."""
    name = _leading_name(text, players)
    if name is None:
        return None
    rest = text[len(name) :].strip()
    role_words, _space, number = rest.rpartition(" ")
    if not (number.isdigit() and role_words):
        role_words, number = rest, ""
    role = lexicon.role_of(role_words)
    if role is None:
        return None
    return f"{players_name(name, players)}:{role}{number}"


def _leading_name(text: str, players: Sequence[str]) -> str | None:
    """The start of ``text`` that is a name at the table (the longest), or its first word."""
    folded = text.casefold()
    starts = [p for p in players if folded.startswith(p.casefold() + " ")]
    if starts:
        return text[: len(max(starts, key=len))]
    first, _space, _rest = text.partition(" ")
    return first or None


def players_name(text: str, players: Sequence[str]) -> str:
    """A name as the line writes it, as the table spells it when it is one of the players
    (the grammar resolves it, and refuses an unknown one, in its own words)."""
    for player in players:
        if player.casefold() == text.casefold():
            return player
    return text


def _name(text: str, players: Sequence[str], case: str | None = None) -> str:
    """A name of the line: a player as typed, or declined in ``case`` (``Вере`` is Вера
    in the dative); else the text as it is, for the grammar to judge."""
    text = text.strip()
    exact = players_name(text, players)
    if exact != text or case in (None, "nom"):
        return exact
    from prefcalc.cases import GENDERS, decline

    for player in players:
        for gender in (None, *GENDERS):
            if decline(player, case, gender).casefold() == text.casefold():
                return player
    return text


def _number(text: str) -> str:
    """The number at the start of ``7`` or ``7 взяток``."""
    return text.split()[0] if text.split() else text
