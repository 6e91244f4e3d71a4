"""The club's history: every game in a folder, every player across the season.

:func:`collect` finds the ledgers (the data folder's ``games/`` by default, or the given
files and folders, recursively), summarises each game as a :class:`Night` (its settlement
and what every player did) and adds the nights up per player (:class:`Standing`).

Decisions (docs/history.md, "How the numbers are made"):

* A game's result is the settlement ``prefcalc settle`` shows by default: method 1
  (pairwise), exact whists. A game stopped early counts with its provisional settlement
  and is marked ``finished = False``. Money is the settlement's money (rounded to the
  currency's unit) and is added up per currency, never converted.
* A *win* is a night with a positive result in whists.
* Players are matched across games by :func:`prefcalc.rules.model.name_key` (the same
  normalisation as within a game); a player is shown with the spelling of his latest game.
* A file that is not a ledger (or a corrupt one) is skipped with a one-line warning.

The cache (:class:`Cache`) is an SQLite file in the data folder holding each ledger's
summary keyed by its path, size, modification time and BLAKE2 digest: the ledger is read
and hashed every time (cheap), and only a ledger whose bytes changed is validated and
scored again. The cache is never needed for correctness: when it is missing or corrupt,
everything is computed from the ledgers; when it cannot be used (locked, read-only, a
folder, a FIFO or a link where it should be: never opened), the same, with a one-line
warning saying so.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import sqlite3
import stat
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from datetime import date, datetime
from fractions import Fraction
from pathlib import Path
from typing import Any

from prefcalc import __version__
from prefcalc.errors import DealError, LedgerError, PrefcalcError, shown
from prefcalc.history.ratings import Rating, elo
from prefcalc.i18n import _
from prefcalc.report import running_balance as running_balance  # its home is the report
from prefcalc.rules.amounts import Amount, exact_text, norm, parse_amount
from prefcalc.rules.model import AllPass, Contract, Game, Misere, deal_count, name_key
from prefcalc.rules.scoring import Sheet
from prefcalc.store import files

CACHE_NAME = "history-cache.sqlite3"
CACHE_FORMAT = 3  # bump when the stored summary changes shape or meaning
# 2: a night's ``whist_price`` is the price in force (it was the opening price, wrong after a
#    ``set whist_price``)
# 3: a game played by time (closing = average) is finished once it has a deal
LEVELS = (6, 7, 8, 9, 10)
TOURNAMENT = "tournament.json"  # prefcalc.tournament.model.FILE_NAME: never a ledger
Day = date  # (``Night.date`` is the ISO text; ``Night.day`` is this)


# --- one night -------------------------------------------------------------------------------


@dataclass(frozen=True)
class NightStats:
    """What one player did in one game."""

    declared: dict[int, int]  # contract level -> contracts declared
    made: dict[int, int]  # contract level -> contracts made (an unplayed one counts as made)
    misere_made: int
    misere_failed: int
    written: Amount  # whists he wrote on the others (the sheet's whist columns)
    received: Amount  # whists the others wrote on him
    passes: int  # all-pass deals he held cards in
    passes_tricks: int  # tricks he took in them


@dataclass(frozen=True)
class Night:
    """One game as the history sees it."""

    file: str
    date: str  # the game's ``created`` time (ISO, with its UTC offset)
    players: tuple[str, ...]
    convention: str
    deals: int
    finished: bool
    currency: str
    whist_price: Amount  # the price in force at the end of the game (its settlement's)
    result: dict[str, Amount]  # whists, pairwise exact
    money: dict[str, Amount]  # in ``currency``, rounded to its unit
    stats: dict[str, NightStats]

    @property
    def day(self) -> Day | None:
        moment = _moment(self.date)
        return moment.date() if moment is not None else None


def _moment(text: str) -> datetime | None:
    try:
        return datetime.fromisoformat(text)
    except ValueError:
        return None


def made(deal: Contract) -> bool:
    """A contract is made when the declarer took his level, or it was not played."""
    return deal.tricks is None or deal.tricks >= deal.level


def night_stats(game: Game, sheet: Sheet) -> dict[str, NightStats]:
    """Every player's contracts, misères, whists and all-pass deals in ``game``."""
    players = sheet.players  # every player seated at the end (after a join too)
    declared: dict[str, dict[int, int]] = {p: {} for p in players}
    done: dict[str, dict[int, int]] = {p: {} for p in players}
    misere = {p: [0, 0] for p in players}
    passes = {p: [0, 0] for p in players}
    for entry in game.entries:
        deal = entry.deal
        if isinstance(deal, Contract):
            mine = declared[deal.declarer]
            mine[deal.level] = mine.get(deal.level, 0) + 1
            if made(deal):
                ok = done[deal.declarer]
                ok[deal.level] = ok.get(deal.level, 0) + 1
        elif isinstance(deal, Misere):
            misere[deal.declarer][0 if deal.tricks == 0 else 1] += 1
        elif isinstance(deal, AllPass):
            for name, tricks in deal.tricks:
                passes[name][0] += 1
                passes[name][1] += tricks
    w = sheet.whists
    return {
        p: NightStats(
            declared=declared[p],
            made=done[p],
            misere_made=misere[p][0],
            misere_failed=misere[p][1],
            written=norm(sum((w[p][q] for q in players if q != p), Fraction(0))),
            received=norm(sum((w[q][p] for q in players if q != p), Fraction(0))),
            passes=passes[p][0],
            passes_tricks=passes[p][1],
        )
        for p in players
    }


