"""Conventions as data: every option of RULES.md, validated, loaded from TOML.

A preset (``templates/sochi.toml``...) is a TOML file naming every option. A table's house
rules are a file of the same shape (optionally ``base = "sochi"`` plus the keys that differ),
or a preset plus ``key=value`` overrides such as ``passes.prices=1,2,4``. Scoring code reads
the resulting :class:`Convention` and never asks which preset it came from.
"""

import tomllib
from collections.abc import Callable, Iterable, Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any, NamedTuple

from prefcalc.amounts import MAX_WHOLE, Amount, exact_text, norm, parse_whole, to_amount
from prefcalc.errors import ConventionError, shown
from prefcalc.resources import bundled

PRESETS = ("sochi", "leningrad", "rostov")

# ---------------------------------------------------------------------------------------
# Value checkers: each takes a raw TOML value (or a string from --set) and returns the
# validated value or raises ValueError with the reason.


def _int_in(low: int, high: int | None = MAX_WHOLE) -> Callable[[Any], int]:
    def check(value: Any) -> int:
        if isinstance(value, str):
            value = _int_text(value)
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError("expected a whole number")
        if value < low or (high is not None and value > high):
            span = f"{low}..{high}" if high is not None else f">= {low}"
            raise ValueError(f"expected a whole number {span}")
        return value

    return check


def _int_text(text: str) -> int:
    try:
        return parse_whole(text)
    except ValueError:
        raise ValueError(f"'{shown(text)}' is not a whole number") from None


def _number_in(low: Fraction, high: Fraction | None = None) -> Callable[[Any], Amount]:
    def check(value: Any) -> Amount:
        if isinstance(value, bool):
            raise ValueError("expected a number")
        number = to_amount(value)  # bounded: no inf, NaN, exponent or huge number (ValueError)
        if number < low or (high is not None and number > high):
            span = f"between {low} and {high}" if high is not None else f"at least {low}"
            raise ValueError(f"expected a number {span}")
        return norm(number)

    return check


