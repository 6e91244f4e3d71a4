"""The JSON API of ``prefcalc serve``: what the CLI answers, over HTTP.

``GET /api/game`` is ``show --json``, ``GET /api/settle`` is ``settle --json``, ``GET
/api/log`` is ``log --json``; ``GET /api/reading`` is all a page draws from one load of the
ledger, with its version; ``POST /api/lines`` runs one ``play`` line through the runner
``play`` itself uses and a refused line is the CLI's one-line message; ``GET
/api/lines/{id}`` is what the request of that id was answered. Each route is a call of the
game's table service (:class:`prefcalc.table.service.Service`, the app's engine calls the
same), in a worker thread (:meth:`prefcalc.web.table.Table.run`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Coroutine
from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Query, Request, Response
from fastapi import Path as FastAPIPath
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute

from prefcalc.i18n import N_
from prefcalc.rules.lexicon import METHODS, ROUNDINGS
from prefcalc.store.files import parser_reason
from prefcalc.table.answers import KEPT_ANSWERS
from prefcalc.table.lines import ID_CHARS, MAX_ID, MIN_ID
from prefcalc.views.words import say
from prefcalc.web.middleware import MAX_BODY
from prefcalc.web.models import LineAnswer, LineBody, Seats, problem
from prefcalc.web.table import TableDep, scorer

NOT_UTF8 = N_("the request body is not valid UTF-8")
NOT_SENT_AS_JSON = N_("send the line as JSON (Content-Type: application/json)")
NOT_JSON = N_("the request body is not JSON: {error}")
TOO_DEEP = N_("the request body is not JSON: it is nested too deeply")
NOT_ANSWERED = N_("no request {id} was carried out here (it may be sent again)")


class JSONBody(Request):
    """A request whose body is UTF-8 JSON, or is refused in one line before it is validated
    (FastAPI then validates what it holds against the route's model)."""

    @property
    def lang(self) -> str:
        """The served table's language (its refusals are said in it)."""
        return str(self.scope["app"].state.table.lang)

    async def body(self) -> bytes:
        body = await super().body()
        try:
            body.decode("utf-8")
        except UnicodeDecodeError:
            raise HTTPException(400, say(self.lang, NOT_UTF8)) from None
        kind = self.headers.get("content-type", "").partition(";")[0].strip().lower()
        if body and kind != "application/json" and not kind.endswith("+json"):
            raise HTTPException(415, say(self.lang, NOT_SENT_AS_JSON))
        return body

    async def json(self) -> Any:
        if not hasattr(self, "_json"):
            text = (await self.body()).decode("utf-8")
            try:
                self._json = json.loads(text)
            except json.JSONDecodeError as exc:
                error = parser_reason(str(exc), self.lang, text)
                raise HTTPException(422, say(self.lang, NOT_JSON, error=error)) from None
            except RecursionError:
                raise HTTPException(422, say(self.lang, TOO_DEEP)) from None
        return self._json


class JSONBodyRoute(APIRoute):
    """A route whose request is a :class:`JSONBody` (FastAPI's way to customise the reading
    of a request)."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def handle(request: Request) -> Response:
            return await handler(JSONBody(request.scope, request.receive))

        return handle


router = APIRouter(prefix="/api", tags=["the game"], route_class=JSONBodyRoute)


Method = Annotated[
    str,
    Query(
        description="Pairwise, or by the average mountain (either language: средняя).",
        json_schema_extra={"enum": list(METHODS)},
    ),
]
Rounding = Annotated[
    str,
    Query(
        description="Exact fractions, or whole units of money (either language: целые).",
        json_schema_extra={"enum": list(ROUNDINGS)},
    ),
]
Last = Annotated[int | None, Query(ge=0, description="Only the last N deals.")]


@router.get("/game", summary="The sheet: the same JSON as `prefcalc show --json`")
async def game_json(table: TableDep) -> dict[str, Any]:
    return await table.run(table.service.game)


@router.get(
    "/settle",
    summary="The settlement: the same JSON as `prefcalc settle --json`",
    responses={422: problem("An unknown method or rounding.")},
)
async def settle_json(
    table: TableDep, method: Method = "pairwise", rounding: Rounding = "exact"
) -> dict[str, Any]:
    return await table.run(lambda: table.service.settle(method, rounding))


@router.get(
    "/log",
    summary="The deals: the JSON of `prefcalc log --json`, each deal with its table",
    description=(
        "Each deal is the item of `prefcalc log --json` and also: `players`, who held cards"
        " in it (in seating order); `sitting_out`, who sat it out (the dealer at four, him"
        " and the next at five); `lowest_contract`, the lowest contract it could be played"
        " at; `shorthand`, the deal in the table's shorthand in the page's language (`notation`"
        " is the English one). On a page in another language than English each write also"
        " has `said`, its reason in the page's words."
    ),
    responses={422: problem("`last` is not a count, or the ledger cannot be read.")},
)
async def log_json(table: TableDep, last: Last = None) -> list[dict[str, Any]]:
    return await table.run(lambda: table.service.log(last))


@router.get("/seats", summary="Who deals next and who sits out the next deal")
async def seats(table: TableDep) -> Seats:
    return Seats.model_validate(await table.run(table.service.seats))


@router.get(
    "/cases",
    summary="The players' names in the Russian cases, for the pages' own messages",
    description=(
        '`{"Боря": {"gen": "Бори", "acc": "Борю", ...}}` for every name at the'
        " table under the game's own genders (`prefcalc player NAME --gender`); `{}` on a table"
        " in English. A page reads it again after every change, so a late arrival or a gender"
        " just set is declined from the next reading on."
    ),
)
async def cases(table: TableDep) -> dict[str, dict[str, str]]:
    return await table.run(table.service.cases)


@router.get(
    "/reading",
    summary="All a page draws, from one load of the ledger, with the ledger's version",
    description=(
        '`{"version", "game", "seats", "log", "settle", "cases"}` and with `sheet=1` also'
        ' `"sheet"`: each part the answer of its own route (`/api/game`, `/api/seats`,'
        " `/api/log?last=N`, `/api/settle?method=…&rounding=…`, `/api/cases`, `/sheet.svg`),"
        " all of ONE state of the ledger, so a page never draws halves of two. `version` is"
        " the hex sha256 of the ledger's bytes, the version the events stream announces: it"
        " changes with every write (a deal, a change of terms, a late arrival, a gender, an"
        " edit, an undo), whoever made it."
    ),
    responses={422: problem("An unknown method or rounding, or `last` is not a count.")},
)
async def reading(
    table: TableDep,
    last: Last = None,
    method: Method = "pairwise",
    rounding: Rounding = "exact",
    sheet: Annotated[bool, Query(description="1: the pool sheet's SVG too.")] = False,
) -> dict[str, Any]:
    return await table.run(lambda: table.service.reading(last, method, rounding, sheet))


@router.post(
    "/lines",
    summary="Carry out one `prefcalc play` line (needs Authorization: Bearer <token>)",
    description=(
        "The line is carried out as `prefcalc play` carries it out, and its change is written"
        " to the ledger (atomic, under its lock) before the answer. A refused line writes"
        " nothing and is answered with the CLI's one-line message.\n\n"
        "A request with an `id` is carried out once: the server keeps the answers (200 and"
        f" 422) of the last {KEPT_ANSWERS} requests with an id, under the same lock as the"
        " writes, and answers the same id again with the first answer, writing nothing, even"
        " when the two come at the same instant. The same id with another line is refused"
        " (422). `GET /api/lines/{id}` reads a kept answer back. The answers are kept in the"
        " server's memory: a restarted server carries out an id it has not seen."
    ),
    dependencies=[Depends(scorer)],
    response_model=LineAnswer,
    responses={
        400: problem("The body is not UTF-8."),
        401: problem("No token or the wrong one: nothing is written."),
        403: problem("The server is read-only."),
        413: problem(f"The body is larger than {MAX_BODY // 1024} KB."),
        415: problem("The body is not sent as application/json."),
        422: problem(
            "The line is refused (the CLI's message), the body is not a line, or its id was"
            " used for another line."
        ),
        503: problem("The ledger could not be written (a full disk): nothing is lost."),
    },
)
async def lines(body: LineBody, table: TableDep) -> JSONResponse:
    try:
        done = await table.run(lambda: table.service.line(body.line, body.id))
    except OSError as exc:  # e.g. a full disk: the write was atomic, nothing is lost
        raise HTTPException(503, str(exc)) from None
    if done.status == 200:
        table.watcher.poll()  # the watchers hear of it now, not at the next poll
    return JSONResponse(done.body, status_code=done.status)


@router.get(
    "/lines/{request}",
    summary="What the request of this id was answered (needs Authorization: Bearer <token>)",
    description=(
        "The answer `POST /api/lines` gave the request of this `id`, as it gave it: 200 and"
        " `{output, deals}` when the line was carried out, 422 and its one line when it was"
        " refused; 404 when this server carried out no request of that id (not since it"
        " started, or not among its last"
        f" {KEPT_ANSWERS}). A page that lost an answer (a cut link) asks here what really"
        " happened before it sends the line again."
    ),
    dependencies=[Depends(scorer)],
    response_model=LineAnswer,
    responses={
        401: problem("No token or the wrong one."),
        403: problem("The server is read-only."),
        404: problem("No request of this id was carried out here."),
        422: problem("The request was refused (its one line), or this is not a request's id."),
    },
)
async def answered(
    request: Annotated[
        str, FastAPIPath(description=f"The request's id ({MIN_ID}-{MAX_ID} of {ID_CHARS}).")
    ],
    table: TableDep,
) -> JSONResponse:
    done = await table.run(lambda: table.service.answer(request))
    if done is None:
        raise HTTPException(404, say(table.lang, NOT_ANSWERED, id=request))
    return JSONResponse(done.body, status_code=done.status)
