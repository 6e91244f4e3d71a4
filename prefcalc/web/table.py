"""The served game and who may write to it: what the routes depend on (FastAPI's ``Depends``).

:data:`TableDep` gives a route the :class:`Table` of its application; :func:`scorer` is the
dependency of every route that writes: it refuses with 403 on a read-only server and with
401 without the score link's token, before anything is read or written.
"""

from __future__ import annotations

import hmac
import threading
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, NamedTuple, TypeVar

from anyio import to_thread
from fastapi import Depends, HTTPException, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from prefcalc.i18n import N_, speaking
from prefcalc.web.watch import LedgerWatcher
from prefcalc.web.words import say

T = TypeVar("T")

NO_TOKEN = N_("the score link's token is missing or wrong: nothing was written")
READ_ONLY = N_("this server is read-only (started with --read-only)")
KEPT_ANSWERS = 1000
"""How many requests' answers a served game keeps by their id (a phone's double tap or
retry comes within seconds; a night is a few hundred lines)."""


class Answer(NamedTuple):
    """What a request with an id was answered: its line, the status and the JSON."""

    line: str
    status: int
    body: dict[str, Any]


class Table:
    """The served game: its ledger, the scorer's token and the lock the reads and writes
    of this process take turns with (the API keeps a per-process cache)."""

    def __init__(
        self,
        path: Path,
        token: str,
        read_only: bool,
        lang: str,
        poll_interval: float | None,
        max_watchers: int = 200,
    ) -> None:
        self.path = path
        self.token = token
        self.read_only = read_only
        self.lang = lang
        self.max_watchers = max_watchers
        self.watcher = LedgerWatcher(path, poll_interval)
        self._lock = threading.Lock()
        self._answers: OrderedDict[str, Answer] = OrderedDict()

    async def run(self, fn: Callable[[], T]) -> T:
        """``fn()`` in a worker thread, one at a time, in the table's language: the ledger is
        read and written by one thread of this process at once, and the event loop never
        waits for the disk."""

        def locked() -> T:
            with self._lock, speaking(self.lang):
                return fn()

        return await to_thread.run_sync(locked)

    def answered(self, request: str) -> Answer | None:
        """The answer kept for the request id ``request``; call it inside :meth:`run` (under
        the lock: a request carried out is kept before the next one looks)."""
        return self._answers.get(request)

    def keep(self, request: str, answer: Answer) -> None:
        """Keep ``answer`` for the request id ``request`` (inside :meth:`run`); the oldest
        kept answer goes when there are :data:`KEPT_ANSWERS`."""
        self._answers[request] = answer
        while len(self._answers) > KEPT_ANSWERS:
            self._answers.popitem(last=False)

    def authorised(self, given: str) -> bool:
        """Whether ``given`` is the score token, compared in constant time. A header's
        text is its bytes read as Latin-1, so encoding it back compares the bytes sent."""
        sent = given.strip().encode("latin-1", "replace")
        return hmac.compare_digest(sent, self.token.encode("utf-8"))


def served(request: Request) -> Table:
    """The dependency: the application's served game."""
    table: Table = request.app.state.table
    return table


TableDep = Annotated[Table, Depends(served)]

bearer = HTTPBearer(
    auto_error=False,  # no token is refused below, in the API's own one line
    scheme_name="score token",
    description="The secret of the score link, after `#token=`: `Authorization: Bearer TOKEN`.",
)


def scorer(
    table: TableDep,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)],
) -> None:
    """The dependency of a write: 403 on a read-only server, 401 without the token."""
    if table.read_only:
        raise HTTPException(403, say(table.lang, READ_ONLY))
    if credentials is None or not table.authorised(credentials.credentials):
        raise HTTPException(401, say(table.lang, NO_TOKEN), headers={"WWW-Authenticate": "Bearer"})
