"""The ledger: one game as one JSON file.

The file holds the record only (players, convention, target, money terms and the deals
with their timestamps) under a schema version, and is validated on load: a corrupt or
unknown file is reported with its path and the reason and is never overwritten.

Writes are atomic (a temporary file in the same folder, fsync, rename) and serialised by
an exclusive lock, so a crash or a second terminal can never lose or corrupt a deal.
The deals are written one per line, so the file stays readable and diffs well.
"""

import json
import os
import time
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

from prefcalc.amounts import Amount, exact_text, norm, to_amount
from prefcalc.conventions import Convention, from_table, load_preset, to_jsonable
from prefcalc.errors import DealError, LedgerError, PrefcalcError
from prefcalc.filelock import locked
from prefcalc.model import (
    Adjustment,
    AllPass,
    Contract,
    ConventionRef,
    Deal,
    Defender,
    Entry,
    Game,
    Misere,
    check_currency,
    check_deal,
    check_players,
    check_target,
)
from prefcalc.notation import parse_contract
from prefcalc.perf import gc_paused

SCHEMA = 1


def now() -> str:
    """The local time, to the second, with its UTC offset."""
    return datetime.now().astimezone().isoformat(timespec="seconds")


# --- convention ------------------------------------------------------------------------------


def resolve_convention(ref: ConventionRef) -> Convention:
    """The convention a game is played by: its preset with overrides, or its own table."""
    if ref.preset is not None:
        base = load_preset(ref.preset)
        return base.with_options(ref.options, f"{ref.preset} overrides") if ref.options else base
    table = dict(ref.options)
    if ref.name:
        table["name"] = ref.name
    return from_table(table, "the game's house rules")


# --- JSON -> record ---------------------------------------------------------------------------


class _Reader:
    """Small typed accessors that say exactly where a bad value sits."""

    def __init__(self, path: str) -> None:
        self.path = path

    def fail(self, where: str, message: str) -> LedgerError:
        return LedgerError(f"{where}: {message}", self.path)

    def get(
        self,
        obj: dict[str, Any],
        key: str,
        kind: type | tuple[type, ...],
        where: str,
        default: Any = ...,
    ) -> Any:
        """``obj[key]`` if its JSON type is exactly ``kind`` (so ``true`` is not a number)."""
        try:
            value = obj[key]
        except KeyError:
            if default is ...:
                raise self.fail(where, f"missing '{key}'") from None
            return default
        if value.__class__ is kind or (kind.__class__ is tuple and value.__class__ in kind):
            return value
        raise self.fail(f"{where}.{key}", f"expected {_kind_name(kind)}, got {json.dumps(value)}")

    def amount(self, obj: dict[str, Any], key: str, where: str, default: Amount = 0) -> Amount:
        value = obj.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int | str):
            raise self.fail(
                f"{where}.{key}",
                f"expected a whole number or an exact number as a string, got {json.dumps(value)}",
            )
        try:
            return to_amount(value)  # bounded, like every typed number
        except ValueError as exc:
            raise self.fail(f"{where}.{key}", str(exc)) from None


def _kind_name(kind: type | tuple[type, ...]) -> str:
    names = {
        str: "a string",
        int: "a whole number",
        list: "a list",
        dict: "an object",
        bool: "true or false",
    }
    kinds = kind if isinstance(kind, tuple) else (kind,)
    return " or ".join(names.get(k, k.__name__) for k in kinds)


_CONTRACTS: dict[str, tuple[int, str]] = {}  # "7h" -> (7, "h"), filled as contracts are read


def _deal(r: _Reader, obj: dict[str, Any], where: str) -> Deal:
    kind = r.get(obj, "kind", str, where)
    if kind == "contract":
        contract = r.get(obj, "contract", str, where)
        known = _CONTRACTS.get(contract)
        if known is None:
            try:
                known = _CONTRACTS[contract] = parse_contract(contract)
            except PrefcalcError as exc:
                raise r.fail(f"{where}.contract", exc.message) from None
        level, suit = known
        tricks = r.get(obj, "tricks", (int, type(None)), where)
        defenders = []
        for k, item in enumerate(r.get(obj, "defenders", list, where)):
            at = f"{where}.defenders[{k}]"
            if not isinstance(item, dict):
                raise r.fail(at, "expected an object")
            defenders.append(
                Defender(
                    r.get(item, "player", str, at),
                    r.get(item, "role", str, at),
                    r.get(item, "tricks", (int, type(None)), at, None),
                )
            )
        return Contract(r.get(obj, "declarer", str, where), level, suit, tricks, tuple(defenders))
    if kind == "misere":
        return Misere(r.get(obj, "declarer", str, where), r.get(obj, "tricks", int, where))
    if kind == "passes":
        tricks = r.get(obj, "tricks", dict, where)
        for name, value in tricks.items():
            if isinstance(value, bool) or not isinstance(value, int):
                raise r.fail(
                    f"{where}.tricks.{name}", f"expected a whole number, got {json.dumps(value)}"
                )
        return AllPass(tuple(tricks.items()))
    if kind == "adjust":
        whists = r.get(obj, "whists", dict, where, {})
        return Adjustment(
            r.get(obj, "player", str, where),
            r.amount(obj, "pool", where),
            r.amount(obj, "mountain", where),
            tuple((other, r.amount(whists, other, f"{where}.whists")) for other in whists),
            r.get(obj, "note", str, where, ""),
        )
    raise r.fail(
        f"{where}.kind", f"unknown deal kind {json.dumps(kind)} (contract, misere, passes, adjust)"
    )


