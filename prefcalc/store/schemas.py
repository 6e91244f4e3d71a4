"""The file formats, as pydantic models: the ledger (JSON) and convention files (TOML).

Everything that comes in from a file or an option passes through these models first:
types, ranges and closed choices are checked here, and a refusal is one line naming the
field path (``deals[12].defenders[1].role: ...``). Unknown fields are refused, never
dropped silently. At the file boundary nothing is coerced: the ledger's models are in
pydantic's strict mode (``"forced": "yes"`` or ``"tricks": "7"`` are refused, not read as
``true`` and ``7``), every field the record needs is required (a ledger without its
``deals`` is refused, never read as an empty game), and a convention read from a file (a
TOML file, the options a ledger stores) is validated with ``strict`` in the context: its
flags are booleans, its whole numbers integers, its lists lists, its choices spelled as
written. Only the text of ``--set`` is parsed leniently (``liability=0.5``, ``yes``). The models are frozen; the scoring engine keeps its own fast tuples
(:mod:`prefcalc.rules.model`), built once from a validated file by :mod:`prefcalc.store.ledger`.

``prefcalc schema ledger|convention`` prints the JSON Schema generated from these models;
the same schemas are committed under ``schemas/`` for editors.

Ledger schema 2 is designed for what the game can hold beyond schema 1 (Classic bombs and
dark games, the talon bonus, the return of whist, the "Preference" combination, 2 to 5
players, a late arrival, mid-game changes of the target or the whist price). Schema 1
files are a subset and read as they are; a file is upgraded only when it is next written.
"""

import json
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainValidator,
    StringConstraints,
    WithJsonSchema,
)

from prefcalc.errors import shown
from prefcalc.i18n import _
from prefcalc.rules.amounts import MAX_AMOUNT, Amount, to_amount
from prefcalc.rules.options import ONE_LINE, ConventionFile, Name, Text


class _Strict(BaseModel):
    """A model read from a file: strict (no coercion), frozen, no unknown fields."""

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True, strict=True)


# --- shared field types ------------------------------------------------------------------------


def _ledger_number(value: Any) -> Amount:
    """An exact number of the ledger, as the writer emits it: a JSON integer, or a string
    like ``"2.5"``/``"5/3"`` (a JSON float or a boolean is refused, not converted)."""
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise ValueError(
            _(
                'expected a whole number or an exact number as text ("2.5", "5/3"), not {value}'
            ).format(value=quoted_value(value))
        )
    return to_amount(value)


def quoted_value(value: Any) -> str:
    """A value of the file as a refusal quotes it: as JSON writes it, a list or an object
    by its brackets alone (never a whole one of the file's megabytes)."""
    if isinstance(value, list | dict):
        return "[…]" if isinstance(value, list) else "{…}"
    return shown(json.dumps(value, ensure_ascii=False))


_NUMBER_SCHEMA = {
    "anyOf": [
        {"type": "integer", "minimum": -MAX_AMOUNT, "maximum": MAX_AMOUNT},
        {
            "type": "string",
            "maxLength": 40,
            "description": "an exact number: 2.5 or 5/3",
        },
    ]
}


