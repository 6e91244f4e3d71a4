"""The translation catalogs: the committed .mo is its .po compiled, every message of the
source is in the template and translated (none fuzzy), and a translation asks for no value
its English message does not give, and formats each value as its English does, except that
it may ask for a name's grammatical case (``висты на {player:acc}``, prefcalc.cases)."""

from __future__ import annotations

import gettext
import io
import string
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "prefcalc" / "locale"
LANGUAGES = ["ru"]


def po(lang: str) -> Catalog:
    with (LOCALE / lang / "LC_MESSAGES" / "prefcalc.po").open("rb") as handle:
        return read_po(handle, locale=lang)


def keys(catalog: Catalog) -> set[tuple[str | None, str]]:
    return {(m.context, _first(m.id)) for m in catalog if m.id}


def _first(msgid: str | tuple[str, ...]) -> str:
    return msgid[0] if isinstance(msgid, tuple) else msgid


@pytest.mark.parametrize("lang", LANGUAGES)
def test_committed_mo_is_the_po_compiled(lang: str, tmp_path: Path) -> None:
    compiled = io.BytesIO()
    write_mo(compiled, po(lang))
    compiled.seek(0)
    fresh = gettext.GNUTranslations(compiled)
    with (LOCALE / lang / "LC_MESSAGES" / "prefcalc.mo").open("rb") as handle:
        committed = gettext.GNUTranslations(handle)
    assert committed._catalog == fresh._catalog  # type: ignore[attr-defined]
    assert [committed.plural(n) for n in range(200)] == [fresh.plural(n) for n in range(200)]  # type: ignore[attr-defined]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_message_is_translated_and_none_is_fuzzy(lang: str) -> None:
    catalog = po(lang)
    assert catalog.num_plurals == 3 and "n % 10 == 1" in catalog.plural_expr
    problems = []
    for m in catalog:
        if not m.id:
            continue
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        if m.fuzzy or not all(strings):
            problems.append(_first(m.id))
    assert problems == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_translations_use_only_the_values_their_message_gives(lang: str) -> None:
    for m in po(lang):
        if not m.id:
            continue
        given = set().union(*(_fields(text) for text in _all(m.id)))
        if isinstance(m.id, tuple):
            given.add("tricks")  # the plural messages' own {n}, and {tricks} given beside {n}
        for text in _all(m.string):
            assert _fields(text) <= given | _extra(m), (m.id, text)


def _all(text: str | tuple[str, ...]) -> tuple[str, ...]:
    return text if isinstance(text, tuple) else (text,)


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_translations_format_each_value_as_the_english_or_in_a_case(lang: str) -> None:
    from prefcalc.cases import CASES

    cased = 0
    for m in po(lang):
        if not m.id:
            continue
        english: dict[str, set[str]] = {}
        for text in _all(m.id):
            for name, spec in _specs(text):
                assert spec not in CASES, (m.id, "an English message asks for no case")
                english.setdefault(name, set()).add(spec)
        for text in _all(m.string):
            for name, spec in _specs(text):
                if spec in CASES:
                    cased += 1
                    assert spec != "nom", (text, "the nominative is the name as typed: no spec")
                    assert english.get(name, {""}) == {""}, (
                        m.id,
                        text,
                        "a case on a formatted value",
                    )
                elif name in english:  # as the English, or a counted unit written as a bare number
                    plain = spec == "" and all(u.isalpha() for u in english[name])
                    assert spec in english[name] or plain, (m.id, text, spec)
    assert cased >= 20  # the catalog does decline names (висты на Борю, Аня платит Вере...)


def test_the_check_refuses_what_it_should() -> None:
    assert _specs("висты на {player:acc}, {n:trick} {most:,}") == [
        ("player", "acc"),
        ("n", "trick"),
        ("most", ","),
    ]
    assert _fields("висты на {playr:acc}") == {"playr"}  # a misspelt name is still caught above


def _specs(text: str) -> list[tuple[str, str]]:
    return [(name, spec or "") for _, name, spec, _ in string.Formatter().parse(text) if name]


def _extra(m: Message) -> set[str]:
    """The values a message is formatted with beyond its English placeholders."""
    if _first(m.id).startswith(("{declarer} {contract}{flags} took", "{declarer} misère{flags}")):
        return {"tricks"}  # the tricks with their plural form: «5 взяток»
    return set()


def test_template_holds_every_message_of_the_source_and_the_catalogs_follow_it() -> None:
    found: set[tuple[str | None, str]] = set()
    with (ROOT / "babel.cfg").open(encoding="utf-8") as handle:
        method_map, options_map = parse_mapping_cfg(handle)
    for _file, _line, message, _comments, context in extract_from_dir(
        str(ROOT), method_map, options_map, keywords={**DEFAULT_KEYWORDS, "N_": None}
    ):
        found.add((context, _first(message)))
    with (LOCALE / "prefcalc.pot").open("rb") as handle:
        template = keys(read_po(handle))
    assert found == template, "run the 'extract' and 'update' commands of docs/languages.md"
    for lang in LANGUAGES:
        assert keys(po(lang)) == template, f"run 'pybabel update' for {lang}"


def test_the_help_of_the_commands_is_in_the_template() -> None:
    from prefcalc.help_extract import help_texts

    texts = [text for _line, text in help_texts((ROOT / "prefcalc" / "cli.py").read_text("utf-8"))]
    assert "The numbered deals." in texts  # a docstring, cleaned as the help shows it
    assert "Print JSON instead of text." in texts  # an option's help
    assert any(
        t.startswith("Record a contract: prefcalc game Anna 7h 7") and "\n\nCONTRACT" in t
        for t in texts
    )


def test_the_wheel_ships_the_compiled_catalogs() -> None:
    # hatch packs the whole prefcalc package; nothing may keep the .mo files out of it
    ignored = (ROOT / ".gitignore").read_text(encoding="utf-8").split()
    assert "*.mo" not in ignored and "prefcalc/locale" not in ignored
    assert (LOCALE / "ru" / "LC_MESSAGES" / "prefcalc.mo").stat().st_size > 0