def summarise(game: Game, file: str) -> Night:
    """The history's view of one game: its default settlement and every player's night."""
    from prefcalc import api

    sheet = api.sheet(game)
    settled = api.settle(game)
    return Night(
        file=file,
        date=game.created,
        players=sheet.players,
        convention=sheet.convention.name,
        deals=deal_count(game),
        # a game played by time (closing = average) ends when the table stops: complete
        finished=sheet.finished or (sheet.convention.closing == "average" and bool(game.entries)),
        currency=game.currency,
        whist_price=settled.whist_price,  # the price in force (after any set whist_price)
        result=dict(settled.whists),
        money=dict(settled.money),
        stats=night_stats(game, sheet),
    )


# --- the summary as stored in the cache ------------------------------------------------------


def _amount_text(value: Amount) -> str:
    return exact_text(value)


def night_to_json(night: Night) -> dict[str, Any]:
    return {
        "date": night.date,
        "players": list(night.players),
        "convention": night.convention,
        "deals": night.deals,
        "finished": night.finished,
        "currency": night.currency,
        "whist_price": _amount_text(night.whist_price),
        "result": {p: _amount_text(v) for p, v in night.result.items()},
        "money": {p: _amount_text(v) for p, v in night.money.items()},
        "stats": {
            p: {
                "declared": {str(k): v for k, v in s.declared.items()},
                "made": {str(k): v for k, v in s.made.items()},
                "misere": [s.misere_made, s.misere_failed],
                "whists": [_amount_text(s.written), _amount_text(s.received)],
                "passes": [s.passes, s.passes_tricks],
            }
            for p, s in night.stats.items()
        },
    }


def night_from_json(data: dict[str, Any], file: str) -> Night:
    return Night(
        file=file,
        date=str(data["date"]),
        players=tuple(data["players"]),
        convention=str(data["convention"]),
        deals=int(data["deals"]),
        finished=bool(data["finished"]),
        currency=str(data["currency"]),
        whist_price=parse_amount(data["whist_price"]),
        result={p: parse_amount(v) for p, v in data["result"].items()},
        money={p: parse_amount(v) for p, v in data["money"].items()},
        stats={
            p: NightStats(
                declared={int(k): int(v) for k, v in s["declared"].items()},
                made={int(k): int(v) for k, v in s["made"].items()},
                misere_made=int(s["misere"][0]),
                misere_failed=int(s["misere"][1]),
                written=parse_amount(s["whists"][0]),
                received=parse_amount(s["whists"][1]),
                passes=int(s["passes"][0]),
                passes_tricks=int(s["passes"][1]),
            )
            for p, s in data["stats"].items()
        },
    )


# --- the cache ----------------------------------------------------------------------------------


