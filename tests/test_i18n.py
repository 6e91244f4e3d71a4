"""The Russian interface: which language, plural forms, Russian numbers, money and dates,
the presets by their Russian names, and whole commands in Russian and in English."""

from __future__ import annotations

import re
import sys
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest
from support import invoke, run_cli

from prefcalc import i18n, terms
from prefcalc.i18n import from_environment, speaking
from prefcalc.rules.conventions import preset_key
from prefcalc.store.conventions import load
from prefcalc.views import numbers

ROOT = Path(__file__).resolve().parent.parent
SOCHI = ROOT / "examples" / "sochi-3.json"

NO_LOCALE = {"PREFCALC_LANG": "", "LC_ALL": "", "LC_MESSAGES": "", "LANG": ""}
RUSSIAN = {**NO_LOCALE, "LANG": "ru_RU.UTF-8"}
C_LOCALE = {**NO_LOCALE, "LANG": "C"}


# --- which language ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("env", "lang"),
    [
        ({}, "en"),
        ({"LANG": "ru_RU.UTF-8"}, "ru"),
        ({"LANG": "ru"}, "ru"),
        ({"LANG": "C"}, "en"),
        ({"LANG": "POSIX"}, "en"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({"LANG": "de_DE.UTF-8"}, "en"),  # a language prefcalc does not speak: English
        ({"LANG": "ru_UA.UTF-8@euro"}, "ru"),
        # POSIX: LC_ALL, then LC_MESSAGES, then LANG; the first non-empty one decides
        ({"LC_ALL": "C", "LANG": "ru_RU.UTF-8"}, "en"),
        ({"LC_ALL": "", "LC_MESSAGES": "ru_RU.UTF-8", "LANG": "C"}, "ru"),
        ({"LC_MESSAGES": "C", "LANG": "ru_RU.UTF-8"}, "en"),
        ({"LC_ALL": "de_DE.UTF-8", "LANG": "ru_RU.UTF-8"}, "en"),
        ({"LC_ALL": "ru_RU.UTF-8", "LC_MESSAGES": "C"}, "ru"),
        # PREFCALC_LANG before the locale
        ({"PREFCALC_LANG": "en", "LC_ALL": "ru_RU.UTF-8"}, "en"),
        ({"PREFCALC_LANG": "RU", "LC_ALL": "C"}, "ru"),
        ({"PREFCALC_LANG": " ", "LANG": "ru_RU.UTF-8"}, "ru"),  # empty: not set
    ],
)
def test_language_from_the_environment(env: dict[str, str], lang: str) -> None:
    assert from_environment(env) == lang


def test_lang_option_before_the_environment(tmp_path: Path) -> None:
    ru = run_cli(["--lang", "ru", "show", "--file", str(SOCHI)], tmp_path, C_LOCALE)
    assert ru.returncode == 0 and "Сочинка" in ru.stdout
    en = run_cli(["--lang", "en", "show", "--file", str(SOCHI)], tmp_path, RUSSIAN)
    assert en.returncode == 0 and en.stdout.startswith("Sochi · target 20 each")
    env = {**C_LOCALE, "PREFCALC_LANG": "en"}
    after = run_cli(["show", "--file", str(SOCHI), "--lang", "ru"], tmp_path, env)
    assert after.returncode == 0 and after.stdout == ru.stdout
    joined = run_cli(["show", "--lang=ru", "--file", str(SOCHI)], tmp_path, C_LOCALE)
    assert joined.stdout == ru.stdout
    env_ru = run_cli(["show", "--file", str(SOCHI)], tmp_path, {**C_LOCALE, "PREFCALC_LANG": "ru"})
    assert env_ru.stdout == ru.stdout
    overridden = {**C_LOCALE, "PREFCALC_LANG": "klingon"}
    fixed = run_cli(["show", "--lang", "ru", "--file", str(SOCHI)], tmp_path, overridden)
    assert fixed.returncode == 0 and fixed.stdout == ru.stdout


def test_lang_in_process_is_forgotten_by_the_next_command(tmp_path: Path) -> None:
    first = invoke(["--lang", "ru", "show", "--file", str(SOCHI)], tmp_path, C_LOCALE)
    assert "Сочинка" in first.stdout
    second = invoke(["show", "--file", str(SOCHI)], tmp_path, C_LOCALE)
    assert second.stdout.startswith("Sochi · ")


