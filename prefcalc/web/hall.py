"""``prefcalc serve --tournament DIR``: the hall's page and every table's pages on one server.

- ``/``: the hall's page: the round, the live standings (:func:`prefcalc.tournament.api.standings`,
  the very function of ``prefcalc tournament standings``) and a card per table of the round
  (its players, who deals next, the deals played, playing or finished, each player's balance);
- ``/api/hall``: what the page shows, as JSON (exact numbers as strings, as ``standings
  --json``; the same numbers written for people in the page's language);
- ``/api/events``: one ``ledger`` event whenever ``tournament.json`` or a table's ledger
  changes (:class:`HallWatcher`), as ``serve``'s stream says it;
- ``/t/<round>/<table>/...``: the table's own ``serve`` application (watch page, score page,
  API, events), made when first asked for, with the table's own score token
  (:func:`prefcalc.web.tokens.score_token`: kept per ledger, 0600). One table's token never
  writes to another: each table's application knows its own token only. A round drawn while
  the hall is served (``prefcalc tournament draw`` in another terminal) is seen by the watch:
  its tables' applications and tokens are made then, and ``serve`` prints their score links.

A table that is not in ``tournament.json`` is 404 in one line; the Host is checked before
anything (421), as for ``serve``.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import re
import stat
import threading
from collections.abc import AsyncIterator, Awaitable, Callable, Collection, Sequence
from contextlib import asynccontextmanager
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from anyio import to_thread
from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from sse_starlette import EventSourceResponse
from starlette.exceptions import HTTPException
from starlette.routing import Mount
from starlette.types import Receive, Scope, Send

from prefcalc import __version__
from prefcalc.errors import DealError, PrefcalcError
from prefcalc.i18n import N_, _, speaking
from prefcalc.views.words import refusal_line, say, script_words
from prefcalc.web import events
from prefcalc.web.middleware import OwnHosts, SecurityHeaders, error
from prefcalc.web.models import problem
from prefcalc.web.pages import install_words
from prefcalc.web.watch import LedgerWatcher

if TYPE_CHECKING:
    from prefcalc.tournament.standings import Table as StandingsTable
    from prefcalc.tournament.standings import Unread

T = TypeVar("T")

HERE = Path(__file__).resolve().parent
NO_STORE = {"Cache-Control": "no-store"}
MAX_FILE = 64 * 1024 * 1024
"""Bytes of one file the hall's watch hashes at most (a ledger is far smaller)."""

UNKNOWN_TABLE = N_("no such table in this tournament: {reason}")


class UnknownTable(PrefcalcError):
    """The tournament has no such round or table."""


TokenOf = Callable[[Path], str]
"""The score token of a table's ledger (``serve``: the one kept for that ledger)."""

Announce = Callable[[int, Sequence[tuple[int, str]], Sequence[str]], None]
"""Says a round drawn while the hall is served: ``(round, [(table, its score token)],
[a line for each table that could not be served])`` (``serve``: on the terminal)."""


# --- the watch on the folder ---------------------------------------------------------------------


def _watched(folder: Path) -> list[str]:
    """The files of the tournament: ``tournament.json`` and the tables' ledgers, by name."""
    from prefcalc.tournament.model import FILE_NAME, TABLE_FILE

    try:
        names = os.listdir(folder)
    except OSError:
        return []
    return sorted(n for n in names if n == FILE_NAME or TABLE_FILE.fullmatch(n))