class Cache:
    """Summaries of ledgers already read, in an SQLite file; every failure turns it off.

    A row is used only when the ledger's path, size, modification time and BLAKE2 digest all
    match, and the row was written by this prefcalc version in this cache format.
    """

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.db: sqlite3.Connection | None = None
        self.pending: list[tuple[str, int, int, str, str | None, str | None]] = []
        self.gone: list[str] = []
        self.problem: str | None = None  # why the cache was not used (a one-line warning)
        if path is not None:
            self._open(path)

    def _give_up(self, why: str, updated: bool = False) -> None:
        """Stop using the cache and say why (once): the history goes on without it."""
        if self.problem is None and self.path is not None:
            what = (
                _("{file}: the history cache was not updated ({why})")
                if updated
                else _("{file}: the history cache cannot be used ({why}); every ledger was read")
            )
            self.problem = what.format(file=_where(str(self.path)), why=why)
        self.close()

    def _open(self, path: Path) -> None:
        """Open the cache with the ledger's care: only a writable regular file (or none yet)
        is handed to SQLite; a link, a FIFO, a folder or a read-only file is left alone."""
        try:
            st = os.lstat(path)
        except FileNotFoundError:
            st = None
        except OSError as exc:
            self._give_up(files.os_reason(exc))
            return
        if st is not None and not stat.S_ISREG(st.st_mode):
            self._give_up(_("it is {kind}").format(kind=files.kind_of(st.st_mode)))  # never opened
            return
        if st is not None and not st.st_mode & 0o222:
            self._give_up(_("it is read-only"))
            return
        for side in _SQLITE_SIDE_FILES:  # SQLite would open these, and read a FIFO forever
            try:
                mode = os.lstat(path.with_name(path.name + side)).st_mode
            except OSError:
                continue
            if not stat.S_ISREG(mode):
                self._give_up(
                    _("its side file {name} is {kind}").format(
                        name=path.name + side, kind=files.kind_of(mode)
                    )
                )
                return
        for attempt in range(2):
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                db = sqlite3.connect(path, timeout=2, isolation_level=None)
            except (OSError, sqlite3.Error) as exc:
                self._give_up(_reason(exc))
                return
            try:
                self._prepare(db)
                self.db = db
                return
            except sqlite3.OperationalError as exc:  # locked, read-only, cannot open...
                db.close()
                self._give_up(_reason(exc))
                return
            except sqlite3.DatabaseError as exc:
                # not a database (or a broken one): it is only a cache, start it afresh
                db.close()
                if attempt == 0:
                    try:
                        path.unlink(missing_ok=True)
                    except OSError as gone:
                        self._give_up(_reason(gone))
                        return
                    continue
                self._give_up(_reason(exc))
                return
            except sqlite3.Error as exc:
                db.close()
                self._give_up(_reason(exc))
                return

    @staticmethod
    def _prepare(db: sqlite3.Connection) -> None:
        version = db.execute("PRAGMA user_version").fetchone()[0]
        stamp = db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'meta'"
        ).fetchone()
        current = None
        if stamp is not None:
            row = db.execute("SELECT value FROM meta WHERE key = 'prefcalc'").fetchone()
            current = row[0] if row else None
        if version != CACHE_FORMAT or current != __version__:
            db.execute("DROP TABLE IF EXISTS ledgers")
            db.execute("DROP TABLE IF EXISTS meta")
        db.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT)")
        db.execute(
            "CREATE TABLE IF NOT EXISTS ledgers (path TEXT PRIMARY KEY, size INTEGER, "
            "mtime_ns INTEGER, digest TEXT, summary TEXT, error TEXT)"
        )
        db.execute("INSERT OR REPLACE INTO meta VALUES ('prefcalc', ?)", (__version__,))
        db.execute(f"PRAGMA user_version = {CACHE_FORMAT}")
        db.execute("SELECT count(*) FROM ledgers").fetchone()  # reads the table: corrupt? raise

    def rows(self) -> dict[str, tuple[int, int, str, str | None, str | None]]:
        if self.db is None:
            return {}
        try:
            return {
                r[0]: (r[1], r[2], r[3], r[4], r[5])
                for r in self.db.execute(
                    "SELECT path, size, mtime_ns, digest, summary, error FROM ledgers"
                )
            }
        except sqlite3.Error as exc:
            self._give_up(_reason(exc))
            return {}

    def put(
        self,
        path: str,
        size: int,
        mtime_ns: int,
        digest: str,
        summary: str | None,
        error: str | None,
    ) -> None:
        self.pending.append((path, size, mtime_ns, digest, summary, error))

    def forget(self, paths: Sequence[str]) -> None:
        """Drop the rows of ledgers that are gone (at the next :meth:`commit`)."""
        self.gone.extend(paths)

    def commit(self) -> None:
        if self.db is None or not (self.pending or self.gone):
            return
        try:
            self.db.execute("BEGIN IMMEDIATE")
            self.db.executemany(
                "INSERT OR REPLACE INTO ledgers VALUES (?, ?, ?, ?, ?, ?)", self.pending
            )
            self.db.executemany("DELETE FROM ledgers WHERE path = ?", [(p,) for p in self.gone])
            self.db.execute("COMMIT")
        except sqlite3.Error as exc:
            with contextlib.suppress(sqlite3.Error):
                self.db.execute("ROLLBACK")
            self._give_up(_reason(exc), updated=True)
        self.pending = []
        self.gone = []

    def close(self) -> None:
        if self.db is not None:
            with contextlib.suppress(sqlite3.Error):
                self.db.close()
        self.db = None


