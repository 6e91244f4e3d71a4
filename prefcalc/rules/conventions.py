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
from typing import Any, Literal, NamedTuple, get_args

from pydantic import BaseModel, ValidationError
from pydantic.fields import FieldInfo

from prefcalc.errors import ConventionError, shown
from prefcalc.i18n import N_, _, ngettext
from prefcalc.resources import bundled
from prefcalc.rules.amounts import MAX_AMOUNT, Amount, exact_text, norm
from prefcalc.rules.options import (
    ONE_LINE,
    SECTION_8_MARK,
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
    """One named option: its key in TOML and ``--set``, its meaning, and whether it is an
    option of docs/rules.md §8 (off unless set: its value then is in :data:`OFF`).

    All of it is read from the option's field of :class:`prefcalc.rules.options.ConventionFile`
    (or of its ``[passes]``, ``[bombs]``, ``[prizes]`` tables), which also gives its type and
    range: the model is the one definition of the options."""

    key: str
    doc: str
    section_8: bool = False

    @property
    def attr(self) -> str:
        return self.key.replace(".", "_")


def _section_model(field: FieldInfo) -> type[BaseModel] | None:
    """The model of an option table (``passes: PassesOptions | None``), or None."""
    for arg in get_args(field.annotation) or (field.annotation,):
        if isinstance(arg, type) and issubclass(arg, BaseModel):
            return arg
    return None


def _read_options() -> tuple[tuple[Option, ...], tuple[str, ...], dict[str, Any]]:
    """The options in the model's field order (the order of docs/rules.md §6.1), the option
    tables, and each §8 option's value when unset (as JSON, validated later)."""
    options: list[Option] = []
    sections: list[str] = []
    offs: dict[str, Any] = {}
    for name, field in ConventionFile.model_fields.items():
        if name in ("name", "description", "base"):
            continue
        table = _section_model(field)
        if table is not None:
            sections.append(name)
            for inner, inner_field in table.model_fields.items():
                options.append(_option(f"{name}.{inner}", inner_field, offs))
        else:
            options.append(_option(name, field, offs))
    return tuple(options), tuple(sections), offs


def _option(key: str, field: FieldInfo, offs: dict[str, Any]) -> Option:
    if not field.description:
        raise TypeError(_("convention option {key} has no description").format(key=key))
    extra = field.json_schema_extra
    section_8 = isinstance(extra, dict) and bool(extra.get(SECTION_8_MARK))
    if section_8 and isinstance(extra, dict):
        offs[key] = extra["default"]
    return Option(key, field.description, section_8)


OPTIONS, SECTIONS, _OFF_JSON = _read_options()
"""``OPTIONS``: every option, in the order of docs/rules.md §6.1. ``SECTIONS``: the option
tables of a convention file (``[passes]``, ``[bombs]``, ``[prizes]``)."""

SECTION_8: frozenset[str] = frozenset(option.key for option in OPTIONS if option.section_8)
"""The options of docs/rules.md §8: off unless set, so a full house-rules table (or a
ledger's stored table) written before they existed still loads, with them off."""

OPTION_BY_KEY: dict[str, Option] = {option.key: option for option in OPTIONS}


class Convention(NamedTuple):
    """Every scoring option, validated. Attribute names are the keys with ``.`` -> ``_``.

    A plain tuple, read on the hot path of scoring. Its fields are the options of
    :data:`OPTIONS` in their order (checked when this module is loaded), typed as their
    model fields validate; the values of an unset §8 option are :data:`OFF`."""

    name: str
    description: str
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
    bombs_opening: tuple[int, ...]
    bombs_blind: bool
    bombs_order: BombOrder
    dark_games: bool
    dark_six_whisted: bool
    liability_after_close: Amount | Literal["none"]
    talon_bonus: bool
    return_whist: bool
    preference_combo: bool
    prizes_first_close: int
    prizes_min_mountain: int
    stalingrad: bool

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
                _(
                    "all-pass deal {k} in a row would cost more than {MAX_AMOUNT:,} per trick (passes.after_last = {passes_after_last} grows without bound)"
                ).format(k=k, MAX_AMOUNT=MAX_AMOUNT, passes_after_last=self.passes_after_last)
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
            raise ConventionError(
                _("unknown option '{key}'{suggestion}").format(
                    key=shown(str(key)), suggestion=_suggest(str(key))
                ),
                source,
            )
    try:
        model = ConventionFile.model_validate(
            _nested(values), context={"strict": True} if strict else None
        )
    except ValidationError as exc:
        _where, message = first_error(exc, frozenset())
        loc = exc.errors()[0]["loc"]
        key = f"{loc[0]}.{loc[1]}" if loc[0] in SECTIONS and len(loc) > 1 else str(loc[0])
        raw = values.get(key, "")
        raise ConventionError(
            _("option '{key}': {message} (got {raw})").format(
                key=key, message=_plain(message), raw=shown(repr(raw))
            ),
            source,
        ) from None
    checked = _option_values(model)
    for key in values:
        if key not in checked:
            raise ConventionError(
                _("option '{key}': a value is needed (got null)").format(key=key), source
            )
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
                _(
                    "'{key}' must be one line of text (at most 500 characters, no control characters)"
                ).format(key=key),
                source,
            )
    if base_name is not None:
        if not isinstance(base_name, str):
            raise ConventionError(_("'base' must be a preset name"), source)
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
            ngettext(
                'missing option {missing} (or add base = "sochi" to start from a preset)',
                'missing options {missing} (or add base = "sochi" to start from a preset)',
                len(missing),
            ).format(missing=", ".join(missing)),
            source,
        )
    kwargs = {OPTION_BY_KEY[key].attr: value for key, value in {**OFF, **checked}.items()}
    return Convention(name=str(name or Path(source).stem), description=str(description), **kwargs)


