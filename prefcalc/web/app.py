"""The web front end of ``prefcalc serve``: the watcher page, the scorer page and the JSON API.

Every answer is what the CLI would give: ``GET /api/game`` is ``show --json``, ``GET
/api/settle`` is ``settle --json``, ``POST /api/lines`` runs one ``play`` line through the
play session (:mod:`prefcalc.web.lines`) and a refused line is the CLI's one-line message.
Writes go through :func:`prefcalc.api.update`, under the ledger's lock; the ledger is read
and written by one thread at a time here (the API keeps a per-process cache).
"""

from __future__ import annotations

import hmac
import json
import threading
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

from anyio import to_thread
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from sse_starlette import EventSourceResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from prefcalc import __version__, api
from prefcalc.errors import PrefcalcError, one_line
from prefcalc.web.lines import execute_line
from prefcalc.web.watch import LedgerWatcher
from prefcalc.web.words import install as install_words
from prefcalc.web.words import script_words

HERE = Path(__file__).resolve().parent
MAX_BODY = 16 * 1024  # bytes of a request body
MAX_LINE = 500  # characters of a play line
MAX_WATCHERS = 200  # event streams at once
SEND_TIMEOUT = 30.0  # seconds: a watcher that takes no event for this long is dropped

T = TypeVar("T")


class Refused(Exception):
    """An answer other than 200: a status and the one-line message."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = one_line(message)


def _error(status: int, message: str, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": one_line(message)}, status_code=status, headers=headers)


class Table:
    """The served game: its ledger, the scorer's token and the lock the reads and writes
    of this process take turns with."""

    def __init__(
        self,
        path: Path,
        token: str,
        read_only: bool,
        lang: str,
        poll_interval: float | None,
    ) -> None:
        self.path = path
        self.token = token
        self.read_only = read_only
        self.lang = lang
        self.watcher = LedgerWatcher(path, poll_interval)
        self._lock = threading.Lock()

    async def run(self, fn: Callable[[], T]) -> T:
        def locked() -> T:
            with self._lock:
                return fn()

        return await to_thread.run_sync(locked)

    def authorised(self, request: Request) -> bool:
        scheme, _, value = request.headers.get("authorization", "").partition(" ")
        if scheme.lower() != "bearer":
            return False
        given = value.strip().encode("utf-8", "surrogateescape")
        return hmac.compare_digest(given, self.token.encode("utf-8"))


async def read_body(request: Request, limit: int = MAX_BODY) -> bytes:
    """The body, refused with 413 as soon as it is known to be longer than ``limit``: from
    its Content-Length before reading anything, else while it streams in."""
    length = request.headers.get("content-length")
    if length is not None:
        if not length.strip().isdigit():
            raise Refused(400, "the Content-Length is not a number")
        if int(length) > limit:
            raise Refused(413, f"the request body is too large (at most {limit} bytes)")
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise Refused(413, f"the request body is too large (at most {limit} bytes)")
        chunks.append(chunk)
    return b"".join(chunks)


def parse_line(body: bytes) -> str:
    """The ``line`` of a ``{"line": "..."}`` body, or a one-line refusal."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        raise Refused(400, "the request body is not valid UTF-8") from None
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise Refused(422, f"the request body is not JSON: {exc}") from None
    if not isinstance(data, dict) or not isinstance(data.get("line"), str):
        raise Refused(422, 'send {"line": "<a play line>"}')
    line: str = data["line"]
    if len(line) > MAX_LINE:
        raise Refused(422, f"the line is too long (at most {MAX_LINE} characters)")
    if "\n" in line or "\r" in line:
        raise Refused(422, "one line at a time (no line breaks)")
    return line


