"""``tournament.json``: the tournament's own record, as strict pydantic models.

The file holds what was decided (the players, the rounds and their length, the convention,
the scoring, the seed) and what was drawn (each round's tables: the players in seat order,
the first dealer, the table's ledger file, and for a round played by time whether the judge
closed the table); nothing derived (results, standings) is stored. Like a ledger it is read
strictly (nothing coerced, no unknown field, every field required) and a refusal is one
line naming the field (``players[3].name: ...``); then :func:`check` applies the rules no
type can say (names unique, the draw consistent with the players and the plan).

The tables' deals live in their own ledgers (ordinary games): ``tournament.json`` never
holds a deal, and every command that works on a game works on a table's file.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, StringConstraints

from prefcalc.errors import DealError, LedgerError, shown
from prefcalc.i18n import _, pgettext
from prefcalc.rules.amounts import MAX_AMOUNT
from prefcalc.rules.model import check_name, look_alike_key, name_key
from prefcalc.rules.options import ONE_LINE, Name, Text
from prefcalc.store.schemas import ConventionRecord
from prefcalc.tournament.conversions import Scoring
from prefcalc.tournament.plans import MAX_PLAYERS, plan

FILE_NAME = "tournament.json"
TOURNAMENT_SCHEMA = 1
"""The version of ``tournament.json`` this prefcalc writes and reads."""

MAX_ROUNDS = 99
MAX_DEALS = 1000
MAX_MINUTES = 24 * 60
MAX_SEED = 2**63 - 1
MAX_RATING = 9999

TABLE_FILE = re.compile(r"r([1-9][0-9]{0,2})-t([1-9][0-9]{0,3})\.json")
"""The name of a table's ledger: ``r{round}-t{table}.json``, beside ``tournament.json``."""


def table_file(round_: int, table: int) -> str:
    return f"r{round_}-t{table}.json"