OFF: dict[str, Any] = _validate(_OFF_JSON, "the convention model", strict=True)
"""The value of each option of docs/rules.md §8 when a file leaves it out (validated like a
file's: ``bombs.opening`` is ``()``)."""

if Convention._fields != ("name", "description", *(option.attr for option in OPTIONS)):
    raise TypeError(_("Convention's fields must be the convention model's options, in order"))


def load_file(path: Path) -> Convention:
    """Load a convention from a TOML file (a regular UTF-8 file of at most 1 MiB)."""
    from prefcalc.store import files

    what = N_("the convention file")
    try:
        raw = files.read_regular(path, what, files.MAX_SMALL, ConventionError)
    except OSError as exc:
        raise ConventionError(
            _("cannot read convention file: {value}").format(value=exc.strerror or exc), str(path)
        ) from None
    text = files.decode_text(raw, what, path, ConventionError)
    files.check_toml_shape(text, what, path, ConventionError)
    try:
        table = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConventionError(_("not valid TOML: {exc}").format(exc=exc), str(path)) from None
    except RecursionError:
        raise ConventionError(
            _("{what} nests too deeply").format(what=_(what)), str(path)
        ) from None
    except ValueError:  # an integer over Python's 4,300-digit limit
        raise ConventionError(
            _("not valid TOML: a number has too many digits"), str(path)
        ) from None
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
            _("unknown convention '{name}' (use {PRESETS} or a .toml file)").format(
                name=shown(name), PRESETS=", ".join(PRESETS)
            )
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
        _("unknown convention '{name_or_path}' (use {PRESETS} or a .toml file)").format(
            name_or_path=shown(name_or_path), PRESETS=", ".join(PRESETS)
        )
    )


def parse_overrides(pairs: Iterable[str]) -> dict[str, Any]:
    """``["passes.prices=1,2,4", "liability=0.5"]`` -> ``{key: validated value}``."""
    raw: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise ConventionError(
                _("malformed option '{pair}' (use key=value, e.g. passes.prices=1,2,4)").format(
                    pair=shown(pair)
                )
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