def _read_regular(path: Path) -> bytes:
    """A regular file's bytes, never following a link nor waiting on a FIFO; b"" for
    anything else (the standings say what is wrong with it)."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, flags)
    except OSError:
        return b""
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return b""
        return os.read(fd, MAX_FILE)
    except OSError:
        return b""
    finally:
        os.close(fd)


class HallWatcher(LedgerWatcher):
    """:class:`LedgerWatcher` over the whole tournament: its version is the hash of
    ``tournament.json`` and every table's ledger, so a deal at any table, a draw or a close
    is one event for the hall's page; after each change it awaits ``on_change`` (the hall
    looks for a round drawn meanwhile)."""

    def __init__(
        self,
        path: Path,
        interval: float | None = 0.25,
        on_change: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        super().__init__(path, interval)
        self.on_change = on_change

    async def check(self) -> bool:
        changed = self.poll()
        if changed and self.on_change is not None:
            await self.on_change()
        return changed

    async def _run(self) -> None:
        assert self.interval is not None
        while True:
            await asyncio.sleep(self.interval)
            try:
                await self.check()
            except Exception:  # never let one bad poll end the watch
                continue

    def _signature(self) -> tuple[int, ...] | None:
        signature: list[int] = []
        for name in _watched(self.path):
            try:
                st = os.lstat(self.path / name)
            except OSError:
                continue
            digest = hashlib.blake2b(name.encode(), digest_size=8).digest()
            signature += [int.from_bytes(digest), st.st_ino, st.st_size, st.st_mtime_ns]
        return tuple(signature) if signature else None

    def _digest(self) -> str:
        names = _watched(self.path)
        if not names:
            return ""
        h = hashlib.blake2b(digest_size=12)
        for name in names:
            h.update(name.encode() + b"\0")
            h.update(hashlib.blake2b(_read_regular(self.path / name)).digest())
        return h.hexdigest()


# --- the hall ------------------------------------------------------------------------------------


class Hall:
    """The served tournament: its folder, its language, the tables' applications made so
    far (one per table asked for) and the lock its readings take turns with."""

    def __init__(
        self,
        folder: Path,
        token_of: TokenOf,
        *,
        read_only: bool,
        lang: str,
        poll_interval: float | None,
        hosts: Collection[str] | None,
        max_watchers: int,
        announce: Announce | None = None,
        announced: int = 0,
    ) -> None:
        self.folder = folder
        self.token_of = token_of
        self.announce = announce
        self.announced = announced  # the last round whose tables were made and said
        self._seen: tuple[int, int, int] | None = None  # tournament.json's stat at the last look
        self.read_only = read_only
        self.lang = lang
        self.poll_interval = poll_interval
        self.hosts = hosts
        self.max_watchers = max_watchers
        self.watcher = HallWatcher(folder, poll_interval, self.follow)
        self.tables: dict[tuple[int, int], FastAPI] = {}
        self._lock = threading.Lock()

    async def run(self, fn: Callable[[], T]) -> T:
        """``fn()`` in a worker thread, one at a time, in the hall's language."""

        def locked() -> T:
            with self._lock, speaking(self.lang):
                return fn()

        return await to_thread.run_sync(locked)

    def ledger(self, round_: int, number: int) -> Path:
        """Table ``number`` of round ``round_``'s ledger: refused in one line when the
        tournament has no such table, or its ledger is not the table the draw made."""
        from prefcalc.tournament import folder

        t = folder.load(self.folder)
        try:
            record = t.table(round_, number)
        except DealError as exc:
            raise UnknownTable(str(exc)) from None
        folder.table_game(self.folder, t, round_, record)
        return self.folder / record.file

    async def table_app(self, round_: int, number: int) -> FastAPI:
        """The application of a table, made the first time it is asked for."""
        from prefcalc.web.app import create_app

        found = self.tables.get((round_, number))
        if found is not None:
            return found

        def make() -> FastAPI:
            path = self.ledger(round_, number)
            token = self.token_of(path)
            return create_app(
                path,
                token,
                read_only=self.read_only,
                lang=self.lang,
                poll_interval=self.poll_interval,
                hosts=self.hosts,
                max_watchers=self.max_watchers,
            )

        made = await self.run(make)
        found = self.tables.setdefault((round_, number), made)
        if found is made:  # a mounted application's lifespan never runs: its watch starts here
            made.state.table.watcher.start()
        return found

    async def follow(self) -> None:
        """After a change of the tournament: each round drawn since the last look (``prefcalc
        tournament draw`` in another terminal) has its tables' applications made, with their
        tokens, and is said by ``announce`` (its score links on ``serve``'s terminal). A table
        that cannot be served is said in one line; a folder that is no tournament now says
        nothing (the hall's page says what is wrong with it)."""
        from prefcalc.tournament import folder
        from prefcalc.tournament.model import FILE_NAME

        try:  # a deal at a table leaves tournament.json as it was: nothing to read
            st = os.stat(self.folder / FILE_NAME)
        except OSError:
            return
        seen = (st.st_ino, st.st_size, st.st_mtime_ns)
        if seen == self._seen:
            return
        try:
            t = await self.run(lambda: folder.load(self.folder))
        except PrefcalcError:
            return
        self._seen = seen
        for drawn in t.draws:
            if drawn.round <= self.announced:
                continue
            self.announced = drawn.round  # a change meanwhile never says it twice
            links: list[tuple[int, str]] = []
            problems: list[str] = []
            for tb in drawn.tables:
                try:
                    app = await self.table_app(drawn.round, tb.table)
                except PrefcalcError as exc:
                    problems.append(str(exc))
                    continue
                links.append((tb.table, app.state.table.token))
            if self.announce is not None:
                await self.run(partial(self.announce, drawn.round, links, problems))

    def watchers(self) -> list[LedgerWatcher]:
        return [self.watcher, *(a.state.table.watcher for a in self.tables.values())]

    def close(self) -> None:
        """The server is stopping: every stream, the hall's and the tables', ends."""
        for watcher in self.watchers():
            watcher.close()

    def state(self) -> dict[str, Any]:
        """What the hall's page shows (call it inside :meth:`run`)."""
        from prefcalc.tournament import api as tournament

        t = tournament.load(self.folder)
        answer: dict[str, Any] = {
            "name": t.name,
            "rounds": t.rounds,
            "deals": t.deals,
            "minutes": t.minutes,
            "round": len(t.draws),
            "scoring": t.scoring,
            "title": "",
            "complete": False,
            "standings": [],
            "over": [],
            "tables": [],
        }
        if not t.draws:
            return answer
        from prefcalc.tournament.standings import rank, read_tables_leniently
        from prefcalc.tournament.text import (
            correction_notes,
            exact,
            over_mark,
            standings_rows,
            standings_title,
        )
        from prefcalc.views.text_kit import signed

        # a table whose ledger cannot be read is one card saying why; the rest as usual
        rounds, unread = read_tables_leniently(self.folder, t)
        s = rank(t, rounds, self.folder, unread)
        cells = standings_rows(s)[1:]
        answer["title"] = _unbroken(standings_title(s))
        answer["complete"] = s.complete and not unread
        answer["over"] = [_unbroken(_over_note(tb)) for tb in s.over()]
        answer["over"] += [_unbroken(line) for line in correction_notes(s)]
        answer["standings"] = [
            {
                "place": row.place,
                "name": row.name,
                "points": exact(row.points),
                "whists": exact(row.whists),
                "points_text": shown[-5],
                "whists_text": shown[-4],
            }
            for row, shown in zip(s.rows, cells, strict=True)
        ]
        answer["tables"] = [
            {
                "round": tb.round,
                "table": tb.number,
                "players": list(tb.players),
                "dealer": None if tb.sheet.finished else tb.sheet.next_dealer,
                "deals": tb.deals,
                "complete": tb.complete,
                "over": tb.over,
                "over_text": over_mark(tb.over) if tb.over else "",
                "over_note": _unbroken(_over_note(tb)) if tb.over else "",
                "balances": [
                    {
                        "name": p,
                        "whists": exact(tb.seats[p].result),
                        "whists_text": signed(tb.seats[p].result),
                    }
                    for p in tb.players
                ],
                "watch": f"/t/{tb.round}/{tb.number}/",
                "error": "",
            }
            for tb in s.rounds[-1]
        ]
        last = len(t.draws)
        for u in unread:
            if u.round == last:
                answer["tables"].append(_unread_card(u))
        answer["tables"].sort(key=lambda card: card["table"])
        return answer