@pytest.mark.parametrize(
    ("args", "env", "message"),
    [
        (
            ["--lang", "de", "show"],
            C_LOCALE,
            "prefcalc: error: --lang: unknown language 'de' (use en or ru)\n",
        ),
        (
            ["show", "--lang=fr"],
            C_LOCALE,
            "prefcalc: error: --lang: unknown language 'fr' (use en or ru)\n",
        ),
        (
            ["show"],
            {**C_LOCALE, "PREFCALC_LANG": "klingon"},
            "prefcalc: error: PREFCALC_LANG: unknown language 'klingon' (use en or ru)\n",
        ),
    ],
)
def test_unknown_language_is_one_line(
    tmp_path: Path, args: list[str], env: dict[str, str], message: str
) -> None:
    before = SOCHI.read_bytes()
    result = run_cli([*args, "--file", str(SOCHI)], tmp_path, env)
    assert (result.returncode, result.stdout, result.stderr) == (2, "", message)
    assert SOCHI.read_bytes() == before


# --- words -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("n", "text"),
    [
        (0, "0 взяток"),
        (1, "1 взятка"),
        (2, "2 взятки"),
        (4, "4 взятки"),
        (5, "5 взяток"),
        (10, "10 взяток"),
        (11, "11 взяток"),
        (12, "12 взяток"),
        (14, "14 взяток"),
        (21, "21 взятка"),
        (22, "22 взятки"),
        (25, "25 взяток"),
        (101, "101 взятка"),
        (111, "111 взяток"),
    ],
)
def test_russian_plural_forms(n: int, text: str) -> None:
    with speaking("ru"):
        assert terms.tricks(n) == text


def test_plural_forms_of_deals_and_whists() -> None:
    with speaking("ru"):
        assert [terms.deals(n) for n in (1, 3, 24, 25)] == [
            "1 раздача",
            "3 раздачи",
            "24 раздачи",
            "25 раздач",
        ]
        assert [terms.whists(n) for n in (1, 2, 5, 21)] == [
            "1 вист",
            "2 виста",
            "5 вистов",
            "21 вист",
        ]
    with speaking("en"):
        assert [terms.tricks(n) for n in (0, 1, 2)] == ["0 tricks", "1 trick", "2 tricks"]
        assert terms.deals(1) == "1 deal"


def test_the_tables_terms_in_russian_and_english() -> None:
    with speaking("ru"):
        assert terms.contract(8, "nt") == "8БК"
        assert terms.contract(7, "h") == "7♥"
        assert [terms.role(r) for r in ("w", "p", "h")] == ["вист", "пас", "полвиста"]
        assert [terms.column(c) for c in ("pool", "mountain", "whists")] == [
            "пуля",
            "гора",
            "висты",
        ]
        assert terms.whists_on("Аню") == "висты на Аню"
        assert (terms.all_pass(), terms.misere()) == ("распасы", "мизер")
        assert terms.convention_name("Leningrad") == "Ленинградка"
        assert terms.convention_name("Our house rules") == "Our house rules"
    with speaking("en"):
        assert terms.contract(8, "nt") == "8NT"
        assert [terms.role(r) for r in ("w", "p", "h")] == ["whist", "pass", "half-whist"]
        assert terms.convention_name("Leningrad") == "Leningrad"


def test_english_needs_no_catalog() -> None:
    import gettext

    assert type(i18n.catalog("en")) is gettext.NullTranslations
    assert isinstance(i18n.catalog("ru"), gettext.GNUTranslations)


# --- numbers, money, dates -----------------------------------------------------------------------


