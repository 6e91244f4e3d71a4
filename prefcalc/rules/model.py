"""The record: what happened at the table, as immutable values.

The record types are ``NamedTuple``s: immutable, and about eight times cheaper to define
than frozen dataclasses, which matters because every CLI call imports this module
(recording a deal has a budget of a few tens of milliseconds end to end).

A :class:`Game` holds the players in seating order (2 to 5), the convention reference, the
target and the money terms, and the list of recorded :class:`Entry` items, each wrapping one
deal (:class:`Contract`, :class:`Misere`, :class:`AllPass`), a manual :class:`Adjustment`, a
penalty of the Code (:class:`Penalty`) or a late arrival (:class:`Join`). ``Game.players`` is the seating at the start; :func:`seating`
replays the joins for the seating at any point, and :func:`sitting_out` says who sits a deal
out (the dealer at four, the dealer and the next dealer at five; nobody at two, Gusarik).
Nothing derived (pool, mountain, whists) is ever stored here.

Whether a deal may be recorded (it fits the game, the convention's rules and its place in the
night) is decided in :mod:`prefcalc.rules.legality`; this module checks single values only
(names, the target, the currency, a note, a change of terms).
"""

from collections.abc import Mapping, Sequence
from operator import itemgetter
from types import MappingProxyType
from typing import Any, Literal, NamedTuple, TypeAlias, assert_never

from prefcalc.errors import DealError, shown
from prefcalc.i18n import _
from prefcalc.rules.amounts import MAX_AMOUNT, Amount

Suit: TypeAlias = Literal["s", "c", "d", "h", "nt"]
"""Spades, clubs, diamonds, hearts, no trump."""
Role: TypeAlias = Literal["w", "p", "h", "r"]
"""A defender's answer: whist, pass, half-whist, returned the whist after the other's
half-whist (docs/rules.md §8.4)."""

SUITS: tuple[Suit, ...] = ("s", "c", "d", "h", "nt")
SUIT_SYMBOLS: dict[Suit, str] = {"s": "♠", "c": "♣", "d": "♦", "h": "♥", "nt": "NT"}
LEVELS = (6, 7, 8, 9, 10)
ROLES: tuple[Role, ...] = ("w", "p", "h", "r")


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
    dark: bool = False
    """Ordered blind (Classic, docs/rules.md §8.1): the deal counts ×2."""
    no_talon: bool = False
    """Played without the talon: outranks the same game in bidding, no effect on the score."""
    bomb: int | None = None
    """The bomb the declarer names (``bombs.order = declared``): its factor, e.g. 4."""
    talon: int | None = None
    """The tricks the talon gave the declarer (``talon_bonus``, 4-5 players, docs/rules.md §8.3)."""
    returned_by: str | None = None
    """The sitting-out dealer who returned the whist after both defenders passed (8.4)."""
    looked: tuple[str, ...] = ()
    """The players who looked at a trick other than the last (the Code, 3.9.11.2): each loses
    a trick of this deal (:func:`prefcalc.rules.penalties.counted`, docs/rules.md §8.10)."""

    @property
    def label(self) -> str:
        return f"{self.level}{SUIT_SYMBOLS[self.suit]}"

    @property
    def played(self) -> bool:
        return self.tricks is not None

    @property
    def whisters(self) -> tuple[Defender, ...]:
        return tuple([d for d in self.defenders if d.role == "w"])


class Misere(NamedTuple):
    """A misère: the declarer must take no trick."""

    declarer: str
    tricks: int
    dark: bool = False
    no_talon: bool = False
    bomb: int | None = None
    looked: tuple[str, ...] = ()
    """The declarer, if he looked at a trick other than the last (the Code, 3.9.11.2): one
    trick is added to his (docs/rules.md §8.10)."""


