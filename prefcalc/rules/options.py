"""The options of a convention as pydantic models: the one definition of every option.

Each option of a convention (its name, type, allowed values, meaning and whether it is a
section-8 option) is a field of :class:`ConventionFile` and its ``[passes]``, ``[bombs]`` and
``[prizes]`` tables; :mod:`prefcalc.rules.conventions` derives the option list, the presets'
checks and the ``rules`` listing from it, ``prefcalc schema convention`` the JSON Schema, and
``docs/options_table.py`` the table of docs/rules.md §6.1. A TOML file or the options a ledger
stores are validated with ``strict`` in the context (nothing coerced); the text of ``--set``
is parsed leniently. Also here: reading a pydantic validation error as one line naming the
field (:func:`first_error`), shared with the ledger's models.
"""

import re
from collections.abc import Callable, Mapping
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainValidator,
    StringConstraints,
    ValidationError,
    ValidationInfo,
    WithJsonSchema,
)

from prefcalc.i18n import N_, _, ngettext
from prefcalc.rules.amounts import MAX_AMOUNT, Amount, parse_amount, parse_whole, to_amount

MAX_INT = 1_000_000
"""The largest whole number an option, a target or a factor may be."""

ONE_LINE = r"^[^\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]*$"
"""A text on one line: no control character, line break or bidirectional override."""

Name = Annotated[str, StringConstraints(min_length=1, max_length=64)]
Text = Annotated[str, StringConstraints(max_length=500, pattern=ONE_LINE)]


class Frozen(BaseModel):
    """A frozen model that refuses unknown fields."""

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)


# --- conventions -------------------------------------------------------------------------------


def _strict(info: ValidationInfo) -> bool:
    """Whether a convention is read from a file (``strict`` in the validation context):
    then a value must already have its type; only ``--set`` text is parsed leniently."""
    context = info.context
    return isinstance(context, dict) and bool(context.get("strict"))


def _lower(value: Any, info: ValidationInfo) -> Any:
    if _strict(info):
        return value  # a file spells a choice as it is written: "greedy", not "Greedy "
    return value.strip().lower() if isinstance(value, str) else value


def _listed(value: Any, info: ValidationInfo) -> Any:
    """``"1,2,4"`` (from ``--set``) or a single number -> a list; lists pass through.

    In ``--set`` text a comma (or a space, or a semicolon) separates the items, and
    brackets may hold them (``[1, 2, 4]``): every list option holds whole numbers, so no
    decimal comma can be meant inside one."""
    if _strict(info):
        if not isinstance(value, list | tuple):
            raise ValueError(_("expected a list, e.g. [1, 2, 4]"))
        return value
    if isinstance(value, str):
        text = value.strip()
        if text.startswith("[") and text.endswith("]"):
            text = text[1:-1]
        return [part for part in re.split(r"[,;\s]+", text) if part]
    if isinstance(value, int) and not isinstance(value, bool):
        return [value]
    return value


def _whole(value: Any, info: ValidationInfo) -> Any:
    """Whole numbers: TOML/JSON ints, or text from ``--set`` (read as every typed whole
    number is, :func:`~prefcalc.rules.amounts.parse_whole`: ``1,000`` is refused as
    ambiguous); never true/false or a float."""
    if isinstance(value, bool | float):
        raise ValueError(_("expected a whole number"))
    if isinstance(value, str):
        if _strict(info):
            raise ValueError(_("expected a whole number"))
        digits = value.strip().lstrip("+-\N{MINUS SIGN}")
        if digits.isascii() and digits.isdigit() and len(digits) > 12:
            # the option's own bound named, as for a huge int of a file
            raise ValueError(_("too large (at most {MAX_INT:,})").format(MAX_INT=MAX_INT))
        return parse_whole(value)  # an AmountError (a ValueError) says what is wrong
    return value


def _price_or_whole(value: Any, info: ValidationInfo) -> Any:
    if isinstance(value, str) and (
        value == "price" or (not _strict(info) and value.strip().lower() == "price")
    ):
        return "price"
    try:
        number = _whole(value, info)
    except ValueError:
        number = None
    if not isinstance(number, int) or not 0 <= number <= MAX_INT:
        raise ValueError(
            _("expected 'price' or a whole number 0..{MAX_INT:,}").format(MAX_INT=MAX_INT)
        )
    return number


