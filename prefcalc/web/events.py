"""The event stream of ``prefcalc serve``: every page hears of a change of the ledger, whoever
made it (:class:`prefcalc.web.watch.LedgerWatcher` watches the file)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

from fastapi import APIRouter, HTTPException
from sse_starlette import EventSourceResponse
from starlette.types import Receive, Scope, Send

from prefcalc.i18n import N_
from prefcalc.views.words import say
from prefcalc.web.models import problem
from prefcalc.web.table import TableDep
from prefcalc.web.watch import LedgerWatcher

MAX_WATCHERS = 200  # event streams at once
SEND_TIMEOUT = 30.0  # seconds: a watcher that takes no event for this long is dropped
RETRY_AFTER = 2  # seconds: what a refused watcher is told to wait (the pages back off more)
TOO_MANY = N_("too many watchers at once")

router = APIRouter(prefix="/api", tags=["the game"])


class Stream(EventSourceResponse):
    """The stream of one watcher, who holds one of the watcher's places from the moment the
    route counted him in: the place is given back when the response ends, however it ends
    (the page went away, the server stops, or the response never started)."""

    def __init__(
        self,
        events: AsyncIterator[dict[str, str]],
        watcher: LedgerWatcher,
        queue: asyncio.Queue[str],
    ) -> None:
        super().__init__(events, ping=15, send_timeout=SEND_TIMEOUT)
        self.watcher = watcher
        self.queue = queue

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self.watcher.unsubscribe(self.queue)


@router.get(
    "/events",
    summary="Server-sent events: one `ledger` event on connecting, then one after every change",
    description=(
        'Each event is `ledger` with `{"version": "<the ledger\'s version>"}` (the hex sha256'
        " of its bytes, the `version` of `GET /api/reading`): the pages read the sheet again"
        " when the version changes. A comment every 15 s keeps it open. At"
        f" most {MAX_WATCHERS} streams are open at once, counted as they open: one more is"
        " refused with 503 (and `Retry-After`), and a page tries again later."
    ),
    response_class=EventSourceResponse,
    responses={
        200: {"content": {"text/event-stream": {}}, "description": "The stream."},
        503: problem("Too many watchers at once: try again later."),
    },
)
async def events(table: TableDep) -> EventSourceResponse:
    watcher = table.watcher
    queue = watcher.subscribe(table.max_watchers)
    if queue is None:
        raise HTTPException(
            503, say(table.lang, TOO_MANY), headers={"Retry-After": str(RETRY_AFTER)}
        )

    async def stream() -> AsyncIterator[dict[str, str]]:
        try:
            yield {"event": "ledger", "data": watcher.message()}
            while not watcher.closed:
                message = await queue.get()
                if not message:  # the server is stopping
                    return
                yield {"event": "ledger", "data": message}
        finally:
            watcher.unsubscribe(queue)

    return Stream(stream(), watcher, queue)
