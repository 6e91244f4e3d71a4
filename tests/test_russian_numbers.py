"""Numbers as people type them: the decimal comma (``0,5``, ``-2,5``) in every language,
``1,000`` refused as ambiguous in one line, grouped thousands and hostile text refused, and
the limits of the refusals grouped the Russian way in Russian."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from prefcalc.i18n import voice
from prefcalc.rules.amounts import AmountError, parse_amount, parse_whole
from tests.support import invoke

RU = {"PREFCALC_LANG": "ru"}
EN = {"PREFCALC_LANG": "en"}


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("0,5", Fraction(1, 2)),
        ("2,5", Fraction(5, 2)),
        ("-2,5", Fraction(-5, 2)),
        ("+0,25", Fraction(1, 4)),
        ("\N{MINUS SIGN}2,5", Fraction(-5, 2)),  # as Russian output prints it
        (" 0,5 ", Fraction(1, 2)),
        ("0,125", Fraction(1, 8)),  # a zero whole part: no thousand is written so
        ("1,5000", Fraction(3, 2)),  # four decimals: no thousands group
        ("1234,567", Fraction(1234567, 1000)),  # no thousands group has four digits
        ("2,0", 2),
        ("2.5", Fraction(5, 2)),  # the point as ever
        ("1.000", 1),
        (".5", Fraction(1, 2)),
        ("5/3", Fraction(5, 3)),
        ("-5/3", Fraction(-5, 3)),
        ("12", 12),
    ],
)
def test_the_decimal_comma_and_the_point(text: str, value: Fraction | int) -> None:
    assert parse_amount(text) == value
    assert type(parse_amount(text)) is type(value)


@pytest.mark.parametrize(
    ("text", "english", "russian"),
    [
        (
            "1,000",
            "'1,000' is ambiguous: write 1000 or 1",
            "«1,000» — неоднозначно: напишите 1000 или 1",
        ),
        ("12,500", "is ambiguous: write 12500 or 12.5", "неоднозначно: напишите 12500 или 12,5"),
        ("-1,250", "is ambiguous: write -1250 or -1.25", "напишите -1250 или -1,25"),
        ("1 000", "has its thousands grouped", "тысячи отделены: пишите цифры слитно"),
        ("1\xa0000", "has its thousands grouped", "тысячи отделены"),
        ("1.000,5", "has its thousands grouped", "тысячи отделены"),
        ("1,000,000", "has its thousands grouped", "тысячи отделены"),
        ("1'000", "has its thousands grouped", "тысячи отделены"),
        ("1,,5", "is not a number", "— не число (пишите, например, 12; −3; 2,5 или 5/3)"),
        (",5", "is not a number", "— не число"),
        ("5,", "is not a number", "— не число"),
        ("1,5,", "is not a number", "— не число"),
        ("0,5/2", "is not a number", "— не число"),
        ("١٫٥", "is not a number", "— не число"),  # Arabic-Indic digits and separator
        ("٢", "is not a number", "— не число"),
        ("０,５", "is not a number", "— не число"),  # fullwidth digits
        ("0,5\x00", "is not a number", "— не число"),
        ("1,5e3", "is written with an exponent", "записано с порядком"),
        ("9" * 50, "is too long for a number (at most 40 characters)", "не больше 40 символов"),
        ("0," + "5" * 45, "is too long", "слишком длинное"),
        (
            "2000000000,5",
            "is too large (at most 1,000,000,000 either way)",
            "1\xa0000\xa0000\xa0000",
        ),
        ("0,0000001", "is too fine", "знаков после запятой"),
    ],
)
def test_what_is_refused_in_one_line(text: str, english: str, russian: str) -> None:
    for lang, expected in (("en", english), ("ru", russian)):
        with voice(lang=lang), pytest.raises(AmountError) as caught:
            parse_amount(text)
        message = str(caught.value)
        assert expected in message and "\n" not in message, (lang, message)


def test_whole_numbers_take_no_comma_but_say_why() -> None:
    assert parse_whole("\N{MINUS SIGN}3") == -3
    for text, why in [
        ("2,5", "is not a whole number"),
        ("0,125", "is not a whole number"),
        ("1,000", "is ambiguous: write 1000 or 1"),
        ("1 000", "has its thousands grouped"),
        ("1,000,000", "has its thousands grouped"),
        ("1e3", "is written with an exponent"),
    ]:
        with voice(lang="en"), pytest.raises(AmountError) as caught:
            parse_whole(text)
        assert why in str(caught.value), text


def test_a_named_field_says_what_it_must_be() -> None:
    with voice(lang="ru"):
        with pytest.raises(AmountError) as caught:
            parse_amount("12,500")
        assert caught.value.about("--whist-price") == (
            "--whist-price: должно быть 12500 или 12,5, а не «12,500»"
        )
    with voice(lang="en"), pytest.raises(AmountError) as caught:
        parse_amount("1 000")
    assert caught.value.about("--mountain") == (
        "--mountain must be a number without a thousands separator, not '1 000'"
    )
    with voice(lang="ru"), pytest.raises(AmountError) as caught:
        parse_amount("1000000001")
    with voice(lang="ru"):
        about = caught.value.about("цена виста")
    assert about == (
        "цена виста: должно быть от \N{MINUS SIGN}1\xa0000\xa0000\xa0000 до 1\xa0000\xa0000\xa0000,"
        " а не «1000000001»"
    )


def _ledger(path: Path) -> dict[str, object]:
    data = json.loads(path.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


@pytest.mark.parametrize("env", [RU, EN])
def test_the_decimal_comma_wherever_the_cli_takes_a_number(
    tmp_path: Path, env: dict[str, str]
) -> None:
    game = tmp_path / "g.json"
    new = ["new", "Аня", "Боря", "Вера", "--file", str(game), "--whist-price", "0,5"]
    done = invoke(new, tmp_path, env)
    assert done.returncode == 0, done.stderr
    assert _ledger(game)["whist_price"] in ("0.5", 0.5, "1/2")
    done = invoke(
        ["adjust", "Аня", "--mountain", "2,5", "--note", "x", "--file", str(game)], tmp_path, env
    )
    assert done.returncode == 0, done.stderr
    done = invoke(
        ["adjust", "Боря", "--whists", "Вера=-1,5", "--note", "x", "--file", str(game)],
        tmp_path,
        env,
    )
    assert done.returncode == 0, done.stderr
    done = invoke(["set", "whist_price=0,25", "--file", str(game)], tmp_path, env)
    assert done.returncode == 0, done.stderr
    played = invoke(["play", "--file", str(game)], tmp_path, env, input="set whist_price=0,75\n")
    assert played.returncode == 0, played.stderr
    text = json.dumps(_ledger(game), ensure_ascii=False)
    for exact in ("2.5", "-1.5", "0.25", "0.75"):
        assert exact in text, exact


def test_an_ambiguous_number_on_the_command_line_changes_nothing(tmp_path: Path) -> None:
    game = tmp_path / "g.json"
    assert invoke(["new", "Аня", "Боря", "Вера", "--file", str(game)], tmp_path, RU).returncode == 0
    before = game.read_bytes()
    for args in (
        ["adjust", "Аня", "--mountain", "1,000", "--note", "x"],
        ["set", "whist_price=1 000"],
    ):
        done = invoke([*args, "--file", str(game)], tmp_path, RU)
        assert done.returncode != 0
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("prefcalc: ошибка: "), done.stderr
        assert "Traceback" not in done.stderr
    assert game.read_bytes() == before
    refused = invoke(
        ["adjust", "Аня", "--mountain", "1,000", "--note", "x", "--file", str(game)], tmp_path, RU
    )
    assert "1000 или 1" in refused.stderr


def test_a_price_is_money_never_a_fraction() -> None:
    # issue 26: «цена виста теперь ¼» is money: 0,25 (English 0.25); a price no decimal writes
    # exactly keeps its exact fraction
    from fractions import Fraction

    from prefcalc.i18n import voice
    from prefcalc.views.numbers import price

    with voice(lang="ru"):
        assert [price(Fraction(1, 4)), price(Fraction(1, 8)), price(2)] == ["0,25", "0,125", "2"]
    assert [price(Fraction(1, 4)), price(Fraction(3, 2)), price(Fraction(1, 3))] == [
        "0.25",
        "1.50",
        "⅓",
    ]
