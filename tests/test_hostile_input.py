"""Hostile input: huge or non-finite numbers, control characters, look-alike names.

Every refusal is one line on stderr (``prefcalc: error: ...``), exit code 2, no traceback,
nothing raw (control characters, ANSI escapes) on the terminal, and every file in the folder
byte for byte unchanged. The cases run in process through :func:`prefcalc.cli.main`, so a
parser that hangs (``Fraction(Decimal("1e999999999"))`` builds a billion-digit integer) shows
as this module never finishing; nothing here measures time.
"""

from __future__ import annotations

import json
import unicodedata
from fractions import Fraction
from pathlib import Path

import pytest

from prefcalc.cli import main
from prefcalc.errors import shown
from prefcalc.rules.amounts import MAX_AMOUNT, MAX_DENOMINATOR, AmountError, parse_amount, to_amount
from prefcalc.rules.model import check_players, name_key, normalize_name
from prefcalc.rules.notation import resolve_player
from prefcalc.store.ledger import load

HUGE = "9" * 5000  # over Python's 4,300-digit limit for int(str)
ESC_RED = "\x1b[31mRed"


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder holding a fresh 3-player ledger ``game.json``; the data folder inside it."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.delenv("PREFCALC_FILE", raising=False)
    monkeypatch.setenv("NO_COLOR", "1")  # the usage of a bare `prefcalc` without colours
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    assert main(["new", "Anna", "Boris", "Vera", "--file", str(tmp_path / "game.json")]) == 0
    return tmp_path


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


def _raw_characters(text: str) -> list[str]:
    """Characters that must never reach a terminal unescaped (newlines end lines)."""
    return [
        c for c in text if c != "\n" and unicodedata.category(c) in ("Cc", "Cf", "Cs", "Zl", "Zp")
    ]


def _refused(folder: Path, capsys: pytest.CaptureFixture[str], argv: list[str], phrase: str) -> str:
    """Run ``argv`` and check the refusal contract; return the error line."""
    capsys.readouterr()
    before = _snapshot(folder)
    code = main(argv)
    out, err = capsys.readouterr()
    assert code == 2, out + err
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert err.endswith("\n")
    assert lines[0].startswith("prefcalc: error: "), lines[0]
    assert phrase in lines[0], lines[0]
    assert "Traceback" not in out + err
    assert _raw_characters(out + err) == [], repr(out + err)
    assert _snapshot(folder) == before
    return lines[0]


# --- numbers ---------------------------------------------------------------------------------

BAD_NUMBERS = [
    ("1e999999999", "without an exponent"),
    ("-1e999999999", "without an exponent"),
    ("1e-999999", "without an exponent"),
    ("inf", "must be a number"),
    ("-Infinity", "must be a number"),
    ("NaN", "must be a number"),
    ("1/0", "must be a number"),
    (HUGE, "at most 40 characters"),
    ("-" + HUGE, "at most 40 characters"),
    ("1000000001", "between -1,000,000,000 and 1,000,000,000"),
    ("1/3000000", "denominator up to 1,000,000"),
    ("0.0000001", "at most 6 decimal places"),
    ("1_000", "must be a number"),
    ("\x1b[31m5", "must be a number"),
]


@pytest.mark.parametrize("option", ["--mountain", "--pool", "--whists"])
@pytest.mark.parametrize(("text", "phrase"), BAD_NUMBERS, ids=[t[:12] for t, _ in BAD_NUMBERS])
def test_adjust_refuses_unbounded_numbers(
    folder: Path, capsys: pytest.CaptureFixture[str], option: str, text: str, phrase: str
) -> None:
    value = f"Boris={text}" if option == "--whists" else text
    argv = ["adjust", "Anna", option, value, "--note", "x", "--file", str(folder / "game.json")]
    line = _refused(folder, capsys, argv, phrase)
    assert len(line) < 200, line


@pytest.mark.parametrize(("text", "phrase"), BAD_NUMBERS, ids=[t[:12] for t, _ in BAD_NUMBERS])
def test_new_refuses_unbounded_whist_price(
    folder: Path, capsys: pytest.CaptureFixture[str], text: str, phrase: str
) -> None:
    argv = ["new", "A", "B", "C", "--whist-price", text, "--file", str(folder / "new.json")]
    _refused(folder, capsys, argv, phrase)