def _flag(value: Any, info: ValidationInfo) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and not _strict(info):
        word = value.strip().lower()
        if word in ("true", "yes", "on", "1"):
            return True
        if word in ("false", "no", "off", "0"):
            return False
    raise ValueError(_("expected true or false"))


def _typed(value: Any, info: ValidationInfo) -> Amount:
    """An exact number of an option: the text of ``--set`` read as typed (``0,5``; ``1.000``
    refused as ambiguous), a file's value as stored; bounded either way (no NaN, inf,
    exponent or huge size)."""
    if isinstance(value, str) and not _strict(info):
        return parse_amount(value, typed=True)
    return to_amount(value)


def _share(value: Any, info: ValidationInfo) -> Amount:
    number = _typed(value, info)
    if not 0 <= number <= 1:
        raise ValueError(_("expected a number between 0 and 1"))
    return number


def _factor(value: Any, info: ValidationInfo) -> Amount:
    number = _typed(value, info)
    if number < 0:
        raise ValueError(_("expected a number at least 0"))
    return number


def _share_or_none(value: Any, info: ValidationInfo) -> Amount | Literal["none"]:
    if isinstance(value, str) and (
        value == "none" or (not _strict(info) and value.strip().lower() == "none")
    ):
        return "none"
    try:
        return _share(value, info)
    except (ValueError, ArithmeticError, TypeError):
        raise ValueError(_("expected 'none' or a number between 0 and 1")) from None


SECTION_8_MARK = "x-section-8"
"""The JSON Schema keyword that marks an option of docs/rules.md §8 (off unless set)."""


def option(meaning: str, *, off: Any = None) -> Any:
    """A convention option's field: unset (``None``: the base preset's value) unless given.

    ``meaning`` is its one-line doc, shown by ``prefcalc rules``, in the templates, the JSON
    Schema and the options table of docs/rules.md (mark it with ``N_()`` for the catalog).
    An option of docs/rules.md §8 gives ``off``: its value when a file leaves it out (a full
    house-rules table, or a ledger's stored one, written before it existed); the JSON Schema
    shows it as the default and marks the option with :data:`SECTION_8_MARK`."""
    extra: dict[str, Any] | None = None
    if off is not None:
        shown_off = list(off) if isinstance(off, tuple) else off
        extra = {"default": shown_off, SECTION_8_MARK: True}
    return Field(default=None, description=meaning, json_schema_extra=extra)


_Whole = BeforeValidator(_whole)
_Lower = BeforeValidator(_lower)
_Listed = BeforeValidator(_listed)

OneToFour = Annotated[int, Field(ge=1, le=4), _Whole]
ZeroOrOne = Annotated[int, Field(ge=0, le=1), _Whole]
Positive = Annotated[int, Field(ge=1, le=MAX_INT), _Whole]
NonNegative = Annotated[int, Field(ge=0, le=MAX_INT), _Whole]
Level = Annotated[int, Field(ge=6, le=10), _Whole]
PriceList = Annotated[tuple[Positive, ...], Field(min_length=1, max_length=50), _Listed]
GamePrices = Annotated[tuple[Positive, ...], Field(min_length=5, max_length=5), _Listed]
ExitLevels = Annotated[tuple[Level, ...], Field(min_length=1, max_length=50), _Listed]
Flag = Annotated[bool, PlainValidator(_flag), WithJsonSchema({"type": "boolean"})]


def _option_number(low: int, high: int) -> list[dict[str, Any]]:
    """The JSON Schema of an exact number option: a TOML number (``1``, ``0.5``) in its
    range, or text like ``"1/2"`` (its range checked when read)."""
    return [
        {"type": "number", "minimum": low, "maximum": high},
        {"type": "string", "maxLength": 40, "description": "an exact number: 0.5 or 1/2"},
    ]


