"""Conventions as data: every option of docs/rules.md, validated, loaded from TOML.

A preset (``templates/sochi.toml``...) is a TOML file naming every option. A table's house
rules are a file of the same shape (optionally ``base = "sochi"`` plus the keys that differ),
or a preset plus ``key=value`` overrides such as ``passes.prices=1,2,4``. Scoring code reads
the resulting :class:`Convention` and never asks which preset it came from.
"""

import math
import re
import tomllib
from collections.abc import Iterable, Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any, Literal, NamedTuple

from pydantic import ValidationError

from prefcalc.errors import ConventionError, shown
from prefcalc.i18n import N_
from prefcalc.resources import bundled
from prefcalc.rules.amounts import MAX_AMOUNT, Amount, exact_text, norm
from prefcalc.store.schemas import (
    ONE_LINE,
    AfterLast,
    BombOrder,
    Closing,
    ConventionFile,
    EndsStreak,
    HelpRule,
    LoneWhister,
    PassesScoring,
    Ties,
    TwoWhisters,
    first_error,
)

PRESETS = ("sochi", "leningrad", "rostov", "classic")

PRESET_ALIASES = {
    "сочинка": "sochi",
    "сочи": "sochi",
    "ленинградка": "leningrad",
    "питер": "leningrad",
    "piter": "leningrad",
    "ростовка": "rostov",
    "классика": "classic",
    # Gusarik is the two-player game, not a scoring of its own: the bundled Gusarik evening
    # is scored by the Sochi rules, so the name starts a Sochi game (of two players)
    "гусарик": "sochi",
    "gusarik": "sochi",
}
"""The presets by the names Russian players call them (any case): Сочинка, Ленинградка..."""


def preset_key(name: str) -> str | None:
    """The preset a name means (``Sochi``, ``сочинка``, ``Питер`` -> its key), or None."""
    key = name.strip().casefold()
    if key in PRESETS:
        return key
    return PRESET_ALIASES.get(key)


PRESET_TARGETS = {"classic": 50}
"""The target a new game of a preset is played to when none is given (otherwise 20)."""


def default_target(convention: str) -> int:
    """The pool target of a new game when none is given: 50 for Classic (docs/rules.md §8.1), 20."""
    return PRESET_TARGETS.get(preset_key(convention) or "", 20)


class Option(NamedTuple):
    """One named option: its key in TOML and ``--set`` and its meaning.

    Its type and range are those of the same field of :class:`prefcalc.store.schemas.ConventionFile`.
    """

    key: str
    doc: str

    @property
    def attr(self) -> str:
        return self.key.replace(".", "_")