def _unread_card(u: Unread) -> dict[str, Any]:
    """The card of a table whose ledger cannot be read: its players and the refusal."""
    return {
        "round": u.round,
        "table": u.record.table,
        "players": list(u.record.players),
        "dealer": None,
        "deals": 0,
        "complete": False,
        "over": 0,
        "over_text": "",
        "over_note": "",
        "balances": [],
        "watch": f"/t/{u.round}/{u.record.table}/",
        "error": _unbroken(u.error),
        "error_text": _("cannot be read"),
    }


NUMBER_HYPHEN = re.compile(r"(?<=\d)-(?=[^\W\d_]+\b)")
"""A number's hyphenated ending («2-го», «21-ю»), not a file's name (``r1-t2.json``)."""


def _unbroken(text: str) -> str:
    """``text`` with a number's hyphenated ending («2-го») held to it by a no-break hyphen:
    a narrow phone wraps a title there otherwise."""
    return NUMBER_HYPHEN.sub("\N{NON-BREAKING HYPHEN}", text)


def _over_note(tb: StandingsTable) -> str:
    """The hall's line for a table that recorded deals beyond the round (the standings'
    line, with the score page's undo in place of the CLI's)."""
    from prefcalc.tournament.text import over_note

    return over_note(tb, _("Undo on the table's score page takes back the last deal"))


class TableDispatch:
    """``/t/<round>/<table>/...``: the request handed to that table's application (made on
    first use); a table the tournament does not have is 404 in one line."""

    def __init__(self, hall: Hall) -> None:
        self.hall = hall

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        params = scope.get("path_params", {})
        try:
            app = await self.hall.table_app(int(params["round"]), int(params["table"]))
        except UnknownTable as exc:
            if scope["type"] == "http":
                message = say(self.hall.lang, UNKNOWN_TABLE, reason=str(exc))
                await error(404, message)(scope, receive, send)
            return
        except PrefcalcError as exc:  # its ledger is not the table drawn, or unreadable
            if scope["type"] == "http":
                await error(422, refusal_line(exc))(scope, receive, send)
            return
        await app(scope, receive, send)


# --- the routes -----------------------------------------------------------------------------------

router = APIRouter()


def _hall(request: Request) -> Hall:
    hall: Hall = request.app.state.hall
    return hall