BAD_OPTION_VALUES = [
    ("1e999999999", "exponent"),
    ("-1e999999999", "exponent"),
    ("inf", "not a number"),
    ("NaN", "not a number"),
    ("1/0", "not a number"),
    (HUGE, "too long"),
    ("1e-999999", "exponent"),
]


@pytest.mark.parametrize(
    ("text", "phrase"), BAD_OPTION_VALUES, ids=[t[:12] for t, _ in BAD_OPTION_VALUES]
)
def test_set_refuses_unbounded_numbers(
    folder: Path, capsys: pytest.CaptureFixture[str], text: str, phrase: str
) -> None:
    for key in ("liability", "pool_to_mountain"):
        argv = ["new", "A", "B", "C", "--set", f"{key}={text}", "--file", str(folder / "n.json")]
        line = _refused(folder, capsys, argv, phrase)
        assert f"option '{key}'" in line
        argv = ["show", "--set", f"{key}={text}", "--file", str(folder / "game.json")]
        _refused(folder, capsys, argv, phrase)


@pytest.mark.parametrize(
    ("argv", "phrase"),
    [
        (["--target", "99999999999"], "--target must be between -1,000,000,000 and 1,000,000,000"),
        (["--target", "0"], "target"),
        (["--target", HUGE], "--target"),
        (["--set", "misere_price=99999999999"], "option 'misere_price'"),
        (["--set", "passes.prices=1,2,99999999"], "option 'passes.prices'"),
        (["--set", f"passes.prices=1,{HUGE}"], "option 'passes.prices'"),
        (["--set", "whist_factor=1e3"], "option 'whist_factor'"),
        (["--currency", "EUR\n"], "currency 'EUR\\n'"),
        (["--currency", ESC_RED], "currency '\\x1b[31mRed'"),
        (["--currency", "EURO1234"], "currency"),
    ],
    ids=[
        "target 1e11",
        "target 0",
        "target 5000 digits",
        "misere_price",
        "passes.prices",
        "passes.prices 5000 digits",
        "whole with exponent",
        "currency newline",
        "currency escape",
        "currency long",
    ],
)
def test_new_refuses_unbounded_whole_numbers_and_bad_currency(
    folder: Path, capsys: pytest.CaptureFixture[str], argv: list[str], phrase: str
) -> None:
    _refused(
        folder, capsys, ["new", "A", "B", "C", *argv, "--file", str(folder / "new.json")], phrase
    )


@pytest.mark.parametrize(
    ("argv", "phrase"),
    [
        (["game", "Anna", f"{HUGE}h", "7", "Boris:w", "Vera:p"], "no contract level"),
        (["game", "Anna", "7h", HUGE, "Boris:w", "Vera:p"], "must be a number 0-10"),
        (["game", "Anna", "6s", "5", f"Boris:w{HUGE}", "Vera:w1"], "must be a number 0-10"),
        (["passes", f"Anna={HUGE}", "Boris=5", "Vera=5"], "must be a number 0-10"),
        (["misere", "Anna", "1e999999999"], "must be a number 0-10"),
        (["delete", HUGE], "number"),
        (["explain", "99999999999"], "N must be between -1,000,000,000 and 1,000,000,000"),
    ],
    ids=["level", "tricks", "whister's tricks", "all-pass tricks", "misere", "delete", "explain"],
)
def test_deals_refuse_huge_numbers(
    folder: Path, capsys: pytest.CaptureFixture[str], argv: list[str], phrase: str
) -> None:
    _refused(folder, capsys, [*argv, "--file", str(folder / "game.json")], phrase)