Share = Annotated[Amount, PlainValidator(_share), WithJsonSchema({"anyOf": _option_number(0, 1)})]
Factor = Annotated[
    Amount, PlainValidator(_factor), WithJsonSchema({"anyOf": _option_number(0, MAX_AMOUNT)})
]
ShareOrNone = Annotated[
    Amount | Literal["none"],
    PlainValidator(_share_or_none),
    WithJsonSchema({"anyOf": [{"const": "none"}, *_option_number(0, 1)]}),
]
PriceOrWhole = Annotated[Literal["price"] | NonNegative, BeforeValidator(_price_or_whole)]

LoneWhister = Literal["greedy", "gentleman"]
TwoWhisters = Literal["split", "both", "each"]
PassesScoring = Literal["mountain", "whists"]
AfterLast = Literal["hold", "arithmetic", "geometric"]
Ties = Literal["each", "split"]
EndsStreak = Literal["any", "whisted", "whisted_made"]
Closing = Literal["each", "total", "average"]
HelpRule = Literal["most", "hole", "none"]


class PassesOptions(Frozen):
    """All-pass deals (распасы)."""

    scoring: Annotated[PassesScoring, _Lower] | None = option(
        N_(
            "all-pass deals: 'mountain' (tricks x price) or 'whists' (the fewest-tricks player writes on the others)"
        )
    )
    prices: PriceList | None = option(
        N_("price per trick of the 1st, 2nd, 3rd... all-pass deal in a row")
    )
    after_last: Annotated[AfterLast, _Lower] | None = option(
        N_("after the last price: 'hold', 'arithmetic' or 'geometric' continuation")
    )
    zero_bonus: PriceOrWhole | None = option(
        N_(
            "pool points for taking no trick in an all-pass deal: 'price' (the deal's price) or a number"
        )
    )
    amnesty: Flag | None = option(
        N_("subtract the smallest trick count from everybody before pricing an all-pass deal")
    )
    whists_per_trick: Positive | None = option(N_("whists scoring: whists per trick of difference"))
    ties: Annotated[Ties, _Lower] | None = option(
        N_(
            "whists scoring, several players tie for the fewest tricks: 'each' writes in full, 'split' shares"
        )
    )
    dealer_bonus: NonNegative | None = option(
        N_("4 players: pool points of the sitting-out dealer in an all-pass deal")
    )
    exit: ExitLevels | None = option(
        N_("lowest trick contract after 1, 2, 3... all-pass deals in a row (the last one holds)")
    )
    misere_ends: Flag | None = option(N_("a misere ends an all-pass streak"))
    ends_streak: Annotated[EndsStreak, _Lower] | None = option(
        N_(
            "which contract ends an all-pass streak: 'any', only a 'whisted' and played one, or only a whisted one that was made ('whisted_made')"
        )
    )
    dealer_plays_talon: Flag | None = option(
        N_(
            "4-5 players: the sitting-out dealer leads the two talon cards in an all-pass deal and writes the tricks he takes (0-2)"
        ),
        off=False,
    )
    dealer_zero_bonus: Flag | None = option(
        N_("dealer_plays_talon: a dealer who takes no trick gets the zero bonus too"),
        off=False,
    )


BombOrder = Literal["oldest", "declared"]
BombLevels = Annotated[
    tuple[Annotated[int, Field(ge=1, le=10), _Whole], ...], Field(max_length=10), _Listed
]
"""The opening circles' levels k (a bomb ×2^k each), e.g. ``[1, 2, 3]``; ``[]``: none."""


class BombsOptions(Frozen):
    """Classic bombs (ёлочки, docs/rules.md §8.1)."""

    opening: BombLevels | None = option(
        N_(
            "Classic: one circle of all-pass deals per level k opens the game: tricks x 2^k, every player earns a bomb x2^k"
        ),
        off=(),
    )
    blind: Flag | None = option(
        N_(
            "Classic: an all-pass deal may name players who passed blind (--blind); each earns a bomb x2"
        ),
        off=False,
    )
    order: Annotated[BombOrder, _Lower] | None = option(
        N_(
            "Classic: a declarer's game uses his 'oldest' bomb, or the one 'declared' (--bomb F); used up only if made"
        ),
        off="oldest",
    )


