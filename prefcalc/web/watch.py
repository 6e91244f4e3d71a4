"""One shared watch on the ledger file, fanned out to every connected watcher.

A single background task polls the file about four times a second: a cheap ``stat``, and the
ledger's version (:func:`prefcalc.store.ledger.version`, the content's sha256: the version a
reading of the table answers with) when the stat changed (and every few polls in any case, for
a file system whose times are coarse). Whoever changed the ledger (this server, ``prefcalc``
in another terminal, a ``play`` session), a new version is one event for every subscriber. Each
subscriber has a small bounded queue; a watcher that never reads loses only old versions
(only the newest matters), so it cannot make the server's memory grow.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import threading
from pathlib import Path

from prefcalc.store.ledger import version

HASH_EVERY = 8  # polls: hash the content at least this often even when the stat is the same


class LedgerWatcher:
    def __init__(self, path: Path, interval: float | None = 0.25, queue_size: int = 4) -> None:
        self.path = path
        self.interval = interval
        self.queue_size = queue_size
        self.version = ""
        self._stat: tuple[int, ...] | None = None
        self._polls = 0
        self._queues: set[asyncio.Queue[str]] = set()
        self._count = threading.Lock()  # the number of subscribers is counted under it
        self._task: asyncio.Task[None] | None = None
        self.closed = False

    # --- the file --------------------------------------------------------------------------

    def _signature(self) -> tuple[int, ...] | None:
        try:
            st = os.stat(self.path)
        except OSError:
            return None
        return (st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)

    def _digest(self) -> str:
        try:
            data = self.path.read_bytes()
        except OSError:
            return ""
        return version(data)

    def poll(self) -> bool:
        """Look at the file once; publish an event and return True when its content changed.
        Runs on the event loop (the subscribers' queues are not thread-safe)."""
        self._polls += 1
        signature = self._signature()
        if signature == self._stat and self._polls % HASH_EVERY:
            return False
        self._stat = signature
        digest = self._digest()
        if digest == self.version:
            return False
        self.version = digest
        self._publish(self.message())
        return True

    async def check(self) -> bool:
        """:meth:`poll` as a coroutine, for a caller outside the event loop (the tests)."""
        return self.poll()

    def message(self) -> str:
        return json.dumps({"version": self.version})

    # --- the subscribers ---------------------------------------------------------------------

    @property
    def watchers(self) -> int:
        return len(self._queues)

    def subscribe(self, limit: int | None = None) -> asyncio.Queue[str] | None:
        """A new subscriber's queue, or None when there are ``limit`` subscribers already:
        the count and the subscription are one step under a lock, so no number of watchers
        opening at once makes more than ``limit``."""
        queue: asyncio.Queue[str] = asyncio.Queue(self.queue_size)
        with self._count:
            if limit is not None and len(self._queues) >= limit:
                return None
            self._queues = {*self._queues, queue}  # a new set: a publish iterates the old one
        return queue

    def unsubscribe(self, queue: asyncio.Queue[str]) -> None:
        with self._count:
            self._queues = self._queues - {queue}

    def close(self) -> None:
        """The server is stopping: every stream gets an empty message, its end, so that it
        finishes its response instead of being cut off."""
        self.closed = True
        self._publish("")

    def _publish(self, message: str) -> None:
        for queue in self._queues:
            if queue.full():  # a slow reader: drop its oldest, the newest is what matters
                with contextlib.suppress(asyncio.QueueEmpty):
                    queue.get_nowait()
            queue.put_nowait(message)

    # --- the background task ------------------------------------------------------------------

    def start(self) -> None:
        self.poll()
        if self.interval is not None and self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _run(self) -> None:
        assert self.interval is not None
        while True:
            await asyncio.sleep(self.interval)
            try:
                self.poll()
            except Exception:  # never let one bad poll end the watch
                continue
