"""Conventions as data: the presets against docs/rules.md §6, house rules and --set.

The expected preset values are copied by hand from the table in docs/rules.md §6 (and
section 3 for the prices), not from the TOML files.
"""

from __future__ import annotations

import re
import tomllib
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from prefcalc.errors import ConventionError
from prefcalc.rules.conventions import (
    OPTION_BY_KEY,
    OPTIONS,
    PRESETS,
    Convention,
    parse_overrides,
)
from prefcalc.store.conventions import from_table, load, load_file, load_preset

TEMPLATES = Path(__file__).resolve().parents[1] / "templates"
HALF = Fraction(1, 2)

# docs/rules.md §6, one row per key: (Sochi, Leningrad, Rostov).
SECTION_6: dict[str, tuple[Any, Any, Any]] = {
    "whist_factor": (1, 2, 1),
    "remise_factor": (1, 2, 1),
    "consolation": ("price", "price", 10),
    "dealer_consolation": (True, True, True),
    "liability": (1, HALF, HALF),
    "lone_whister": ("greedy", "gentleman", "gentleman"),
    "two_whisters": ("split", "split", "split"),
    "half_whist": (True, True, True),
    "ten_norm": (0, 0, 0),
    "mountain_first": (False, False, False),
    "passes.scoring": ("mountain", "mountain", "whists"),
    "passes.prices": ((1, 2, 3), (2, 4, 6), (1,)),
    "passes.after_last": ("hold", "hold", "hold"),
    "passes.zero_bonus": ("price", "price", 1),
    "passes.amnesty": (False, False, False),
    "passes.whists_per_trick": (5, 5, 5),
    "passes.ties": ("each", "each", "each"),
    "passes.dealer_bonus": (0, 0, 1),
    "passes.exit": ((6, 6, 6), (7, 7, 7), (6, 6, 6)),
    "passes.misere_ends": (True, True, True),
    "passes.ends_streak": ("any", "any", "any"),
    "closing": ("each", "total", "each"),
    "help": ("most", "none", "hole"),
    "help_whists": (10, 10, 10),
    "pool_to_mountain": (1, 2, 1),
}
# docs/rules.md §3 (the same in every preset): game prices 2-4-6-8-10, misère 10 made,
# 10 per trick failed (before remise_factor).
SECTION_3: dict[str, Any] = {
    "game_prices": (2, 4, 6, 8, 10),
    "misere_price": 10,
    "misere_penalty": 10,
}

# docs/rules.md §8: every option is off in Sochi, Leningrad and Rostov.
SECTION_8: dict[str, Any] = {
    "dark_games": False,
    "dark_six_whisted": False,
    "stalingrad": False,
    "bombs.opening": (),
    "bombs.blind": False,
    "bombs.order": "oldest",
    "liability_after_close": "none",
    "talon_bonus": False,
    "return_whist": False,
    "preference_combo": False,
    "prizes.first_close": 0,
    "prizes.min_mountain": 0,
    # the options the FSPR preset brought (docs/tournament.md §9): today's rules when unset
    "pool_whists": 20,
    "talon_bonus_three": False,
    "talon_required": False,
    "dealer_return_liability": 1,
    "passes.dealer_plays_talon": False,
    "passes.dealer_zero_bonus": False,
}


def _typed(value: Any) -> tuple[type, Any]:
    """Compare values with their type, so that True is not 1 and "10" is not 10."""
    return (int if isinstance(value, int) and not isinstance(value, bool) else type(value), value)


def test_every_option_is_in_the_rules_tables() -> None:
    assert set(OPTION_BY_KEY) == set(SECTION_6) | set(SECTION_3) | set(SECTION_8)
    assert len(OPTIONS) == len(OPTION_BY_KEY)


@pytest.mark.parametrize("column", range(3), ids=PRESETS[:3])
def test_presets_match_rules_section_6_value_by_value(column: int) -> None:
    conv = load_preset(PRESETS[column])
    for key, row in SECTION_6.items():
        assert _typed(conv.value(key)) == _typed(row[column]), key
    for key, value in SECTION_3.items():
        assert _typed(conv.value(key)) == _typed(value), key
    for key, value in SECTION_8.items():
        assert _typed(conv.value(key)) == _typed(value), key