def _edited(folder: Path, change: str) -> Path:
    """A ledger with one adjustment, then its JSON text edited by hand."""
    path = folder / "game.json"
    adjust = ["adjust", "Anna", "--mountain", "2", "--note", "x", "--file", str(path)]
    assert main(adjust) == 0
    data = json.loads(path.read_text(encoding="utf-8"))
    if change == "mountain huge digits":
        text = json.dumps(data).replace('"mountain": 2', '"mountain": 1' + "0" * 5000)
        path.write_text(text, encoding="utf-8")
        return path
    edits = {
        "mountain 1e999999999": lambda d: d["deals"][0].update(mountain="1e999999999"),
        "mountain 1e4000 as int": lambda d: d["deals"][0].update(mountain=10**4000),
        "mountain inf": lambda d: d["deals"][0].update(mountain="inf"),
        "whist price NaN": lambda d: d.update(whist_price="NaN"),
        "target huge": lambda d: d.update(target=10**30),
        "liability 1e300": lambda d: d["convention"]["options"].update(liability=1e300),
        "misere_price huge": lambda d: d["convention"]["options"].update(misere_price=10**50),
        "player escape": lambda d: d.update(
            players=[ESC_RED, "Boris", "Vera"], first_dealer=ESC_RED
        ),
        "note newline": lambda d: d["deals"][0].update(note="peek\nat the talon"),
        "currency escape": lambda d: d.update(currency="\x1b[2J"),
    }
    edits[change](data)
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


LEDGER_EDITS = [
    ("mountain 1e999999999", "exponent"),
    ("mountain 1e4000 as int", "too large"),
    ("mountain huge digits", "the ledger is corrupt"),
    ("mountain inf", "not a number"),
    ("whist price NaN", "not a number"),
    ("target huge", "target"),
    ("liability 1e300", "too large"),
    ("misere_price huge", "option 'misere_price'"),
    ("player escape", "control character"),
    ("note newline", "control character"),
    ("currency escape", "currency"),
]


@pytest.mark.parametrize(("change", "phrase"), LEDGER_EDITS, ids=[c for c, _ in LEDGER_EDITS])
def test_a_ledger_with_a_hostile_value_is_refused_by_every_command(
    folder: Path, capsys: pytest.CaptureFixture[str], change: str, phrase: str
) -> None:
    path = _edited(folder, change)
    for command in (
        ["settle"],
        ["show"],
        ["export", "xlsx"],
        ["adjust", "Boris", "--pool", "1", "--note", "x"],
    ):
        line = _refused(folder, capsys, [*command, "--file", str(path)], phrase)
        assert "game.json" in line


@pytest.mark.parametrize(
    ("toml", "phrase"),
    [
        ('liability = "1e999999999"', "exponent"),
        ("liability = 1e999999999", "not a number"),
        ("pool_to_mountain = nan", "not a number"),
        ("pool_to_mountain = -inf", "not a number"),
        (f'pool_to_mountain = "{HUGE}"', "too long"),
        ("misere_price = 1" + "0" * 5000, "too many digits"),
        ("misere_price = 1" + "0" * 50, "option 'misere_price'"),
    ],
    ids=["string exponent", "float inf", "nan", "-inf", "5000-digit string", "5000 digits", "1e50"],
)
def test_a_house_rules_file_with_a_hostile_number_is_refused(
    folder: Path, capsys: pytest.CaptureFixture[str], toml: str, phrase: str
) -> None:
    rules = folder / "house.toml"
    rules.write_text(f'base = "sochi"\n{toml}\n', encoding="utf-8")
    _refused(folder, capsys, ["rules", str(rules)], phrase)
    argv = ["new", "A", "B", "C", "-c", str(rules), "--file", str(folder / "new.json")]
    _refused(folder, capsys, argv, phrase)


# --- names, notes ----------------------------------------------------------------------------

BAD_PLAYERS = [
    (["Anna", "Boris", "Ve\x07ra"], "control character"),
    (["Anna", "Boris", "Ve\nra"], "control character"),
    (["Anna", "Boris", ESC_RED], "player name '\\x1b[31mRed'"),
    (["Anna", "Boris", "anna"], "player 'anna' is listed twice (same as 'Anna')"),
    (["Anna", "Boris", "ANNA"], "listed twice (same as 'Anna')"),
    (["\u00c1nna", "Boris", "A\u0301nna"], "listed twice"),  # NFC and NFD of Ánna
    (["Anna", "Boris", "An\u200bna"], "player 'An\\u200bna' is listed twice (same as 'Anna')"),
    (["Anna", "Boris", "\ufeffAnna\u2060"], "listed twice"),
    (["Anna", "Boris", "An\u00adna"], "listed twice"),  # a soft hyphen
    (["Anna", "Boris", "x" * 200], "too long"),
    (["Anna", "Boris", "\u200b"], "empty"),
    (["Anna", "Boris", "Vera:p"], "bad player name"),
]


