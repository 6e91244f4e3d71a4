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
from fastapi.routing import APIRoute

from prefcalc import api
from prefcalc.errors import NotationError
from prefcalc.i18n import N_, _
from prefcalc.web.middleware import MAX_BODY
from prefcalc.web.models import LineAnswer, LineBody, Seats, problem
from prefcalc.web.table import TableDep, scorer

QUERY_REFUSALS = {
    "method": N_("unknown method '{method}' (use pairwise or average)"),
    "rounding": N_("unknown rounding '{rounding}' (use exact or whole)"),
}
"""A query parameter given a value it does not take, said as the CLI says it."""


class JSONBody(Request):
    """A request whose body is UTF-8 JSON, or is refused in one line before it is validated
    (FastAPI then validates what it holds against the route's model)."""

    async def body(self) -> bytes:
        body = await super().body()
        try:
            body.decode("utf-8")
        except UnicodeDecodeError:
            raise HTTPException(400, "the request body is not valid UTF-8") from None
        kind = self.headers.get("content-type", "").partition(";")[0].strip().lower()
        if body and kind != "application/json" and not kind.endswith("+json"):
            raise HTTPException(415, "send the line as JSON (Content-Type: application/json)")
        return body

    async def json(self) -> Any:
        if not hasattr(self, "_json"):
            text = (await self.body()).decode("utf-8")
            try:
                self._json = json.loads(text)
            except json.JSONDecodeError as exc:
                raise HTTPException(422, f"the request body is not JSON: {exc}") from None
            except RecursionError:
                raise HTTPException(
                    422, "the request body is not JSON: it is nested too deeply"
                ) from None
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
    from prefcalc.views.text import sheet_json

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
    method: Annotated[api.Method, Query(description="Pairwise, or by the average mountain.")] = (
        "pairwise"
    ),
    rounding: Annotated[
        api.Rounding, Query(description="Exact fractions, or whole units of money.")
    ] = "exact",
) -> dict[str, Any]:
    from prefcalc.views.text import settlement_json

    def read() -> dict[str, Any]:
        game = api.load_current(table.path)
        return settlement_json(api.settle(game, method, rounding))

    return await table.run(read)


@router.get(
    "/log",
    summary="The deals: the same JSON as `prefcalc log --json`",
    responses={422: problem("`last` is not a count.")},
)
async def log_json(
    table: TableDep,
    last: Annotated[int | None, Query(ge=0, description="Only the last N deals.")] = None,
) -> list[dict[str, Any]]:
    from prefcalc.views.text import log_json as log_of

    def read() -> list[dict[str, Any]]:
        sheet = api.sheet(api.load_current(table.path))
        if last is not None:
            sheet = sheet._replace(scored=sheet.scored[len(sheet.scored) - last :] if last else ())
        if table.lang == "en":
            return log_of(sheet)
        return _with_said(sheet, log_of(sheet), table.lang)

    return await table.run(read)


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


@router.get("/seats", summary="Who deals next and who sits out the next deal")
async def seats(table: TableDep) -> Seats:
    def read() -> Seats:
        sheet = api.sheet(api.load_current(table.path))
        return Seats(
            players=list(sheet.players),
            next_dealer=sheet.next_dealer,
            sitting_out=list(sheet.sitting_out),
            lowest_contract=sheet.min_level,
            finished=sheet.finished,
            deals=len(sheet.scored),
        )

    return await table.run(read)


@router.post(
    "/lines",
    summary="Carry out one `prefcalc play` line (needs Authorization: Bearer <token>)",
    description=(
        "The line is carried out as `prefcalc play` carries it out, and its change is written"
        " to the ledger (atomic, under its lock) before the answer. A refused line writes"
        " nothing and is answered with the CLI's one-line message."
    ),
    dependencies=[Depends(scorer)],
    responses={
        400: problem("The body is not UTF-8."),
        401: problem("No token or the wrong one: nothing is written."),
        403: problem("The server is read-only."),
        413: problem(f"The body is larger than {MAX_BODY // 1024} KB."),
        415: problem("The body is not sent as application/json."),
        422: problem("The line is refused (the CLI's message), or the body is not a line."),
        503: problem("The ledger could not be written (a full disk): nothing is lost."),
    },
)
async def lines(body: LineBody, table: TableDep) -> LineAnswer:
    from prefcalc.lines import run_line

    def run() -> LineAnswer:
        ran = run_line(table.path, body.line)
        if ran.quit:
            raise NotationError(_("quit ends a play session; here there is nothing to quit"))
        return LineAnswer(output=ran.text, deals=len(ran.game.entries))

    try:
        answer = await table.run(run)
    except OSError as exc:  # e.g. a full disk: the write was atomic, nothing is lost
        raise HTTPException(503, str(exc)) from None
    table.watcher.poll()  # the watchers hear of it now, not at the next poll
    return answer