@pytest.mark.parametrize("name", PRESETS)
def test_preset_names_are_case_insensitive_and_load_their_template(name: str) -> None:
    assert load_preset(name.upper()) == load_preset(name)
    assert load(name) == load_preset(name)
    assert load_file(TEMPLATES / f"{name}.toml") == load_preset(name)
    assert load_preset(name).name.lower() == name


def test_an_unknown_preset_is_an_error() -> None:
    with pytest.raises(ConventionError, match="unknown convention 'moscow'"):
        load_preset("moscow")
    with pytest.raises(ConventionError, match="unknown convention 'moscow'"):
        load("moscow")


# --- the template files: every option, once, with its doc as the comment --------------------

_LINE = re.compile(r"^(?P<key>[A-Za-z_]+)\s*=\s*(?P<value>.*?)(?:\s+#\s*(?P<comment>.*))?$")


def _option_lines(path: Path) -> list[tuple[str, str | None]]:
    """(dotted key, comment) for every ``key = value`` line that names an option."""
    section = ""
    out = []
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            section = line[1 : line.index("]")] + "."
            continue
        match = _LINE.match(line)
        assert match, f"{path.name}: cannot read {raw!r}"
        key = section + match["key"]
        if key in ("name", "description", "base"):
            continue
        out.append((key, match["comment"]))
    return out


@pytest.mark.parametrize("name", PRESETS)
def test_template_names_every_option_once(name: str) -> None:
    keys = [key for key, _ in _option_lines(TEMPLATES / f"{name}.toml")]
    assert sorted(keys) == sorted(OPTION_BY_KEY)


@pytest.mark.parametrize("name", PRESETS)
def test_template_comment_of_every_option_is_its_doc(name: str) -> None:
    for key, comment in _option_lines(TEMPLATES / f"{name}.toml"):
        assert comment is not None, f"{name}.toml: {key} has no comment"
        assert comment.replace('"', "'") == OPTION_BY_KEY[key].doc, key


@pytest.mark.parametrize("name", PRESETS)
def test_template_is_valid_toml_with_a_name_and_description(name: str) -> None:
    table = tomllib.loads((TEMPLATES / f"{name}.toml").read_text(encoding="utf-8"))
    assert table["name"].lower() == name
    assert table["description"].strip()


# --- unknown keys and bad values name the key ------------------------------------------------


@pytest.mark.parametrize(
    ("call", "key"),
    [
        (lambda: parse_overrides(["whist_factr=2"]), "whist_factr"),
        (lambda: parse_overrides(["passes.price=1,2,4"]), "passes.price"),
        (lambda: load_preset("sochi").with_options({"bogus": 1}), "bogus"),
        (lambda: from_table({"base": "sochi", "bogus": 1}, "house.toml"), "bogus"),
        (lambda: from_table({"base": "sochi", "passes": {"nope": 1}}, "house.toml"), "passes.nope"),
    ],
)
def test_unknown_key_is_a_convention_error_naming_the_key(call: Any, key: str) -> None:
    with pytest.raises(ConventionError) as info:
        call()
    assert f"unknown option '{key}'" in str(info.value)


def test_unknown_key_suggests_the_close_one() -> None:
    with pytest.raises(ConventionError, match="did you mean 'whist_factor'"):
        parse_overrides(["whist_factr=2"])


@pytest.mark.parametrize(
    "pair",
    [
        "whist_factor=x",
        "whist_factor=0",
        "remise_factor=9",
        "liability=2",
        "liability=half",
        "lone_whister=nice",
        "two_whisters=all",
        "half_whist=maybe",
        "ten_norm=2",
        "consolation=-1",
        "consolation=lots",
        "game_prices=1,2,3",
        "passes.prices=",
        "passes.prices=1,x",
        "passes.after_last=exponential",
        "passes.zero_bonus=lots",
        "passes.exit=5,6",
        "passes.exit=6,11",
        "passes.ties=none",
        "closing=never",
        "help=least",
    ],
)
def test_bad_value_is_a_convention_error_naming_the_key(pair: str) -> None:
    key = pair.partition("=")[0]
    with pytest.raises(ConventionError, match=f"option '{re.escape(key)}'"):
        parse_overrides([pair])


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("whist_factor", True),  # a boolean is not a number
        ("liability", "abc"),
        ("passes.prices", []),
        ("help", 3),
    ],
)
def test_bad_value_in_a_house_rules_table_names_the_key(key: str, value: Any) -> None:
    table: dict[str, Any] = {"base": "sochi"}
    if "." in key:
        section, _, name = key.partition(".")
        table[section] = {name: value}
    else:
        table[key] = value
    with pytest.raises(ConventionError, match=f"option '{re.escape(key)}'"):
        from_table(table, "house.toml")