def game_from_json(data: Any, path: str = "<ledger>") -> Game:
    """Validate a parsed ledger and build the :class:`Game`; errors name the bad field."""
    with gc_paused():
        return _game_from_json(data, path)


def _game_from_json(data: Any, path: str) -> Game:
    r = _Reader(path)
    if not isinstance(data, dict):
        raise LedgerError("not a prefcalc ledger (expected a JSON object)", path)
    schema = data.get("schema")
    if schema != SCHEMA:
        if isinstance(schema, int) and not isinstance(schema, bool) and schema > SCHEMA:
            raise LedgerError(
                f"written by a newer prefcalc (schema {schema}, this one reads {SCHEMA})", path
            )
        raise LedgerError(
            f"not a prefcalc ledger (schema {json.dumps(schema)}, expected {SCHEMA})", path
        )
    players = r.get(data, "players", list, "game")
    if not all(isinstance(p, str) for p in players):
        raise r.fail("game.players", "expected a list of names")
    try:
        check_players(tuple(players))
    except DealError as exc:
        raise r.fail("game.players", exc.message) from None
    conv_obj = r.get(data, "convention", dict, "game")
    preset = r.get(conv_obj, "preset", (str, type(None)), "game.convention", None)
    options = r.get(conv_obj, "options", dict, "game.convention", {})
    ref = ConventionRef(
        preset, options, r.get(conv_obj, "name", (str, type(None)), "game.convention", None)
    )
    target = r.get(data, "target", int, "game")
    try:
        check_target(target)
        currency = check_currency(r.get(data, "currency", str, "game", ""))
    except DealError as exc:
        raise r.fail("game", exc.message) from None
    first_dealer = r.get(data, "first_dealer", str, "game", players[0])
    if first_dealer not in players:
        raise r.fail("game.first_dealer", f"unknown player {json.dumps(first_dealer)}")
    game = Game(
        players=tuple(players),
        convention=ref,
        target=target,
        first_dealer=first_dealer,
        whist_price=r.amount(data, "whist_price", "game", 1),
        currency=currency,
        created=r.get(data, "created", str, "game", ""),
    )
    try:
        convention = resolve_convention(ref)
    except PrefcalcError as exc:
        raise r.fail("game.convention", exc.message) from None
    entries = []
    for k, obj in enumerate(r.get(data, "deals", list, "game"), 1):
        where = f"deal {k}"
        if not isinstance(obj, dict):
            raise r.fail(where, "expected an object")
        deal = _deal(r, obj, where)
        dealer = r.get(obj, "dealer", (str, type(None)), where, None)
        try:
            check_deal(game, deal, dealer, convention.half_whist)
        except DealError as exc:
            raise r.fail(where, exc.message) from None
        entries.append(
            Entry(
                deal,
                dealer,
                r.get(obj, "time", str, where, ""),
                r.get(obj, "forced", bool, where, False),
            )
        )
    return Game(
        players=game.players,
        convention=ref,
        target=target,
        first_dealer=first_dealer,
        whist_price=game.whist_price,
        currency=game.currency,
        created=game.created,
        entries=tuple(entries),
    )


# --- record -> JSON ---------------------------------------------------------------------------


def _amount_json(value: Amount) -> int | str:
    value = norm(value)
    return value if isinstance(value, int) else exact_text(value)


def deal_to_json(entry: Entry) -> dict[str, Any]:
    deal = entry.deal
    out: dict[str, Any] = {"time": entry.time}
    if entry.dealer is not None:
        out["dealer"] = entry.dealer
    if isinstance(deal, Contract):
        defenders: list[dict[str, Any]] = []
        for d in deal.defenders:
            item: dict[str, Any] = {"player": d.player, "role": d.role}
            if d.tricks is not None:
                item["tricks"] = d.tricks
            defenders.append(item)
        out.update(
            kind="contract",
            declarer=deal.declarer,
            contract=f"{deal.level}{deal.suit}",
            tricks=deal.tricks,
            defenders=defenders,
        )
    elif isinstance(deal, Misere):
        out.update(kind="misere", declarer=deal.declarer, tricks=deal.tricks)
    elif isinstance(deal, AllPass):
        out.update(kind="passes", tricks=dict(deal.tricks))
    else:
        out.update(kind="adjust", player=deal.player)
        if deal.pool:
            out["pool"] = _amount_json(deal.pool)
        if deal.mountain:
            out["mountain"] = _amount_json(deal.mountain)
        if deal.whists:
            out["whists"] = {other: _amount_json(amount) for other, amount in deal.whists}
        out["note"] = deal.note
    if entry.forced:
        out["forced"] = True
    return out