class AllPass(NamedTuple):
    """An all-pass deal (распасы): tricks taken by every active player; ``blind``: the
    players who passed blind (Classic bombs: each earns a bomb ×2)."""

    tricks: tuple[tuple[str, int], ...]
    blind: tuple[str, ...] = ()
    looked: tuple[str, ...] = ()
    """The players who looked at a trick other than the last (the Code, 3.9.11.2): one trick
    is added to each one's (docs/rules.md §8.10)."""


class Adjustment(NamedTuple):
    """A manual write for penalties and corrections the rules do not price."""

    player: str
    pool: Amount = 0
    mountain: Amount = 0
    whists: tuple[tuple[str, Amount], ...] = ()
    note: str = ""


Offence: TypeAlias = Literal["peek", "dealing", "illegal", "cards", "miscount", "entry"]
"""The offences of the 1996 Code a :class:`Penalty` is recorded for (docs/rules.md §8.10):
looked at the talon (3.2.21), broke the dealing procedure (3.2.17), insisted on an illegal
contract (3.4.4), ordered holding a wrong number of cards (3.4.6), a wrong number of cards
found in play (3.9.18), a wrong score entry (4.2.7-4.2.10). A trick lost for looking at an
old trick (3.9.11.2) is written with its deal (``looked``)."""

OFFENCES: tuple[Offence, ...] = ("peek", "dealing", "illegal", "cards", "miscount", "entry")
REMISE_OFFENCES: tuple[Offence, ...] = ("illegal", "cards", "miscount")
"""The offences penalised by a remise on a contract (``level``, ``suit``; ``amount``: the
undertricks)."""


class Penalty(NamedTuple):
    """A penalty of the Code written against ``player`` (docs/rules.md §8.10): an entry with no
    dealer, like an adjustment, priced by the convention and told with the Code's section.

    ``amount`` is what the offence costs as recorded: the points into his mountain (``peek``,
    ``dealing``; ``entry`` without ``on``), the excess whists written back on him by ``on``
    (``entry``), or the undertricks of the remise on the contract ``level``/``suit``
    (``illegal``: all of them, «без всех»; ``cards``, ``miscount``: two, or more)."""

    player: str
    offence: Offence
    amount: Amount
    level: int | None = None
    suit: Suit | None = None
    on: str | None = None

    @property
    def label(self) -> str:
        """The contract of a remise offence (``8♥``), ``""`` for the others."""
        if self.level is None or self.suit is None:
            return ""
        return f"{self.level}{SUIT_SYMBOLS[self.suit]}"


class Preference(NamedTuple):
    """The "Preference" combination (docs/rules.md §8.5): ``player`` declares it and the game
    ends at once (his mountain off, every pool filled up to the target)."""

    player: str


class Join(NamedTuple):
    """A late arrival (docs/rules.md §8.7): ``player`` takes his seat after ``after`` (``None``: the
    last seat) between deals. An entry with no dealer; the seating from here on includes him."""

    player: str
    after: str | None = None


class SetTerm(NamedTuple):
    """A mid-game change of the game's terms (``set target=30``): no dealer, no cards.

    ``target`` applies to the deals after it (the pool target, closing, the help rule);
    ``whist_price`` is the price of a whist at the settlement: the price in force at the
    end of the record applies to the whole night.
    """

    key: Literal["target", "whist_price"]
    value: Amount


SET_KEYS: tuple[Literal["target", "whist_price"], ...] = ("target", "whist_price")

Deal = Contract | Misere | AllPass | Adjustment | Penalty | Join | SetTerm | Preference


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
    """The *opening* whist price, agreed at ``new`` (the ledger's ``whist_price`` key). A
    ``set whist_price`` later in the record changes the price in force: the settlement uses
    :func:`price_in_force`, never this field alone."""
    currency: str = ""
    created: str = ""
    entries: tuple[Entry, ...] = ()
    lang: str = ""
    """The game's own language (``ru``/``en``) for its documents; "" when none was chosen."""
    genders: tuple[tuple[str, str], ...] = ()
    """The grammatical gender a player's name is declined by in Russian (``("Мишель", "f")``:
    ``m`` or ``f``), for the players whose gender was set (``prefcalc player NAME --gender``),
    in seating order; every other name by the guess on it (:mod:`prefcalc.cases`), which is
    never stored. No effect on any number."""

    @property
    def next_dealer(self) -> str:
        """The dealer of the next deal: clockwise after the last recorded dealer, in the
        seating after every entry (a late arrival takes his seat before the next deal)."""
        for entry in reversed(self.entries):
            if entry.dealer is not None:
                return seat_after(seating(self), entry.dealer)
        return self.first_dealer


