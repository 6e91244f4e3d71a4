"""The record: what happened at the table, as immutable values.

The record types are ``NamedTuple``s: immutable, and about eight times cheaper to define
than frozen dataclasses, which matters because every CLI call imports this module
(recording a deal has a budget of a few tens of milliseconds end to end).

A :class:`Game` holds the players in seating order, the convention reference, the target
and the money terms, and the list of recorded :class:`Entry` items, each wrapping one deal
(:class:`Contract`, :class:`Misere`, :class:`AllPass`) or a manual :class:`Adjustment`.
Nothing derived (pool, mountain, whists) is ever stored here.

:func:`check_deal` is the one place that decides whether a deal *fits the game*
(known players, tricks that add up...); the notation parser, the ledger loader and the CLI
all go through it.
"""

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Literal, NamedTuple, TypeAlias, assert_never

from prefcalc.amounts import Amount
from prefcalc.errors import DealError

Suit: TypeAlias = Literal["s", "c", "d", "h", "nt"]
"""Spades, clubs, diamonds, hearts, no trump."""
Role: TypeAlias = Literal["w", "p", "h"]
"""A defender's answer: whist, pass, half-whist."""

SUITS: tuple[Suit, ...] = ("s", "c", "d", "h", "nt")
SUIT_SYMBOLS: dict[Suit, str] = {"s": "♠", "c": "♣", "d": "♦", "h": "♥", "nt": "NT"}
LEVELS = (6, 7, 8, 9, 10)
ROLES: tuple[Role, ...] = ("w", "p", "h")


class Defender(NamedTuple):
    """A defender's answer: ``w`` whist, ``p`` pass, ``h`` half-whist; tricks if known."""

    player: str
    role: Role
    tricks: int | None = None


class Contract(NamedTuple):
    """A trick contract. ``tricks`` is the declarer's, ``None`` when it was not played.

    ``defenders`` keep the table's order of speech: the first whister listed said whist
    first (it matters for the whisters' shortfall on 8 and above).
    """

    declarer: str
    level: int
    suit: Suit
    tricks: int | None
    defenders: tuple[Defender, ...]

    @property
    def label(self) -> str:
        return f"{self.level}{SUIT_SYMBOLS[self.suit]}"

    @property
    def played(self) -> bool:
        return self.tricks is not None

    @property
    def whisters(self) -> tuple[Defender, ...]:
        return tuple(d for d in self.defenders if d.role == "w")


class Misere(NamedTuple):
    """A misère: the declarer must take no trick."""

    declarer: str
    tricks: int


class AllPass(NamedTuple):
    """An all-pass deal (распасы): tricks taken by every active player."""

    tricks: tuple[tuple[str, int], ...]


class Adjustment(NamedTuple):
    """A manual write for penalties and corrections the rules do not price."""

    player: str
    pool: Amount = 0
    mountain: Amount = 0
    whists: tuple[tuple[str, Amount], ...] = ()
    note: str = ""


class SetTerm(NamedTuple):
    """A mid-game change of the game's terms (``set target=30``): no dealer, no cards.

    ``target`` applies to the deals after it (the pool target, closing, the help rule);
    ``whist_price`` is the price of a whist at the settlement: the price in force at the
    end of the record applies to the whole night.
    """

    key: Literal["target", "whist_price"]
    value: Amount


SET_KEYS: tuple[Literal["target", "whist_price"], ...] = ("target", "whist_price")

Deal = Contract | Misere | AllPass | Adjustment | SetTerm


class Entry(NamedTuple):
    """One line of the record: a deal, who dealt it, when, and whether it was forced.

    ``forced`` records that the table accepted a deal the rules would refuse (a contract
    below the exit level after all-passes, or a deal after the game had finished).
    """

    deal: Deal
    dealer: str | None
    time: str
    forced: bool = False


class ConventionRef(NamedTuple):
    """Which rules the game is played by: a preset plus overrides, or a full table."""

    preset: str | None
    options: Mapping[str, Any] = MappingProxyType({})
    name: str | None = None