def game_to_json_text(game: Game) -> str:
    """The ledger text: the game's header indented, then one deal per line."""
    ref = game.convention
    convention: dict[str, Any] = {}
    if ref.name:
        convention["name"] = ref.name
    convention["preset"] = ref.preset
    convention["options"] = {k: to_jsonable(v) for k, v in ref.options.items()}
    header: dict[str, Any] = {
        "schema": SCHEMA,
        "created": game.created,
        "players": list(game.players),
        "first_dealer": game.first_dealer,
        "target": game.target,
        "whist_price": _amount_json(game.whist_price),
        "currency": game.currency,
        "convention": convention,
    }
    head = json.dumps(header, ensure_ascii=False, indent=2)[:-2]
    deals = ",\n    ".join(json.dumps(deal_to_json(e), ensure_ascii=False) for e in game.entries)
    body = f'  "deals": [\n    {deals}\n  ]' if game.entries else '  "deals": []'
    return f"{head},\n{body}\n}}\n"


# --- files ---------------------------------------------------------------------------------


def load(path: Path) -> Game:
    """Read and validate the ledger at ``path``."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise LedgerError("no game here (start one with 'prefcalc new')", str(path)) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise LedgerError(f"cannot read the ledger: {exc}", str(path)) from None
    try:
        with gc_paused():
            data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise LedgerError(
            f"the ledger is corrupt: {exc.msg} at line {exc.lineno} column {exc.colno}", str(path)
        ) from None
    except ValueError:  # an integer over Python's 4,300-digit limit
        raise LedgerError(
            "the ledger is corrupt: a number has too many digits", str(path)
        ) from None
    return game_from_json(data, str(path))


def write_atomic(path: Path, data: str | bytes, what: str = "the file") -> None:
    """Replace ``path`` with ``data`` so that readers see the old file or the new one.

    The data goes to a fresh temporary file in the same folder, is flushed to disk, then
    renamed over the target; the folder is synced so the rename itself survives a crash.
    Used for the ledger and for the exported documents. A failure is a one-line
    :class:`PrefcalcError` naming ``what`` could not be written, and leaves no temporary file.
    """
    raw = data.encode("utf-8") if isinstance(data, str) else data
    directory = path.parent
    tmp = directory / f".{path.name}.{os.getpid()}.{time.monotonic_ns()}.tmp"
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(raw)
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(tmp, path)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
        if hasattr(os, "O_DIRECTORY"):
            dir_fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
            try:
                os.fsync(dir_fd)
            finally:
                os.close(dir_fd)
    except OSError as exc:
        raise PrefcalcError(f"cannot write {what}: {exc.strerror or exc}", str(path)) from None


def _remove_stale_temporaries(path: Path) -> None:
    """Temporary files of writers that were killed mid-write (only writers hold the lock)."""
    for stale in path.parent.glob(f".{path.name}.*.tmp"):
        stale.unlink(missing_ok=True)


def create(path: Path, game: Game, force: bool = False) -> None:
    """Write a new game; refuses to replace an existing file unless ``force``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with locked(path):
        if path.exists() and not force:
            raise LedgerError("a game already exists here (use --force to replace it)", str(path))
        write_atomic(path, game_to_json_text(game), "the ledger")


def update(path: Path, change: Callable[[Game], Game]) -> tuple[Game, Game]:
    """Load, change and save the game under the lock; return ``(before, after)``.

    If ``change`` raises, nothing is written and the file stays byte for byte as it was.
    """
    with locked(path):
        before = load(path)
        _remove_stale_temporaries(path)
        after = change(before)
        if after is not before:
            write_atomic(path, game_to_json_text(after), "the ledger")
    return before, after


# --- the current game -------------------------------------------------------------------------


def data_dir() -> Path:
    """Where prefcalc keeps its games: the user's data directory (platformdirs)."""
    import platformdirs

    return Path(platformdirs.user_data_dir("prefcalc", appauthor=False))


def _pointer() -> Path:
    return data_dir() / "current"


def current_path() -> Path:
    """The current game's ledger (the one ``prefcalc new`` or ``prefcalc use`` set)."""
    pointer = _pointer()
    try:
        text = pointer.read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        raise LedgerError("no current game: start one with 'prefcalc new' or pass --file") from None
    except OSError as exc:
        raise LedgerError(
            f"cannot read the current-game pointer: {exc.strerror}", str(pointer)
        ) from None
    if not text:
        raise LedgerError(
            "the current-game pointer is empty: use 'prefcalc use FILE'", str(pointer)
        )
    return Path(text)


def set_current(path: Path) -> None:
    pointer = _pointer()
    pointer.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(pointer, str(path.resolve()) + "\n", "the current-game pointer")


def new_game_path(players: tuple[str, ...]) -> Path:
    """A fresh file name for a new game in the data directory."""
    stamp = datetime.now().strftime("%Y-%m-%d-%H%M%S")
    safe = "-".join("".join(c for c in p if c.isalnum()) or "player" for p in players)
    return data_dir() / "games" / f"{stamp}-{safe}.json"
