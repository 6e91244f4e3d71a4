"""The web front end of ``prefcalc serve``: the application, made of three routers.

- :mod:`prefcalc.web.pages`: the watcher's page ``/``, the scorer's page ``/score`` and the
  sheet ``/sheet.svg``;
- :mod:`prefcalc.web.json_api`: ``/api/game``, ``/api/settle``, ``/api/log``,
  ``/api/seats``, ``/api/cases``, ``/api/reading``, ``POST /api/lines`` and ``GET
  /api/lines/{id}``, each a call of the game's table service
  (:class:`prefcalc.table.service.Service`);
- :mod:`prefcalc.web.events`: ``/api/events``, the server-sent events.

The routes get the served game by ``Depends`` (:data:`prefcalc.web.table.TableDep`); a
write depends on :func:`prefcalc.web.table.scorer` (the token). Before any route, the
middleware (:mod:`prefcalc.web.middleware`) refuses a Host that is not this server's (421)
and a body over the limit (413). Every answer other than 200 is ``{"error": "<one line>"}``;
``/openapi.json`` describes it all (there is no Swagger page: it would load a CDN).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Collection
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException

from prefcalc import __version__
from prefcalc.errors import PrefcalcError
from prefcalc.i18n import N_
from prefcalc.views.words import refusal_line, say
from prefcalc.web import events, games, json_api, pages
from prefcalc.web.middleware import MAX_BODY, BodyLimit, OwnHosts, SecurityHeaders, error
from prefcalc.web.models import MAX_LINE, body_refusal, problem
from prefcalc.web.table import Table

__all__ = ["MAX_BODY", "MAX_LINE", "create_app"]

HERE = Path(__file__).resolve().parent

STARLETTE_WORDS = {"Not Found": N_("Not Found"), "Method Not Allowed": N_("Method Not Allowed")}
"""The refusals Starlette itself makes, said in the table's language."""


def refusal(errors: list[dict[str, Any]], lang: str = "en") -> str:
    """The one line for a request FastAPI could not validate: the body's own words, else
    where and what (a settlement's method or rounding is read by the lexicon, which refuses
    it as the CLI does)."""
    first = errors[0] if errors else {}
    said = body_refusal(first, lang)
    if said is not None:
        return said
    where = tuple(str(p) for p in first.get("loc", ()))
    return f"{'.'.join(where)}: {first.get('msg', 'invalid request')}"


def _lang(request: Request) -> str:
    return str(request.app.state.table.lang)


async def _http_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, HTTPException)
    detail = str(exc.detail)
    if detail in STARLETTE_WORDS:
        detail = say(_lang(request), STARLETTE_WORDS[detail])
    answer = error(exc.status_code, detail)
    answer.headers.update(exc.headers or {})
    return answer


async def _invalid(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    return error(422, refusal(list(exc.errors()), _lang(request)))


async def refused(_request: Request, exc: Exception) -> JSONResponse:
    """The answer to a refusal raised by a route: 422 and its one line, as a page shows it
    (serve's tables and the tournament's hall)."""
    assert isinstance(exc, PrefcalcError)
    return error(422, refusal_line(exc))  # a refused line: the CLI's message


def create_app(
    path: Path,
    token: str,
    *,
    read_only: bool = False,
    lang: str = "en",
    poll_interval: float | None = 0.25,
    hosts: Collection[str] | None = None,
    max_watchers: int = events.MAX_WATCHERS,
) -> FastAPI:
    """The application serving the ledger at ``path``; writing needs ``token`` (unless
    ``read_only``). ``hosts``: the names and addresses a request's Host may name besides
    the address it came in on (default: this computer's own names,
    :func:`prefcalc.web.middleware.local_names`). ``poll_interval`` None: no background
    watch (tests call ``app.state.table.watcher.check()`` themselves). ``max_watchers``:
    the event streams open at once (one more is refused with 503)."""
    from prefcalc.web.middleware import local_names

    table = Table(path, token, read_only, lang, poll_interval, max_watchers)

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
        responses={421: problem("The Host of the request is not this server's: nothing more.")},
        exception_handlers={
            HTTPException: _http_error,
            RequestValidationError: _invalid,
            PrefcalcError: refused,
        },
    )
    app.state.table = table
    app.state.pages = pages.Pages(table)
    # the last added runs first: the Host, then the body's size; every answer gets the headers
    app.add_middleware(BodyLimit, limit=MAX_BODY, larger=games.body_limits(), lang=lang)
    app.add_middleware(OwnHosts, names=local_names() if hosts is None else hosts, lang=lang)
    app.add_middleware(SecurityHeaders)
    app.include_router(pages.router)
    app.include_router(json_api.router)
    app.include_router(events.router)
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")
    games.install(app)  # the phones' games (POST /api/games) and the app at /app/ when built
    return app
