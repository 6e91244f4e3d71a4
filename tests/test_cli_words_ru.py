"""Issue 26: the words click and typer say (Usage, a missing argument, a value not among the
choices), the metavars, the OS's reasons and the options' refusals are Russian under
``LANG=ru_RU.UTF-8``, and English stays as it was."""

from __future__ import annotations

import re
from pathlib import Path

from tests.support import invoke

RU = {"LANG": "ru_RU.UTF-8", "PREFCALC_LANG": None, "LC_ALL": None, "LC_MESSAGES": None}
EN = {"LANG": "C.UTF-8", "PREFCALC_LANG": None, "LC_ALL": None, "LC_MESSAGES": None}


def _game(tmp_path: Path) -> Path:
    path = tmp_path / "g.json"
    result = invoke(["new", "Аня", "Боря", "Вера", "--file", str(path)], tmp_path)
    assert result.returncode == 0, result.stderr
    return path


def test_usage_and_metavars_are_russian(tmp_path: Path) -> None:
    out = invoke(["rules", "--help"], tmp_path, env=RU).stdout
    assert "Использование: " in out and " rules [ПАРАМЕТРЫ] [ИМЯ|ФАЙЛ]" in out
    assert "Usage" not in out and "OPTIONS" not in out
    out = invoke(["settle", "--help"], tmp_path, env=RU).stdout
    assert "КЛЮЧ=ЗНАЧЕНИЕ" in out and "ФАЙЛ" in out
    out = invoke(["rules", "--help"], tmp_path, env=EN).stdout
    assert "Usage: " in out and " rules [OPTIONS] [NAME|FILE]" in out
    # a value named by what it is, in the reader's words (not the Latin letters it takes)
    out = invoke(["player", "--help"], tmp_path, env=RU).stdout
    assert re.search(r"--gender\s+ПОЛ\s", out) and "f|m|auto" not in out, out
    assert re.search(r"--gender\s+GENDER\s", invoke(["player", "--help"], tmp_path, env=EN).stdout)


def test_click_refusals_are_one_russian_line(tmp_path: Path) -> None:
    path = _game(tmp_path)
    result = invoke(["explain", "--file", str(path)], tmp_path, env=RU)
    assert result.returncode != 0
    line = result.stderr.strip()
    assert line.startswith("prefcalc: ошибка: не хватает: N (")
    assert line.endswith(" explain [ПАРАМЕТРЫ] N)")
    # a method is read by the lexicon, refused with its one message in every front end
    result = invoke(["settle", "--method", "median", "--file", str(path)], tmp_path, env=RU)
    assert result.stderr.strip() == (
        "prefcalc: ошибка: неизвестный способ расчёта «median» (попарно или средняя)"
    )
    result = invoke(["settle", "--method", "median", "--file", str(path)], tmp_path, env=EN)
    assert result.stderr.strip() == (
        "prefcalc: error: unknown method 'median' (use pairwise or average)"
    )


def test_os_reasons_are_russian(tmp_path: Path) -> None:
    path = _game(tmp_path)
    result = invoke(["show", "--file", str(path / "x")], tmp_path, env=RU)
    assert result.stderr.strip().endswith("не удаётся прочитать журнал: Это не папка")
    result = invoke(["new", "А", "Б", "В", "--file", str(path / "x.pref")], tmp_path, env=RU)
    assert result.returncode != 0 and "Traceback" not in result.stderr
    assert result.stderr.strip().endswith(f"не создать папку {path}: Файл уже есть")
    result = invoke(["new", "А", "Б", "В", "--file", str(path / "x.pref")], tmp_path, env=EN)
    assert result.stderr.strip().endswith(f"cannot make the folder {path}: File exists")


def test_a_decimal_comma_in_set_and_unknown_keys(tmp_path: Path) -> None:
    path = _game(tmp_path)
    result = invoke(["settle", "--set", "liability=0,5", "--file", str(path)], tmp_path, env=RU)
    assert result.returncode == 0, result.stderr
    result = invoke(["settle", "--set", "цена=5", "--file", str(path)], tmp_path, env=RU)
    assert result.returncode != 0
    assert result.stderr.strip() == "prefcalc: ошибка: --set: неизвестный параметр «цена»"


def test_new_names_the_convention_and_quotes_the_russian_way(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    args = ["new", "Аня", "Боря", "Вера", "--convention", "Питер", "--file", str(path)]
    result = invoke(args, tmp_path, env=RU)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "новая игра: Аня, Боря, Вера · Ленинградка · пуля до 20 · первым сдаёт Аня"
    assert lines[-1] == "(не сделана текущей: с ней работают через --file или после «prefcalc use»)"
    english = invoke([*args[:-1], str(tmp_path / "e.json")], tmp_path)
    assert english.stdout.splitlines()[0] == (
        "new game: Аня, Боря, Вера · Leningrad · target 20 · first dealer Аня"
    )


def test_the_chart_axis_writes_a_minus_sign() -> None:
    from prefcalc.export.charts import _whole

    assert [_whole(-40.0), _whole(-1500.0), _whole(-0.0), _whole(1200.0)] == [
        "\N{MINUS SIGN}40",
        "\N{MINUS SIGN}1 500",
        "0",
        "1 200",
    ]
