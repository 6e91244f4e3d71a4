"""The scoring engine: ``score(game, convention) -> Sheet``.

A pure function of the record and the convention (docs/rules.md §2-§4): one small
function per kind of deal, the pool cap with the help rule, closing, and the all-pass
streak with its prices and exit levels. Every write to the sheet is a :class:`Write`
carrying its reason, so ``explain`` and the exports can show why a number is what it is.

Amounts are ``int`` where they are whole and ``Fraction`` where a division (a half of a
gentleman's split, a semi-responsible shortfall) makes them fractional; nothing is rounded.

A trick contract is scored in the parts a player thinks in: not played (both passed, or
half-whist: it counts as made), the declarer (made → pool, remise → mountain), the defence
(whists for tricks, consolation, greedy or gentleman lone whister, the whisters' shortfall)
and the sitting-out dealer's consolation. They use the letters of docs/rules.md §4:

    L   the contract's level (6-10)
    t   the declarer's tricks
    P   the game price of level L (game_prices: pool points 2, 4, 6, 8, 10 in the presets)
    W   = P × whist_factor: whists per defence trick
    C   consolation per undertrick per consoled player: W, or a flat number (Rostov: 10)
    u   = max(0, L − t): undertricks (u = 0: made, u > 0: remise)
    d   = 10 − t: the defence's tricks
"""

import string
from collections.abc import Callable, Mapping
from fractions import Fraction
from types import MappingProxyType
from typing import Any, Literal, NamedTuple, assert_never

from prefcalc.errors import DealError
from prefcalc.i18n import N_
from prefcalc.perf import gc_paused
from prefcalc.rules.amounts import Amount, fmt, norm
from prefcalc.rules.conventions import Convention
from prefcalc.rules.legality import Problem, out_of_place
from prefcalc.rules.model import (
    Adjustment,
    AllPass,
    Contract,
    Defender,
    Entry,
    Game,
    Join,
    Misere,
    Preference,
    SetTerm,
    joined,
    seat_after,
    seating,
    sitting_out,
)

TricksOf = tuple[tuple[str, int], ...]
"""An all-pass deal's tricks: ``(player, tricks)`` pairs."""

Column = Literal["pool", "mountain", "whists"]
"""Where a write goes: a player's pool, his mountain, or his whists on another player."""

POOL: Column = "pool"
MOUNTAIN: Column = "mountain"
WHISTS: Column = "whists"

NORMS = {6: 4, 7: 2, 8: 1, 9: 1}
QUOTAS = {6: 2, 7: 1, 8: 1, 9: 1}


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
    scored: tuple[Scored, ...]
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
    """The first player whose pool reached the target (``prizes.first_close``, docs/rules.md §8.8:
    the first pool write that reached it, in the order of the writes)."""

    @property
    def passes_price(self) -> Amount:
        """The per-trick price of the next all-pass deal."""
        return self.convention.passes_price(self.streak + 1)

    def left_to_close(self, player: str) -> Amount:
        return max(0, self.target - self.pool[player])