def test_russian_numbers_money_and_dates() -> None:
    with speaking("ru"):
        assert numbers.number(1234) == "1\xa0234"
        assert numbers.number(-12) == "−12"
        assert numbers.number(Fraction(2469, 2)) == "1\xa0234½"
        assert numbers.number(Fraction(-5, 2)) == "−2½"
        assert numbers.number(Fraction(2469, 2), "decimal", 1) == "1\xa0234,5"
        assert numbers.number(Fraction(50, 3), "decimal") == "16,67"
        assert numbers.money(Decimal("-12.67"), "RUB") == "−12,67\xa0₽"
        assert numbers.money(Decimal("1234.50"), "EUR") == "1\xa0234,50\xa0€"
        assert numbers.money(Decimal("5"), "JPY") == "5\xa0¥"
        assert numbers.money(Decimal("3.40"), "") == "3,40"
        assert numbers.money(Decimal("-3.40"), "фиш") == "−3,40\xa0фиш"
        assert numbers.day("2026-12-01") == "1 декабря 2026"
        assert numbers.day("2026-03-08T19:00:00+03:00") == "8 марта 2026"
        assert numbers.day("not a date") == "not a date"


def test_english_numbers_money_and_dates_as_before() -> None:
    with speaking("en"):
        assert numbers.number(1234) == "1234"
        assert numbers.number(Fraction(-5, 2)) == "-2½"
        assert numbers.money(Decimal("-12.67"), "RUB") == "-12.67 RUB"
        assert numbers.money(Decimal("3.40"), "") == "3.40"
        assert numbers.day("2026-12-01T20:00:00+01:00") == "2026-12-01"


# --- conventions by their Russian names ------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "preset"),
    [
        ("Сочинка", "sochi"),
        ("сочи", "sochi"),
        ("СОЧИ", "sochi"),
        ("Ленинградка", "leningrad"),
        ("питер", "leningrad"),
        ("Питер", "leningrad"),
        ("Ростовка", "rostov"),
        ("КЛАССИКА", "classic"),
        ("Гусарик", "sochi"),
        ("Sochi", "sochi"),
    ],
)
def test_presets_by_their_russian_names(name: str, preset: str) -> None:
    assert preset_key(name) == preset
    assert load(name) == load(preset)


def test_new_game_with_a_russian_convention_name_stores_the_preset(tmp_path: Path) -> None:
    ledger = tmp_path / "g.json"
    result = run_cli(
        ["new", "Аня", "Боря", "Вера", "-c", "Ленинградка", "--file", str(ledger)],
        tmp_path,
        C_LOCALE,
    )
    assert result.returncode == 0, result.stderr
    assert '"preset": "leningrad"' in ledger.read_text(encoding="utf-8")
    classic = tmp_path / "c.json"
    run_cli(
        ["new", "Аня", "Боря", "Вера", "-c", "классика", "--file", str(classic)], tmp_path, C_LOCALE
    )
    assert '"target": 50' in classic.read_text(encoding="utf-8")  # Classic's own default target


# --- whole commands ----------------------------------------------------------------------------

ENGLISH_GAME_WORDS = re.compile(
    r"\b(pool|mountain|whists?|pass(es)?|half-whist|all-pass|misère|remise|consolation|amnesty|"
    r"settlement|payments?|pays|deals?|dealer|target|finished|game|tricks?|took|method|"
    r"rounding|player|money|result|counted|streak|NT)\b",
    re.IGNORECASE,
)


def test_russian_show_and_settle(tmp_path: Path) -> None:
    show = run_cli(["show", "--file", str(SOCHI)], tmp_path, RUSSIAN)
    assert show.returncode == 0, show.stderr
    assert show.stdout.startswith("Сочинка · пуля до 20 у каждого · 24 раздачи · ИГРА ОКОНЧЕНА\n")
    for word in ("висты на", "пуля", "гора"):
        assert word in show.stdout
    settle = run_cli(["settle", "--file", str(SOCHI)], tmp_path, RUSSIAN)
    assert settle.returncode == 0, settle.stderr
    out = settle.stdout
    for word in (
        "Расчёт попарный",
        "Амнистия",
        "Платежи:",
        "Boris платит Anna 16,40\xa0€",
        "−21,40\xa0€",
    ):
        assert word in out
    log = run_cli(["log", "--file", str(SOCHI)], tmp_path, RUSSIAN)
    assert "10БК" in log.stdout and "распасы: " in log.stdout and "вист" in log.stdout
    average = run_cli(
        ["settle", "--compare", "-m", "average", "--file", str(SOCHI)], tmp_path, RUSSIAN
    )
    for text in (show.stdout, out, log.stdout, average.stdout):
        assert ENGLISH_GAME_WORDS.findall(text) == []


