"""Conventions as data: every option of docs/rules.md, validated.

A preset (``templates/sochi.toml``...) is a TOML table naming every option. A table's house
rules are a table of the same shape (optionally ``base = "sochi"`` plus the keys that differ),
or a preset plus ``key=value`` overrides such as ``passes.prices=1,2,4``. Scoring code reads
the resulting :class:`Convention` and never asks which preset it came from.

No file is read here: :mod:`prefcalc.store.conventions` reads the TOML files (the bundled
presets, a house-rules file) and hands their tables to :func:`from_table`.

The options are fields of the pydantic models of :mod:`prefcalc.rules.options`; that module
(and pydantic) is imported only when an option is validated or listed (:data:`OPTIONS` and its
companions are made on first use), so a command that scores a trusted ledger by a convention
it already knows builds no model at all.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from collections.abc import Set as AbstractSet
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, NamedTuple, TypeVar, overload

from prefcalc.errors import ConventionError, shown
from prefcalc.i18n import N_, _, ngettext
from prefcalc.rules.amounts import MAX_AMOUNT, Amount, exact_text, norm

if TYPE_CHECKING:
    from pydantic import BaseModel
    from pydantic.fields import FieldInfo

    from prefcalc.rules.options import (
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
    )

PRESETS = ("sochi", "leningrad", "rostov", "classic", "fspr")

PRESET_TEXTS = frozenset(
    {
        N_("Sochi"),
        N_("Leningrad"),
        N_("Rostov"),
        N_("Classic"),
        N_(
            "Сочинка: the least gambling convention; responsible, greedy whist; all-passes into"
            " the mountain at 1-2-3; help to the player with the most points."
        ),
        N_(
            "Ленинградка (Piter): doubled whists and remises, semi-responsible gentleman whist;"
            " all-passes at 2-4-6 with exit 7; the pools add up to target x players; no help."
        ),
        N_(
            "Ростовка (Moscow pulka): semi-responsible gentleman whist, flat consolation of 10;"
            " all-passes scored in whists (5 per trick) with no progression; help to the"
            " biggest hole."
        ),
        N_(
            "Классика: Sochi prices and responsible greedy whist, plus bombs (opening circles at"
            " x2, x4, x8 and blind passes), dark games, the dark six whisted and the Preference"
            " combination."
        ),
        N_("FSPR"),
        N_(
            "ФСПР: the Leningrad prices and semi-responsible gentleman whist; a 10 is whisted,"
            " both whisters pay on 8-10; the talon bonus (the dealer at four, halves at three);"
            " the dealer's whist without liability; all-passes at 2-4-6 then 6, the dealer"
            " playing the talon, exit 7, only a whisted made game ends them; no target: each"
            " pool against the average at 20 whists a point."
        ),
    }
)
"""The presets' names and descriptions as their TOML files write them (in English), for the
catalog: :func:`preset_words` says them in the reader's language."""


HOUSE_RULES = N_("{base} (house rules)")
"""The name of a house-rules file that names none: its base preset's, marked as changed
(written in English into the file and the ledger, said by :func:`preset_words`)."""


def preset_words(text: str) -> str:
    """A preset's name or description in the reader's language (a house-rules file's name
    made of its preset's too: «Ленинградка (свои правила)»); a table's own text as written."""
    if text in PRESET_TEXTS:
        return _(text)
    base = text.removesuffix(HOUSE_RULES.format(base=""))
    if base != text and base in PRESET_TEXTS:
        return _(HOUSE_RULES).format(base=_(base))
    return text