class _State:
    """The running sheet while replaying (lists indexed by seat, for speed)."""

    __slots__ = (
        "bombs",
        "classic",
        "closing_each",
        "events",
        "everyone",
        "factor",
        "help",
        "help_whists",
        "mountain",
        "names",
        "pool",
        "present",
        "seat",
        "target",
        "unpriced",
        "whists",
        "writes",
    )

    def __init__(
        self,
        players: tuple[str, ...],
        convention: Convention,
        target: int,
        seated: tuple[str, ...] | None = None,
    ) -> None:
        """``players`` is every player who ever sits (the seating at the end); ``seated``
        those at the table at the start (default: all of them)."""
        n = len(players)
        self.names = players
        self.present = [seated is None or name in seated for name in players]
        self.everyone = all(self.present)  # nobody joins later: the fast paths apply
        self.seat = {name: i for i, name in enumerate(players)}
        self.pool: list[Amount] = [0] * n
        self.mountain: list[Amount] = [0] * n
        self.whists: list[list[Amount]] = [[0] * n for _ in range(n)]
        self.target = target
        self.closing_each = convention.closing == "each"
        self.help = convention.help
        self.help_whists = convention.help_whists
        self.writes: list[Write] = []
        self.unpriced: list[str] = []  # what the convention cannot price in the current deal
        self.bombs: list[list[int]] = [[] for _ in range(n)]  # held, in the order earned
        self.classic = bool(convention.bombs_opening) or convention.bombs_blind
        self.factor = 1  # F of the current deal
        self.events: list[tuple[str, str, int]] = []  # bombs earned, used, kept in this deal

    # -- raw writes ------------------------------------------------------------------
    def to_mountain(self, i: int, amount: Amount, template: str, /, **args: Any) -> None:
        if amount:
            total = self.mountain[i] + amount
            self.mountain[i] = total if total.__class__ is int else norm(total)
            self.writes.append(Write(self.names[i], MOUNTAIN, amount, None, template, args))

    def to_whists(self, i: int, j: int, amount: Amount, template: str, /, **args: Any) -> None:
        if amount:
            row = self.whists[i]
            total = row[j] + amount
            row[j] = total if total.__class__ is int else norm(total)
            self.writes.append(Write(self.names[i], WHISTS, amount, self.names[j], template, args))

    def to_pool_raw(self, i: int, amount: Amount, template: str, /, **args: Any) -> None:
        if amount:
            total = self.pool[i] + amount
            self.pool[i] = total if total.__class__ is int else norm(total)
            self.writes.append(Write(self.names[i], POOL, amount, None, template, args))

    # -- pool writes with the cap and the help rule ----------------------------------------
    def to_pool(
        self,
        i: int,
        amount: Amount,
        why: Reason,
        excluded: tuple[int, ...] = (),
        helps: bool = True,
    ) -> None:
        """Write ``amount`` pool points for ``why``; past the target the help rule applies."""
        if not self.closing_each:
            self.to_pool_raw(i, amount, "{why}: {amount}", why=why, amount=amount)
            return
        room = self.target - self.pool[i]
        take = amount if amount <= room else max(room, 0)
        rest = norm(amount - take)
        plan = (
            self._help_plan(i, rest, excluded) if rest > 0 and helps and self.help != "none" else []
        )
        if not plan:
            if take:
                self.to_pool_raw(i, take, "{why}: {amount}", why=why, amount=take)
            if rest > 0:
                self._write_off(i, rest, why)
            return
        # The help rule (docs/rules.md §4.5): every write tells the whole story of the points.
        helper = self.names[i]
        given = [(self.names[q], give, give * self.help_whists) for q, give in plan]
        rest = norm(rest - sum(give for _, give, _ in given))
        head = Reason(
            N_("{why}: earned {amount}, {take} into the pool"),
            {"why": why, "amount": amount, "take": take},
        )
        parts = [
            head,
            *(
                Reason(
                    N_("{amount} help to {player} for {whists} whists"),
                    {"amount": give, "player": name, "whists": w},
                )
                for name, give, w in given
            ),
        ]
        if rest > 0:
            parts.append(Reason(N_("{amount} nobody can take"), {"amount": rest}))
        story = Joined(tuple(parts))
        if take:
            self.to_pool_raw(i, take, "{story}", story=story)
        for (q, give), (name, _, whists) in zip(plan, given, strict=True):
            self.to_pool_raw(
                q,
                give,
                N_("help from {player}: {amount} of the {earned} for {why}"),
                player=helper,
                amount=give,
                earned=amount,
                why=why,
            )
            self.to_whists(
                i,
                q,
                whists,
                N_("help to {player}: {points:point} × {factor} = {whists} ({story})"),
                player=name,
                points=give,
                factor=self.help_whists,
                whists=whists,
                story=head,
            )
        if rest > 0:
            self._write_off(i, rest, why)

    def _help_plan(
        self, i: int, rest: Amount, excluded: tuple[int, ...]
    ) -> list[tuple[int, Amount]]:
        """Who the points past the target help, and how many each (``help = most``: the
        fullest pool first; ``hole``: the emptiest), never the ``excluded`` seats."""
        n = len(self.names)
        order = [(i + k) % n for k in range(1, n)]
        present = self.present
        candidates = [
            q for q in order if present[q] and q not in excluded and self.pool[q] < self.target
        ]
        plan: list[tuple[int, Amount]] = []
        while rest > 0 and candidates:
            if self.help == "most":
                best = max(
                    candidates, key=lambda q: (self.pool[q], -self.mountain[q], -order.index(q))
                )
            else:  # "hole": the biggest hole is the smallest pool
                best = min(
                    candidates, key=lambda q: (self.pool[q], self.mountain[q], order.index(q))
                )
            candidates.remove(best)
            give = min(rest, self.target - self.pool[best])
            plan.append((best, give))
            rest = norm(rest - give)
        return plan

    def off_own_mountain(self, i: int, points: Amount, template: str, why: Reason) -> Amount:
        """Write up to ``points`` off player ``i``'s own mountain (never below 0), the write
        told by ``template`` (``{why}``, ``{points}``); return the points left over."""
        off = min(points, self.mountain[i]) if self.mountain[i] > 0 else 0
        if off:
            self.to_mountain(i, -off, template, why=why, points=off)
        return norm(points - off)

    def _write_off(self, i: int, rest: Amount, why: Reason) -> None:
        remaining = self.off_own_mountain(
            i, rest, N_("{why}: {points:point} nobody can take written off the own mountain"), why
        )
        if remaining > 0:
            name = self.names[i]
            for q in range(len(self.names)):
                if q != i and self.present[q]:
                    self.to_mountain(
                        q,
                        remaining,
                        N_("{player} could not use {points:point}: added to every other mountain"),
                        player=name,
                        points=remaining,
                    )


def _price(conv: Convention, level: int) -> int:
    return conv.game_prices[level - 6]


def _norm_of(conv: Convention, level: int) -> int:
    return NORMS.get(level, conv.ten_norm)


def _quota(conv: Convention, level: int) -> int:
    return QUOTAS.get(level, conv.ten_norm)


def _consolation(conv: Convention, w: Amount) -> Amount:
    return conv.consolation if isinstance(conv.consolation, int) else w