LINE_BODY: dict[str, Any] = {
    "requestBody": {
        "required": True,
        "content": {
            "application/json": {
                "schema": {
                    "type": "object",
                    "required": ["line"],
                    "properties": {
                        "line": {
                            "type": "string",
                            "maxLength": MAX_LINE,
                            "examples": ["game Anna 7h 7 Boris:w Vera:p", "undo"],
                        }
                    },
                }
            }
        },
    },
    "responses": {
        "401": {"description": "No token or the wrong one: nothing is written."},
        "403": {"description": "The server is read-only."},
        "413": {"description": "The body is larger than 16 KB."},
        "422": {"description": 'The line is refused: {"error": "<the CLI\'s message>"}.'},
    },
}


SECURITY_HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (
        b"content-security-policy",
        b"default-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    ),
]


class SecurityHeaders:
    """Every answer: nothing but this server's own scripts, styles and pictures; no framing,
    no referrer, no content sniffing."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *SECURITY_HEADERS]}
            await send(message)

        await self.app(scope, receive, with_headers)


def _with_said(sheet: Any, items: list[dict[str, Any]], lang: str) -> list[dict[str, Any]]:
    """The log of a page in another language than English: each write also carries
    ``said``, its reason in the page's words (``reason`` stays the English one)."""
    from prefcalc.i18n import speaking
    from prefcalc.views.text import reason_text

    with speaking(lang):
        for item, scored in zip(items, sheet.scored, strict=True):
            for out, w in zip(item["writes"], scored.writes, strict=True):
                out["said"] = reason_text(w)
    return items