@pytest.mark.parametrize(
    ("players", "phrase"),
    BAD_PLAYERS,
    ids=[
        "bell",
        "newline",
        "ANSI escape",
        "lower case",
        "upper case",
        "NFD",
        "zero-width space",
        "BOM and word joiner",
        "soft hyphen",
        "200 characters",
        "invisible only",
        "colon",
    ],
)
def test_new_refuses_bad_and_look_alike_names(
    folder: Path, capsys: pytest.CaptureFixture[str], players: list[str], phrase: str
) -> None:
    argv = ["new", *players, "--file", str(folder / "new.json")]
    line = _refused(folder, capsys, argv, phrase)
    assert len(line) < 200, line


@pytest.mark.parametrize(
    ("argv", "phrase"),
    [
        (["adjust", "Anna", "--mountain", "2", "--note", "peek\x07"], "the note 'peek\\x07'"),
        (["adjust", "Anna", "--mountain", "2", "--note", "line\nbreak"], "control character"),
        (["adjust", "Anna", "--mountain", "2", "--note", ESC_RED], "control character"),
        (["adjust", "Anna", "--mountain", "2", "--note", "evil\u202eetoN"], "control character"),
        (["adjust", "Anna", "--mountain", "2", "--note", "n" * 500], "too long"),
        (["adjust", ESC_RED, "--mountain", "2", "--note", "x"], "unknown player '\\x1b[31mRed'"),
        (["adjust", "Anna", "--whists", f"{ESC_RED}=2", "--note", "x"], "unknown player"),
        (["game", "Anna", "7h", "7", f"Boris:{ESC_RED}", "Vera:p"], "unknown role '\\x1b[31mRed'"),
        (["game", "\x1b]0;pwned\x07", "7h", "7", "Boris:w", "Vera:p"], "unknown player"),
        (["passes", "x" * 500 + "=3", "Boris=5", "Vera=2"], "unknown player 'xxx"),
        (["game", "Anna", f"7{ESC_RED}", "7", "Boris:w", "Vera:p"], "unknown suit"),
        (["show", "--set", f"{ESC_RED}=1"], "unknown option '\\x1b[31mRed'"),
        (["show", "--set", ESC_RED], "malformed option"),
        ([ESC_RED], "no such command"),
        (["show", "--colour", ESC_RED], "--colour"),
    ],
    ids=[
        "note bell",
        "note newline",
        "note escape",
        "note bidi override",
        "note 500 characters",
        "adjust player escape",
        "whists player escape",
        "role escape",
        "declarer OSC title",
        "long unknown name",
        "suit escape",
        "option name escape",
        "malformed option escape",
        "command escape",
        "unknown option",
    ],
)
def test_echoed_words_are_escaped_and_short(
    folder: Path, capsys: pytest.CaptureFixture[str], argv: list[str], phrase: str
) -> None:
    line = _refused(folder, capsys, [*argv, "--file", str(folder / "game.json")], phrase)
    assert len(line) < 300, line