def _score_contract(st: _State, conv: Convention, deal: Contract, away: tuple[int, ...]) -> None:
    """A trick contract (docs/rules.md §4.1-§4.2), in the parts a player thinks in.

    The writes come in this order: the whisters' shortfall, the declarer, the defence's
    whists, the sitting-out dealer's consolation (``explain`` and the exports show them so).
    ``away`` are the seats that sit the deal out, the dealer first (4 players: the
    dealer; 5: the dealer and the next dealer); only the dealer writes his consolation, and
    help never goes to any of them.
    """
    use = None
    f: int = 1
    fx: Reason | str = ""
    if deal.dark or deal.bomb is not None or (st.classic and st.bombs[st.seat[deal.declarer]]):
        f, fx, use = _deal_factor(st, conv, deal)
    if deal.tricks is None:
        _not_played(st, conv, deal, away, f, fx)
        if use is not None:
            _bomb_after(st, deal.declarer, use, True)
        if deal.talon is not None:
            _talon_bonus(st, conv, deal, _terms(st, conv, deal, deal.level, f, fx), away)
        return
    terms = _terms(st, conv, deal, deal.tricks, f, fx)
    if use is not None:
        _bomb_after(st, deal.declarer, use, not terms.u)
    if deal.returned_by is not None and away:
        _dealer_return(st, conv, terms, away)
    else:
        whisters = deal.whisters
        if not whisters:  # role r: the returner is the lone whister, greedy (docs/rules.md §8.4)
            whisters = tuple(x for x in deal.defenders if x.role == "r")
            conv = conv._replace(lone_whister="greedy")
        failed = _shortfall(st, conv, terms, whisters)
        _declarer(st, conv, terms, failed + away)
        if len(deal.defenders) == 1:
            _gusarik_whister(st, terms, whisters[0])
        else:
            _defence_whists(st, conv, deal, terms, whisters)
        if away:
            _dealer(st, conv, terms, away[0])
    if deal.talon is not None:
        _talon_bonus(st, conv, deal, terms, away)


def _talon_bonus(
    st: _State, conv: Convention, deal: Contract, k: "_Terms", away: tuple[int, ...]
) -> None:
    """The 4-player dealer's talon bonus (docs/rules.md §8.3): the sitting-out dealer writes
    ``N × W × F`` whists on the declarer for the N tricks the talon gave him, made or not."""
    n = deal.talon or 0
    if not conv.talon_bonus:
        st.unpriced.append("the talon bonus needs talon_bonus = true: not written")
        return
    if not away or not n:
        return
    amount = n * k.w * k.f
    st.to_whists(
        away[0],
        k.declarer,
        amount,
        N_("talon bonus on {contract}: {n:trick} × {w}{fx} = {amount}"),
        contract=k.label,
        n=n,
        w=k.w,
        fx=k.fx,
        amount=amount,
    )


def _dealer_return(st: _State, conv: Convention, k: "_Terms", away: tuple[int, ...]) -> None:
    """Both defenders passed and the sitting-out dealer returned the whist (docs/rules.md §8.4):
    he is the only whister, greedy (``d × W``), fully responsible for the norm (liability 1,
    also after a pool closed) and on a remise writes the consolation of both defenders
    (``2 × u × C``); the passers write nothing, and there is no dealer's consolation."""
    dealer = away[0]
    need = _norm_of(conv, k.level)
    failed: tuple[int, ...] = ()
    if k.d < need:
        missing = need - k.d
        amount = missing * k.w * k.f
        st.to_mountain(
            dealer,
            amount,
            N_(
                "dealer's return, whister's shortfall on {contract}: "
                "{missing} missing × {w}{fx} = {amount}"
            ),
            contract=k.label,
            missing=missing,
            w=k.w,
            fx=k.fx,
            amount=amount,
        )
        failed = (dealer,)
    _declarer(st, conv, k, failed + away)
    _whists_for_tricks(st, k, dealer, k.d)
    if k.u:
        cons = 2 * k.u * k.c * k.f
        st.to_whists(
            dealer,
            k.declarer,
            cons,
            N_(
                "consolation of both defenders (dealer's return): "
                "2 × {u:undertrick} × {c}{fx} = {amount}"
            ),
            u=k.u,
            c=k.c,
            fx=k.fx,
            amount=cons,
        )


class _Terms(NamedTuple):
    """The numbers of one played contract, named after the legend (module docstring)."""

    label: Label  # the contract, e.g. ``7♥``
    declarer: int  # the declarer's seat
    level: int  # L
    p: int  # P
    w: int  # W = P × whist_factor
    c: Amount  # C
    u: int  # u = max(0, L − t)
    d: int  # d = 10 − t
    f: int = 1  # F, the deal factor (docs/rules.md §8.1): bomb × (2 if dark)
    fx: Reason | str = ""  # F in a reason: `` × 16 (triple bomb, dark)``, ``""`` when F = 1


def _terms(
    st: _State, conv: Convention, deal: Contract, t: int, f: int = 1, fx: Reason | str = ""
) -> _Terms:
    level = deal.level
    p = _price(conv, level)
    w = p * conv.whist_factor
    u = level - t if t < level else 0
    return _Terms(
        _label(deal), st.seat[deal.declarer], level, p, w, _consolation(conv, w), u, 10 - t, f, fx
    )


def _label(deal: Contract) -> Label:
    return Label(deal.level, deal.suit, deal.label)


_BOMB_WORDS = {2: N_("bomb"), 4: N_("double bomb"), 8: N_("triple bomb")}
"""A bomb in a reason (as prefcalc.rules.legality.bomb_name names it)."""


def _factor_reason(f: int, bomb: int, dark: bool) -> Reason | str:
    """`` × 16 (triple bomb, dark)``; ``""`` when F = 1 (the words of ``factor_words``)."""
    if f == 1:
        return ""
    named = _BOMB_WORDS.get(bomb)
    bomb_words = Reason(named, {}) if named else Reason(N_("bomb ×{factor}"), {"factor": bomb})
    if bomb > 1 and dark:
        what = Reason(N_("{bomb}, dark"), {"bomb": bomb_words})
    elif bomb > 1:
        what = bomb_words
    else:
        what = Reason(N_("dark"), {})
    return Reason(" × {f} ({what})", {"f": f, "what": what})