def test_malformed_override_is_an_error() -> None:
    with pytest.raises(ConventionError, match="malformed option 'liability'"):
        parse_overrides(["liability"])
    with pytest.raises(ConventionError, match="malformed option"):
        parse_overrides(["=1"])


# --- --set overrides -------------------------------------------------------------------------


def test_parse_overrides_validates_and_converts() -> None:
    assert parse_overrides(
        [
            "passes.prices=1,2,4",
            "liability=0.5",
            "lone_whister=Gentleman",
            "half_whist=no",
            "consolation=10",
            "passes.zero_bonus=price",
            "passes.exit=6, 7, 8",
            "pool_to_mountain=1/2",
            "ten_norm=1",
        ]
    ) == {
        "passes.prices": (1, 2, 4),
        "liability": HALF,
        "lone_whister": "gentleman",
        "half_whist": False,
        "consolation": 10,
        "passes.zero_bonus": "price",
        "passes.exit": (6, 7, 8),
        "pool_to_mountain": HALF,
        "ten_norm": 1,
    }


def test_liability_accepts_decimal_and_fraction_text_alike() -> None:
    assert parse_overrides(["liability=0.5"]) == parse_overrides(["liability=1/2"])
    assert parse_overrides(["liability=1"])["liability"] == 1


def _set_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        return ",".join(str(v) for v in value)
    return str(value)


@pytest.mark.parametrize("name", PRESETS)
def test_every_preset_value_written_as_set_text_parses_back(name: str) -> None:
    conv = load_preset(name)
    for key, value in conv.options().items():
        assert parse_overrides([f"{key}={_set_text(value)}"]) == {key: value}, key


def test_with_options_changes_only_the_named_options() -> None:
    sochi = load_preset("sochi")
    changed = sochi.with_options(parse_overrides(["passes.prices=1,2,4", "lone_whister=gentleman"]))
    assert changed.passes_prices == (1, 2, 4)
    assert changed.lone_whister == "gentleman"
    differing = {k for k in OPTION_BY_KEY if changed.value(k) != sochi.value(k)}
    assert differing == {"passes.prices", "lone_whister"}
    assert sochi.passes_prices == (1, 2, 3)  # the preset itself is untouched


def test_a_fractional_override_goes_through_with_options() -> None:
    conv = load_preset("sochi").with_options(parse_overrides(["liability=0.5"]))
    assert conv.liability == HALF


def test_a_convention_round_trips_through_its_own_options_table() -> None:
    rostov = load_preset("rostov")
    again = from_table({"name": rostov.name, **rostov.options()}, "the game's house rules")
    assert again.options() == rostov.options()


# --- house-rules files -----------------------------------------------------------------------


def test_house_rules_with_a_base_preset_and_changes(tmp_path: Path) -> None:
    path = tmp_path / "our_table.toml"
    path.write_text(
        'base = "sochi"\n'
        'name = "Our table"\n'
        'lone_whister = "gentleman"\n'
        "liability = 0.5\n"
        "[passes]\n"
        "prices = [1, 2, 4]\n"
        'after_last = "geometric"\n',
        encoding="utf-8",
    )
    conv = load(str(path))
    sochi = load_preset("sochi")
    assert conv.name == "Our table"
    assert conv.lone_whister == "gentleman"
    assert conv.liability == HALF
    assert conv.passes_prices == (1, 2, 4)
    assert conv.passes_after_last == "geometric"
    differing = {k for k in OPTION_BY_KEY if conv.value(k) != sochi.value(k)}
    assert differing == {"lone_whister", "liability", "passes.prices", "passes.after_last"}