class PrizesOptions(Frozen):
    """Prizes of a "horse-race" game (docs/rules.md §8.6), in whists."""

    first_close: NonNegative | None = option(
        N_("settlement: whists the first player to close his pool writes on every other player"),
        off=0,
    )
    min_mountain: NonNegative | None = option(
        N_(
            "settlement: whists the player(s) with the smallest mountain write on every player not tied with them"
        ),
        off=0,
    )


class ConventionFile(Frozen):
    """A convention: every option (a preset), or ``base`` plus the options that differ."""

    # The one definition of the options: each is a field here or in its [passes], [bombs],
    # [prizes] table (made by option()), with its type and range, its meaning and its
    # section-8 mark. prefcalc.rules.conventions (OPTIONS, SECTION_8, OFF), `prefcalc rules`,
    # the JSON Schema and the table of docs/rules.md 6.1 are read from them, in this order.

    model_config = ConfigDict(
        title="prefcalc convention", frozen=True, extra="forbid", populate_by_name=True
    )

    name: Text | None = None
    description: Text | None = None
    base: Name | None = Field(default=None, description="a preset to start from: sochi, ...")
    whist_factor: OneToFour | None = option(
        N_("whists per defender trick = game price x this (1, or 2 for Leningrad's doubled whists)")
    )
    remise_factor: OneToFour | None = option(
        N_("a failed contract writes undertricks x game price x this into the mountain (1 or 2)")
    )
    consolation: PriceOrWhole | None = option(
        N_(
            "whists per undertrick for each consoled player: 'price' (= whists per trick) or a flat number"
        )
    )
    dealer_consolation: Flag | None = option(
        N_("4 players: the sitting-out dealer writes consolation on a failed contract too")
    )
    liability: Share | None = option(
        N_(
            "whisters' shortfall per missing trick as a share of the whist price: 1 responsible, 0.5 semi-responsible"
        )
    )
    lone_whister: Annotated[LoneWhister, _Lower] | None = option(
        N_(
            "one whister and a passer, contract failed: 'greedy' or 'gentleman' (everything split in halves)"
        )
    )
    two_whisters: Annotated[TwoWhisters, _Lower] | None = option(
        N_(
            "two whisters short of the norm: 'split', 'both' (8+: both pay when the pair took nothing) or 'each' (redneck)"
        )
    )
    half_whist: Flag | None = option(
        N_("half-whist on 6 and 7: the game counts as made, the half-whister writes half the norm")
    )
    ten_norm: ZeroOrOne | None = option(N_("tricks the defence must take against a 10 (0 or 1)"))
    mountain_first: Flag | None = option(
        N_("points of a made game or misere first write off the declarer's own mountain")
    )
    game_prices: GamePrices | None = option(N_("pool points of a made 6, 7, 8, 9, 10"))
    misere_price: Positive | None = option(N_("pool points of a made misere"))
    misere_penalty: Positive | None = option(
        N_("mountain per trick of a failed misere, before remise_factor")
    )
    passes: PassesOptions | None = None
    closing: Annotated[Closing, _Lower] | None = option(
        N_(
            "the game ends when 'each' pool reaches the target, or the pools' 'total' reaches target x players; 'average': no target (play by time), each pool against the average at the settlement"
        )
    )
    help: Annotated[HelpRule, _Lower] | None = option(
        N_(
            "a closed player's excess points help the one with the 'most' points, the biggest 'hole', or 'none'"
        )
    )
    help_whists: NonNegative | None = option(
        N_("whists the helper writes on the helped player per pool point given")
    )
    pool_to_mountain: Factor | None = option(
        N_("settlement: every point missing to the largest pool adds this much mountain")
    )
    pool_whists: Positive | None = option(
        N_(
            "closing = 'average', settlement: whists per pool point above or below the average pool"
        ),
        off=20,
    )
    bombs: BombsOptions | None = None
    dark_games: Flag | None = option(
        N_("Classic: a game or misere ordered blind (--dark) counts x2"), off=False
    )
    dark_six_whisted: Flag | None = option(
        N_("Classic: a dark 6 of spades must be whisted by both defenders"), off=False
    )
    liability_after_close: ShareOrNone | None = option(
        N_(
            "Classic: liability of the whisters from the first deal that starts with a closed pool: 'none' (unchanged) or a number"
        ),
        off="none",
    )
    talon_bonus: Flag | None = option(
        N_(
            "4-5 players: the sitting-out dealer writes whists per trick the talon gave the declarer (--talon N)"
        ),
        off=False,
    )
    talon_bonus_three: Flag | None = option(
        N_("talon_bonus at 3 players: each of the declarer's two opponents writes half of it"),
        off=False,
    )
    talon_required: Flag | None = option(
        N_("a game or misere is never ordered without the talon: --no-talon is refused"),
        off=False,
    )
    return_whist: Flag | None = option(
        N_(
            "the sitting-out dealer may return the whist after both passed (--returned-by), the first defender after a half-whist (r)"
        ),
        off=False,
    )
    dealer_return_liability: Share | None = option(
        N_(
            "a dealer's return of the whist: his liability for the norm (1 responsible, 0 not liable)"
        ),
        off=1,
    )
    preference_combo: Flag | None = option(
        N_(
            "Classic: 'preference PLAYER' ends the game: his mountain off, every pool filled up, 'help_whists' per point given"
        ),
        off=False,
    )
    prizes: PrizesOptions | None = None
    stalingrad: Flag | None = option(
        N_("a 6 of spades must be whisted by both defenders (no pass, no half-whist)"), off=False
    )