def _deal_factor(
    st: _State, conv: Convention, deal: Contract | Misere
) -> tuple[int, Reason | str, int | None]:
    """The deal factor ``F = bomb × (2 if dark)`` of a game or misère (docs/rules.md §8.1), its
    words for the reasons (`` × 16 (triple bomb, dark)``) and the index of the declarer's
    bomb it uses (``None``: none). What the convention cannot price (a dark game without
    ``dark_games``, a bomb the declarer does not hold) is left out and listed."""
    from prefcalc.rules.wording import bomb_name

    dark = deal.dark
    if dark and not conv.dark_games:
        st.unpriced.append("a dark game needs dark_games = true: scored without its ×2")
        dark = False
    held = st.bombs[st.seat[deal.declarer]]
    use: int | None = None
    if deal.bomb is not None:
        if conv.bombs_order != "declared":
            st.unpriced.append(
                f"--bomb {deal.bomb} needs bombs.order = declared: scored without the bomb"
            )
        elif deal.bomb not in held:
            has = ", ".join(f"×{b}" for b in held) or "none"
            st.unpriced.append(
                f"{deal.declarer} holds no {bomb_name(deal.bomb)} ×{deal.bomb} (bombs: {has})"
            )
        else:
            use = held.index(deal.bomb)
    elif held and conv.bombs_order == "oldest":
        use = 0
    bomb = held[use] if use is not None else 1
    f = bomb * (2 if dark else 1)
    st.factor = f
    return f, _factor_reason(f, bomb, dark), use


def _bomb_after(st: _State, declarer: str, use: int, made: bool) -> None:
    """The declarer's bomb: used up when the contract is made (an unplayed game counts as
    made), kept on a remise (docs/rules.md §8.1)."""
    held = st.bombs[st.seat[declarer]]
    if made:
        st.events.append((declarer, "used", held.pop(use)))
    else:
        st.events.append((declarer, "kept", held[use]))


def _not_played(
    st: _State,
    conv: Convention,
    deal: Contract,
    away: tuple[int, ...],
    f: int = 1,
    fx: Reason | str = "",
) -> None:
    """Not played (docs/rules.md §4.2): both defenders passed, or one passed and the other said
    half-whist. Either way the game counts as made (``P`` into the declarer's pool); the
    half-whister writes ``W`` per trick for half the norm (2 tricks on a 6, 1 on a 7)."""
    level = deal.level
    p = _price(conv, level)
    w = p * conv.whist_factor
    label = _label(deal)
    declarer = st.seat[deal.declarer]
    half = next((x for x in deal.defenders if x.role == "h"), None)
    alone = len(deal.defenders) == 1  # Gusarik: "h" leaves for his tricks, "p" passes
    if half is not None:
        tricks = _norm_of(conv, level) // 2
        st.to_whists(
            st.seat[half.player],
            declarer,
            tricks * w * f,
            N_("left for own tricks on {contract}: {n:trick} × {w}{fx} = {amount}")
            if alone
            else N_("half-whist on {contract}: {n:trick} × {w}{fx} = {amount}"),
            contract=label,
            n=tricks,
            w=w,
            fx=fx,
            amount=tricks * w * f,
        )
        why = (
            N_("{contract} not played (left for own tricks), counts as made{fx}")
            if alone
            else N_("{contract} not played (half-whist), counts as made{fx}")
        )
    else:
        why = (
            N_("{contract} not played (passed), counts as made{fx}")
            if alone
            else N_("{contract} not played (both passed), counts as made{fx}")
        )
    _made(st, conv, declarer, p * f, Reason(why, {"contract": label, "fx": fx}), away)


def _declarer(st: _State, conv: Convention, k: _Terms, excluded: tuple[int, ...]) -> None:
    """The declarer of a played contract (docs/rules.md §4.1.1): made (``u = 0``) → ``P`` into
    the pool (help rule, ``mountain_first``), never to the ``excluded`` seats; remise →
    ``u × P × remise_factor`` into his mountain."""
    if not k.u:
        why = Reason(N_("{contract} made{fx}"), {"contract": k.label, "fx": k.fx})
        _made(st, conv, k.declarer, k.p * k.f, why, excluded)
        return
    m = k.u * k.p * conv.remise_factor * k.f
    if conv.remise_factor == 1:
        st.to_mountain(
            k.declarer,
            m,
            N_("remise on {contract}: {u:undertrick} × {p}{fx} = {amount}"),
            contract=k.label,
            u=k.u,
            p=k.p,
            fx=k.fx,
            amount=m,
        )
    else:
        st.to_mountain(
            k.declarer,
            m,
            N_("remise on {contract}: {u:undertrick} × {p} × {factor}{fx} = {amount}"),
            contract=k.label,
            u=k.u,
            p=k.p,
            factor=conv.remise_factor,
            fx=k.fx,
            amount=m,
        )


def _defence_whists(
    st: _State, conv: Convention, deal: Contract, k: _Terms, whisters: tuple[Defender, ...]
) -> None:
    """The defence's whists on the declarer (docs/rules.md §4.1.2-§4.1.3): ``W`` per defence
    trick and, on a remise, ``u × C`` consolation per consoled player. The other half of the
    defence, its shortfall (:func:`_shortfall`), is written before the declarer's part."""
    if len(whisters) == 2:
        _two_whisters(st, k, whisters)
    else:
        passer = next(x for x in deal.defenders if x.player != whisters[0].player)
        _lone_whister(st, conv, k, st.seat[whisters[0].player], st.seat[passer.player])