# --- names, currency and notes -----------------------------------------------------------------

MAX_NAME = 30
"""The longest player name (characters, after normalisation)."""
MAX_CURRENCY = 8
MAX_NOTE = 200
MAX_TARGET = MAX_AMOUNT
"""The largest pool target: 10**9 like every amount (a huge target is how a never-ending game
is written: tests and benchmarks use 10**6 and 10**9)."""

# Characters refused outright: controls (ESC, newline, tab...), lone surrogates (undecodable
# bytes), line and paragraph separators. Invisible format characters (Cf) are removed instead.
_REFUSED = frozenset({"Cc", "Cs", "Zl", "Zp"})
# bidirectional overrides and isolates reorder the text around them on a terminal
_BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f")


def _has_refused(text: str) -> bool:
    import unicodedata

    return not text.isprintable() and any(unicodedata.category(c) in _REFUSED for c in text)


def normalize_name(text: str) -> str:
    """A name as it is stored: NFC, invisible format characters (zero-width space, word
    joiner, BOM, soft hyphen, bidi marks) removed, surrounding spaces stripped."""
    import unicodedata

    if text.isascii() and text.isprintable():  # the common case
        return text.strip()
    visible = "".join(c for c in text if unicodedata.category(c) != "Cf")
    return unicodedata.normalize("NFC", visible).strip()


def name_key(text: str) -> str:
    """What two names are compared by: the normalised name, compatibility-folded (NFKC) and
    case-folded, so ``Anna``, ``ANNA``, ``anna`` and ``An\u200bna`` are one name."""
    import unicodedata

    name = normalize_name(text)
    if name.isascii():
        return name.casefold()
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def check_name(text: str) -> str:
    """A player name as typed -> the name to store; :class:`DealError` if it is unusable."""
    if _has_refused(text):
        raise DealError(
            _("player name '{text}' contains a control character or a line break").format(
                text=shown(text)
            )
        )
    name = normalize_name(text)
    if not name:
        raise DealError(_("player name '{text}' is empty").format(text=shown(text)))
    if any(c in name for c in ":=,"):
        raise DealError(
            _("bad player name '{name}' (no ':', '=' or ',' in a name)").format(name=shown(name))
        )
    if len(name) > MAX_NAME:
        raise DealError(
            _("player name '{name}' is too long ({count} characters, at most {MAX_NAME})").format(
                name=shown(name), count=len(name), MAX_NAME=MAX_NAME
            )
        )
    return name


MIN_PLAYERS = 2
MAX_PLAYERS = 5


def check_players(players: tuple[str, ...]) -> tuple[str, ...]:
    """Check the seating (2 to 5 valid, distinct names) and return the names to store."""
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise DealError(
            _("a pool is played by {MIN_PLAYERS} to {MAX_PLAYERS} players, not {count}").format(
                MIN_PLAYERS=MIN_PLAYERS, MAX_PLAYERS=MAX_PLAYERS, count=len(players)
            )
        )
    names = tuple(check_name(name) for name in players)
    seen: dict[str, str] = {}
    looks: dict[str, str] = {}
    for typed, name in zip(players, names, strict=True):
        key = name_key(name)
        first = seen.get(key)
        if first is not None:
            same = "" if first == typed else _(" (same as '{first}')").format(first=shown(first))
            raise DealError(
                _("player '{typed}' is listed twice{same}").format(typed=shown(typed), same=same)
            )
        twin = looks.get(look_alike_key(name))
        if twin is not None:
            raise DealError(
                _(
                    "players '{twin}' and '{typed}' look the same on the sheet (letters of different alphabets): write one of them differently"
                ).format(twin=shown(twin), typed=shown(typed))
            )
        seen[key] = typed
        looks[look_alike_key(name)] = typed
    return names