PRESET_ALIASES = {
    "сочинка": "sochi",
    "сочи": "sochi",
    "ленинградка": "leningrad",
    "питер": "leningrad",
    "piter": "leningrad",
    "ростовка": "rostov",
    "классика": "classic",
    # the sport federation's Leningrad-based code of its tournaments (docs/tournament.md §9)
    "фспр": "fspr",
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
    from typing import get_args

    from pydantic import BaseModel

    for arg in get_args(field.annotation) or (field.annotation,):
        if isinstance(arg, type) and issubclass(arg, BaseModel):
            return arg
    return None


class _Table(NamedTuple):
    """What the convention model says of its options (see :data:`OPTIONS`...)."""

    options: tuple[Option, ...]
    sections: tuple[str, ...]
    section_8: frozenset[str]
    by_key: dict[str, Option]
    off: dict[str, Any]


def _read_options() -> _Table:
    """The options in the model's field order (the order of docs/rules.md §6.1), the option
    tables, the §8 options and each one's value when unset (validated like a file's)."""
    from prefcalc.rules.options import ConventionFile

    options: list[Option] = []
    sections: list[str] = []
    offs: dict[str, Any] = {}
    for name, field in ConventionFile.model_fields.items():
        if name in ("name", "description", "base"):
            continue
        section = _section_model(field)
        if section is not None:
            sections.append(name)
            for inner, inner_field in section.model_fields.items():
                options.append(_option(f"{name}.{inner}", inner_field, offs))
        else:
            options.append(_option(name, field, offs))
    if tuple(sections) != _SECTIONS or tuple(o.key for o in options) != _KEYS:
        raise TypeError(_("Convention's fields must be the convention model's options, in order"))
    marked = frozenset(option.key for option in options if option.section_8)
    by_key = {option.key: option for option in options}
    table = _Table(tuple(options), tuple(sections), marked, by_key, {})
    return table._replace(off=_checked(offs, "the convention model", True, table))


def _option(key: str, field: FieldInfo, offs: dict[str, Any]) -> Option:
    from prefcalc.rules.options import SECTION_8_MARK

    if not field.description:
        raise TypeError(_("convention option {key} has no description").format(key=key))
    extra = field.json_schema_extra
    section_8 = isinstance(extra, dict) and bool(extra.get(SECTION_8_MARK))
    if section_8 and isinstance(extra, dict):
        offs[key] = extra["default"]
    return Option(key, field.description, section_8)


_TABLE: _Table | None = None


def _table() -> _Table:
    """The options as the model defines them, read once (the first time one is needed)."""
    global _TABLE
    if _TABLE is None:
        _TABLE = _read_options()
    return _TABLE


_T = TypeVar("_T")


class _Options(Sequence[Option]):
    """:data:`OPTIONS`: the model's options, read from it on first use."""

    @overload
    def __getitem__(self, index: int) -> Option: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[Option]: ...
    def __getitem__(self, index: int | slice) -> Option | Sequence[Option]:
        return _table().options[index]

    def __len__(self) -> int:
        return len(_table().options)

    def __iter__(self) -> Iterator[Option]:
        return iter(_table().options)

    def __repr__(self) -> str:
        return repr(_table().options)


class _Map(Mapping[str, _T]):
    """A mapping of the model's options (:data:`OPTION_BY_KEY`, :data:`OFF`), read from it
    on first use."""

    def __init__(self, get: Callable[[_Table], Mapping[str, _T]]) -> None:
        self._get = get

    def __getitem__(self, key: str) -> _T:
        return self._get(_table())[key]

    def __len__(self) -> int:
        return len(self._get(_table()))

    def __iter__(self) -> Iterator[str]:
        return iter(self._get(_table()))

    def __repr__(self) -> str:
        return repr(self._get(_table()))


class _Marked(AbstractSet[str]):
    """:data:`SECTION_8`, read from the model on first use."""

    def __contains__(self, key: object) -> bool:
        return key in _table().section_8

    def __len__(self) -> int:
        return len(_table().section_8)

    def __iter__(self) -> Iterator[str]:
        return iter(_table().section_8)

    def __repr__(self) -> str:
        return repr(_table().section_8)


OPTIONS: Sequence[Option] = _Options()
"""Every option, in the order of docs/rules.md §6.1."""

SECTION_8: AbstractSet[str] = _Marked()
"""The options of docs/rules.md §8: off unless set, so a full house-rules table (or a
ledger's stored table) written before they existed still loads, with them off."""

OPTION_BY_KEY: Mapping[str, Option] = _Map(lambda table: table.by_key)

OFF: Mapping[str, Any] = _Map(lambda table: table.off)
"""The value of each option of docs/rules.md §8 when a file leaves it out (validated like a
file's: ``bombs.opening`` is ``()``)."""


class Convention(NamedTuple):
    """Every scoring option, validated. Attribute names are the keys with ``.`` -> ``_``.

    A plain tuple, read on the hot path of scoring. Its fields are the options of
    :data:`OPTIONS` in their order (checked when the options are read from the model),
    typed as their model fields validate; the values of an unset §8 option are
    :data:`OFF`."""

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
    passes_dealer_plays_talon: bool
    passes_dealer_zero_bonus: bool
    closing: Closing
    help: HelpRule
    help_whists: int
    pool_to_mountain: Amount
    pool_whists: int
    bombs_opening: tuple[int, ...]
    bombs_blind: bool
    bombs_order: BombOrder
    dark_games: bool
    dark_six_whisted: bool
    liability_after_close: Amount | Literal["none"]
    talon_bonus: bool
    talon_bonus_three: bool
    talon_required: bool
    return_whist: bool
    dealer_return_liability: Amount
    preference_combo: bool
    prizes_first_close: int
    prizes_min_mountain: int
    stalingrad: bool

    def value(self, key: str) -> Any:
        """The value of option ``key`` (dotted name)."""
        return getattr(self, _ATTRS[key])

    def options(self) -> dict[str, Any]:
        """Every option as ``{dotted key: value}`` in the order of docs/rules.md §6.1."""
        return dict(zip(_KEYS, self[2:], strict=True))

    def with_options(
        self, values: Mapping[str, Any], source: str = "--set", strict: bool = False
    ) -> Convention:
        """A copy with some options changed; values are validated like a TOML file's
        (``strict``: as read from a file, each value already of its type)."""
        changes = {_ATTRS[key]: value for key, value in _validate(values, source, strict).items()}
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


_SECTIONS = ("passes", "bombs", "prizes")
"""The option tables, as the model has them (checked when the options are read from it)."""


def _dotted(attr: str) -> str:
    """A field of :class:`Convention` as its option's key: ``passes_prices`` ->
    ``passes.prices``."""
    section, _sep, name = attr.partition("_")
    return f"{section}.{name}" if section in _SECTIONS and name else attr


_KEYS: tuple[str, ...] = tuple(_dotted(attr) for attr in Convention._fields[2:])
OPTION_KEYS = frozenset(_KEYS)
"""Every option's key as a file or ``--option`` writes it (``passes.exit``, ``whist_factor``)."""
"""The options' keys in the order of :class:`Convention`'s fields (which is the model's
order, checked when the options are read from it: :data:`OPTIONS` has the same keys)."""

_ATTRS: dict[str, str] = {key: key.replace(".", "_") for key in _KEYS}


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
    return _checked(values, source, strict, _table())


def _checked(values: Mapping[str, Any], source: str, strict: bool, table: _Table) -> dict[str, Any]:
    """:func:`_validate` by the options of ``table``."""
    from pydantic import ValidationError

    from prefcalc.rules.options import ConventionFile, first_error

    for key in values:
        if key not in table.by_key:
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
        _where, message = first_error(exc, frozenset(), echo=False)
        loc = exc.errors()[0]["loc"]
        key = f"{loc[0]}.{loc[1]}" if loc[0] in table.sections and len(loc) > 1 else str(loc[0])
        raw = values.get(key, "")
        if isinstance(raw, str) and raw and f"'{shown(raw)}'" in message:
            text = _("option '{key}': {message}")  # the message quotes the value already
        else:
            text = _("option '{key}': {message} (got {raw})")
        given = _("'{value}'").format(value=shown(raw)) if isinstance(raw, str) else repr(raw)
        raise ConventionError(
            text.format(key=key, message=message, raw=shown(given)), source
        ) from None
    checked = _option_values(model, table)
    for key in values:
        if key not in checked:
            raise ConventionError(
                _("option '{key}': a value is needed (got null)").format(key=key), source
            )
    return {key: checked[key] for key in values}


def _option_values(model: ConventionFile, table: _Table) -> dict[str, Any]:
    """The options a validated file sets, as ``{dotted key: value}`` (values as validated)."""
    values: dict[str, Any] = {}
    for option in table.options:
        section, dot, name = option.key.partition(".")
        holder = getattr(model, section) if dot else model
        value = getattr(holder, name if dot else section) if holder is not None else None
        if value is not None:
            values[option.key] = value
    return values


def _suggest(key: str) -> str:
    import difflib

    close = difflib.get_close_matches(key, list(_KEYS), n=1)
    return _(" (did you mean '{key}'?)").format(key=close[0]) if close else ""


def from_table(
    table: Mapping[str, Any],
    source: str,
    strict: bool = True,
    *,
    preset: Callable[[str], Convention] | None = None,
) -> Convention:
    """Build a convention from a parsed TOML table (every option, or ``base`` + changes),
    read strictly like every file (:func:`_validate`). A table with a ``base`` starts from
    the convention ``preset(base)`` gives (:func:`prefcalc.store.conventions.load_preset`,
    which reads the bundled presets)."""
    from prefcalc.rules.options import ONE_LINE

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
        if preset is None:
            raise TypeError("from_table: a table with a 'base' needs its preset= reader")
        base = preset(base_name)
        result = base.with_options(flat, source, strict)
        return result._replace(
            name=str(name) if name is not None else HOUSE_RULES.format(base=base.name),
            description=str(description),
        )
    options = _table()
    checked = _validate(flat, source, strict)
    missing = [key for key in _KEYS if key not in checked and key not in options.section_8]
    if missing:
        raise ConventionError(
            ngettext(
                'missing option {missing} (or add base = "sochi" to start from a preset)',
                'missing options {missing} (or add base = "sochi" to start from a preset)',
                len(missing),
            ).format(missing=", ".join(missing)),
            source,
        )
    kwargs = {_ATTRS[key]: value for key, value in {**options.off, **checked}.items()}
    return Convention(name=str(name or Path(source).stem), description=str(description), **kwargs)


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