def _two_whisters(st: _State, k: _Terms, whisters: tuple[Defender, ...]) -> None:
    """Each whister writes his own tricks × ``W`` and, on a remise, ``u × C``."""
    for x in whisters:
        i = st.seat[x.player]
        _whists_for_tricks(st, k, i, x.tricks or 0)
        if k.u:
            _consolation_of(st, k, i, N_("consolation: {u:undertrick} × {c}{fx} = {amount}"))


def _lone_whister(st: _State, conv: Convention, k: _Terms, a: int, b: int) -> None:
    """One whister ``a`` answers for both hands (``d`` tricks); ``b`` passed.

    Made: ``a`` writes ``d × W``, ``b`` nothing. Remise, greedy: ``a`` writes ``d × W`` and
    ``u × C``, ``b`` writes ``u × C``. Remise, gentleman: ``d × W + 2 × u × C`` in halves."""
    if not k.u:
        _whists_for_tricks(st, k, a, k.d)
    elif conv.lone_whister == "greedy":
        _whists_for_tricks(st, k, a, k.d)
        _consolation_of(st, k, a, N_("consolation: {u:undertrick} × {c}{fx} = {amount}"))
        _consolation_of(st, k, b, N_("consolation (passed): {u:undertrick} × {c}{fx} = {amount}"))
    else:
        half = norm(Fraction((k.d * k.w + 2 * k.u * k.c) * k.f, 2))
        template = N_(
            "gentleman's whist: ({d:trick} × {w} + 2 × {u:undertrick} × {c}){fx} / 2 = {amount}"
        )
        for seat in (a, b):
            st.to_whists(
                seat, k.declarer, half, template, d=k.d, w=k.w, u=k.u, c=k.c, fx=k.fx, amount=half
            )


def _gusarik_whister(st: _State, k: _Terms, lone: Defender) -> None:
    """Two players (Gusarik, docs/rules.md §8.7): the lone defender plays with the dummy, greedy
    whatever ``lone_whister`` says: ``d × W`` and, on a remise, ``u × C`` once (the dummy
    writes nothing). His shortfall (the whole norm) is written by :func:`_shortfall`."""
    i = st.seat[lone.player]
    _whists_for_tricks(st, k, i, k.d)
    if k.u:
        _consolation_of(st, k, i, N_("consolation: {u:undertrick} × {c}{fx} = {amount}"))


def _dealer(st: _State, conv: Convention, k: _Terms, dealer: int) -> None:
    """4 players: on a remise the sitting-out dealer writes ``u × C`` consolation too
    (docs/rules.md §4.1.4, ``dealer_consolation``)."""
    if k.u and conv.dealer_consolation:
        _consolation_of(
            st, k, dealer, N_("dealer's consolation: {u:undertrick} × {c}{fx} = {amount}")
        )


def _whists_for_tricks(st: _State, k: _Terms, i: int, n: int) -> None:
    """Seat ``i`` writes ``n × W`` on the declarer for ``n`` defence tricks."""
    amount = n * k.w * k.f if k.fx else n * k.w
    st.to_whists(
        i,
        k.declarer,
        amount,
        N_("whists on {contract}: {n:trick} × {w}{fx} = {amount}"),
        contract=k.label,
        n=n,
        w=k.w,
        fx=k.fx,
        amount=amount,
    )


def _consolation_of(st: _State, k: _Terms, i: int, template: str) -> None:
    """Seat ``i`` writes ``u × C`` consolation on the declarer."""
    cons = k.u * k.c * k.f
    st.to_whists(i, k.declarer, cons, template, u=k.u, c=k.c, fx=k.fx, amount=cons)


def _shortfall(
    st: _State, conv: Convention, k: _Terms, whisters: tuple[Defender, ...]
) -> tuple[int, ...]:
    """The defence's shortfall (docs/rules.md §4.1.5): each whister who failed his norm writes
    ``W × liability`` per missing trick into his mountain. Returns the failed seats."""
    level = k.level
    liability = conv.liability
    note: Reason | str = ""
    after = conv.liability_after_close
    if after != "none" and _pool_closed(st):
        liability = after
        note = Reason(N_(" (liability {liability} after a pool closed)"), {"liability": after})
    base = norm(k.w * liability)
    per_trick = base if k.f == 1 else norm(base * k.f)
    owed: list[tuple[str, int]] = []
    if len(whisters) == 1:
        need = _norm_of(conv, level)
        if k.d < need:
            owed.append((whisters[0].player, need - k.d))
    elif conv.two_whisters == "each":
        quota = _quota(conv, level)
        owed = [(x.player, quota - (x.tricks or 0)) for x in whisters if (x.tricks or 0) < quota]
    elif k.d < _norm_of(conv, level):
        if level == 6:
            owed = [(x.player, 2 - (x.tricks or 0)) for x in whisters if (x.tricks or 0) < 2]
        elif level == 7:
            owed = [(x.player, 1) for x in whisters if (x.tricks or 0) < 1]
        elif conv.two_whisters == "both":
            owed = [(x.player, 1) for x in whisters]
        else:
            owed = [(whisters[1].player, _norm_of(conv, level) - k.d)]
    for player, missing in owed:
        amount = norm(missing * per_trick)
        st.to_mountain(
            st.seat[player],
            amount,
            N_("whister's shortfall on {contract}: {missing} missing × {w}{fx} = {amount}{note}"),
            contract=k.label,
            missing=missing,
            w=base,
            fx=k.fx,
            amount=amount,
            note=note,
        )
    return tuple(st.seat[player] for player, _ in owed)