class Game(NamedTuple):
    """The whole record of one pool."""

    players: tuple[str, ...]
    convention: ConventionRef
    target: int
    first_dealer: str
    whist_price: Amount = 1
    currency: str = ""
    created: str = ""
    entries: tuple[Entry, ...] = ()

    def seat(self, name: str) -> int:
        return self.players.index(name)

    def next_seat(self, name: str) -> str:
        return self.players[(self.players.index(name) + 1) % len(self.players)]

    @property
    def next_dealer(self) -> str:
        """The dealer of the next deal: clockwise after the last recorded dealer."""
        for entry in reversed(self.entries):
            if entry.dealer is not None:
                return self.next_seat(entry.dealer)
        return self.first_dealer


def check_players(players: tuple[str, ...]) -> None:
    if len(players) not in (3, 4):
        raise DealError(f"a pool is played by 3 or 4 players, not {len(players)}")
    seen: set[str] = set()
    for name in players:
        if not name or name != name.strip() or any(c in name for c in ":=,"):
            raise DealError(f"bad player name {name!r} (no spaces around it, no ':', '=' or ',')")
        if name.casefold() in seen:
            raise DealError(f"player '{name}' is listed twice")
        seen.add(name.casefold())


MAX_TARGET = 1_000_000  # = schemas.MAX_INT (not imported: the model stays free of pydantic)


def check_term(term: SetTerm) -> None:
    """Refuse a ``set`` the game cannot take: an unknown key, a target that is not a whole
    positive number, a price that is not positive."""
    if term.key == "target":
        value = term.value
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_TARGET:
            raise DealError(f"the target must be a whole number from 1 to {MAX_TARGET:,}")
    elif term.key == "whist_price":
        if term.value <= 0:
            raise DealError("the whist price must be positive")
    else:
        assert_never(term.key)


def whist_price(game: Game) -> Amount:
    """The price of a whist for the settlement: the last ``set whist_price`` of the record,
    else the game's own (the price in force at the end applies to the whole night)."""
    for entry in reversed(game.entries):
        deal = entry.deal
        if isinstance(deal, SetTerm) and deal.key == "whist_price":
            return deal.value
    return game.whist_price


def _known(game: Game, name: str) -> str:
    if name not in game.players:
        raise DealError(f"unknown player '{name}' (players: {', '.join(game.players)})")
    return name


def _tricks(value: int | None, owner: str) -> None:
    """Tricks are 0-10; ``owner`` is a name (or ``""`` for the declarer)."""
    if value is not None and not 0 <= value <= 10:
        what = f"{owner}'s tricks" if owner else "the declarer's tricks"
        raise DealError(f"{what} must be 0-10 tricks, not {value}")


def active_players(game: Game, dealer: str | None) -> tuple[str, ...]:
    """The players who hold cards: all three, or the four minus the sitting-out dealer."""
    if len(game.players) == 4 and dealer is not None:
        return tuple(p for p in game.players if p != dealer)
    return game.players