# Cyrillic and Greek letters drawn like Latin ones, upper and lower case
_LOOK_ALIKE = str.maketrans(
    "АВЕКМНОРСТУХЅІЈаеорсухѕіјԁԛԝΑΒΕΖΗΙΚΜΝΟΡΤΥΧοαινκ",
    "ABEKMHOPCTYXSIJaeopcyxsijdqwABEZHIKMNOPTYXoaivk",
)


def look_alike_key(text: str) -> str:
    """Two names with the same key look the same in print: the normalised name with the
    Cyrillic and Greek letters that are drawn like Latin ones replaced by them, then
    case-folded (``Аnna`` with a Cyrillic А looks like ``Anna``; ``Анна`` does not)."""
    import unicodedata

    name = unicodedata.normalize("NFKC", normalize_name(text))
    return name.translate(_LOOK_ALIKE).casefold()


def check_target(target: int) -> int:
    """The pool target: a whole number 1..``MAX_TARGET``."""
    if not 1 <= target <= MAX_TARGET:
        raise DealError(
            _("the target must be a whole number 1-{MAX_TARGET:,}, not {target}").format(
                MAX_TARGET=MAX_TARGET, target=shown(str(target))
            )
        )
    return target


def check_currency(text: str) -> str:
    """A currency as typed -> as stored (``eur`` -> ``EUR``, ``€``): letters or symbols
    only, at most ``MAX_CURRENCY`` of them; ``""`` for none."""
    code = text.strip().upper()
    if (
        _has_refused(text)
        or not all(c.isalpha() or _is_symbol(c) for c in code)
        or len(code) > MAX_CURRENCY
    ):
        raise DealError(
            _(
                "currency '{text}' must be up to {MAX_CURRENCY} letters or symbols, e.g. EUR, RUB or €"
            ).format(text=shown(text), MAX_CURRENCY=MAX_CURRENCY)
        )
    return code


def _is_symbol(char: str) -> bool:
    import unicodedata

    return unicodedata.category(char).startswith("S")


def check_note(text: str) -> str:
    """A note as typed -> as stored (stripped); no control characters or line breaks, no
    bidirectional overrides, at most ``MAX_NOTE`` characters."""
    if _has_refused(text) or any(c in _BIDI for c in text):
        raise DealError(
            _(
                "the note '{text}' contains a control character or a line break (write it on one line)"
            ).format(text=shown(text))
        )
    note = text.strip()
    if len(note) > MAX_NOTE:
        raise DealError(
            _("the note is too long ({count} characters, at most {MAX_NOTE})").format(
                count=len(note), MAX_NOTE=MAX_NOTE
            )
        )
    return note


def check_price(price: Amount) -> Amount:
    """The price of a whist (at ``new`` and in ``set whist_price``): a positive amount."""
    if price <= 0:
        raise DealError(_("the whist price must be positive"))
    return price


def check_term(term: SetTerm) -> None:
    """Refuse a ``set`` the game cannot take: an unknown key, a target that is not a whole
    positive number, a price that is not positive."""
    if term.key == "target":
        value = term.value
        if isinstance(value, bool) or not isinstance(value, int):
            raise DealError(
                _("the target must be a whole number, not {value}").format(value=shown(str(value)))
            )
        check_target(value)
    elif term.key == "whist_price":
        check_price(term.value)
    else:
        assert_never(term.key)


def price_in_force(game: Game) -> Amount:
    """The whist price in force, the one the settlement uses: the last ``set whist_price`` of
    the record, else the opening price ``Game.whist_price`` (the price in force at the end
    applies to the whole night)."""
    for entry in reversed(game.entries):
        deal = entry.deal
        if isinstance(deal, SetTerm) and deal.key == "whist_price":
            return deal.value
    return game.whist_price