OPTIONS: tuple[Option, ...] = (
    Option(
        "whist_factor",
        N_(
            "whists per defender trick = game price x this (1, or 2 for Leningrad's doubled whists)"
        ),
    ),
    Option(
        "remise_factor",
        N_("a failed contract writes undertricks x game price x this into the mountain (1 or 2)"),
    ),
    Option(
        "consolation",
        N_(
            "whists per undertrick for each consoled player: 'price' (= whists per trick) or a flat number"
        ),
    ),
    Option(
        "dealer_consolation",
        N_("4 players: the sitting-out dealer writes consolation on a failed contract too"),
    ),
    Option(
        "liability",
        N_(
            "whisters' shortfall per missing trick as a share of the whist price: 1 responsible, 0.5 semi-responsible"
        ),
    ),
    Option(
        "lone_whister",
        N_(
            "one whister and a passer, contract failed: 'greedy' or 'gentleman' (everything split in halves)"
        ),
    ),
    Option(
        "two_whisters",
        N_(
            "two whisters short of the norm: 'split', 'both' (8+: both pay when the pair took nothing) or 'each' (redneck)"
        ),
    ),
    Option(
        "half_whist",
        N_("half-whist on 6 and 7: the game counts as made, the half-whister writes half the norm"),
    ),
    Option(
        "ten_norm",
        N_("tricks the defence must take against a 10 (0 or 1)"),
    ),
    Option(
        "mountain_first",
        N_("points of a made game or misere first write off the declarer's own mountain"),
    ),
    Option(
        "game_prices",
        N_("pool points of a made 6, 7, 8, 9, 10"),
    ),
    Option(
        "misere_price",
        N_("pool points of a made misere"),
    ),
    Option(
        "misere_penalty",
        N_("mountain per trick of a failed misere, before remise_factor"),
    ),
    Option(
        "passes.scoring",
        N_(
            "all-pass deals: 'mountain' (tricks x price) or 'whists' (the fewest-tricks player writes on the others)"
        ),
    ),
    Option(
        "passes.prices",
        N_("price per trick of the 1st, 2nd, 3rd... all-pass deal in a row"),
    ),
    Option(
        "passes.after_last",
        N_("after the last price: 'hold', 'arithmetic' or 'geometric' continuation"),
    ),
    Option(
        "passes.zero_bonus",
        N_(
            "pool points for taking no trick in an all-pass deal: 'price' (the deal's price) or a number"
        ),
    ),
    Option(
        "passes.amnesty",
        N_("subtract the smallest trick count from everybody before pricing an all-pass deal"),
    ),
    Option(
        "passes.whists_per_trick",
        N_("whists scoring: whists per trick of difference"),
    ),
    Option(
        "passes.ties",
        N_(
            "whists scoring, several players tie for the fewest tricks: 'each' writes in full, 'split' shares"
        ),
    ),
    Option(
        "passes.dealer_bonus",
        N_("4 players: pool points of the sitting-out dealer in an all-pass deal"),
    ),
    Option(
        "passes.exit",
        N_("lowest trick contract after 1, 2, 3... all-pass deals in a row (the last one holds)"),
    ),
    Option(
        "passes.misere_ends",
        N_("a misere ends an all-pass streak"),
    ),
    Option(
        "passes.ends_streak",
        N_("which contract ends an all-pass streak: 'any', or only a 'whisted' and played one"),
    ),
    Option(
        "closing",
        N_(
            "the game ends when 'each' pool reaches the target, or the pools' 'total' reaches target x players"
        ),
    ),
    Option(
        "help",
        N_(
            "a closed player's excess points help the one with the 'most' points, the biggest 'hole', or 'none'"
        ),
    ),
    Option(
        "help_whists",
        N_("whists the helper writes on the helped player per pool point given"),
    ),
    Option(
        "pool_to_mountain",
        N_("settlement: every point missing to the largest pool adds this much mountain"),
    ),
    Option(
        "bombs.opening",
        N_(
            "Classic: one circle of all-pass deals per level k opens the game: tricks x 2^k, every player earns a bomb x2^k"
        ),
    ),
    Option(
        "bombs.blind",
        N_(
            "Classic: an all-pass deal may name players who passed blind (--blind); each earns a bomb x2"
        ),
    ),
    Option(
        "bombs.order",
        N_(
            "Classic: a declarer's game uses his 'oldest' bomb, or the one 'declared' (--bomb F); used up only if made"
        ),
    ),
    Option(
        "dark_games",
        N_("Classic: a game or misere ordered blind (--dark) counts x2"),
    ),
    Option(
        "dark_six_whisted",
        N_("Classic: a dark 6 of spades must be whisted by both defenders"),
    ),
    Option(
        "liability_after_close",
        N_(
            "Classic: liability of the whisters from the first deal that starts with a closed pool: 'none' (unchanged) or a number"
        ),
    ),
    Option(
        "talon_bonus",
        N_(
            "4-5 players: the sitting-out dealer writes whists per trick the talon gave the declarer (--talon N)"
        ),
    ),
    Option(
        "return_whist",
        N_(
            "the sitting-out dealer may return the whist after both passed (--returned-by), the first defender after a half-whist (r)"
        ),
    ),
    Option(
        "preference_combo",
        N_(
            "Classic: 'preference PLAYER' ends the game: his mountain off, every pool filled up, 'help_whists' per point given"
        ),
    ),
    Option(
        "prizes.first_close",
        N_("settlement: whists the first player to close his pool writes on every other player"),
    ),
    Option(
        "prizes.min_mountain",
        N_(
            "settlement: whists the player(s) with the smallest mountain write on every player not tied with them"
        ),
    ),
    Option(
        "stalingrad",
        N_("a 6 of spades must be whisted by both defenders (no pass, no half-whist)"),
    ),
)

SECTION_8: frozenset[str] = frozenset(
    {
        "dark_games",
        "dark_six_whisted",
        "stalingrad",
        "bombs.opening",
        "bombs.blind",
        "bombs.order",
        "liability_after_close",
        "talon_bonus",
        "return_whist",
        "preference_combo",
        "prizes.first_close",
        "prizes.min_mountain",
    }
)
"""The options of docs/rules.md §8: off unless set, so a full house-rules table (or a
ledger's stored table) written before they existed still loads, with them off."""

SECTIONS = ("passes", "bombs", "prizes")
"""The option tables of a convention file (``[passes]``, ``[bombs]``, ``[prizes]``)."""