def test_look_alike_names_resolve_to_the_player(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = folder / "game.json"
    for word in ("anna", "ANNA", "An\u200bna", "\ufeffanna", "an\u00ad"):
        assert main(["adjust", word, "--mountain", "1", "--note", "x", "--file", str(path)]) == 0
    assert {e.deal.player for e in load(path).entries} == {"Anna"}
    players = ("\u00c1nna", "Boris", "Vera")
    assert resolve_player("A\u0301nna", players) == "\u00c1nna"  # NFD typed, NFC stored
    assert resolve_player("\u00e1", players) == "\u00c1nna"
    assert resolve_player("\uff22oris", players) == "Boris"  # a full-width B
    capsys.readouterr()


def test_names_are_stored_normalised(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = folder / "names.json"
    argv = ["new", "An\u200bna", "Bo\u0301ris", "Vera\u2060", "--currency", " eur ", "--file"]
    assert main([*argv, str(path)]) == 0
    game = load(path)
    assert game.players == ("Anna", "Bóris", "Vera")
    assert all(unicodedata.is_normalized("NFC", p) for p in game.players)
    assert game.currency == "EUR"
    capsys.readouterr()


def test_a_bare_prefcalc_shows_the_usage(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    before = _snapshot(folder)
    code = main([])
    out, err = capsys.readouterr()
    assert code == 0
    assert "Usage" in out and "prefcalc" in out
    assert err == ""
    assert "Traceback" not in out
    assert _raw_characters(out) == []
    assert _snapshot(folder) == before


# --- the helpers others call -----------------------------------------------------------------


def test_parse_amount_bounds() -> None:
    assert parse_amount(str(MAX_AMOUNT)) == MAX_AMOUNT
    assert parse_amount(f"-{MAX_AMOUNT}") == -MAX_AMOUNT
    assert parse_amount(f"1/{MAX_DENOMINATOR}") == Fraction(1, MAX_DENOMINATOR)
    assert parse_amount("0.000001") == Fraction(1, 10**6)
    assert parse_amount("2.5000000") == Fraction(5, 2)  # trailing zeros are not precision
    assert parse_amount(" 5 / 3 ") == Fraction(5, 3)
    assert parse_amount("-.5") == Fraction(-1, 2)
    for bad in (str(MAX_AMOUNT + 1), "1e3", "inf", "nan", "٣", "0x10", "", HUGE):
        with pytest.raises(AmountError):
            parse_amount(bad)
    assert to_amount(0.1) == Fraction(1, 10)
    assert to_amount(1e-5) == Fraction(1, 10**5)
    for bad_value in (float("inf"), float("nan"), 1e300, 10**4000, True, [1]):
        with pytest.raises(ValueError):
            to_amount(bad_value)


def test_shown_escapes_and_truncates() -> None:
    assert shown("Anna") == "Anna"
    assert shown(ESC_RED) == "\\x1b[31mRed"
    assert shown("a\nb\u200bc\u202e") == "a\\nb\\u200bc\\u202e"
    long = shown("x" * 200)
    assert len(long) == 40 and long.endswith("…")
    assert shown("Анна ½ ♥") == "Анна ½ ♥"


def test_name_helpers() -> None:
    assert normalize_name("An\u200bna\u2060") == "Anna"
    assert normalize_name("A\u0301nna") == "\u00c1nna"
    assert name_key("ANNA") == name_key("an\u00adna") == name_key("anna")
    assert check_players(("An\ufeffna", "Boris", "Vera")) == ("Anna", "Boris", "Vera")


@pytest.mark.parametrize("name", [ESC_RED, "Ve\nra", "x" * 200], ids=["escape", "newline", "long"])
def test_blank_refuses_bad_names(
    folder: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    argv = ["blank", "--name", "Anna", "--name", name, "-o", str(folder / "blank.pdf")]
    _refused(folder, capsys, argv, "player name")


@pytest.mark.parametrize(
    "names",
    [
        ["Anna", "\u0410nna", "Vera"],  # Cyrillic А
        ["Вера", "Bepa", "Gleb"],  # every letter a look-alike
        ["Ира", "Иpa", "Gleb"],  # Latin p inside a Cyrillic name
        ["Olga", "\u039flga", "Vera"],  # Greek Ο
    ],
)
def test_names_that_look_the_same_in_print_are_refused(
    names: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ledger = tmp_path / "game.json"
    assert main(["new", *names, "--file", str(ledger)]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "look the same on the sheet" in err
    assert not ledger.exists()


def test_names_in_two_alphabets_that_look_different_are_fine(tmp_path: Path) -> None:
    assert main(["new", "Анна", "Anna", "Тома", "Toma", "--file", str(tmp_path / "g.json")]) == 0
