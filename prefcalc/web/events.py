"""The event stream of ``prefcalc serve``: every page hears of a change of the ledger, whoever
made it (:class:`prefcalc.web.watch.LedgerWatcher` watches the file)."""

from __future__ import annotations

from collections.abc import AsyncIterator

from fastapi import APIRouter, HTTPException
from sse_starlette import EventSourceResponse

from prefcalc.web.models import problem
from prefcalc.web.table import TableDep

MAX_WATCHERS = 200  # event streams at once
SEND_TIMEOUT = 30.0  # seconds: a watcher that takes no event for this long is dropped

router = APIRouter(prefix="/api", tags=["the game"])


@router.get(
    "/events",
    summary="Server-sent events: one `ledger` event on connecting, then one after every change",
    description=(
        'Each event is `ledger` with `{"version": "<the content\'s hash>"}`: the pages read'
        " the sheet again when the version changes. A comment every 15 s keeps it open."
    ),
    response_class=EventSourceResponse,
    responses={
        200: {"content": {"text/event-stream": {}}, "description": "The stream."},
        503: problem("Too many watchers at once."),
    },
)
async def events(table: TableDep) -> EventSourceResponse:
    watcher = table.watcher
    if watcher.watchers >= MAX_WATCHERS:
        raise HTTPException(503, "too many watchers at once")

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