def _pool_closed(st: _State) -> bool:
    """Whether a seated player's pool has reached the target (``liability_after_close``:
    the shortfall is written before any pool write of its deal, so this is the state the
    deal started with, docs/rules.md §8.8)."""
    target = st.target
    return any(p >= target for p, here in zip(st.pool, st.present, strict=True) if here)


def _made(
    st: _State, conv: Convention, i: int, points: Amount, why: Reason, excluded: tuple[int, ...]
) -> None:
    """The points of a made game or misère: into the pool (with the help rule), or with
    ``mountain_first`` first off the declarer's own mountain."""
    if not conv.mountain_first:
        st.to_pool(i, points, why, excluded)
        return
    rest = st.off_own_mountain(
        i, points, N_("{why}: {points:point} written off the own mountain first"), why
    )
    if rest:
        st.to_pool(i, rest, why, excluded)


def _score_misere(st: _State, conv: Convention, deal: Misere, away: tuple[int, ...]) -> None:
    i = st.seat[deal.declarer]
    use = None
    if deal.dark or deal.bomb is not None or (st.classic and st.bombs[i]):
        f, fx, use = _deal_factor(st, conv, deal)
    else:
        f, fx = 1, ""
    if use is not None:
        _bomb_after(st, deal.declarer, use, deal.tricks == 0)
    if deal.tricks == 0:
        why = Reason(N_("misère made{fx}"), {"fx": fx})
        _made(st, conv, i, conv.misere_price * f, why, away)
        return
    per = conv.misere_penalty * conv.remise_factor
    st.to_mountain(
        i,
        deal.tricks * per * f,
        N_("misère failed: {n:trick} × {per}{fx} = {amount}"),
        n=deal.tricks,
        per=per,
        fx=fx,
        amount=deal.tricks * per * f,
    )


def _from_left(st: _State, tricks: TricksOf, dealer: str | None) -> TricksOf:
    """An all-pass deal's tricks in seating order from the dealer's left (the dealer last
    at three players), whatever order they were typed in: the order of its pool writes, so
    "the first to close" never depends on the typing (docs/rules.md §8.8)."""
    if dealer is None:
        return tricks
    n = len(st.names)
    seat = st.seat
    start = seat[dealer] + 1
    return tuple(sorted(tricks, key=lambda item: (seat[item[0]] - start) % n))


def _score_all_pass(
    st: _State,
    conv: Convention,
    deal: AllPass,
    away: tuple[int, ...],
    price: Amount,
    dealer: str | None,
) -> None:
    """An all-pass deal (docs/rules.md §3): the tricks priced into the mountains (or as whists),
    then the pool writes in seating order from the dealer's left: the no-trick bonus, and
    the sitting-out dealer's bonus last."""
    seat = st.seat
    tricks = deal.tricks
    low = min(n for _, n in tricks)
    if conv.passes_scoring == "mountain":
        shift = low if conv.passes_amnesty else 0
        for name, n in tricks:
            counted = n - shift
            if counted:
                amount = counted * price
                if shift:
                    st.to_mountain(
                        seat[name],
                        amount,
                        N_("all-pass: ({n} − {low}) tricks × {price} = {amount}"),
                        n=n,
                        low=shift,
                        price=price,
                        amount=amount,
                    )
                else:
                    st.to_mountain(
                        seat[name],
                        amount,
                        N_("all-pass: {n:trick} × {price} = {amount}"),
                        n=n,
                        price=price,
                        amount=amount,
                    )
    else:
        lowest = [name for name, n in tricks if n == low]
        per = conv.passes_whists_per_trick * price
        share = len(lowest) if conv.passes_ties == "split" else 1
        for writer in lowest:
            for name, n in tricks:
                if n != low:
                    amount = norm(Fraction((n - low) * per, share))
                    if share == 1:
                        st.to_whists(
                            seat[writer],
                            seat[name],
                            amount,
                            N_("all-pass: ({n} − {low}) tricks × {price} = {amount}"),
                            n=n,
                            low=low,
                            price=per,
                            amount=amount,
                        )
                    else:
                        st.to_whists(
                            seat[writer],
                            seat[name],
                            amount,
                            N_("all-pass: ({n} − {low}) tricks × {price} / {tied} tied = {amount}"),
                            n=n,
                            low=low,
                            price=per,
                            tied=share,
                            amount=amount,
                        )
    zero = conv.passes_zero_bonus
    bonus = zero if isinstance(zero, int) else price
    if bonus and low == 0:
        for name, n in _from_left(st, tricks, dealer):
            if n == 0:
                st.to_pool(seat[name], bonus, Reason(N_("all-pass: no tricks"), {}), helps=False)
    if away and conv.passes_dealer_bonus:  # the dealer only, also at five (docs/rules.md §8.8)
        why = Reason(N_("all-pass: dealer's bonus"), {})
        st.to_pool(away[0], conv.passes_dealer_bonus, why, helps=False)