def test_house_rules_without_a_name_are_named_after_their_base(tmp_path: Path) -> None:
    path = tmp_path / "h.toml"
    path.write_text('base = "rostov"\nten_norm = 1\n', encoding="utf-8")
    conv = load_file(path)
    assert conv.name == "Rostov (house rules)"
    assert conv.ten_norm == 1


def test_a_full_house_rules_file_is_a_copy_of_a_template(tmp_path: Path) -> None:
    text = (TEMPLATES / "leningrad.toml").read_text(encoding="utf-8")
    path = tmp_path / "piter.toml"
    path.write_text(text.replace("ten_norm = 0 ", "ten_norm = 1 "), encoding="utf-8")
    conv = load_file(path)
    assert conv.ten_norm == 1
    assert conv.whist_factor == 2


@pytest.mark.parametrize(
    ("drop", "key"),
    [("ten_norm = 0", "ten_norm"), ("amnesty = false", "passes.amnesty")],
)
def test_a_full_house_rules_file_missing_a_key_is_an_error_naming_it(
    tmp_path: Path, drop: str, key: str
) -> None:
    lines = (TEMPLATES / "sochi.toml").read_text(encoding="utf-8").splitlines()
    kept = [line for line in lines if not line.startswith(drop)]
    assert len(kept) == len(lines) - 1
    path = tmp_path / "short.toml"
    path.write_text("\n".join(kept) + "\n", encoding="utf-8")
    with pytest.raises(ConventionError, match=rf"missing option {re.escape(key)} "):
        load_file(path)


def test_house_rules_with_a_bad_base(tmp_path: Path) -> None:
    with pytest.raises(ConventionError, match="'base' must be a preset name"):
        from_table({"base": 1}, "house.toml")
    with pytest.raises(ConventionError, match="unknown convention 'moscow'"):
        from_table({"base": "moscow"}, "house.toml")