def create_app(
    path: Path,
    token: str,
    *,
    read_only: bool = False,
    lang: str = "en",
    poll_interval: float | None = 0.25,
) -> FastAPI:
    """The application serving the ledger at ``path``; writing needs ``token`` (unless
    ``read_only``). ``poll_interval`` None: no background watch (tests call
    ``app.state.table.watcher.check()`` themselves)."""
    table = Table(path, token, read_only, lang, poll_interval)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        table.watcher.start()
        try:
            yield
        finally:
            await table.watcher.stop()

    app = FastAPI(
        title="prefcalc",
        version=__version__,
        summary="The pool sheet of the current Preference game, live, and scoring from a phone.",
        docs_url=None,  # the Swagger page loads its assets from a CDN: /openapi.json only
        redoc_url=None,
        lifespan=lifespan,
    )
    app.state.table = table
    app.add_middleware(SecurityHeaders)
    templates = Jinja2Templates(directory=str(HERE / "templates"))
    install_words(templates.env, table.lang)
    words = script_words(table.lang)
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")

    @app.exception_handler(Refused)
    async def refused(_request: Request, exc: Refused) -> JSONResponse:
        headers = {"WWW-Authenticate": "Bearer"} if exc.status == 401 else None
        return _error(exc.status, exc.message, headers)

    @app.exception_handler(PrefcalcError)
    async def prefcalc_error(_request: Request, exc: PrefcalcError) -> JSONResponse:
        return _error(422, str(exc))

    @app.exception_handler(RequestValidationError)
    async def invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {}
        where = ".".join(str(p) for p in first.get("loc", ()))
        return _error(422, f"{where}: {first.get('msg', 'invalid request')}")

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
        return _error(exc.status_code, str(exc.detail))

    def page(request: Request, name: str) -> HTMLResponse:
        return templates.TemplateResponse(
            request,
            name,
            {
                "lang": table.lang,
                "read_only": table.read_only,
                "version": __version__,
                "words": words,
            },
            headers={"Cache-Control": "no-store"},
        )

    # --- pages ---------------------------------------------------------------------------------

    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    async def watch_page(request: Request) -> HTMLResponse:
        return page(request, "watch.html")

    @app.get("/score", response_class=HTMLResponse, include_in_schema=False)
    async def score_page(request: Request) -> HTMLResponse:
        return page(request, "score.html")

    @app.get("/sheet.svg", summary="The pool sheet drawn as on paper (SVG)")
    async def sheet_picture() -> Response:
        from prefcalc.web.sheet import sheet_svg

        def draw() -> str:
            game = api.load_current(path)
            return sheet_svg(api.sheet(game), game)

        svg = await table.run(draw)
        return Response(svg, media_type="image/svg+xml", headers={"Cache-Control": "no-store"})

    # --- the API -------------------------------------------------------------------------------

    @app.get("/api/game", summary="The sheet: the same JSON as `prefcalc show --json`")
    async def game_json() -> dict[str, Any]:
        from prefcalc.views.text import sheet_json

        def read() -> dict[str, Any]:
            game = api.load_current(path)
            return sheet_json(api.sheet(game), game)

        return await table.run(read)

    @app.get("/api/settle", summary="The settlement: the same JSON as `prefcalc settle --json`")
    async def settle_json(method: str = "pairwise", rounding: str = "exact") -> dict[str, Any]:
        from prefcalc.views.text import settlement_json

        def read() -> dict[str, Any]:
            game = api.load_current(path)
            how = api.parse_method(method), api.parse_rounding(rounding)
            return settlement_json(api.settle(game, *how))

        return await table.run(read)

    @app.get("/api/log", summary="The deals: the same JSON as `prefcalc log --json`")
    async def log_json(last: int | None = None) -> list[dict[str, Any]]:
        from prefcalc.views.text import log_json as log_of

        if last is not None and last < 0:
            raise Refused(422, "last is a count of deals (0 or more)")

        def read() -> list[dict[str, Any]]:
            sheet = api.sheet(api.load_current(path))
            if last is not None:
                sheet = sheet._replace(
                    scored=sheet.scored[len(sheet.scored) - last :] if last else ()
                )
            if table.lang == "en":
                return log_of(sheet)
            return _with_said(sheet, log_of(sheet), table.lang)

        return await table.run(read)

    @app.get("/api/seats", summary="Who deals next and who sits out the next deal")
    async def seats() -> dict[str, Any]:
        def read() -> dict[str, Any]:
            sheet = api.sheet(api.load_current(path))
            return {
                "players": list(sheet.players),
                "next_dealer": sheet.next_dealer,
                "sitting_out": list(sheet.sitting_out),
                "lowest_contract": sheet.min_level,
                "finished": sheet.finished,
                "deals": len(sheet.scored),
            }

        return await table.run(read)

    @app.post(
        "/api/lines",
        summary="Carry out one `prefcalc play` line (needs Authorization: Bearer <token>)",
        openapi_extra=LINE_BODY,
    )
    async def lines(request: Request) -> dict[str, Any]:
        if table.read_only:
            raise Refused(403, "this server is read-only (started with --read-only)")
        if not table.authorised(request):
            raise Refused(401, "the score link's token is missing or wrong: nothing was written")
        line = parse_line(await read_body(request))

        def run() -> dict[str, Any]:
            output = execute_line(path, line)
            return {"output": output, "deals": len(api.load_current(path).entries)}

        try:
            result = await table.run(run)
        except OSError as exc:  # e.g. a full disk: the write was atomic, nothing is lost
            raise Refused(503, str(exc)) from None
        table.watcher.poll()  # the watchers hear of it now, not at the next poll
        return result

    @app.get(
        "/api/events",
        summary="Server-sent events: one `ledger` event on connecting, then one after every change",
        response_class=EventSourceResponse,
    )
    async def events(request: Request) -> EventSourceResponse:
        watcher = table.watcher
        if watcher.watchers >= MAX_WATCHERS:
            raise Refused(503, "too many watchers at once")

        async def stream() -> AsyncIterator[dict[str, str]]:
            queue = watcher.subscribe()
            try:
                yield {"event": "ledger", "data": watcher.message()}
                while not watcher.closed:
                    message = await queue.get()
                    if not message:  # the server is stopping
                        return
                    yield {"event": "ledger", "data": message}
            finally:
                watcher.unsubscribe(queue)

        return EventSourceResponse(stream(), ping=15, send_timeout=SEND_TIMEOUT)

    return app