def check_deal(game: Game, deal: Deal, dealer: str | None, half_whist: bool = True) -> None:
    """Raise :class:`DealError` unless ``deal`` fits ``game`` (context-free checks)."""
    if dealer is not None:
        _known(game, dealer)
    if isinstance(deal, SetTerm):
        check_term(deal)
        return
    if isinstance(deal, Adjustment):
        _known(game, deal.player)
        for other, _amount in deal.whists:
            _known(game, other)
            if other == deal.player:
                raise DealError(f"{deal.player} cannot write whists on himself")
        if not deal.note.strip():
            raise DealError("an adjustment needs a note saying why")
        return
    if dealer is None:
        raise DealError("a deal needs its dealer")
    active = active_players(game, dealer)
    four = len(game.players) == 4
    if isinstance(deal, AllPass):
        names = [name for name, _ in deal.tricks]
        for name in names:
            _known(game, name)
            if four and name == dealer:
                raise DealError(
                    f"{name} is the dealer and sits out this deal, so takes no all-pass tricks"
                )
        if len(set(names)) != len(names):
            raise DealError("a player is listed twice in the all-pass tricks")
        missing = [p for p in active if p not in names]
        if missing:
            raise DealError(
                f"all-pass tricks of every active player are needed: missing {', '.join(missing)}"
            )
        for name, count in deal.tricks:
            _tricks(count, name)
        total = sum(count for _, count in deal.tricks)
        if total != 10:
            raise DealError(f"all-pass tricks must add up to 10, not {total}")
        return
    _known(game, deal.declarer)
    if four and deal.declarer == dealer:
        raise DealError(f"{dealer} is the dealer and sits out this deal, so cannot declare")
    if isinstance(deal, Misere):
        _tricks(deal.tricks, deal.declarer)
    elif isinstance(deal, Contract):
        _check_contract(game, deal, dealer, active, half_whist)
    else:
        assert_never(deal)


def _check_contract(
    game: Game, deal: Contract, dealer: str, active: tuple[str, ...], half_whist: bool
) -> None:
    if deal.level not in LEVELS:
        raise DealError(f"there is no contract level {deal.level} (6-10)")
    if deal.suit not in SUITS:
        raise DealError(f"unknown suit '{deal.suit}' (use s, c, d, h or nt)")
    _tricks(deal.tricks, "")
    names = [d.player for d in deal.defenders]
    for d in deal.defenders:
        _known(game, d.player)
        if d.player == deal.declarer:
            raise DealError(f"{d.player} declares and cannot also defend")
        if len(game.players) == 4 and d.player == dealer:
            raise DealError(f"{d.player} is the dealer and sits out this deal, so cannot defend")
        if d.role not in ROLES:
            raise DealError(f"unknown role '{d.role}' for {d.player} (use w, wN, p or h)")
        _tricks(d.tricks, d.player)
    if len(set(names)) != len(names):
        raise DealError("a defender is listed twice")
    expected = [p for p in active if p != deal.declarer]
    missing = [p for p in expected if p not in names]
    if missing or len(names) != 2:
        raise DealError(f"both defenders are needed: {' and '.join(expected)}")
    roles = sorted(d.role for d in deal.defenders)
    whisters = [d for d in deal.defenders if d.role == "w"]
    if "h" in roles:
        if roles != ["h", "p"]:
            raise DealError("half-whist needs a passing partner (the other defender passes)")
        if not half_whist:
            raise DealError("half-whist is not played under this convention (half_whist = false)")
        if deal.level > 7:
            raise DealError(f"half-whist is only possible on 6 and 7, not on {deal.level}")
        if deal.tricks is not None:
            raise DealError("a half-whisted game is not played: write its tricks as '-'")
        return
    if not whisters:
        if deal.tricks is not None:
            raise DealError(
                "both defenders passed, so the game was not played: write its tricks as '-'"
            )
        return
    if deal.tricks is None:
        raise DealError("a whisted game is played: give the declarer's tricks (0-10)")
    defence = 10 - deal.tricks
    if len(whisters) == 2:
        if any(w.tricks is None for w in whisters):
            raise DealError("two whisters: give each one's tricks, e.g. Boris:w3 Vera:w1")
        total = sum(w.tricks or 0 for w in whisters)
        if total != defence:
            raise DealError(
                f"whisters' tricks {whisters[0].tricks}+{whisters[1].tricks} and the declarer's "
                f"{deal.tricks} must add up to 10"
            )
    else:
        lone = whisters[0]
        if lone.tricks is not None and lone.tricks != defence:
            raise DealError(
                f"{lone.player} took {lone.tricks} but the declarer's {deal.tricks} leave {defence}"
            )
        passer = next(d for d in deal.defenders if d.role == "p")
        if passer.tricks not in (None, 0):
            raise DealError(f"{passer.player} passed: the lone whister takes the defence's tricks")