def test_house_rules_file_that_is_not_toml_or_missing(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("whist_factor = = 2\n", encoding="utf-8")
    with pytest.raises(ConventionError, match="not valid TOML"):
        load(str(bad))
    with pytest.raises(ConventionError, match="cannot read convention file"):
        load(str(tmp_path / "absent.toml"))


def test_the_error_says_which_file(tmp_path: Path) -> None:
    path = tmp_path / "house.toml"
    path.write_text('base = "sochi"\nhelp = "everyone"\n', encoding="utf-8")
    with pytest.raises(ConventionError) as info:
        load_file(path)
    assert str(path) in str(info.value)
    assert "option 'help'" in str(info.value)


# --- passes_price progressions and exit levels ----------------------------------------------


def _progression(conv: Convention, n: int = 6) -> list[Any]:
    return [conv.passes_price(k) for k in range(1, n + 1)]


@pytest.mark.parametrize(
    ("prices", "after_last", "expected"),
    [
        ((1, 2, 3), "hold", [1, 2, 3, 3, 3, 3]),  # Sochi
        ((2, 4, 6), "hold", [2, 4, 6, 6, 6, 6]),  # Leningrad
        ((1,), "hold", [1, 1, 1, 1, 1, 1]),  # Rostov
        ((1, 2, 3), "arithmetic", [1, 2, 3, 4, 5, 6]),  # + (3 − 2) each time
        ((2, 4, 6), "arithmetic", [2, 4, 6, 8, 10, 12]),
        ((1, 2, 4), "geometric", [1, 2, 4, 8, 16, 32]),  # × (4 / 2) each time
        ((2, 4, 8), "geometric", [2, 4, 8, 16, 32, 64]),
        ((1, 2, 2), "arithmetic", [1, 2, 2, 2, 2, 2]),  # difference 0
        ((1,), "geometric", [1, 1, 1, 1, 1, 1]),  # nothing to continue from: holds
        # Engine's exact choice: the ratio of the last two prices, kept as a fraction.
        ((1, 2, 3), "geometric", [1, 2, 3, Fraction(9, 2), Fraction(27, 4), Fraction(81, 8)]),
    ],
)
def test_passes_price_progressions(
    prices: tuple[int, ...], after_last: str, expected: list[Any]
) -> None:
    conv = load_preset("sochi")._replace(passes_prices=prices, passes_after_last=after_last)
    assert _progression(conv) == expected


@pytest.mark.parametrize(
    ("name", "expected"),
    [("sochi", [1, 2, 3, 3]), ("leningrad", [2, 4, 6, 6]), ("rostov", [1, 1, 1, 1])],
)
def test_preset_passes_prices(name: str, expected: list[int]) -> None:
    assert _progression(load_preset(name), 4) == expected


@pytest.mark.parametrize(
    ("exit_levels", "expected"),
    [
        ((6, 6, 6), [6, 6, 6, 6, 6]),  # Sochi, Rostov
        ((7, 7, 7), [6, 7, 7, 7, 7]),  # Leningrad: no passes yet → 6
        ((6, 7, 8), [6, 6, 7, 8, 8]),  # the last entry holds
        ((7,), [6, 7, 7, 7, 7]),
    ],
)
def test_exit_level_after_k_passes(exit_levels: tuple[int, ...], expected: list[int]) -> None:
    conv = load_preset("sochi")._replace(passes_exit=exit_levels)
    assert [conv.exit_level(k) for k in range(5)] == expected


def test_exit_level_from_set_text() -> None:
    conv = load_preset("sochi").with_options(parse_overrides(["passes.exit=6,7,8"]))
    assert [conv.exit_level(k) for k in (1, 2, 3, 9)] == [6, 7, 8, 8]


def test_options_are_listed_in_the_rules_order() -> None:
    assert list(load_preset("sochi").options()) == [option.key for option in OPTIONS]
    assert [o.key for o in OPTIONS][:3] == ["whist_factor", "remise_factor", "consolation"]


@pytest.mark.parametrize("key", ["name", "description"])
def test_a_house_rules_name_or_description_is_one_line_of_text(key: str) -> None:
    with pytest.raises(ConventionError, match=f"'{key}' must be one line of text"):
        from_table({"base": "sochi", key: "Thursday\x1b[2J\n"}, "house.toml")


def test_an_all_pass_progression_that_grows_without_bound_is_refused_not_computed() -> None:
    conv = load_preset("sochi").with_options(
        {"passes.prices": (1, 2), "passes.after_last": "geometric"}
    )
    assert conv.passes_price(30) == 2**29
    with pytest.raises(ConventionError, match="would cost more than 1,000,000,000 per trick"):
        conv.passes_price(31)
    with pytest.raises(ConventionError, match="grows without bound"):
        conv.passes_price(10**6)  # answered at once, never computed


# --- the model is the one definition of the options -------------------------------------------


def _model_fields() -> dict[str, Any]:
    """Every option's pydantic field, by dotted key, read straight off the model."""
    from prefcalc.rules.options import BombsOptions, ConventionFile, PassesOptions, PrizesOptions

    tables = {"passes": PassesOptions, "bombs": BombsOptions, "prizes": PrizesOptions}
    out: dict[str, Any] = {}
    for name, field in ConventionFile.model_fields.items():
        if name in ("name", "description", "base"):
            continue
        if name in tables:
            for inner, inner_field in tables[name].model_fields.items():
                out[f"{name}.{inner}"] = inner_field
        else:
            out[name] = field
    return out


def test_options_are_read_from_the_model_fields_in_their_order() -> None:
    fields = _model_fields()
    assert [o.key for o in OPTIONS] == list(fields)
    for option in OPTIONS:
        assert option.doc == fields[option.key].description, option.key
    # the order of docs/rules.md §6.1: the [passes] options after misere_penalty, stalingrad last
    keys = [o.key for o in OPTIONS]
    assert keys[12:14] == ["misere_penalty", "passes.scoring"]
    assert keys[-1] == "stalingrad"
    assert Convention._fields == ("name", "description", *(o.attr for o in OPTIONS))


def test_section_8_options_and_their_unset_values_come_from_the_model() -> None:
    from prefcalc.rules.conventions import OFF
    from prefcalc.rules.conventions import SECTION_8 as MARKED

    assert set(MARKED) == set(SECTION_8)
    assert {o.key for o in OPTIONS if o.section_8} == set(SECTION_8)
    assert {k: _typed(v) for k, v in OFF.items()} == {k: _typed(v) for k, v in SECTION_8.items()}


def test_a_full_table_without_the_section_8_options_has_them_off() -> None:
    table = {k: v for k, v in tomllib.loads((TEMPLATES / "classic.toml").read_text()).items()}
    table.pop("bombs")
    table.pop("prizes")
    for key in SECTION_8:
        table.pop(key, None)
    conv = from_table(table, "house.toml")
    for key, value in SECTION_8.items():
        assert _typed(conv.value(key)) == _typed(value), key
    assert conv.game_prices == (2, 4, 6, 8, 10)


def test_the_json_schema_carries_each_option_s_meaning_and_section_8_mark() -> None:
    from prefcalc.rules.options import SECTION_8_MARK
    from prefcalc.store.schemas import json_schema

    schema = json_schema("convention")
    whist = schema["properties"]["whist_factor"]
    assert whist["description"] == OPTION_BY_KEY["whist_factor"].doc
    assert SECTION_8_MARK not in whist and whist["default"] is None
    opening = schema["$defs"]["BombsOptions"]["properties"]["opening"]
    assert opening["description"] == OPTION_BY_KEY["bombs.opening"].doc
    assert opening[SECTION_8_MARK] is True and opening["default"] == []
    stalingrad = schema["properties"]["stalingrad"]
    assert stalingrad[SECTION_8_MARK] is True and stalingrad["default"] is False
    assert schema["$defs"]["PrizesOptions"]["properties"]["first_close"]["default"] == 0


def _options_table_module() -> Any:
    import importlib.util

    path = Path(__file__).resolve().parents[1] / "docs" / "options_table.py"
    spec = importlib.util.spec_from_file_location("options_table", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_docs_options_table_is_what_the_model_generates() -> None:
    generator = _options_table_module()
    text = generator.RULES.read_text(encoding="utf-8")
    assert generator.with_table(text) == text, "run: python docs/options_table.py --write"
    rows = [line for line in generator.table().splitlines() if line.startswith("| `")]
    assert [row.split("`")[1] for row in rows] == [o.key for o in OPTIONS]
    assert "| `stalingrad` | a 6 of spades must be whisted by both defenders" in text
    assert "(section 8: off if unset)" in rows[-1]


def test_docs_options_table_write_mends_a_stale_table() -> None:
    generator = _options_table_module()
    text = generator.RULES.read_text(encoding="utf-8")
    stale = text.replace("| `ten_norm` | tricks the defence", "| `ten_norm` | old words")
    assert stale != text
    assert generator.with_table(stale) == text
    with pytest.raises(ValueError, match="markers"):
        generator.with_table("no table here")


@pytest.mark.parametrize("name", PRESETS)
def test_every_template_validates_against_the_committed_convention_schema(name: str) -> None:
    # Leningrad's liability = 0.5 is a TOML float: the schema once allowed only integers there
    import json

    jsonschema = pytest.importorskip("jsonschema")
    root = Path(__file__).resolve().parents[1]
    schema = json.loads((root / "schemas" / "convention.schema.json").read_text("utf-8"))
    jsonschema.validate(tomllib.loads((TEMPLATES / f"{name}.toml").read_text("utf-8")), schema)
    for bad in ({"liability": 1.5}, {"pool_to_mountain": -1}, {"liability_after_close": 2}):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate({"base": "sochi", **bad}, schema)
    jsonschema.validate({"base": "sochi", "liability": "1/2", "liability_after_close": 0.5}, schema)


def test_the_rules_read_no_file() -> None:
    """Issue 24: no file I/O in prefcalc.rules. The TOML files are read by
    prefcalc.store.conventions; no module of the rules imports the store, even inside a
    function, nor the TOML reader."""
    import ast

    rules = Path(__file__).resolve().parents[1] / "prefcalc" / "rules"
    found = []
    for source in sorted(rules.rglob("*.py")):
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
            found += [
                f"{source.name}: {n}"
                for n in names
                if n.startswith(("prefcalc.store", "tomllib", "prefcalc.resources"))
            ]
    assert found == []
