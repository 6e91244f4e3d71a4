"""The JSON API of ``prefcalc serve``: what the CLI answers, over HTTP.

``GET /api/game`` is ``show --json``, ``GET /api/settle`` is ``settle --json``, ``GET
/api/log`` is ``log --json``; ``POST /api/lines`` runs one ``play`` line through the runner
``play`` itself uses (:func:`prefcalc.lines.run_line`) and a refused line is the CLI's
one-line message. The ledger is read and written in a worker thread, one at a time
(:meth:`prefcalc.web.table.Table.run`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Coroutine
from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Query, Request, Response
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute

from prefcalc import api
from prefcalc.errors import NotationError, PrefcalcError
from prefcalc.i18n import N_, _
from prefcalc.rules.lexicon import METHODS, ROUNDINGS
from prefcalc.store.files import parser_reason
from prefcalc.web.middleware import MAX_BODY
from prefcalc.web.models import LineAnswer, LineBody, Seats, problem
from prefcalc.web.table import Answer, TableDep, scorer
from prefcalc.web.words import refusal_line, say

NOT_UTF8 = N_("the request body is not valid UTF-8")
NOT_SENT_AS_JSON = N_("send the line as JSON (Content-Type: application/json)")
NOT_JSON = N_("the request body is not JSON: {error}")
TOO_DEEP = N_("the request body is not JSON: it is nested too deeply")
ID_REUSED = N_("the request id {id} was used for another line: nothing was written")


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
                error = parser_reason(str(exc), self.lang)
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


@router.get("/game", summary="The sheet: the same JSON as `prefcalc show --json`")
async def game_json(table: TableDep) -> dict[str, Any]:
    from prefcalc.views.payloads import sheet_json

    def read() -> dict[str, Any]:
        game = api.load_current(table.path)
        return sheet_json(api.sheet(game), game)

    return await table.run(read)


@router.get(
    "/settle",
    summary="The settlement: the same JSON as `prefcalc settle --json`",
    responses={422: problem("An unknown method or rounding.")},
)
async def settle_json(
    table: TableDep,
    method: Annotated[
        str,
        Query(
            description="Pairwise, or by the average mountain (either language: средняя).",
            json_schema_extra={"enum": list(METHODS)},
        ),
    ] = "pairwise",
    rounding: Annotated[
        str,
        Query(
            description="Exact fractions, or whole units of money (either language: целые).",
            json_schema_extra={"enum": list(ROUNDINGS)},
        ),
    ] = "exact",
) -> dict[str, Any]:
    from prefcalc.views.payloads import settlement_json

    def read() -> dict[str, Any]:
        game = api.load_current(table.path)
        return settlement_json(api.settle(game, method, rounding))

    return await table.run(read)


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
async def log_json(
    table: TableDep,
    last: Annotated[int | None, Query(ge=0, description="Only the last N deals.")] = None,
) -> list[dict[str, Any]]:
    from prefcalc.web.night import log_items

    def read() -> list[dict[str, Any]]:
        game = api.load_current(table.path)
        return log_items(game, api.sheet(game), last, table.lang)

    return await table.run(read)


@router.get("/seats", summary="Who deals next and who sits out the next deal")
async def seats(table: TableDep) -> Seats:
    from prefcalc.web.night import seats_json

    def read() -> Seats:
        game = api.load_current(table.path)
        return Seats.model_validate(seats_json(game, api.sheet(game)))

    return await table.run(read)


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
    from prefcalc.web.night import name_forms

    return await table.run(lambda: name_forms(api.load_current(table.path), table.lang))


@router.post(
    "/lines",
    summary="Carry out one `prefcalc play` line (needs Authorization: Bearer <token>)",
    description=(
        "The line is carried out as `prefcalc play` carries it out, and its change is written"
        " to the ledger (atomic, under its lock) before the answer. A refused line writes"
        " nothing and is answered with the CLI's one-line message.\n\n"
        "A request with an `id` is carried out once: the server keeps the answers (200 and"
        " 422) of the last 1000 requests with an id, under the same lock as the writes, and"
        " answers the same id again with the first answer, writing nothing, even when the"
        " two come at the same instant. The same id with another line is refused (422). The"
        " answers are kept in the server's memory: a restarted server carries out an id"
        " it has not seen."
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
    from prefcalc.lines import run_line

    def run() -> Answer:
        if body.id is not None:
            kept = table.answered(body.id)
            if kept is not None:
                if kept.line != body.line:
                    error = say(table.lang, ID_REUSED, id=body.id)
                    return Answer(body.line, 422, {"error": error})
                return kept
        try:
            ran = run_line(table.path, body.line)
            if ran.quit:
                raise NotationError(_("quit ends a play session; here there is nothing to quit"))
            answer = LineAnswer(output=ran.text, deals=len(ran.game.entries))
            done = Answer(body.line, 200, answer.model_dump())
        except PrefcalcError as exc:  # a refused line: the CLI's message, nothing written
            done = Answer(body.line, 422, {"error": refusal_line(exc)})
        if body.id is not None:
            table.keep(body.id, done)
        return done

    try:
        done = await table.run(run)
    except OSError as exc:  # e.g. a full disk: the write was atomic, nothing is lost
        raise HTTPException(503, str(exc)) from None
    if done.status == 200:
        table.watcher.poll()  # the watchers hear of it now, not at the next poll
    return JSONResponse(done.body, status_code=done.status)