_SQLITE_SIDE_FILES = ("-journal", "-wal", "-shm")


def _reason(exc: BaseException) -> str:
    """Why the cache failed, in a few words (an OSError's text, SQLite's message)."""
    if isinstance(exc, OSError):
        return files.os_reason(exc)
    return str(exc or type(exc).__name__)


def cache_path() -> Path:
    """Where the history cache lives: the data folder (``ledger.data_dir()``)."""
    from prefcalc.store.ledger import data_dir

    return data_dir() / CACHE_NAME


def default_folder() -> Path:
    """The folder ``prefcalc new`` puts games in."""
    from prefcalc.store.ledger import data_dir

    return data_dir() / "games"


# --- finding and reading the ledgers ------------------------------------------------------------


def ledger_files(paths: Iterable[Path]) -> tuple[list[Path], list[str]]:
    """The ledger files under ``paths``: a file as given, a folder's ``*.json`` files
    recursively (hidden files and folders skipped, links to folders not followed);
    duplicates (also through links) once. Returns the files and the warnings for paths that
    are neither; a path that does not exist is an error (a typo should not go unnoticed)."""
    found: list[Path] = []
    warnings: list[str] = []
    seen: set[str] = set()

    def add(path: Path) -> None:
        real = os.path.realpath(path)
        if real not in seen:
            seen.add(real)
            found.append(Path(real))

    for path in paths:
        try:
            st = os.stat(path)
        except FileNotFoundError:
            raise PrefcalcError(_("no such file or folder"), _where(str(path))) from None
        except (OSError, ValueError) as exc:
            reason = files.os_reason(exc) if isinstance(exc, OSError) else str(exc)
            warnings.append(_skipped(str(path), reason))
            continue
        if stat.S_ISDIR(st.st_mode):
            for file, problem in _walk(Path(path)):
                if problem is None:
                    add(file)
                else:
                    warnings.append(_skipped(str(file), problem))
        elif stat.S_ISREG(st.st_mode):
            add(Path(path))
        else:
            kind = _("it is {kind}").format(kind=files.kind_of(st.st_mode))
            warnings.append(_skipped(str(path), kind))
    return found, warnings


def _walk(folder: Path) -> Iterator[tuple[Path, str | None]]:
    """Every ``*.json`` below ``folder`` (hidden ones left out), with the reason it cannot be
    read when it is not a regular file (a FIFO is named, never opened)."""
    for root, dirs, names in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(names):
            # a tournament's own file sits beside its tables' ledgers (which are games)
            if name.endswith(".json") and not name.startswith(".") and name != TOURNAMENT:
                full = Path(root) / name
                try:
                    mode = os.stat(full).st_mode
                except OSError as exc:
                    yield full, files.os_reason(exc)
                    continue
                if stat.S_ISREG(mode):
                    yield full, None
                else:
                    yield full, _("it is {kind}").format(kind=files.kind_of(mode))