def _score_opening(st: _State, deal: AllPass, circle: int, factor: int, dealer: str | None) -> None:
    """A deal of an opening circle (docs/rules.md §8.1, §8.8): tricks × 2^k into the mountain,
    2^k into the pool of a player with no trick (it never helps), and every active player
    earns a bomb ×2^k. ``passes.*`` do not apply. The players are taken in seating order
    from the dealer's left, like the pool writes of every all-pass deal."""
    seat = st.seat
    for name, n in _from_left(st, deal.tricks, dealer):
        i = seat[name]
        if n:
            st.to_mountain(
                i,
                n * factor,
                N_("opening circle {circle}: {n:trick} × {factor} = {amount}"),
                circle=circle,
                n=n,
                factor=factor,
                amount=n * factor,
            )
        else:
            why = Reason(N_("opening circle {circle}: no tricks"), {"circle": circle})
            st.to_pool(i, factor, why, helps=False)
    for name, _ in deal.tricks:
        st.bombs[seat[name]].append(factor)
        st.events.append((name, "earned", factor))


def _blind_bombs(st: _State, conv: Convention, deal: AllPass) -> None:
    """Blind passes (``bombs.blind``): each blind player earns a bomb ×2."""
    if not conv.bombs_blind:
        st.unpriced.append("a blind pass needs bombs.blind = true: no bomb earned")
        return
    for name in deal.blind:
        st.bombs[st.seat[name]].append(2)
        st.events.append((name, "earned", 2))


def _score_adjustment(st: _State, deal: Adjustment) -> None:
    i = st.seat[deal.player]
    note = deal.note
    if deal.pool:
        st.to_pool_raw(i, deal.pool, _ADJUSTMENT, note=note, amount=deal.pool)
    if deal.mountain:
        st.to_mountain(i, deal.mountain, _ADJUSTMENT, note=note, amount=deal.mountain)
    for other, amount in deal.whists:
        st.to_whists(i, st.seat[other], amount, _ADJUSTMENT, note=note, amount=amount)


_ADJUSTMENT = N_("adjustment of {amount}: {note}")


def _finished(st: _State, conv: Convention) -> bool:
    pools = (
        st.pool if st.everyone else [p for p, here in zip(st.pool, st.present, strict=True) if here]
    )
    if conv.closing == "each":
        return min(pools) >= st.target
    return sum(pools) >= st.target * len(pools)


def _score_preference(st: _State, conv: Convention, deal: Preference) -> None:
    """The "Preference" combination (docs/rules.md §8.5, §8.8): the holder's mountain is written off
    to 0; every pool below the target is filled up to it, his own first, then the others
    clockwise from him; for each point put into another player's pool he writes
    ``help_whists`` whists on that player. The game is then finished."""
    if not conv.preference_combo:
        st.unpriced.append("the Preference combination needs preference_combo = true: not scored")
        return
    i = st.seat[deal.player]
    if st.mountain[i] > 0:
        st.to_mountain(
            i,
            -st.mountain[i],
            N_("Preference: the mountain written off: {amount}"),
            amount=st.mountain[i],
        )
    n = len(st.names)
    for q in [(i + k) % n for k in range(n)]:
        gap = norm(st.target - st.pool[q])
        if not st.present[q] or gap <= 0:
            continue
        st.to_pool_raw(
            q,
            gap,
            N_("Preference of {player}: the pool filled up: {amount}"),
            player=deal.player,
            amount=gap,
        )
        if q != i:
            amount = gap * conv.help_whists
            st.to_whists(
                i,
                q,
                amount,
                N_("Preference: {points:point} to {player} × {factor} = {amount}"),
                points=gap,
                player=st.names[q],
                factor=conv.help_whists,
                amount=amount,
            )


def _score_join(st: _State, deal: Join) -> None:
    """A late arrival (docs/rules.md §8.7): his pool and mountain start at the exact averages of
    every player seated before him; he has no whists."""
    seated = [q for q, here in enumerate(st.present) if here]
    k = len(seated)
    i = st.seat[deal.player]
    st.present[i] = True
    st.everyone = all(st.present)
    for column, values in ((POOL, st.pool), (MOUNTAIN, st.mountain)):
        total = norm(sum((values[q] for q in seated), Fraction(0)))
        average = norm(Fraction(total) / k)
        if column == POOL:
            template = N_("joined: average pool of {k} players = {total} / {k} = {average}")
            st.to_pool_raw(i, average, template, k=k, total=total, average=average)
        else:
            template = N_("joined: average mountain of {k} players = {total} / {k} = {average}")
            st.to_mountain(i, average, template, k=k, total=total, average=average)


def _ends_streak(conv: Convention, deal: Contract) -> bool:
    """Whether a contract ends the all-pass streak (``passes.ends_streak``): any contract, or
    only a whisted and played one. A dealer's return and role ``r`` make the game whisted
    (the returner or the ``r`` player is its whister, docs/rules.md §8.8)."""
    if conv.passes_ends_streak == "any":
        return True
    return deal.tricks is not None and (
        deal.returned_by is not None or any(d.role in ("w", "r") for d in deal.defenders)
    )


def _next_dealer(game: Game) -> str:
    """``game.next_dealer`` when nobody joined (the seating is ``game.players``)."""
    for entry in reversed(game.entries):
        if entry.dealer is not None:
            return seat_after(game.players, entry.dealer)
    return game.first_dealer


def score(game: Game, convention: Convention, strict: bool = False) -> Sheet:
    """Replay ``game`` under ``convention`` and return the sheet.

    The record is never changed. Deals the rules would refuse in their place (below the
    exit level after all-passes, or after the game finished: the place checks of
    :mod:`prefcalc.rules.legality`) are scored anyway and listed in ``Sheet.problems``;
    with ``strict=True`` the first one raises :class:`DealError`.
    """
    with gc_paused():
        return _replay(game, convention, strict)


