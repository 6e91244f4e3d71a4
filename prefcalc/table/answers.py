"""The request-id memory of a table: the answers of the last requests carried out, by their id.

A page names each request it sends (a random id, :func:`prefcalc.table.lines.check_id`); the
same id again (a double tap, a retry after a lost answer) is answered with the first answer
and writes nothing, and a page that lost an answer reads it back by its id
(:meth:`prefcalc.table.service.Service.answer`). What is kept is keyed by the request's id,
with the line it answered (the same id with another line is refused); both answers are kept,
a line carried out and a line refused. The memory is the process's: a restarted server
carries out an id it has not seen.

:data:`KEPT_ANSWERS` is the one number of it: serve keeps that many per served game, the
app's engine as many per game on the phone, and the app's page as many promises (it reads the
number from the engine's ``hello``).

An :class:`Answers` is not locked itself: its table reads and writes it under the table's
lock (:meth:`prefcalc.table.service.Service.call`), so a request carried out is kept before
the next one looks.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any, NamedTuple

KEPT_ANSWERS = 1000
"""How many requests' answers a table keeps by their id (a phone's double tap or retry comes
within seconds; a night is a few hundred lines)."""


class Answer(NamedTuple):
    """What a request was answered: its line, the status (200 carried out, 422 refused) and
    the JSON body (``{"output", "deals"}``, or ``{"error"}``)."""

    line: str
    status: int
    body: dict[str, Any]


class Answers:
    """The answers of the last :data:`KEPT_ANSWERS` requests with an id, oldest first."""

    def __init__(self) -> None:
        self._kept: OrderedDict[str, Answer] = OrderedDict()

    def get(self, request: str) -> Answer | None:
        """The answer kept for the request id ``request``, or None."""
        return self._kept.get(request)

    def keep(self, request: str, answer: Answer) -> None:
        """Keep ``answer`` for ``request``; the oldest goes when there are more than
        :data:`KEPT_ANSWERS`."""
        self._kept[request] = answer
        while len(self._kept) > KEPT_ANSWERS:
            self._kept.popitem(last=False)

    def ids(self) -> list[str]:
        """The ids kept, oldest first."""
        return list(self._kept)