def read_nights(paths: Sequence[Path], cache: Cache | None = None) -> tuple[list[Night], list[str]]:
    """Every ledger among ``paths`` summarised (through ``cache`` when it has it), and a
    warning for every file that is skipped.

    A night is counted once however many byte-identical copies of its ledger there are
    (``g.json`` and ``g (copy).json``): it is shown under the shortest of their names and a
    warning names the copies. A game whose date cannot be placed in time (``0001-01-01``
    without an offset, on a computer east of Greenwich) is skipped with a warning.
    """
    nights: list[Night] = []
    warnings: list[str] = []
    known = cache.rows() if cache is not None else {}
    copies: dict[str, list[str]] = {}  # digest -> the files with those bytes, in order
    counted: dict[str, int] = {}  # digest -> its night's place in ``nights``
    for path in paths:
        key = str(path)
        try:
            st = os.stat(path)
            raw = files.read_regular(path, "the ledger", files.MAX_LEDGER, LedgerError)
        except OSError as exc:
            warnings.append(_skipped(key, files.os_reason(exc)))
            continue
        except PrefcalcError as exc:
            warnings.append(_skipped(key, exc.message))
            continue
        digest = hashlib.blake2b(raw, digest_size=16).hexdigest()
        if digest in copies:
            copies[digest].append(key)
            continue
        copies[digest] = [key]
        night, error = _night(raw, key, st, digest, known, cache)
        if night is not None:
            error = _unplaced(night)
        if night is None or error is not None:
            warnings.append(error or _("{file}: skipped").format(file=_where(key)))
            continue
        counted[digest] = len(nights)
        nights.append(night)
    for digest, same in copies.items():
        if len(same) < 2:
            continue
        shown_as = min(same, key=len)
        if digest in counted:
            night = nights[counted[digest]]
            nights[counted[digest]] = replace(night, file=shown_as)
        others = ", ".join(_where(k) for k in same if k != shown_as)
        warnings.append(
            _("{file}: the same file byte for byte as {others}: counted once").format(
                file=_where(shown_as), others=others
            )
        )
    if cache is not None:
        seen = {str(p) for p in paths}
        cache.forget([p for p in known if p not in seen and not os.path.lexists(p)])
        cache.commit()
    return nights, warnings


def _night(
    raw: bytes,
    key: str,
    st: os.stat_result,
    digest: str,
    known: dict[str, tuple[int, int, str, str | None, str | None]],
    cache: Cache | None,
) -> tuple[Night | None, str | None]:
    """The night of the ledger ``raw`` read at ``key``: from the cache when it holds these
    bytes, else read and scored (and handed to the cache)."""
    row = known.get(key)
    if row is not None and row[:3] == (len(raw), st.st_mtime_ns, digest):
        summary, error = row[3], row[4]
        if error is not None:
            return None, error
        if summary is not None:
            try:
                return night_from_json(json.loads(summary), key), None
            except (ValueError, KeyError, TypeError, IndexError, AttributeError):
                pass  # a damaged row: read the ledger
    night, error = _read(raw, key)
    if cache is not None:
        text = None if night is None else json.dumps(night_to_json(night), ensure_ascii=False)
        cache.put(key, len(raw), st.st_mtime_ns, digest, text, error)
    return night, error


def _unplaced(night: Night) -> str | None:
    """Why the night's date cannot be put in order with the others, or None if it can."""
    try:
        _order(night)
    except (ValueError, OverflowError, OSError) as exc:
        return _skipped(
            night.file,
            _("its date '{date}' cannot be placed in time ({why})").format(
                date=shown(night.date), why=exc
            ),
        )
    return None


def _skipped(path: str, reason: str) -> str:
    """``file: skipped, reason``: a ledger the history leaves out, and why."""
    return _("{file}: skipped, {reason}").format(file=_where(path), reason=reason)


def _where(path: str) -> str:
    """A path in a warning, control characters escaped: whole unless it is so long that the
    one-line warning would lose the words after it."""
    return shown(path, 300)


def _read(raw: bytes, key: str) -> tuple[Night | None, str | None]:
    from prefcalc.store.ledger import game_from_bytes

    try:
        game = game_from_bytes(raw, key)
        return summarise(game, key), None
    except PrefcalcError as exc:
        return None, _skipped(key, _("not a usable ledger: {why}").format(why=exc.message))
    except (RecursionError, ValueError, ArithmeticError, MemoryError) as exc:
        return None, _skipped(key, _("cannot be read: {why}").format(why=type(exc).__name__))


# --- across nights ------------------------------------------------------------------------------