def _replay(game: Game, convention: Convention, strict: bool) -> Sheet:
    conv = convention
    seats = game.players
    st = _State(seating(game), conv, game.target, seats)
    seat = st.seat
    size = len(seats)
    scored: list[Scored] = []
    unpriced: list[Problem] = []
    first_closed: str | None = None
    target = game.target
    circles = conv.bombs_opening
    circle_size = len(seats)
    opening_left = len(circles) * circle_size  # opening deals still to come (docs/rules.md §8.1)
    streak = 0
    finished = False
    for number, entry in enumerate(game.entries, 1):
        deal = entry.deal
        dealer = entry.dealer
        st.writes = []
        min_level = conv.exit_level(streak)
        price: Amount | None = None
        if size < 4 or dealer is None:  # who sits out: nobody; the dealer; him and the next
            out: tuple[int, ...] = ()
        elif size == 4:
            out = (seat[dealer],)
        else:
            out = tuple(seat[p] for p in sitting_out(seats, dealer))
        opening = 0  # this deal's opening factor 2^k (0: not an opening deal)
        if opening_left and dealer is not None:
            done = len(circles) * circle_size - opening_left
            circle = done // circle_size
            opening = 2 ** circles[circle]
            opening_left -= 1
            if not isinstance(deal, AllPass):
                st.unpriced.append(
                    f"circle {circle + 1} of the opening (bombs.opening) is played in all-pass "
                    "deals only"
                )
                opening = 0
        if opening and isinstance(deal, AllPass):
            if deal.blind:
                st.unpriced.append("no blind pass in the opening circles (bombs.opening)")
            _score_opening(st, deal, circle + 1, opening, dealer)
        elif isinstance(deal, Contract):
            _score_contract(st, conv, deal, out)
            if _ends_streak(conv, deal):
                streak = 0
        elif isinstance(deal, AllPass):
            streak += 1
            price = conv.passes_price(streak)
            _score_all_pass(st, conv, deal, out, price, dealer)
            if deal.blind:
                _blind_bombs(st, conv, deal)
        elif isinstance(deal, Misere):
            _score_misere(st, conv, deal, out)
            if conv.passes_misere_ends:
                streak = 0
        elif isinstance(deal, Adjustment):
            _score_adjustment(st, deal)
        elif isinstance(deal, Preference):
            _score_preference(st, conv, deal)
        elif isinstance(deal, Join):
            _score_join(st, deal)
            seats = joined(seats, deal)
            size = len(seats)
        elif isinstance(deal, SetTerm):
            if deal.key == "target":
                st.target = int(deal.value)  # the deals after it play to the new target
        else:
            assert_never(deal)
        if st.unpriced:
            unpriced.extend(Problem(number, why) for why in st.unpriced)
            st.unpriced = []
        if first_closed is None and max(st.pool) >= target:
            first_closed = _first_to_close(st)
        finished = _finished(st, conv)
        if st.factor != 1 or st.events:
            scored.append(
                Scored(
                    number,
                    entry,
                    tuple(st.writes),
                    streak,
                    price,
                    min_level,
                    finished,
                    st.factor,
                    tuple(st.events),
                )
            )
            st.factor = 1
            st.events = []
        else:
            scored.append(
                Scored(number, entry, tuple(st.writes), streak, price, min_level, finished)
            )
    problems = out_of_place(scored)
    if strict and problems:
        raise DealError(problems[0].message, f"deal {problems[0].number}")
    names = st.names
    next_dealer = game.next_dealer if len(names) != len(game.players) else _next_dealer(game)
    return Sheet(
        players=names,
        convention=conv,
        target=st.target,
        scored=tuple(scored),
        pool=dict(zip(names, st.pool, strict=True)),
        mountain=dict(zip(names, st.mountain, strict=True)),
        whists={
            a: {b: st.whists[i][j] for j, b in enumerate(names) if j != i}
            for i, a in enumerate(names)
        },
        streak=streak,
        next_dealer=next_dealer,
        finished=finished,
        min_level=conv.exit_level(streak),
        problems=tuple(problems),
        sitting_out=sitting_out(seats, next_dealer),
        unpriced=tuple(unpriced),
        bombs=MappingProxyType(
            {name: tuple(st.bombs[i]) for i, name in enumerate(names) if st.bombs[i]}
        ),
        opening=_opening_next(circles, circle_size, opening_left),
        first_closed=first_closed,
    )


def _first_to_close(st: _State) -> str | None:
    """Who of this deal's pool writes first reached the target (``None``: nobody yet)."""
    target = st.target
    if all(p < target for p in st.pool):
        return None
    pools = list(st.pool)
    for w in st.writes:  # back to the pools before the deal
        if w.column == POOL:
            pools[st.seat[w.player]] -= w.amount
    for q, p in enumerate(pools):
        if p >= target and st.present[q]:
            return st.names[q]  # already there before the deal (a join's average)
    for w in st.writes:
        if w.column == POOL:
            q = st.seat[w.player]
            pools[q] += w.amount
            if pools[q] >= target:
                return w.player
    return None


def _opening_next(circles: tuple[int, ...], size: int, left: int) -> tuple[int, int, int] | None:
    """The next deal's opening circle ``(circle, circles, 2^k)``, or ``None``."""
    if not left:
        return None
    circle = (len(circles) * size - left) // size
    return circle + 1, len(circles), 2 ** circles[circle]