def seating(game: Game, upto: int | None = None) -> tuple[str, ...]:
    """The players in seating order after the first ``upto`` entries (default: all of them).

    ``Game.players`` is the seating at the start; the record is the truth for the rest: every
    :class:`Join` entry seats its player."""
    seats = game.players
    for entry in game.entries if upto is None else game.entries[:upto]:
        deal = entry.deal
        if isinstance(deal, Join):
            seats = joined(seats, deal)
    return seats


def deal_count(game: Game) -> int:
    """How many deals the record holds: every entry but a change of terms (``set``) and a
    late arrival (``join``), which are recorded like deals but are not dealt. Every count of
    deals shown (``games``, ``history``, the sheet, the PDF, ``share``) is this one; the
    numbers ``explain N`` and ``delete N`` take are still the entries' numbers."""
    entries = game.entries
    return len(entries) - sum(map(_NOT_DEALT.__contains__, map(type, map(_DEAL, entries))))


_NOT_DEALT = (SetTerm, Join)

UNDEALT = (Adjustment, Penalty, SetTerm, Join)
"""The entries no cards were dealt for: named by their number («№ 14», not «deal 14»), never
"the same deal twice". (:func:`deal_count` still counts adjustments and penalties, as the
sheet has always counted them.)"""
_DEAL = itemgetter(0)  # an entry's deal (the sheet's status line counts 10,000 at C speed)


def joined(seats: tuple[str, ...], join: Join) -> tuple[str, ...]:
    """``seats`` with the newcomer seated after ``join.after`` (default: the last seat)."""
    at = len(seats) if join.after is None else seats.index(join.after) + 1
    return (*seats[:at], join.player, *seats[at:])


def seat_after(seats: tuple[str, ...], name: str) -> str:
    """The player clockwise after ``name`` in ``seats``."""
    return seats[(seats.index(name) + 1) % len(seats)]


def sitting_out(seats: tuple[str, ...], dealer: str | None) -> tuple[str, ...]:
    """Who sits out a deal (docs/rules.md §2, §8.7): the dealer at four; the dealer and the next
    dealer at five; nobody at two or three (Gusarik's dummy never scores)."""
    if dealer is None or dealer not in seats:
        return ()
    if len(seats) == 4:
        return (dealer,)
    if len(seats) == 5:
        return (dealer, seat_after(seats, dealer))
    return ()


def active_players(table: Game | Sequence[str], dealer: str | None) -> tuple[str, ...]:
    """Who holds cards in the deal ``dealer`` deals, in seating order: the seats (a seating,
    or a game: its seating after every join) minus who sits the deal out
    (:func:`sitting_out`). The one answer to "who holds cards": the legality checks, the
    grammar's short forms, the pages' deals and the tournament's counts ask it here."""
    seats = seating(table) if isinstance(table, Game) else tuple(table)
    out = sitting_out(seats, dealer)
    return tuple(p for p in seats if p not in out) if out else seats


def play_order(seats: Sequence[str], dealer: str | None, *, talon: bool = False) -> tuple[str, ...]:
    """The players who take tricks in the deal ``dealer`` deals, in the order they play:
    from the hand after the dealer round the table (первая рука, вторая, третья), as a
    scorer reads an all-pass deal's tricks out; the dealer last when he holds cards.
    ``talon``: the dealer who sits out plays the talon cards of an all-pass deal
    (``passes.dealer_plays_talon``) and takes his tricks too, last. The order of the bare
    all-pass tricks (``passes 2 5 3``); seating order when the dealer is not known."""
    seats = tuple(seats)
    holding = active_players(seats, dealer)
    if dealer is None or dealer not in seats:
        return holding
    k = seats.index(dealer)
    circle = seats[k + 1 :] + seats[: k + 1]
    return tuple(p for p in circle if p in holding or (talon and p == dealer))