@dataclass
class Standing:
    """One player across the nights."""

    name: str
    key: str
    games: int = 0
    whists: Amount = 0
    money: dict[str, Amount] = field(default_factory=dict)  # currency -> amount
    wins: int = 0
    best: tuple[Amount, Night] | None = None
    worst: tuple[Amount, Night] | None = None
    declared: dict[int, int] = field(default_factory=dict)
    made: dict[int, int] = field(default_factory=dict)
    misere_made: int = 0
    misere_failed: int = 0
    written: Amount = 0
    received: Amount = 0
    passes: int = 0
    passes_tricks: int = 0
    unfinished: int = 0  # games counted with a provisional settlement

    @property
    def contracts_declared(self) -> int:
        return sum(self.declared.values())

    @property
    def contracts_made(self) -> int:
        return sum(self.made.values())


@dataclass(frozen=True)
class History:
    games: list[Night]  # oldest first
    players: list[Standing]  # by total whists, best first
    warnings: list[str]
    ratings: list[Rating] | None = None  # with ``collect(..., ratings=True)``: best first

    def running(self) -> list[dict[str, Amount]]:
        """Every player's running total in whists after each game (the players' names)."""
        totals = {s.key: Fraction(0) for s in self.players}
        name = {s.key: s.name for s in self.players}
        out = []
        for night in self.games:
            for p, value in night.result.items():
                k = name_key(p)
                if k in totals:
                    totals[k] += value
            out.append({name[k]: norm(v) for k, v in totals.items()})
        return out


def parse_since(text: str) -> date:
    """``--since``: an ISO date (``2026-11-01``)."""
    try:
        return date.fromisoformat(text.strip())
    except ValueError:
        raise DealError(
            _("--since must be a date like 2026-11-01, not '{text}'").format(text=shown(text))
        ) from None


def _order(night: Night) -> tuple[int, float, str]:
    moment = _moment(night.date)
    if moment is None:
        return (0, 0.0, night.file)
    if moment.tzinfo is None:
        moment = moment.astimezone()
    return (1, moment.timestamp(), night.file)


def standings(nights: Sequence[Night]) -> list[Standing]:
    """The nights added up per player (matched by :func:`name_key`), best total first."""
    table: dict[str, Standing] = {}
    for night in nights:  # oldest first: the latest spelling of a name wins
        for p in night.players:
            k = name_key(p)
            s = table.get(k)
            if s is None:
                s = table[k] = Standing(p, k)
            s.name = p
            value = night.result[p]
            s.games += 1
            s.whists = norm(s.whists + value)
            s.money[night.currency] = norm(s.money.get(night.currency, 0) + night.money[p])
            s.wins += value > 0
            s.unfinished += not night.finished
            if s.best is None or value > s.best[0]:
                s.best = (value, night)
            if s.worst is None or value < s.worst[0]:
                s.worst = (value, night)
            st = night.stats[p]
            for level, count in st.declared.items():
                s.declared[level] = s.declared.get(level, 0) + count
            for level, count in st.made.items():
                s.made[level] = s.made.get(level, 0) + count
            s.misere_made += st.misere_made
            s.misere_failed += st.misere_failed
            s.written = norm(s.written + st.written)
            s.received = norm(s.received + st.received)
            s.passes += st.passes
            s.passes_tricks += st.passes_tricks
    return sorted(table.values(), key=lambda s: (-s.whists, s.key))


def collect(
    paths: Sequence[Path] = (),
    *,
    since: date | None = None,
    player: str | None = None,
    use_cache: bool = True,
    ratings: bool = False,
) -> History:
    """The history of the games in ``paths`` (files and folders; default: the data folder's
    games), from ``since`` on (the game's ``created`` date), only the games of ``player``
    if given (and only his standing). ``ratings``: the players' Elo ratings too
    (:mod:`prefcalc.history.ratings`), over every game from ``since`` on (only his line
    with ``player``)."""
    if paths:
        found, warnings = ledger_files(paths)
    else:  # the data folder's games: none yet is not an error
        folder = default_folder()
        found, warnings = ledger_files([folder]) if folder.is_dir() else ([], [])
    cache = Cache(cache_path()) if use_cache and found else None
    try:
        nights, skipped = read_nights(found, cache)
    finally:
        if cache is not None:
            cache.close()
    warnings += skipped
    nights = as_played(nights)
    if cache is not None and cache.problem is not None:
        warnings.append(cache.problem)
    if since is not None:
        nights = [n for n in nights if (d := n.day) is not None and d >= since]
    nights.sort(key=_order)
    rated = elo(nights) if ratings else None
    wanted: str | None = None
    if player is not None:
        wanted = _player_key(player, nights)
        nights = [n for n in nights if any(name_key(p) == wanted for p in n.players)]
    table = standings(nights)
    if wanted is not None:
        table = [s for s in table if s.key == wanted]
        rated = None if rated is None else [r for r in rated if r.key == wanted]
    return History(nights, table, warnings, rated)