def test_russian_explain_names_the_deal_and_its_columns(tmp_path: Path) -> None:
    result = run_cli(["explain", "3", "--file", str(SOCHI)], tmp_path, RUSSIAN)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "раздача 3, сдающий Вера: Anna 6♦: 5 взяток; Boris вист 3, Вера вист 2"
    assert lines[1].startswith("  Anna: +2 в гору — ")
    assert lines[2].startswith("  Boris: +6 висты на Anna — ")


def test_english_unchanged_under_the_c_locale(tmp_path: Path) -> None:
    for args in (["show"], ["settle"], ["log"], ["explain", "3"], ["settle", "--compare"]):
        plain = run_cli([*args, "--file", str(SOCHI)], tmp_path, C_LOCALE)
        english = run_cli([*args, "--file", str(SOCHI)], tmp_path, {"PREFCALC_LANG": "en"})
        assert plain.returncode == 0 and plain.stdout == english.stdout
    settle = run_cli(["settle", "--file", str(SOCHI)], tmp_path, C_LOCALE).stdout
    assert "   Boris pays Anna 16.40 EUR\n" in settle
    assert "Settlement by pairwise method (method 1), rounding: exact\n" in settle


def test_english_and_the_version_do_not_import_babel(tmp_path: Path) -> None:
    import subprocess

    for env, args in ((C_LOCALE, ["settle", "--file", str(SOCHI)]), (RUSSIAN, ["--version"])):
        result = subprocess.run(
            [sys.executable, "-X", "importtime", "-m", "prefcalc", *args],
            capture_output=True,
            text=True,
            env={**__import__("os").environ, **env},
            cwd=tmp_path,
            check=True,
        )
        assert " babel" not in result.stderr


# --- the game's own language -----------------------------------------------------------------


def test_new_lang_is_stored_and_read_back(tmp_path: Path) -> None:
    from prefcalc.store.ledger import load as load_ledger

    ledger = tmp_path / "g.json"
    args = ["new", "Аня", "Боря", "Вера", "--lang", "ru", "--file", str(ledger)]
    result = run_cli(args, tmp_path, C_LOCALE)
    assert result.returncode == 0, result.stderr
    assert '"lang": "ru"' in ledger.read_text(encoding="utf-8")
    assert load_ledger(ledger).lang == "ru"
    # --lang before the command is the interface's language only: nothing stored
    plain = tmp_path / "p.json"
    run_cli(
        ["--lang", "ru", "new", "Аня", "Боря", "Вера", "--file", str(plain)], tmp_path, C_LOCALE
    )
    assert '"lang"' not in plain.read_text(encoding="utf-8")
    assert load_ledger(plain).lang == ""


def test_new_with_an_unknown_lang_writes_nothing(tmp_path: Path) -> None:
    ledger = tmp_path / "g.json"
    result = run_cli(
        ["new", "A", "B", "C", "--lang", "xx", "--file", str(ledger)], tmp_path, C_LOCALE
    )
    assert result.returncode == 2
    assert result.stderr == "prefcalc: error: --lang: unknown language 'xx' (use en or ru)\n"
    assert not ledger.exists()


def test_pdf_is_made_in_the_games_language(tmp_path: Path) -> None:
    from pypdf import PdfReader

    ledger = tmp_path / "g.json"
    text = SOCHI.read_text(encoding="utf-8").replace(
        '"convention":', '"lang": "ru",\n  "convention":', 1
    )
    ledger.write_text(text, encoding="utf-8")
    english = tmp_path / "en.json"
    english.write_bytes(SOCHI.read_bytes())

    def pdf_text(path: Path) -> str:
        out = path.with_suffix(".pdf")
        result = run_cli(["export", "pdf", "--file", str(path), "-o", str(out)], tmp_path, C_LOCALE)
        assert result.returncode == 0, result.stderr
        return "\n".join(page.extract_text() for page in PdfReader(out).pages)

    russian = pdf_text(ledger)
    assert "Амнистия" in russian and "Amnesty" not in russian
    assert "Amnesty" in pdf_text(english)