# --- errors ------------------------------------------------------------------------------------


def field_path(loc: tuple[int | str, ...], tags: frozenset[str] = frozenset()) -> str:
    """``("deals", 12, "contract", "defenders", 1, "role")`` -> ``deals[12].defenders[1].role``.

    ``tags`` are the names of discriminated-union branches, which pydantic puts in the path.
    """
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        elif part in tags or part.startswith("function-"):
            continue
        else:
            out += f".{part}" if out else part
    return out


DEAL_KINDS = frozenset(
    {"contract", "misere", "passes", "adjust", "penalty", "preference", "join", "set"}
)


PYDANTIC_MESSAGES: dict[str, str | tuple[str, Callable[[int], str]]] = {
    "int_type": N_("Input should be a valid integer"),
    "int_parsing": N_("Input should be a valid integer, unable to parse string as an integer"),
    "int_from_float": N_("Input should be a valid integer, got a number with a fractional part"),
    "int_parsing_size": N_("Unable to parse input string as an integer, exceeded maximum size"),
    "bool_type": N_("Input should be a valid boolean"),
    "bool_parsing": N_("Input should be a valid boolean, unable to interpret input"),
    "string_type": N_("Input should be a valid string"),
    "string_unicode": N_(
        "Input should be a valid string, unable to parse raw data as a unicode string"
    ),
    "float_type": N_("Input should be a valid number"),
    "float_parsing": N_("Input should be a valid number, unable to parse string as a number"),
    "finite_number": N_("Input should be a finite number"),
    "list_type": N_("Input should be a valid list"),
    "tuple_type": N_("Input should be a valid tuple"),
    "dict_type": N_("Input should be a valid dictionary"),
    "model_type": N_("Input should be a valid dictionary or instance of {class_name}"),
    "model_attributes_type": N_(
        "Input should be a valid dictionary or object to extract fields from"
    ),
    "literal_error": N_("Input should be {expected}"),
    "enum": N_("Input should be {expected}"),
    "greater_than": N_("Input should be greater than {gt}"),
    "greater_than_equal": N_("Input should be greater than or equal to {ge}"),
    "less_than": N_("Input should be less than {lt}"),
    "less_than_equal": N_("Input should be less than or equal to {le}"),
    "multiple_of": N_("Input should be a multiple of {multiple_of}"),
    "too_short": ("min_length", lambda n: ngettext(
        "{field_type} should have at least {min_length} item after validation, not {actual_length}",
        "{field_type} should have at least {min_length} items after validation, not {actual_length}",
        n,
    )),
    "too_long": ("max_length", lambda n: ngettext(
        "{field_type} should have at most {max_length} item after validation, not {actual_length}",
        "{field_type} should have at most {max_length} items after validation, not {actual_length}",
        n,
    )),
    "string_too_short": ("min_length", lambda n: ngettext(
        "String should have at least {min_length} character",
        "String should have at least {min_length} characters",
        n,
    )),
    "string_too_long": ("max_length", lambda n: ngettext(
        "String should have at most {max_length} character",
        "String should have at most {max_length} characters",
        n,
    )),
    "union_tag_not_found": N_("Unable to extract tag using discriminator {discriminator}"),
    "date_type": N_("Input should be a valid date"),
    "date_parsing": N_("Input should be a valid date in the format YYYY-MM-DD, {error}"),
    "datetime_type": N_("Input should be a valid datetime"),
    "datetime_parsing": N_("Input should be a valid datetime, {error}"),
    "none_required": N_("Input should be None"),
    "set_type": N_("Input should be a valid set"),
}  # fmt: skip
"""pydantic's messages by error type, as pydantic words them in English (so the English
stays pydantic's own) and translated in the catalog: the project's words for what the
models refuse; one that counts is its count's name and its plural forms (``ngettext``: 2
элемента, 5 элементов). A type not listed is shown as pydantic words it in English, and as
«недопустимое значение» with its type in another language."""


