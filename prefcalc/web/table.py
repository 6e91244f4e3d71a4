"""The served game and who may write to it: what the routes depend on (FastAPI's ``Depends``).

:data:`TableDep` gives a route the :class:`Table` of its application; :func:`scorer` is the
dependency of every route that writes: it refuses with 403 on a read-only server and with
401 without the score link's token, before anything is read or written.
"""

from __future__ import annotations

import hmac
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, TypeVar

from anyio import to_thread
from fastapi import Depends, HTTPException, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from prefcalc.web.watch import LedgerWatcher

T = TypeVar("T")

NO_TOKEN = "the score link's token is missing or wrong: nothing was written"
READ_ONLY = "this server is read-only (started with --read-only)"


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
    ) -> None:
        self.path = path
        self.token = token
        self.read_only = read_only
        self.lang = lang
        self.watcher = LedgerWatcher(path, poll_interval)
        self._lock = threading.Lock()

    async def run(self, fn: Callable[[], T]) -> T:
        """``fn()`` in a worker thread, one at a time: the ledger is read and written by one
        thread of this process at once, and the event loop never waits for the disk."""

        def locked() -> T:
            with self._lock:
                return fn()

        return await to_thread.run_sync(locked)

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
        raise HTTPException(403, READ_ONLY)
    if credentials is None or not table.authorised(credentials.credentials):
        raise HTTPException(401, NO_TOKEN, headers={"WWW-Authenticate": "Bearer"})