def test_russian_share_and_history(tmp_path: Path) -> None:
    share = run_cli(["share", "--file", str(SOCHI)], tmp_path, RUSSIAN)
    assert share.returncode == 0, share.stderr
    assert share.stdout.splitlines() == [
        "Преферанс 14 ноября 2025 · Сочинка · окончательно",
        "1. Anna +164 (16,40\xa0€)",
        "2. Вера +50 (5,00\xa0€)",
        "3. Boris −214 (−21,40\xa0€)",
        "Платят: Boris → Anna 16,40\xa0€; Boris → Вера 5,00\xa0€",
        "Лучшая игра: Вера 9♠: 9 взяток; Anna вист, Boris пас (раздача 20)",
    ]
    history = run_cli(["history", str(SOCHI), "--no-cache"], tmp_path, RUSSIAN)
    assert history.returncode == 0, history.stderr
    lines = history.stdout.splitlines()
    assert lines[0] == "1 игра:"
    assert lines[2].startswith("14 ноября 2025  Anna, Boris, Вера  Сочинка")
    assert "Итоги (попарный расчёт, точный; прерванная игра считается предварительно):" in lines
    assert ENGLISH_GAME_WORDS.findall(history.stdout + share.stdout) == []


def test_russian_rules_table(tmp_path: Path) -> None:
    result = run_cli(["rules", "Питер"], tmp_path, RUSSIAN)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[1].split() == ["параметр", "значение", "смысл"]
    assert any(
        line.startswith("whist_factor")
        and line.endswith(
            "вистов за взятку вистующего = "
            "цена игры × это число (1, или 2 для двойных вистов Ленинградки)"
        )
        for line in lines
    )


def test_help_in_russian_and_english(tmp_path: Path) -> None:
    ru = run_cli(["settle", "--help"], tmp_path, RUSSIAN)
    assert ru.returncode == 0
    assert (
        "Расчёт игры (в любой момент, и посреди игры): висты, деньги и кто кому платит."
        in ru.stdout
    )
    assert "Оба способа рядом." in ru.stdout
    en = run_cli(["settle", "--help"], tmp_path, C_LOCALE)
    assert (
        "Settle the game (any time, also mid-game): whists, money and who pays whom." in en.stdout
    )
    top = invoke(["--lang", "ru", "--help"], tmp_path, C_LOCALE)
    assert "Записать распасы: prefcalc passes Аня=2 Боря=5 Вера=3" in top.stdout
    again = invoke(["--help"], tmp_path, C_LOCALE)  # the next command in the same process
    assert "Record an all-pass deal" in again.stdout


def test_russian_rules_table_translates_the_table_and_section_8_options(tmp_path: Path) -> None:
    # the meanings are the model's field descriptions, marked N_() for the catalog
    result = run_cli(["rules", "classic"], tmp_path, RUSSIAN)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert any(
        line.startswith("passes.misere_ends") and line.endswith("мизер прерывает распасы подряд")
        for line in lines
    )
    assert any(
        line.startswith("stalingrad")
        and line.endswith("на шестерную пик оба обязаны вистовать (ни паса, ни полвиста)")
        for line in lines
    )


def test_the_frame_of_the_help_follows_the_language() -> None:
    # issue 20: typer's panels, notes and the help of --help through prefcalc's catalog, in
    # Russian and back in English in the same process ("Usage:" stays typer's own)
    from typer.testing import CliRunner

    from prefcalc.cli import app

    runner = CliRunner()
    ru = runner.invoke(app, ["--lang", "ru", "export", "--help"], terminal_width=100).output
    for words in ("Аргументы", "Параметры", "[обязательно]", "[по умолчанию: a4]"):
        assert words in ru, words
    assert "Показать эту справку и выйти." in ru and "[переменная окружения: PREFCALC_FILE]" in ru
    assert "Options" not in ru and "Show this message" not in ru
    en = runner.invoke(app, ["--lang", "en", "export", "--help"], terminal_width=100).output
    for words in ("Arguments", "Options", "[required]", "[default: a4]", "Show this message"):
        assert words in en, words
    commands = runner.invoke(app, ["--lang", "ru", "--help"], terminal_width=100).output
    assert "Команды" in commands