TABLE_FILE = re.compile(r"r[1-9][0-9]{0,2}-t[1-9][0-9]{0,3}\.json")
"""A tournament table's ledger beside its ``tournament.json`` (prefcalc.tournament.model)."""


def as_played(nights: Sequence[Night]) -> list[Night]:
    """The nights, each tournament table played to its round's number of deals, or closed
    by the judge in a round played by time, counted complete (docs/tournament.md §4): its
    game stops there by the tournament's rules, not early. The tournament's file says the
    round's length and the closes; one that cannot be read says nothing."""
    rounds: dict[Path, tuple[int | None, set[str]] | None] = {}
    out = []
    for night in nights:
        path = Path(night.file)
        if night.finished or TABLE_FILE.fullmatch(path.name) is None:
            out.append(night)
            continue
        folder = path.parent
        if folder not in rounds:
            rounds[folder] = _tournament_rounds(folder / TOURNAMENT)
        known = rounds[folder]
        if known is not None:
            deals, closed = known
            if (deals is not None and night.deals >= deals) or path.name in closed:
                night = replace(night, finished=True)
        out.append(night)
    return out


def _tournament_rounds(path: Path) -> tuple[int | None, set[str]] | None:
    """A tournament's round length in deals (None: by time) and its tables the judge
    closed; None when there is no tournament file or it cannot be read."""
    try:
        raw = files.read_regular(path, "the tournament file", 16 * 1024 * 1024, LedgerError)
        data = json.loads(raw)
        deals = data.get("deals")
        closed = {
            tb["file"]
            for rnd in data.get("draws", [])
            for tb in rnd.get("tables", [])
            if tb.get("closed") is not None
        }
    except (OSError, PrefcalcError, ValueError, TypeError, AttributeError, KeyError):
        return None
    return (deals if isinstance(deals, int) and not isinstance(deals, bool) else None), closed


def _player_key(given: str, nights: Sequence[Night]) -> str:
    """The key of the player ``given`` names: exactly, or by a unique prefix."""
    key = name_key(given.strip())
    keys = {name_key(p): p for n in nights for p in n.players}
    if key in keys:
        return key
    matches = sorted(k for k in keys if k.startswith(key)) if key else []
    if len(matches) == 1:
        return matches[0]
    if len(matches) > 1:
        names = ", ".join(keys[k] for k in matches)
        raise DealError(
            _("'{given}' could be any of {names}: give more of the name").format(
                given=shown(given), names=names
            )
        )
    raise DealError(_("no player '{given}' in these games").format(given=shown(given)))


# --- the best contract of a night (for ``prefcalc share``) -------------------------------------

_SUIT_ORDER = {"s": 0, "c": 1, "d": 2, "h": 3, "nt": 4}


def best_contract(game: Game) -> tuple[int, Contract] | None:
    """The night's best contract: the highest made contract in the bidding order (level,
    then ♠ ♣ ♦ ♥ NT); a played one beats an unplayed one of the same rank, then the most
    tricks, then the earliest. Returns the deal's number and the contract."""
    best: tuple[tuple[int, int, int, int, int], int, Contract] | None = None
    for number, entry in enumerate(game.entries, 1):
        deal = entry.deal
        if isinstance(deal, Contract) and made(deal):
            played = deal.tricks is not None
            rank = (deal.level, _SUIT_ORDER[deal.suit], played, deal.tricks or 0, -number)
            if best is None or rank > best[0]:
                best = (rank, number, deal)
    return None if best is None else (best[1], best[2])
