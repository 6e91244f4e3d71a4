"""The served game and who may write to it: what the routes depend on (FastAPI's ``Depends``).

:data:`TableDep` gives a route the :class:`Table` of its application: the game's table
service (:class:`prefcalc.table.service.Service`, whose operations the routes call), its
watcher, the scorer's token. :func:`scorer` is the dependency of every route that writes: it
refuses with 403 on a read-only server and with 401 without the score link's token, before
anything is read or written.
"""

from __future__ import annotations

import hmac
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, TypeVar

from anyio import to_thread
from fastapi import Depends, HTTPException, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from prefcalc.i18n import N_
from prefcalc.table.service import Service
from prefcalc.views.words import say
from prefcalc.web.watch import LedgerWatcher

T = TypeVar("T")

NO_TOKEN = N_("the score link's token is missing or wrong: nothing was written")
READ_ONLY = N_("this server is read-only (started with --read-only)")


class Table:
    """The served game: its table service (the ledger, its language, the answers kept by
    request id), the scorer's token and the watch on the ledger's file."""

    def __init__(
        self,
        path: Path,
        token: str,
        read_only: bool,
        lang: str,
        poll_interval: float | None,
        max_watchers: int = 200,
    ) -> None:
        self.service = Service(path, lang)
        self.token = token
        self.read_only = read_only
        self.max_watchers = max_watchers
        self.watcher = LedgerWatcher(path, poll_interval)

    @property
    def path(self) -> Path:
        return self.service.path

    @property
    def lang(self) -> str:
        return self.service.lang

    async def run(self, fn: Callable[[], T]) -> T:
        """``fn()``, a call of the table service, in a worker thread: the event loop never
        waits for the disk (the service takes its table's turns itself)."""
        return await to_thread.run_sync(fn)

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
