"""Errors as values with a location, in the style of beancount.

Every problem the user can cause is a :class:`PrefcalcError` (or a subclass) whose message is
one line a scorekeeper can act on. The CLI prints it and exits with code 2.
"""


def shown(text: str, limit: int = 40) -> str:
    """User text quoted in a message: control characters escaped, long text cut short."""
    safe = "".join(c if c.isprintable() else ascii(c)[1:-1] for c in text)
    return safe if len(safe) <= limit else safe[: limit - 1] + "…"


class PrefcalcError(Exception):
    """A problem with the user's input, record or files; ``str()`` is one line."""

    def __init__(self, message: str, where: str | None = None) -> None:
        self.message = message
        self.where = where
        super().__init__(f"{where}: {message}" if where else message)


class NotationError(PrefcalcError):
    """A deal written in the table's shorthand could not be read."""


class DealError(PrefcalcError):
    """A deal does not fit the game (unknown player, tricks that do not add up...)."""


class ConventionError(PrefcalcError):
    """A convention option is unknown or has a bad value."""


class LedgerError(PrefcalcError):
    """The ledger file is missing, unreadable, corrupt or of an unknown schema."""
