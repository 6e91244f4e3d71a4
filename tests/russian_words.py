"""What a Russian reader should never find in prefcalc's output: a Latin word that is not
something he types.

:func:`latin_words` lists the Latin words of a text that are not :func:`typed` words: the
program's commands and options, the options' keys and values of a convention file, the
shorthand's Latin letters (``7h``, ``w3``), file names and addresses, and a few names no
language translates (JSON, PDF, EUR...). Everything else Latin under ``--lang ru`` is
English left in Russian. The pages' tests may use it too.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache
from typing import Any

NAMES = frozenset(
    {
        "prefcalc",  # the program
        "prefcalc_lang",  # its variables of the environment
        "prefcalc_file",
        "json",  # formats and the standards they are named by
        "schema",  # "JSON Schema"
        "toml",
        "xlsx",
        "pdf",
        "png",
        "qr",
        "utf",
        "https",
        "python",  # what the offline app runs on
        "pyodide",
        "ctrl",  # a key: Ctrl-C (its C is a suit letter too)
        "eur",  # currency codes, as typed after --currency
        "rub",
        "n",  # the number in a command's help: insert N, wN
    }
)
"""Names that are the same in every language (a format, a key, a currency code)."""

_LATIN = re.compile(r"[A-Za-zÀ-ÖØ-öø-ɏ]")  # Latin letters, not × or ÷
_EDGES = "«»()[]{}<>,;:!?\"'“”„…*·—–"
_FILE = re.compile(r"[\w.\-]+\.(json|pdf|xlsx|toml|png|md|html|pref|y4m)", re.IGNORECASE)
_SHORTHAND = re.compile(r"\d*(s|c|d|h|nt|n|w|p|r)\d*|wn|вn", re.IGNORECASE)
"""The shorthand's Latin letters: a contract (``7h``, ``10nt``), a suit (``s c d h nt``), a
role with its tricks (``w``, ``w3``, ``wN``, ``вN``, ``p``, ``h``, ``r``)."""


def latin_words(text: str, also: Iterable[str] = ()) -> list[str]:
    """The Latin words of ``text`` that nobody types (``also``: the typed words of this
    text beyond the program's own: the players' names, a word the user typed)."""
    extra = {word.lower() for word in also}
    found: list[str] = []
    for token in text.split():
        word = token.strip(_EDGES)
        if not _LATIN.search(word):
            continue
        if word.startswith("-") or "/" in word or "\\" in word or _FILE.fullmatch(word):
            continue  # an option (--dealer), a path, an address, a file name
        for part in re.split(r"[=:,|.+\-]+", word):
            part = part.strip(_EDGES + "-")
            if _LATIN.search(part) and not typed(part) and part.lower() not in extra:
                found.append(part)
    return found


def typed(word: str) -> bool:
    """Whether ``word`` is something a user types or a name no language translates (a word
    in capitals is a name or a placeholder: ``PDF`` is, ``PLAYER`` is not)."""
    lower = word.lower()
    if lower in NAMES or bool(_SHORTHAND.fullmatch(lower)):
        return True
    return lower in _program_words() and not (word.isupper() and len(word) > 1)


@cache
def _program_words() -> frozenset[str]:
    """The words prefcalc reads: its CLI's commands and their choices, the table's words in
    both languages (the lexicon: suits, roles, kinds, a play line's commands, penalties,
    terms, methods, roundings, genders), the convention presets, option keys and the values
    their files take, the languages."""
    import typer

    from prefcalc import i18n
    from prefcalc.cli import app
    from prefcalc.rules import lexicon
    from prefcalc.rules.conventions import OPTION_KEYS, PRESETS
    from prefcalc.rules.options import ConventionFile
    from prefcalc.store.schemas import LedgerFile

    words: set[str] = set()

    def walk(command: Any) -> None:
        for name, sub in getattr(command, "commands", {}).items():
            words.add(name)
            for param in sub.params:
                desc = getattr(param, "type_descriptor", None)
                choices = (desc.choices if desc is not None and desc.is_choice else None) or ()
                words.update(str(getattr(c, "value", c)) for c in choices)
            walk(sub)

    walk(typer.main.get_command(app))
    for languages in lexicon.WRITTEN.values():
        for spelled in languages.values():
            words.update(spelled, spelled.values())
    for also in lexicon.ALSO.values():
        words.update(also, also.values())
    words.update(lexicon.SHORT_KINDS, PRESETS, i18n.LANGUAGES)
    for key in OPTION_KEYS:
        words.update(key.split("."))
    words.update(_enums(ConventionFile.model_json_schema()))
    words.update(_enums(LedgerFile.model_json_schema(by_alias=True)))
    words.update({"a4", "letter"})  # --paper
    words.update({"true", "false"})  # a flag's values, as a file and --set write them
    return frozenset(w.lower() for w in words)


def _enums(schema: Any) -> set[str]:
    """The words a file's JSON Schema takes as values (``"greedy"``, ``"w"``...)."""
    found: set[str] = set()
    if isinstance(schema, dict):
        for key, value in schema.items():
            if key in ("enum", "const"):
                found.update(
                    v for v in (value if isinstance(value, list) else [value]) if isinstance(v, str)
                )
            else:
                found |= _enums(value)
    elif isinstance(schema, list):
        for item in schema:
            found |= _enums(item)
    return found