_QUOTED = re.compile(r"'([^']*)'")


def pydantic_message(err: Mapping[str, Any]) -> str:
    """The message of one pydantic error (an item of ``ValidationError.errors()``) in the
    language in use, by its type (:data:`PYDANTIC_MESSAGES`); ``Value error, `` dropped
    from a validator's own message (already the project's words)."""
    from prefcalc.i18n import DEFAULT, language

    kind = str(err.get("type", ""))
    message = str(err.get("msg", ""))
    if kind.startswith("value_error"):
        return message.removeprefix("Value error, ")
    template = PYDANTIC_MESSAGES.get(kind)
    if template is None:
        return (
            message if language() == DEFAULT else _("not a valid value ({kind})").format(kind=kind)
        )
    ctx = {key: _ctx_text(value) for key, value in (err.get("ctx") or {}).items()}
    ctx.setdefault("field_type", "")
    if "expected" in ctx:  # "'greedy' or 'gentleman'", in the words of the language
        head, sep, last = ctx["expected"].rpartition(" or ")
        ctx["expected"] = head + _(" or ") + last if sep else last
    for key in ("expected", "discriminator"):  # ... and in its quotes
        if key in ctx:
            ctx[key] = _QUOTED.sub(lambda m: _("'{value}'").format(value=m[1]), ctx[key])
    try:
        if isinstance(template, tuple):
            count, forms = template
            return forms(int(ctx.get(count, "2"))).format(**ctx)
        return _(template).format(**ctx)
    except (KeyError, IndexError, ValueError):  # a context pydantic no longer gives
        return message


def _ctx_text(value: Any) -> str:
    from prefcalc.errors import shown

    return shown(str(value), 80)


def first_error(
    exc: ValidationError, tags: frozenset[str] = DEAL_KINDS, echo: bool = True
) -> tuple[str, str]:
    """The first problem of a validation error as ``(field path, message)``, in the language
    in use (:func:`pydantic_message`); ``echo``: with the value refused (``, got 12``) when
    the message does not quote it."""
    from prefcalc.errors import shown

    err = exc.errors(include_url=False)[0]
    path = field_path(tuple(err["loc"]), tags)
    kind = err["type"]
    if kind == "extra_forbidden":
        message = _("unknown field (prefcalc keeps no field it does not know: remove it)")
    elif kind == "missing":
        message = _("missing")
    elif kind == "union_tag_invalid":
        message = _("unknown kind '{kind}' (use {kinds})").format(
            kind=shown(str(err.get("ctx", {}).get("tag", ""))), kinds=", ".join(sorted(DEAL_KINDS))
        )
    elif kind == "string_pattern_mismatch":
        message = _(
            "'{text}' contains a control character or a line break (write it on one line)"
        ).format(text=shown(str(err.get("input", ""))))
    else:
        message = pydantic_message(err)
        quoted = kind.startswith("value_error") or kind == "union_tag_not_found"
        if echo and not quoted and "input" in err:
            message = _("{message}, got {value}").format(
                message=message, value=shown(_short(err["input"]))
            )
    return path, message[:1].lower() + message[1:]


def _short(value: Any) -> str:
    import json

    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 40 else text[:39] + "…"