def _bool(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in ("true", "yes", "on", "1"):
        return True
    if isinstance(value, str) and value.strip().lower() in ("false", "no", "off", "0"):
        return False
    raise ValueError("expected true or false")


def _choice(*choices: str) -> Callable[[Any], str]:
    def check(value: Any) -> str:
        if isinstance(value, str) and value.strip().lower() in choices:
            return value.strip().lower()
        raise ValueError(f"expected one of {', '.join(choices)}")

    return check


def _price_or_int(value: Any) -> str | int:
    if isinstance(value, str) and value.strip().lower() == "price":
        return "price"
    try:
        return _int_in(0)(value)
    except ValueError:
        raise ValueError("expected 'price' or a whole number >= 0") from None


def _int_list(
    low: int, high: int | None = MAX_WHOLE, size: int | None = None
) -> Callable[[Any], tuple[int, ...]]:
    item = _int_in(low, high)

    def check(value: Any) -> tuple[int, ...]:
        if isinstance(value, str):
            value = [part for part in value.replace(" ", "").split(",") if part]
        if isinstance(value, int) and not isinstance(value, bool):
            value = [value]
        if not isinstance(value, list | tuple) or not value:
            raise ValueError("expected a non-empty list such as 1,2,3")
        if size is not None and len(value) != size:
            raise ValueError(f"expected exactly {size} values")
        return tuple(item(v) for v in value)

    return check


class Option(NamedTuple):
    """One named option: its key in TOML and ``--set``, its checker and its meaning."""

    key: str
    check: Callable[[Any], Any]
    doc: str

    @property
    def attr(self) -> str:
        return self.key.replace(".", "_")


OPTIONS: tuple[Option, ...] = (
    Option(
        "whist_factor",
        _int_in(1, 4),
        "whists per defender trick = game price x this (1, or 2 for Leningrad's doubled whists)",
    ),
    Option(
        "remise_factor",
        _int_in(1, 4),
        "a failed contract writes undertricks x game price x this into the mountain (1 or 2)",
    ),
    Option(
        "consolation",
        _price_or_int,
        "whists per undertrick for each consoled player: 'price' (= whists per trick) or a flat number",
    ),
    Option(
        "dealer_consolation",
        _bool,
        "4 players: the sitting-out dealer writes consolation on a failed contract too",
    ),
    Option(
        "liability",
        _number_in(Fraction(0), Fraction(1)),
        "whisters' shortfall per missing trick as a share of the whist price: 1 responsible, 0.5 semi-responsible",
    ),
    Option(
        "lone_whister",
        _choice("greedy", "gentleman"),
        "one whister and a passer, contract failed: 'greedy' or 'gentleman' (everything split in halves)",
    ),
    Option(
        "two_whisters",
        _choice("split", "both", "each"),
        "two whisters short of the norm: 'split', 'both' (8+: both pay when the pair took nothing) or 'each' (redneck)",
    ),
    Option(
        "half_whist",
        _bool,
        "half-whist on 6 and 7: the game counts as made, the half-whister writes half the norm",
    ),
    Option(
        "ten_norm",
        _int_in(0, 1),
        "tricks the defence must take against a 10 (0 or 1)",
    ),
    Option(
        "mountain_first",
        _bool,
        "points of a made game or misere first write off the declarer's own mountain",
    ),
    Option(
        "game_prices",
        _int_list(1, None, 5),
        "pool points of a made 6, 7, 8, 9, 10",
    ),
    Option(
        "misere_price",
        _int_in(1),
        "pool points of a made misere",
    ),
    Option(
        "misere_penalty",
        _int_in(1),
        "mountain per trick of a failed misere, before remise_factor",
    ),
    Option(
        "passes.scoring",
        _choice("mountain", "whists"),
        "all-pass deals: 'mountain' (tricks x price) or 'whists' (the fewest-tricks player writes on the others)",
    ),
    Option(
        "passes.prices",
        _int_list(1),
        "price per trick of the 1st, 2nd, 3rd... all-pass deal in a row",
    ),
    Option(
        "passes.after_last",
        _choice("hold", "arithmetic", "geometric"),
        "after the last price: 'hold', 'arithmetic' or 'geometric' continuation",
    ),
    Option(
        "passes.zero_bonus",
        _price_or_int,
        "pool points for taking no trick in an all-pass deal: 'price' (the deal's price) or a number",
    ),
    Option(
        "passes.amnesty",
        _bool,
        "subtract the smallest trick count from everybody before pricing an all-pass deal",
    ),
    Option(
        "passes.whists_per_trick",
        _int_in(1),
        "whists scoring: whists per trick of difference",
    ),
    Option(
        "passes.ties",
        _choice("each", "split"),
        "whists scoring, several players tie for the fewest tricks: 'each' writes in full, 'split' shares",
    ),
    Option(
        "passes.dealer_bonus",
        _int_in(0),
        "4 players: pool points of the sitting-out dealer in an all-pass deal",
    ),
    Option(
        "passes.exit",
        _int_list(6, 10),
        "lowest trick contract after 1, 2, 3... all-pass deals in a row (the last one holds)",
    ),
    Option(
        "passes.misere_ends",
        _bool,
        "a misere ends an all-pass streak",
    ),
    Option(
        "passes.ends_streak",
        _choice("any", "whisted"),
        "which contract ends an all-pass streak: 'any', or only a 'whisted' and played one",
    ),
    Option(
        "closing",
        _choice("each", "total"),
        "the game ends when 'each' pool reaches the target, or the pools' 'total' reaches target x players",
    ),
    Option(
        "help",
        _choice("most", "hole", "none"),
        "a closed player's excess points help the one with the 'most' points, the biggest 'hole', or 'none'",
    ),
    Option(
        "help_whists",
        _int_in(0),
        "whists the helper writes on the helped player per pool point given",
    ),
    Option(
        "pool_to_mountain",
        _number_in(Fraction(0)),
        "settlement: every point missing to the largest pool adds this much mountain",
    ),
)

OPTION_BY_KEY: dict[str, Option] = {option.key: option for option in OPTIONS}


class Convention(NamedTuple):
    """Every scoring option, validated. Attribute names are the keys with ``.`` -> ``_``."""

    name: str
    whist_factor: int
    remise_factor: int
    consolation: str | int
    dealer_consolation: bool
    liability: Amount
    lone_whister: str
    two_whisters: str
    half_whist: bool
    ten_norm: int
    mountain_first: bool
    game_prices: tuple[int, ...]
    misere_price: int
    misere_penalty: int
    passes_scoring: str
    passes_prices: tuple[int, ...]
    passes_after_last: str
    passes_zero_bonus: str | int
    passes_amnesty: bool
    passes_whists_per_trick: int
    passes_ties: str
    passes_dealer_bonus: int
    passes_exit: tuple[int, ...]
    passes_misere_ends: bool
    passes_ends_streak: str
    closing: str
    help: str
    help_whists: int
    pool_to_mountain: Amount
    description: str = ""

    def value(self, key: str) -> Any:
        """The value of option ``key`` (dotted name)."""
        return getattr(self, OPTION_BY_KEY[key].attr)

    def options(self) -> dict[str, Any]:
        """Every option as ``{dotted key: value}`` in the order of RULES.md."""
        return {option.key: self.value(option.key) for option in OPTIONS}

    def with_options(self, values: Mapping[str, Any], source: str = "--set") -> "Convention":
        """A copy with some options changed; values are validated like a TOML file's."""
        changes = {
            OPTION_BY_KEY[key].attr: value for key, value in _validate(values, source).items()
        }
        return self._replace(**changes)

    def passes_price(self, k: int) -> Amount:
        """The per-trick price of the k-th all-pass deal in a row (k >= 1)."""
        prices = self.passes_prices
        if k <= len(prices):
            return prices[k - 1]
        last = prices[-1]
        beyond = k - len(prices)
        if len(prices) < 2 or self.passes_after_last == "hold":
            return last
        if self.passes_after_last == "arithmetic":
            return last + beyond * (last - prices[-2])
        return norm(last * Fraction(last, prices[-2]) ** beyond)

    def exit_level(self, streak: int) -> int:
        """The lowest legal trick contract after ``streak`` all-pass deals in a row."""
        if streak <= 0:
            return 6
        return self.passes_exit[min(streak, len(self.passes_exit)) - 1]


def _flatten(table: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    flat: dict[str, Any] = {}
    for key, value in table.items():
        dotted = f"{prefix}{key}"
        if isinstance(value, Mapping):
            flat.update(_flatten(value, f"{dotted}."))
        else:
            flat[dotted] = value
    return flat


def _validate(values: Mapping[str, Any], source: str) -> dict[str, Any]:
    checked: dict[str, Any] = {}
    for key, raw in values.items():
        option = OPTION_BY_KEY.get(key)
        if option is None:
            raise ConventionError(f"unknown option '{shown(key)}'{_suggest(key)}", source)
        try:
            checked[key] = option.check(raw)
        except ValueError as exc:
            raise ConventionError(
                f"option '{key}': {exc} (got {shown(repr(raw))})", source
            ) from None
    return checked


def _suggest(key: str) -> str:
    import difflib

    close = difflib.get_close_matches(key, list(OPTION_BY_KEY), n=1)
    return f" (did you mean '{close[0]}'?)" if close else ""


def from_table(table: Mapping[str, Any], source: str) -> Convention:
    """Build a convention from a parsed TOML table (every option, or ``base`` + changes)."""
    flat = _flatten(table)
    name = flat.pop("name", None)
    description = flat.pop("description", "")
    base_name = flat.pop("base", None)
    if base_name is not None:
        if not isinstance(base_name, str):
            raise ConventionError("'base' must be a preset name", source)
        base = load_preset(base_name)
        result = base.with_options(flat, source)
        return result._replace(
            name=str(name) if name is not None else f"{base.name} (house rules)",
            description=str(description),
        )
    checked = _validate(flat, source)
    missing = [option.key for option in OPTIONS if option.key not in checked]
    if missing:
        raise ConventionError(
            f"missing option{'s' if len(missing) > 1 else ''} {', '.join(missing)} "
            '(or add base = "sochi" to start from a preset)',
            source,
        )
    kwargs = {OPTION_BY_KEY[key].attr: value for key, value in checked.items()}
    return Convention(name=str(name or Path(source).stem), description=str(description), **kwargs)


def load_file(path: Path) -> Convention:
    """Load a convention from a TOML file."""
    try:
        with path.open("rb") as handle:
            table = tomllib.load(handle)
    except OSError as exc:
        raise ConventionError(f"cannot read convention file: {exc.strerror}", str(path)) from None
    except tomllib.TOMLDecodeError as exc:
        raise ConventionError(f"not valid TOML: {exc}", str(path)) from None
    except ValueError:  # an integer over Python's 4,300-digit limit
        raise ConventionError("not valid TOML: a number has too many digits", str(path)) from None
    return from_table(table, str(path))


_PRESET_CACHE: dict[str, Convention] = {}


def load_preset(name: str) -> Convention:
    """Load a bundled preset by name (``sochi``, ``leningrad``, ``rostov``)."""
    key = name.strip().lower()
    cached = _PRESET_CACHE.get(key)
    if cached is not None:
        return cached
    if key not in PRESETS:
        raise ConventionError(
            f"unknown convention '{shown(name)}' (use {', '.join(PRESETS)} or a .toml file)"
        )
    convention = load_file(bundled("templates") / f"{key}.toml")
    _PRESET_CACHE[key] = convention
    return convention


def load(name_or_path: str) -> Convention:
    """A preset name or the path of a house-rules TOML file."""
    if name_or_path.strip().lower() in PRESETS:
        return load_preset(name_or_path)
    path = Path(name_or_path)
    if path.suffix.lower() == ".toml" or path.exists():
        return load_file(path)
    raise ConventionError(
        f"unknown convention '{shown(name_or_path)}' (use {', '.join(PRESETS)} or a .toml file)"
    )


def parse_overrides(pairs: Iterable[str]) -> dict[str, Any]:
    """``["passes.prices=1,2,4", "liability=0.5"]`` -> ``{key: validated value}``."""
    raw: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise ConventionError(
                f"malformed option '{shown(pair)}' (use key=value, e.g. passes.prices=1,2,4)"
            )
        raw[key.strip()] = value.strip()
    return _validate(raw, "--set")


def to_toml_value(value: Any) -> str:
    """An option value as TOML source text."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple | list):
        return "[" + ", ".join(to_toml_value(v) for v in value) + "]"
    if isinstance(value, Fraction):
        text = exact_text(value)
        return f'"{text}"' if "/" in text else text
    if isinstance(value, str):
        return f'"{value}"'
    return str(value)


def to_jsonable(value: Any) -> Any:
    """An option value for the JSON ledger (fractions as strings like "1/2")."""
    if isinstance(value, tuple):
        return list(value)
    if isinstance(value, Fraction):
        return exact_text(value)
    return value
