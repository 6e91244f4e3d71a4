"""The values the scoring engine makes: a write with its reason, a scored entry, the sheet.

A write's amount and its reason come from one :class:`Term`: the arguments a reason shows are
the numbers its amount is computed from (:func:`product`), so the formula a player reads is
the one the engine used.
"""

import string
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from types import MappingProxyType
from typing import Any, Literal, NamedTuple

from prefcalc.rules.amounts import Amount, fmt, norm
from prefcalc.rules.conventions import Convention
from prefcalc.rules.legality import Problem
from prefcalc.rules.model import Entry

Column = Literal["pool", "mountain", "whists"]
"""Where a write goes: a player's pool, his mountain, or his whists on another player."""

POOL: Column = "pool"
MOUNTAIN: Column = "mountain"
WHISTS: Column = "whists"


class Reason(NamedTuple):
    """A part of a reason: a literal message template (marked with ``N_`` for the catalog)
    and its named arguments, formatted only when shown (see :class:`ReasonFormatter`)."""

    template: str
    args: Mapping[str, Any]


class Joined(NamedTuple):
    """Reasons told one after the other, separated by commas (the help rule's story)."""

    parts: tuple[Reason, ...]


class Label(NamedTuple):
    """A contract in a reason: ``8NT`` in English; the views write it in their language."""

    level: int
    suit: str
    text: str

    def __str__(self) -> str:
        return self.text


def _english_unit(unit: str, value: Any, text: str) -> str:
    return f"{text} {unit}{'' if value == 1 else 's'}"


class ReasonFormatter(string.Formatter):
    """Formats reason templates: amounts exactly (``16⅔``), ``{n:trick}`` as ``1 trick`` /
    ``2 tricks``, nested :class:`Reason` parts recursively.
    Every hook defaults to English; ``number`` formats the amounts.

    English by default (what the ledger's readers and the digests see); the views make one
    that translates each template (``translate``), writes the units with plural forms
    (``unit(unit, value, text)``) and the contracts in their language (``contract``).
    """

    def __init__(
        self,
        translate: Callable[[str], str] | None = None,
        unit: Callable[[str, Any, str], str] | None = None,
        contract: Callable[[Label], str] | None = None,
        number: Callable[[Amount], str] | None = None,
    ) -> None:
        super().__init__()
        self.translate = translate
        self.unit = unit or _english_unit
        self.contract = contract
        self.number = number or fmt

    def render(self, template: str, args: Mapping[str, Any]) -> str:
        if self.translate is not None:
            template = self.translate(template)
        return self.vformat(template, (), args)

    def format_field(self, value: Any, format_spec: str) -> str:
        if isinstance(value, Reason):
            return self.render(value.template, value.args)
        if isinstance(value, Joined):
            return ", ".join(self.render(p.template, p.args) for p in value.parts)
        if isinstance(value, Label):
            return self.contract(value) if self.contract is not None else value.text
        text = (
            self.number(value)
            if isinstance(value, int | Fraction) and not isinstance(value, bool)
            else str(value)
        )
        if format_spec.isalpha():
            return self.unit(format_spec, value, text)
        return text


_REASONS = ReasonFormatter()


class Term(NamedTuple):
    """One write's amount and the reason that explains it, made together: ``args`` holds
    every number the amount was computed from, and the amount itself (``{amount}``)."""

    amount: Amount
    template: str
    args: Mapping[str, Any]


_new = tuple.__new__  # a named tuple made without its keyword-reading __new__ (hot paths)


def told(template: str, amount: Amount, /, **args: Any) -> Term:
    """A write of ``amount`` told by ``template`` (``{amount}`` and ``args``)."""
    args["amount"] = amount
    return _new(Term, (amount, template, args))


def product(template: str, factors: tuple[str, ...], /, **args: Any) -> Term:
    """A write whose amount is the product of the arguments named in ``factors``, told by
    ``template`` with the same arguments: the formula is written once, in the template, and
    computed from what it shows (``f``, the deal factor, is shown as its words ``fx``)."""
    if len(factors) == 3:
        a, b, c = factors
        amount: Amount = args[a] * args[b] * args[c]
    else:
        amount = 1
        for name in factors:
            amount = amount * args[name]
    if amount.__class__ is not int:
        amount = norm(amount)
    args["amount"] = amount
    return _new(Term, (amount, template, args))


class Write(NamedTuple):
    """One write on the sheet: ``amount`` into ``player``'s ``column`` (on ``on`` for whists).

    The reason is kept as a template and its arguments and formatted only when asked for,
    so that scoring a long record stays fast (an immutable named tuple: cheap to create).
    """

    player: str
    column: Column
    amount: Amount
    on: str | None
    template: str
    args: Mapping[str, Any]

    @property
    def reason(self) -> str:
        """The reason in English (JSON output, the settlement's steps, the digests); the
        views show it in their language with their own :class:`ReasonFormatter`."""
        return _REASONS.render(self.template, self.args)

    @property
    def target(self) -> str:
        """Where the amount went, in words: ``pool``, ``mountain`` or ``whists on Anna``."""
        return f"whists on {self.on}" if self.column == WHISTS else self.column


class Scored(NamedTuple):
    """One entry of the record with what it wrote and the state it left."""

    number: int
    entry: Entry
    writes: tuple[Write, ...]
    streak: int
    price: Amount | None
    min_level: int
    finished: bool
    factor: int = 1
    """F, the deal factor (docs/rules.md §8.1): the declarer's bomb × 2 if dark."""
    bombs: tuple[tuple[str, str, int], ...] = ()
    """What the deal did to the bombs: ``(player, "earned" | "used" | "kept", factor)``."""


class Sheet(NamedTuple):
    """The scoresheet after replaying the record."""

    players: tuple[str, ...]
    convention: Convention
    target: int
    scored: Sequence[Scored]
    """Every entry scored, in order (``scored[n - 1]`` is deal ``n``)."""
    pool: dict[str, Amount]
    mountain: dict[str, Amount]
    whists: dict[str, dict[str, Amount]]
    streak: int
    next_dealer: str
    finished: bool
    min_level: int
    problems: tuple[Problem, ...]
    sitting_out: tuple[str, ...] = ()
    """Who sits out the next deal: the next dealer at four, him and the one after at five."""
    unpriced: tuple[Problem, ...] = ()
    """Deals this convention cannot price as recorded (a Classic night re-scored under
    Sochi: a dark game, a bomb); they are scored without what it cannot price."""
    bombs: Mapping[str, tuple[int, ...]] = MappingProxyType({})
    """Every player's bombs (their factors) in the order earned (Classic, docs/rules.md §8.1)."""
    opening: tuple[int, int, int] | None = None
    """During the opening circles: the next deal's circle, the number of circles and its
    factor ``2^k``; ``None`` once they are over (or without them)."""
    first_closed: str | None = None
    """The first player whose pool reached the target in force (``prizes.first_close``,
    docs/rules.md §8.8: the first pool write that reached it, in the order of the writes)."""
    first_closed_at: int | None = None
    """The number of the entry after which :attr:`first_closed` had closed."""

    @property
    def passes_price(self) -> Amount:
        """The per-trick price of the next all-pass deal."""
        return self.convention.passes_price(self.streak + 1)

    def left_to_close(self, player: str) -> Amount:
        return max(0, self.target - self.pool[player])