def _integer(value: Any) -> Any:
    """A JSON integer exactly (strict mode still takes ``true`` for a ``Literal[1]``)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"expected a whole number, got {value!r}")
    return value


class _Strict(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True, strict=True)


Stamp = Annotated[str, StringConstraints(max_length=40, pattern=ONE_LINE)]


RoundNumber = Annotated[int, Field(ge=1, le=MAX_ROUNDS + 1, strict=True)]


class PlayerRecord(_Strict):
    """A registered player: his name (unique in the tournament), club and rating if known;
    ``joined``: a late entry's first round (None: from round 1); ``withdrawn``: the first
    round he no longer plays (None: he plays on). docs/tournament.md §2.4."""

    name: Name
    club: Text | None = None
    rating: Annotated[int, Field(ge=0, le=MAX_RATING, strict=True)] | None = None
    joined: RoundNumber | None = None
    withdrawn: RoundNumber | None = None

    def plays(self, round_: int) -> bool:
        """Whether he is in the field of round ``round_`` (a bye is still in the field)."""
        return (self.joined or 1) <= round_ and (self.withdrawn is None or round_ < self.withdrawn)


class ClosedRecord(_Strict):
    """A table of a round played by time, closed by the judge after ``deals`` deals."""

    time: Stamp
    deals: Annotated[int, Field(ge=0, le=10_000_000, strict=True)]


class TableRecord(_Strict):
    """One table of a round: its number, the players in seat order (clockwise), the first
    dealer, its ledger (a file beside ``tournament.json``) and, for a round played by time,
    whether the judge closed it."""

    table: Annotated[int, Field(ge=1, le=9999, strict=True)]
    players: Annotated[tuple[Name, ...], Field(min_length=3, max_length=4)]
    dealer: Name
    file: Annotated[str, StringConstraints(max_length=20)]
    closed: ClosedRecord | None = None


class RoundRecord(_Strict):
    """A drawn round: its tables and the players who sat it out with a bye (§3.7)."""

    round: Annotated[int, Field(ge=1, le=MAX_ROUNDS, strict=True)]
    drawn: Stamp
    tables: Annotated[tuple[TableRecord, ...], Field(min_length=1, max_length=MAX_PLAYERS // 3)]
    byes: Annotated[tuple[Name, ...], Field(max_length=2)] = ()


Digest = Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{64}$")]


class CorrectionRecord(_Strict):
    """A director's correction of a table's ledger after the next round was drawn (§4.5):
    the round and table, the line carried out, why, by whom, when, and the SHA-256 of the
    ledger it wrote (how a correction cut short by a crash is told from one that was made)."""

    round: Annotated[int, Field(ge=1, le=MAX_ROUNDS, strict=True)]
    table: Annotated[int, Field(ge=1, le=9999, strict=True)]
    line: Text
    reason: Text
    by: Text
    time: Stamp
    ledger: Digest


Absent = Literal["zero", "average"]
"""What a round a player did not play counts (a late entry's missed rounds, a bye): zero
points, or the average of the points of the players who played it (§5.6)."""

Seeding = Literal["random", "rating"]


class TournamentFile(_Strict):
    """The whole ``tournament.json``."""

    model_config = ConfigDict(
        title="prefcalc tournament", frozen=True, extra="forbid", populate_by_name=True, strict=True
    )

    version: Annotated[Literal[1], BeforeValidator(_integer)] = Field(alias="tournament")
    name: Text
    created: Stamp
    players: Annotated[tuple[PlayerRecord, ...], Field(min_length=1, max_length=MAX_PLAYERS)]
    rounds: Annotated[int, Field(ge=1, le=MAX_ROUNDS, strict=True)]
    deals: Annotated[int, Field(ge=1, le=MAX_DEALS, strict=True)] | None
    minutes: Annotated[int, Field(ge=1, le=MAX_MINUTES, strict=True)] | None
    convention: ConventionRecord
    target: Annotated[int, Field(ge=1, le=MAX_AMOUNT, strict=True)]
    scoring: Scoring
    per_deal: bool
    seed: Annotated[int, Field(ge=0, le=MAX_SEED, strict=True)]
    draws: Annotated[tuple[RoundRecord, ...], Field(max_length=MAX_ROUNDS)]
    seeding: Seeding = "random"
    forbid: Annotated[tuple[tuple[Name, Name], ...], Field(max_length=MAX_PLAYERS)] = ()
    late: Absent = "zero"
    bye: Absent = "zero"
    corrections: Annotated[tuple[CorrectionRecord, ...], Field(max_length=10_000)] = ()

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.players)

    def player(self, name: str) -> PlayerRecord | None:
        """The registered player of that name (by its key), or None."""
        key = name_key(name)
        return next((p for p in self.players if name_key(p.name) == key), None)

    def field(self, round_: int) -> tuple[str, ...]:
        """The players in the field of round ``round_`` (late entries from their round on,
        the withdrawn up to theirs), in the order of registration."""
        return tuple(p.name for p in self.players if p.plays(round_))

    def corrected(self, round_: int, table: int | None = None) -> tuple[CorrectionRecord, ...]:
        """The corrections of round ``round_`` (of its table ``table``), in order."""
        return tuple(
            c for c in self.corrections if c.round == round_ and (table is None or c.table == table)
        )

    def table(self, round_: int, table: int) -> TableRecord:
        """The table ``table`` of round ``round_``; :class:`DealError` when there is none."""
        if not 1 <= round_ <= len(self.draws):
            raise DealError(
                _("there is no round {round} (rounds drawn: {drawn})").format(
                    round=round_, drawn=_drawn(len(self.draws))
                )
            )
        tables = self.draws[round_ - 1].tables
        if not 1 <= table <= len(tables):
            raise DealError(
                _("round {round} has no table {table} (tables 1 to {count})").format(
                    round=round_, table=table, count=len(tables)
                )
            )
        return tables[table - 1]


def _drawn(count: int) -> str:
    return pgettext("tables", "none") if count == 0 else ("1" if count == 1 else f"1-{count}")


def registered_name(typed: str) -> str:
    """A name as a registration stores it: checked as a game checks it, and every run of
    white space inside it one space (``Фёдор  Козлов`` is ``Фёдор Козлов``)."""
    return " ".join(check_name(typed).split())


def player_key(name: str) -> str:
    """What a registration tells two players apart by: the name's key with ё read as е
    (``Федор`` and ``Фёдор`` are one player: a Russian writes either)."""
    return name_key(name).replace("ё", "е")


def check_names(
    names: tuple[str, ...], where: str = "players", *, registering: bool = False
) -> tuple[str, ...]:
    """Every name usable and told apart from the others (the same normalisation as within a
    game, and no two names that look the same in print); returns the names to store.
    ``registering``: names typed now (``new``, ``add``, ``rename``), stored with inner white
    space folded and told apart with ё read as е; a file already written is read by the
    rules it was written by."""
    checked: list[str] = []
    seen: dict[str, str] = {}
    looks: dict[str, str] = {}
    for k, typed in enumerate(names):
        try:
            name = registered_name(typed) if registering else check_name(typed)
        except DealError as exc:
            raise DealError(exc.message, f"{where}[{k}]") from None
        key = player_key(name) if registering else name_key(name)
        if key in seen:
            raise DealError(
                _("player '{name}' is registered twice (same as '{first}')").format(
                    name=shown(typed), first=shown(seen[key])
                )
            )
        twin = looks.get(look_alike_key(name))
        if twin is not None:
            raise DealError(
                _(
                    "players '{twin}' and '{name}' look the same in print (letters of different alphabets): write one of them differently"
                ).format(twin=shown(twin), name=shown(typed))
            )
        seen[key] = typed
        looks[look_alike_key(name)] = typed
        checked.append(name)
    return tuple(checked)


def check(t: TournamentFile, path: str) -> None:
    """The rules of a tournament no field type can say; :class:`LedgerError` naming the
    field when one is broken."""

    def fail(where: str, message: str) -> LedgerError:
        return LedgerError(f"{where}: {message}", path)

    try:
        names = check_names(t.names)
    except DealError as exc:
        raise fail(exc.where or "players", exc.message) from None
    if names != t.names:
        k = next(i for i, (a, b) in enumerate(zip(names, t.names, strict=True)) if a != b)
        raise fail(f"players[{k}].name", _("the name is not stored as prefcalc writes it"))
    if (t.deals is None) == (t.minutes is None):
        raise fail("deals", _("a round is played over a number of deals or by time: give one"))
    if len(t.draws) > t.rounds:
        raise fail(
            "draws",
            _("{drawn} rounds drawn, the tournament has {rounds}").format(
                drawn=len(t.draws), rounds=t.rounds
            ),
        )
    for k, p in enumerate(t.players):
        if p.joined is not None and p.joined < 2:
            raise fail(f"players[{k}].joined", _("a late entry joins in round 2 or later"))
        if p.joined is not None and p.withdrawn is not None and p.withdrawn <= p.joined:
            raise fail(
                f"players[{k}].withdrawn", _("a player withdraws after the round he joined in")
            )
    keys = {name_key(n): n for n in names}
    for k, pair in enumerate(t.forbid):
        for s, name in enumerate(pair):
            if keys.get(name_key(name)) != name:
                raise fail(
                    f"forbid[{k}][{s}]",
                    _("'{name}' is not a registered player").format(name=shown(name)),
                )
        if name_key(pair[0]) == name_key(pair[1]):
            raise fail(f"forbid[{k}]", _("a pair is two players"))
    files: set[str] = {FILE_NAME}
    for r, draw in enumerate(t.draws):
        where = f"draws[{r}]"
        if draw.round != r + 1:
            raise fail(f"{where}.round", _("expected round {n}").format(n=r + 1))
        field = {name_key(n): n for n in t.field(r + 1)}
        seated: set[str] = set()
        for s, player in enumerate(draw.byes):
            key = name_key(player)
            if field.get(key) != player or key in seated:
                raise fail(
                    f"{where}.byes[{s}]",
                    _("'{name}' is not in the field of round {round}, or is listed twice").format(
                        name=shown(player), round=r + 1
                    ),
                )
            seated.add(key)
        try:
            sizes = plan(len(field) - len(draw.byes))
        except DealError as exc:
            raise fail(f"{where}.tables", exc.message) from None
        if tuple(len(tb.players) for tb in draw.tables) != sizes:
            raise fail(
                f"{where}.tables",
                _("the tables do not seat the {n} players as {plan}").format(
                    n=len(field) - len(draw.byes), plan="+".join(map(str, sizes))
                ),
            )
        for k, tb in enumerate(draw.tables):
            at = f"{where}.tables[{k}]"
            if tb.table != k + 1:
                raise fail(f"{at}.table", _("expected table {n}").format(n=k + 1))
            for s, player in enumerate(tb.players):
                key = name_key(player)
                if keys.get(key) != player:
                    raise fail(
                        f"{at}.players[{s}]",
                        _("'{name}' is not a registered player").format(name=shown(player)),
                    )
                if key not in field:
                    raise fail(
                        f"{at}.players[{s}]",
                        _("'{name}' is not in the field of round {round}").format(
                            name=shown(player), round=r + 1
                        ),
                    )
                if key in seated:
                    raise fail(
                        f"{at}.players[{s}]",
                        _("'{name}' is seated twice in round {round}").format(
                            name=shown(player), round=r + 1
                        ),
                    )
                seated.add(key)
            if tb.dealer not in tb.players:
                raise fail(
                    f"{at}.dealer",
                    _("'{name}' does not sit at this table").format(name=shown(tb.dealer)),
                )
            if TABLE_FILE.fullmatch(tb.file) is None or tb.file in files:
                raise fail(
                    f"{at}.file",
                    _("'{file}' is not a table's file name (r1-t1.json), or is used twice").format(
                        file=shown(tb.file)
                    ),
                )
            files.add(tb.file)
            if tb.closed is not None and t.minutes is None:
                raise fail(
                    f"{at}.closed",
                    _("only a round played by time is closed by the judge"),
                )
    for k, c in enumerate(t.corrections):
        if c.round > len(t.draws) or c.table > len(t.draws[c.round - 1].tables):
            raise fail(
                f"corrections[{k}]",
                _("round {round} has no table {table}").format(round=c.round, table=c.table),
            )