def _integer(value: Any) -> Any:
    """A JSON integer exactly: strict mode still matches ``true`` and ``1.0`` to a
    ``Literal[1]``, so those are refused before the choice is checked."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(
            _("expected a whole number, not {value}").format(value=quoted_value(value))
        )
    return value


ExactNumber = Annotated[Amount, PlainValidator(_ledger_number), WithJsonSchema(_NUMBER_SCHEMA)]
"""An exact amount of the ledger: a whole JSON number, or a string holding a decimal or a
fraction."""

Stamp = Annotated[str, StringConstraints(max_length=40, pattern=ONE_LINE)]
Tricks = Annotated[int, Field(ge=0, le=10, strict=True)]


# --- the ledger ---------------------------------------------------------------------------------


class _Entry(_Strict):
    time: Stamp = ""
    dealer: Name | None = None
    forced: bool = False


class DefenderRecord(_Strict):
    player: Name
    role: Literal["w", "p", "h", "r"] = Field(
        description="w whist, p pass, h half-whist, r returned the whist (after a half-whist)"
    )
    tricks: Tricks | None = None


class ContractRecord(_Entry):
    kind: Literal["contract"]
    declarer: Name
    contract: Annotated[str, StringConstraints(min_length=2, max_length=8)] = Field(
        description="level and suit: 6s 7c 8d 9h 10nt"
    )
    tricks: Tricks | None = Field(description="the declarer's tricks; null when not played")
    defenders: Annotated[tuple[DefenderRecord, ...], Field(max_length=2)]
    dark: bool = False
    no_talon: bool = False
    bomb: Annotated[int, Field(ge=2, le=1024, strict=True)] | None = None
    talon: Annotated[int, Field(ge=0, le=3, strict=True)] | None = None
    returned_by: Name | None = None
    looked: Annotated[tuple[Name, ...], Field(max_length=4)] = Field(
        default=(),
        description="who looked at a trick other than the last (the Code, 3.9.11.2): each loses a trick",
    )


class MisereRecord(_Entry):
    kind: Literal["misere"]
    declarer: Name
    tricks: Tricks
    dark: bool = False
    no_talon: bool = False
    bomb: Annotated[int, Field(ge=2, le=1024, strict=True)] | None = None
    looked: Annotated[tuple[Name, ...], Field(max_length=1)] = Field(
        default=(),
        description="the declarer, if he looked at a trick other than the last (3.9.11.2)",
    )


class PassesRecord(_Entry):
    kind: Literal["passes"]
    tricks: Annotated[dict[Name, Tricks], Field(max_length=5)]
    blind: Annotated[tuple[Name, ...], Field(max_length=5)] = ()
    looked: Annotated[tuple[Name, ...], Field(max_length=5)] = Field(
        default=(),
        description="who looked at a trick other than the last (3.9.11.2): one trick more each",
    )


class AdjustRecord(_Entry):
    kind: Literal["adjust"]
    player: Name
    pool: ExactNumber = 0
    mountain: ExactNumber = 0
    whists: Annotated[dict[Name, ExactNumber], Field(max_length=5)] = {}
    note: Text


class PenaltyRecord(_Entry):
    """A penalty of the 1996 Code (docs/rules.md §8.10): no dealer."""

    kind: Literal["penalty"]
    player: Name
    offence: Literal["peek", "dealing", "illegal", "cards", "miscount", "entry"] = Field(
        description=(
            "peek (3.2.21), dealing (3.2.17), illegal (3.4.4), cards (3.4.6), "
            "miscount (3.9.18), entry (4.2.7-4.2.10)"
        )
    )
    contract: Annotated[str, StringConstraints(min_length=2, max_length=8)] | None = Field(
        default=None, description="illegal, cards, miscount: the contract of the remise"
    )
    amount: ExactNumber = Field(
        description="the points or whists written, or the remise's undertricks"
    )
    on: Name | None = Field(
        default=None, description="entry: the player who writes the excess back on the offender"
    )


class PreferenceRecord(_Entry):
    kind: Literal["preference"]
    player: Name


class JoinRecord(_Entry):
    kind: Literal["join"]
    player: Name
    after: Name | None = None


class SetRecord(_Entry):
    kind: Literal["set"]
    key: Literal["target", "whist_price"]
    value: ExactNumber


DealRecord = Annotated[
    ContractRecord
    | MisereRecord
    | PassesRecord
    | AdjustRecord
    | PenaltyRecord
    | PreferenceRecord
    | JoinRecord
    | SetRecord,
    Field(discriminator="kind"),
]


class ConventionRecord(_Strict):
    """A preset plus overrides (``preset`` set), or a whole house-rules table (``preset`` null).

    The options are checked like a convention file's: nothing is coerced."""

    name: Text | None = None
    preset: Name | None
    options: Annotated[dict[Name, Any], Field(max_length=100)]


class LedgerFile(_Strict):
    """One game: the players in seating order, the rules, the money terms and the deals.

    Every field the record needs is required; only ``created`` (and a deal's ``time``) may
    be left out: text that changes no number. Nothing is coerced (``"forced": "yes"`` is
    not true)."""

    model_config = ConfigDict(
        title="prefcalc ledger", frozen=True, extra="forbid", populate_by_name=True, strict=True
    )

    schema_version: Annotated[Literal[1, 2], BeforeValidator(_integer)] = Field(alias="schema")
    created: Stamp = ""
    players: Annotated[tuple[Name, ...], Field(min_length=2, max_length=5)]
    first_dealer: Name
    target: Annotated[int, Field(ge=1, le=MAX_AMOUNT, strict=True)]
    whist_price: ExactNumber
    currency: Annotated[str, StringConstraints(max_length=8)]
    convention: ConventionRecord
    deals: Annotated[tuple[DealRecord, ...], Field(max_length=10_000_000)]
    # optional, written only when chosen (prefcalc new --lang): the language of the game's
    # documents, whoever prints them
    lang: Literal["en", "ru"] | None = None
    # optional, written only when one was set (prefcalc player NAME --gender f): the
    # grammatical gender each of these players' names is declined by in Russian
    genders: Annotated[dict[Name, Literal["m", "f"]], Field(max_length=5)] | None = None


def json_schema(kind: Literal["ledger", "convention"]) -> dict[str, Any]:
    """The JSON Schema of a ledger or a convention file, generated from the models."""
    model: type[BaseModel] = LedgerFile if kind == "ledger" else ConventionFile
    schema = model.model_json_schema(by_alias=True)
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    return schema