OPTION_BY_KEY: dict[str, Option] = {option.key: option for option in OPTIONS}


class Convention(NamedTuple):
    """Every scoring option, validated. Attribute names are the keys with ``.`` -> ``_``."""

    name: str
    whist_factor: int
    remise_factor: int
    consolation: Literal["price"] | int
    dealer_consolation: bool
    liability: Amount
    lone_whister: LoneWhister
    two_whisters: TwoWhisters
    half_whist: bool
    ten_norm: int
    mountain_first: bool
    game_prices: tuple[int, ...]
    misere_price: int
    misere_penalty: int
    passes_scoring: PassesScoring
    passes_prices: tuple[int, ...]
    passes_after_last: AfterLast
    passes_zero_bonus: Literal["price"] | int
    passes_amnesty: bool
    passes_whists_per_trick: int
    passes_ties: Ties
    passes_dealer_bonus: int
    passes_exit: tuple[int, ...]
    passes_misere_ends: bool
    passes_ends_streak: EndsStreak
    closing: Closing
    help: HelpRule
    help_whists: int
    pool_to_mountain: Amount
    description: str = ""
    dark_games: bool = False
    bombs_opening: tuple[int, ...] = ()
    bombs_blind: bool = False
    bombs_order: BombOrder = "oldest"
    liability_after_close: Amount | Literal["none"] = "none"
    talon_bonus: bool = False
    return_whist: bool = False
    preference_combo: bool = False
    prizes_first_close: int = 0
    prizes_min_mountain: int = 0
    dark_six_whisted: bool = False
    stalingrad: bool = False

    def value(self, key: str) -> Any:
        """The value of option ``key`` (dotted name)."""
        return getattr(self, OPTION_BY_KEY[key].attr)

    def options(self) -> dict[str, Any]:
        """Every option as ``{dotted key: value}`` in the order of docs/rules.md §6.1."""
        return {option.key: self.value(option.key) for option in OPTIONS}

    def with_options(
        self, values: Mapping[str, Any], source: str = "--set", strict: bool = False
    ) -> "Convention":
        """A copy with some options changed; values are validated like a TOML file's
        (``strict``: as read from a file, each value already of its type)."""
        changes = {
            OPTION_BY_KEY[key].attr: value
            for key, value in _validate(values, source, strict).items()
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
            price: Amount = last + beyond * (last - prices[-2])
        else:
            ratio = Fraction(last, prices[-2])
            if ratio > 1 and beyond * math.log10(ratio) + math.log10(last) > 9:
                price = MAX_AMOUNT + 1  # not computed: it would only grow without bound
            else:
                price = norm(last * Fraction(ratio.numerator**beyond, ratio.denominator**beyond))
        if not -MAX_AMOUNT <= price <= MAX_AMOUNT:
            raise ConventionError(
                f"all-pass deal {k} in a row would cost more than {MAX_AMOUNT:,} per trick "
                f"(passes.after_last = {self.passes_after_last} grows without bound)"
            )
        return price

    def exit_level(self, streak: int) -> int:
        """The lowest legal trick contract after ``streak`` all-pass deals in a row."""
        if streak <= 0:
            return 6
        return self.passes_exit[min(streak, len(self.passes_exit)) - 1]


def _flatten(table: Mapping[str, Any]) -> dict[str, Any]:
    """``{"passes": {"prices": v}}`` -> ``{"passes.prices": v}``: one level of sections only
    (a deeper table stays a value, which validation then refuses)."""
    flat: dict[str, Any] = {}
    for key, value in table.items():
        if isinstance(value, Mapping):
            for inner, item in value.items():
                flat[f"{key}.{inner}"] = item
        else:
            flat[str(key)] = value
    return flat


def _nested(flat: Mapping[str, Any]) -> dict[str, Any]:
    """``{"passes.prices": v}`` -> ``{"passes": {"prices": v}}`` (keys already known)."""
    out: dict[str, Any] = {}
    for key, value in flat.items():
        section, dot, name = key.partition(".")
        if dot:
            out.setdefault(section, {})[name] = value
        else:
            out[key] = value
    return out


def _validate(values: Mapping[str, Any], source: str, strict: bool = False) -> dict[str, Any]:
    """Option values (dotted keys) checked by :class:`ConventionFile`; errors name the key.

    ``strict`` (a file: TOML, or the options a ledger stores): nothing is coerced, a flag is
    a boolean, a whole number an integer, a list a list, a choice spelled as written; only
    the text of ``--set`` is parsed (``yes``, ``1,2,4``, ``Greedy``)."""
    for key in values:
        if key not in OPTION_BY_KEY:
            raise ConventionError(f"unknown option '{shown(str(key))}'{_suggest(str(key))}", source)
    try:
        model = ConventionFile.model_validate(
            _nested(values), context={"strict": True} if strict else None
        )
    except ValidationError as exc:
        _, message = first_error(exc, frozenset())
        loc = exc.errors()[0]["loc"]
        key = f"{loc[0]}.{loc[1]}" if loc[0] in SECTIONS and len(loc) > 1 else str(loc[0])
        raw = values.get(key, "")
        raise ConventionError(
            f"option '{key}': {_plain(message)} (got {shown(repr(raw))})", source
        ) from None
    checked = _option_values(model)
    for key in values:
        if key not in checked:
            raise ConventionError(f"option '{key}': a value is needed (got null)", source)
    return {key: checked[key] for key in values}


def _option_values(model: ConventionFile) -> dict[str, Any]:
    """The options a validated file sets, as ``{dotted key: value}`` (values as validated)."""
    values: dict[str, Any] = {}
    for option in OPTIONS:
        section, dot, name = option.key.partition(".")
        holder = getattr(model, section) if dot else model
        value = getattr(holder, name if dot else section) if holder is not None else None
        if value is not None:
            values[option.key] = value
    return values


def _plain(message: str) -> str:
    """A pydantic message without the echo of the input (the caller shows the value)."""
    return message.split(", got ", 1)[0]


def _suggest(key: str) -> str:
    import difflib

    close = difflib.get_close_matches(key, list(OPTION_BY_KEY), n=1)
    return f" (did you mean '{close[0]}'?)" if close else ""


def from_table(table: Mapping[str, Any], source: str, strict: bool = True) -> Convention:
    """Build a convention from a parsed TOML table (every option, or ``base`` + changes),
    read strictly like every file (:func:`_validate`)."""
    flat = _flatten(table)
    name = flat.pop("name", None)
    description = flat.pop("description", "")
    base_name = flat.pop("base", None)
    for key, value in (("name", name), ("description", description)):
        if value is not None and (
            not isinstance(value, str) or len(value) > 500 or not re.match(ONE_LINE, value)
        ):
            raise ConventionError(
                f"'{key}' must be one line of text (at most 500 characters, no control characters)",
                source,
            )
    if base_name is not None:
        if not isinstance(base_name, str):
            raise ConventionError("'base' must be a preset name", source)
        base = load_preset(base_name)
        result = base.with_options(flat, source, strict)
        return result._replace(
            name=str(name) if name is not None else f"{base.name} (house rules)",
            description=str(description),
        )
    checked = _validate(flat, source, strict)
    missing = [
        option.key
        for option in OPTIONS
        if option.key not in checked and option.key not in SECTION_8
    ]
    if missing:
        raise ConventionError(
            f"missing option{'s' if len(missing) > 1 else ''} {', '.join(missing)} "
            '(or add base = "sochi" to start from a preset)',
            source,
        )
    kwargs = {OPTION_BY_KEY[key].attr: value for key, value in checked.items()}
    return Convention(name=str(name or Path(source).stem), description=str(description), **kwargs)


def load_file(path: Path) -> Convention:
    """Load a convention from a TOML file (a regular UTF-8 file of at most 1 MiB)."""
    from prefcalc.store import files

    what = "the convention file"
    try:
        raw = files.read_regular(path, what, files.MAX_SMALL, ConventionError)
    except OSError as exc:
        raise ConventionError(
            f"cannot read convention file: {exc.strerror or exc}", str(path)
        ) from None
    text = files.decode_text(raw, what, path, ConventionError)
    files.check_toml_shape(text, what, path, ConventionError)
    try:
        table = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConventionError(f"not valid TOML: {exc}", str(path)) from None
    except RecursionError:
        raise ConventionError(f"{what} nests too deeply", str(path)) from None
    except ValueError:  # an integer over Python's 4,300-digit limit
        raise ConventionError("not valid TOML: a number has too many digits", str(path)) from None
    return from_table(table, str(path))


_PRESET_CACHE: dict[str, Convention] = {}


def load_preset(name: str) -> Convention:
    """Load a bundled preset by name (``sochi``, ``leningrad``, ``rostov``)."""
    key = preset_key(name) or name.strip().lower()
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
    if preset_key(name_or_path) is not None:
        return load_preset(name_or_path)
    path = Path(name_or_path)
    try:
        exists = path.exists()
    except OSError:  # a name too long for the file system, a bad byte...: not a file
        exists = False
    if path.suffix.lower() == ".toml" or exists:
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