@router.get("/", response_class=HTMLResponse, include_in_schema=False)
async def hall_page(request: Request) -> HTMLResponse:
    hall = _hall(request)
    templates: Jinja2Templates = request.app.state.templates
    context = {
        "lang": hall.lang,
        "read_only": hall.read_only,
        "version": __version__,
        "words": script_words(hall.lang),
    }
    return templates.TemplateResponse(request, "hall.html", context, headers=NO_STORE)


@router.get(
    "/api/hall",
    summary="The hall: the round, the live standings and every table of the round",
    responses={422: problem("A table's ledger cannot be read or is not the table drawn.")},
)
async def hall_state(request: Request) -> JSONResponse:
    hall = _hall(request)
    return JSONResponse(await hall.run(hall.state), headers=NO_STORE)


@router.get(
    "/api/events",
    summary="Server-sent events: one `ledger` event on connecting, then one after every change"
    " of the tournament (any table's ledger, a draw, a close)",
    response_class=EventSourceResponse,
    responses={503: problem("Too many watchers at once: try again later.")},
)
async def hall_events(request: Request) -> EventSourceResponse:
    hall = _hall(request)
    watcher = hall.watcher
    queue = watcher.subscribe(hall.max_watchers)
    if queue is None:
        raise HTTPException(
            503, say(hall.lang, events.TOO_MANY), headers={"Retry-After": str(events.RETRY_AFTER)}
        )

    async def stream() -> AsyncIterator[dict[str, str]]:
        try:
            yield {"event": "ledger", "data": watcher.message()}
            while not watcher.closed:
                message = await queue.get()
                if not message:
                    return
                yield {"event": "ledger", "data": message}
        finally:
            watcher.unsubscribe(queue)

    return events.Stream(stream(), watcher, queue)


# --- the application ------------------------------------------------------------------------------


def create_hall_app(
    folder: Path,
    token_of: TokenOf,
    *,
    read_only: bool = False,
    lang: str = "en",
    poll_interval: float | None = 0.25,
    hosts: Collection[str] | None = None,
    max_watchers: int = events.MAX_WATCHERS,
    announce: Announce | None = None,
    announced: int = 0,
) -> FastAPI:
    """The application serving the tournament in ``folder``: the hall's page and each
    table's pages under ``/t/<round>/<table>/``; a table's writes need
    ``token_of(its ledger)``. Each round drawn after round ``announced`` while it serves has
    its tables' applications made and is given to ``announce`` (:meth:`Hall.follow`). The
    other arguments are :func:`prefcalc.web.app.create_app`'s (``poll_interval`` None: tests
    call the watchers' ``check()`` themselves)."""
    from prefcalc.web.app import STARLETTE_WORDS, refused
    from prefcalc.web.middleware import local_names

    hall = Hall(
        folder,
        token_of,
        read_only=read_only,
        lang=lang,
        poll_interval=poll_interval,
        hosts=hosts,
        max_watchers=max_watchers,
        announce=announce,
        announced=announced,
    )

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        hall.watcher.start()
        await hall.follow()  # a round drawn since the links were printed
        try:
            yield
        finally:
            for watcher in hall.watchers():
                await watcher.stop()

    async def http_error(_request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, HTTPException)
        detail = str(exc.detail)
        if detail in STARLETTE_WORDS:
            detail = say(lang, STARLETTE_WORDS[detail])
        answer = error(exc.status_code, detail)
        answer.headers.update(exc.headers or {})
        return answer

    app = FastAPI(
        title="prefcalc tournament",
        version=__version__,
        summary="The hall of a Preference tournament: the standings live, every table's state.",
        docs_url=None,
        redoc_url=None,
        lifespan=lifespan,
        responses={421: problem("The Host of the request is not this server's: nothing more.")},
        exception_handlers={HTTPException: http_error, PrefcalcError: refused},
    )
    templates = Jinja2Templates(directory=str(HERE / "templates"))
    install_words(templates.env, lang)
    app.state.hall = hall
    app.state.templates = templates
    # no body limit of its own: the hall reads no body, each table's application has its own
    app.add_middleware(OwnHosts, names=local_names() if hosts is None else hosts, lang=lang)
    app.add_middleware(SecurityHeaders)
    app.include_router(router)
    app.router.routes.append(
        Mount("/t/{round:int}/{table:int}", app=TableDispatch(hall), name="table")
    )
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")
    return app


def table_links(folder: Path) -> list[tuple[int, int, Path]]:
    """The tables of the last round drawn: (round, table, ledger)."""
    from prefcalc.tournament import folder as tfolder

    t = tfolder.load(folder)
    if not t.draws:
        return []
    last = t.draws[-1]
    return [(last.round, tb.table, folder / tb.file) for tb in last.tables]
