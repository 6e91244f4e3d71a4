"""Issue 26: the presets' names and descriptions are said in the reader's language by
``prefcalc rules`` (their TOML files write them in English), a table's own text as written."""

from __future__ import annotations

import tomllib
from pathlib import Path

from prefcalc.i18n import voice
from prefcalc.rules.conventions import PRESET_TEXTS, PRESETS, preset_words

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"


def test_every_preset_text_is_in_the_catalog_as_its_file_writes_it() -> None:
    for name in PRESETS:
        data = tomllib.loads((TEMPLATES / f"{name}.toml").read_text(encoding="utf-8"))
        assert data["name"] in PRESET_TEXTS
        assert data["description"] in PRESET_TEXTS


def test_russian_names_the_presets_as_a_russian_table_does() -> None:
    with voice(lang="ru"):
        assert preset_words("Sochi") == "Сочинка"
        assert preset_words("Leningrad") == "Ленинградка"
        assert preset_words("Rostov") == "Ростовка"
        assert preset_words("Classic") == "Классика"
        assert preset_words("Our table") == "Our table"
    assert preset_words("Sochi") == "Sochi"


def test_rules_in_russian_heads_with_the_russian_name_and_description(tmp_path: Path) -> None:
    from tests.support import invoke

    ru = {"LANG": "ru_RU.UTF-8", "PREFCALC_LANG": None, "LC_ALL": None, "LC_MESSAGES": None}
    head = invoke(["rules", "rostov"], tmp_path, env=ru).stdout.splitlines()[0]
    assert head.startswith("Ростовка: она же московская пулька; полуответственный")
    assert "консоляция — всегда 10" in head
    en = {"LANG": "C.UTF-8", "PREFCALC_LANG": None, "LC_ALL": None, "LC_MESSAGES": None}
    head = invoke(["rules", "rostov"], tmp_path, env=en).stdout.splitlines()[0]
    assert head.startswith("Rostov: Ростовка (Moscow pulka): semi-responsible")
