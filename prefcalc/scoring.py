"""The scoring engine: ``score(game, convention) -> Sheet``.

A pure function of the record and the convention (RULES.md sections 2-4): one small
function per kind of deal, the pool cap with the help rule, closing, and the all-pass
streak with its prices and exit levels. Every write to the sheet is a :class:`Write`
carrying its reason, so ``explain`` and the exports can show why a number is what it is.

Amounts are ``int`` where they are whole and ``Fraction`` where a division (a half of a
gentleman's split, a semi-responsible shortfall) makes them fractional; nothing is rounded.
"""

import string
from fractions import Fraction
from typing import Any, NamedTuple

from prefcalc.amounts import Amount, fmt, norm
from prefcalc.conventions import Convention
from prefcalc.errors import DealError
from prefcalc.model import Adjustment, AllPass, Contract, Entry, Game, Misere
from prefcalc.perf import gc_paused

POOL = "pool"
MOUNTAIN = "mountain"
WHISTS = "whists"

NORMS = {6: 4, 7: 2, 8: 1, 9: 1}
QUOTAS = {6: 2, 7: 1, 8: 1, 9: 1}


class _ReasonFormatter(string.Formatter):
    """Formats reason templates: amounts exactly (``16⅔``), ``{0:trick}`` as ``1 trick``/``2 tricks``."""

    def format_field(self, value: Any, format_spec: str) -> str:
        text = (
            fmt(value)
            if isinstance(value, int | Fraction) and not isinstance(value, bool)
            else str(value)
        )
        if format_spec.isalpha():
            return f"{text} {format_spec}{'' if value == 1 else 's'}"
        return text


_REASONS = _ReasonFormatter()


class Write(NamedTuple):
    """One write on the sheet: ``amount`` into ``player``'s ``column`` (on ``on`` for whists).

    The reason is kept as a template and its arguments and formatted only when asked for,
    so that scoring a long record stays fast (an immutable named tuple: cheap to create).
    """

    player: str
    column: str
    amount: Amount
    on: str | None
    template: str
    args: tuple[Any, ...]

    @property
    def reason(self) -> str:
        return _REASONS.format(self.template, *self.args)

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


class Problem(NamedTuple):
    """A deal the rules would refuse in its place (the CLI refuses to record it)."""

    number: int
    message: str

    def __str__(self) -> str:
        return f"deal {self.number}: {self.message}"


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

    @property
    def passes_price(self) -> Amount:
        """The per-trick price of the next all-pass deal."""
        return self.convention.passes_price(self.streak + 1)

    def left_to_close(self, player: str) -> Amount:
        return max(0, self.target - self.pool[player])


class _State:
    """The running sheet while replaying (lists indexed by seat, for speed)."""

    __slots__ = (
        "closing_each",
        "help",
        "help_whists",
        "mountain",
        "names",
        "pool",
        "seat",
        "target",
        "whists",
        "writes",
    )

    def __init__(self, players: tuple[str, ...], convention: Convention, target: int) -> None:
        n = len(players)
        self.names = players
        self.seat = {name: i for i, name in enumerate(players)}
        self.pool: list[Amount] = [0] * n
        self.mountain: list[Amount] = [0] * n
        self.whists: list[list[Amount]] = [[0] * n for _ in range(n)]
        self.target = target
        self.closing_each = convention.closing == "each"
        self.help = convention.help
        self.help_whists = convention.help_whists
        self.writes: list[Write] = []

    # -- raw writes ------------------------------------------------------------------
    def to_mountain(self, i: int, amount: Amount, template: str, *args: Any) -> None:
        if amount:
            total = self.mountain[i] + amount
            self.mountain[i] = total if total.__class__ is int else norm(total)
            self.writes.append(Write(self.names[i], MOUNTAIN, amount, None, template, args))

    def to_whists(self, i: int, j: int, amount: Amount, template: str, *args: Any) -> None:
        if amount:
            row = self.whists[i]
            total = row[j] + amount
            row[j] = total if total.__class__ is int else norm(total)
            self.writes.append(Write(self.names[i], WHISTS, amount, self.names[j], template, args))

    def to_pool_raw(self, i: int, amount: Amount, template: str, *args: Any) -> None:
        if amount:
            total = self.pool[i] + amount
            self.pool[i] = total if total.__class__ is int else norm(total)
            self.writes.append(Write(self.names[i], POOL, amount, None, template, args))

    # -- pool writes with the cap and the help rule ----------------------------------------
    def to_pool(
        self,
        i: int,
        amount: Amount,
        why: str,
        excluded: tuple[int, ...] = (),
        helps: bool = True,
    ) -> None:
        """Write ``amount`` pool points for ``why``; past the target the help rule applies."""
        if not self.closing_each:
            self.to_pool_raw(i, amount, "{0}: {1}", why, amount)
            return
        room = self.target - self.pool[i]
        take = amount if amount <= room else max(room, 0)
        if take:
            self.to_pool_raw(i, take, "{0}: {1}", why, take)
        rest = norm(amount - take)
        if rest <= 0:
            return
        if helps and self.help != "none":
            rest = self._help(i, rest, excluded)
        if rest > 0:
            self._write_off(i, rest, why)

    def _help(self, i: int, rest: Amount, excluded: tuple[int, ...]) -> Amount:
        n = len(self.names)
        order = [(i + k) % n for k in range(1, n)]
        candidates = [q for q in order if q not in excluded and self.pool[q] < self.target]
        helper = self.names[i]
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
            name = self.names[best]
            self.to_pool_raw(best, give, "help from {0}: {1}", helper, give)
            self.to_whists(
                i,
                best,
                give * self.help_whists,
                "help to {0}: {1:point} × {2} = {3}",
                name,
                give,
                self.help_whists,
                give * self.help_whists,
            )
            rest = norm(rest - give)
        return rest

    def _write_off(self, i: int, rest: Amount, why: str) -> None:
        off = min(rest, self.mountain[i]) if self.mountain[i] > 0 else 0
        if off:
            self.to_mountain(
                i, -off, "{0}: {1:point} nobody can take written off the own mountain", why, off
            )
        remaining = norm(rest - off)
        if remaining > 0:
            name = self.names[i]
            for q in range(len(self.names)):
                if q != i:
                    self.to_mountain(
                        q,
                        remaining,
                        "{0} could not use {1:point}: added to every other mountain",
                        name,
                        remaining,
                    )


def _price(conv: Convention, level: int) -> int:
    return conv.game_prices[level - 6]


def _norm_of(conv: Convention, level: int) -> int:
    return NORMS.get(level, conv.ten_norm)


def _quota(conv: Convention, level: int) -> int:
    return QUOTAS.get(level, conv.ten_norm)


def _consolation(conv: Convention, w: Amount) -> Amount:
    return conv.consolation if isinstance(conv.consolation, int) else w


def _score_contract(
    st: _State, conv: Convention, deal: Contract, dealer: str | None, four: bool
) -> None:
    seat = st.seat
    d_i = seat[deal.declarer]
    level = deal.level
    p = _price(conv, level)
    w = p * conv.whist_factor
    label = deal.label
    whisters = [d for d in deal.defenders if d.role == "w"]
    sitting_out = (seat[dealer],) if four and dealer is not None else ()
    if deal.tricks is None:
        half = next((d for d in deal.defenders if d.role == "h"), None)
        if half is not None:
            tricks = _norm_of(conv, level) // 2
            st.to_whists(
                seat[half.player],
                d_i,
                tricks * w,
                "half-whist on {0}: {1:trick} × {2} = {3}",
                label,
                tricks,
                w,
                tricks * w,
            )
            why = f"{label} not played (half-whist), counts as made"
        else:
            why = f"{label} not played (both passed), counts as made"
        _made(st, conv, d_i, p, why, sitting_out)
        return
    t = deal.tricks
    under = level - t if t < level else 0
    defence = 10 - t
    c = _consolation(conv, w)
    failed = _shortfall(st, conv, deal, whisters, defence, w)
    excluded = tuple(seat[x] for x in failed) + sitting_out
    if under:
        m = under * p * conv.remise_factor
        if conv.remise_factor == 1:
            st.to_mountain(d_i, m, "remise on {0}: {1:undertrick} × {2} = {3}", label, under, p, m)
        else:
            st.to_mountain(
                d_i,
                m,
                "remise on {0}: {1:undertrick} × {2} × {3} = {4}",
                label,
                under,
                p,
                conv.remise_factor,
                m,
            )
    else:
        _made(st, conv, d_i, p, f"{label} made", excluded)
    cons = under * c
    if len(whisters) == 2:
        for x in whisters:
            n = x.tricks or 0
            i = seat[x.player]
            st.to_whists(i, d_i, n * w, "whists on {0}: {1:trick} × {2} = {3}", label, n, w, n * w)
            st.to_whists(i, d_i, cons, "consolation: {0:undertrick} × {1} = {2}", under, c, cons)
    else:
        a = whisters[0]
        b = next(x for x in deal.defenders if x.role != "w")
        a_i, b_i = seat[a.player], seat[b.player]
        if not under:
            st.to_whists(
                a_i,
                d_i,
                defence * w,
                "whists on {0}: {1:trick} × {2} = {3}",
                label,
                defence,
                w,
                defence * w,
            )
        elif conv.lone_whister == "greedy":
            st.to_whists(
                a_i,
                d_i,
                defence * w,
                "whists on {0}: {1:trick} × {2} = {3}",
                label,
                defence,
                w,
                defence * w,
            )
            st.to_whists(a_i, d_i, cons, "consolation: {0:undertrick} × {1} = {2}", under, c, cons)
            st.to_whists(
                b_i, d_i, cons, "consolation (passed): {0:undertrick} × {1} = {2}", under, c, cons
            )
        else:
            total = defence * w + 2 * cons
            half_total = norm(Fraction(total, 2))
            template = "gentleman's whist: ({0:trick} × {1} + 2 × {2:undertrick} × {3}) / 2 = {4}"
            st.to_whists(a_i, d_i, half_total, template, defence, w, under, c, half_total)
            st.to_whists(b_i, d_i, half_total, template, defence, w, under, c, half_total)
    if under and four and dealer is not None and conv.dealer_consolation:
        st.to_whists(
            seat[dealer],
            d_i,
            cons,
            "dealer's consolation: {0:undertrick} × {1} = {2}",
            under,
            c,
            cons,
        )


def _shortfall(
    st: _State, conv: Convention, deal: Contract, whisters: list[Any], defence: int, w: int
) -> list[str]:
    """Write the whisters' shortfall penalties; return who failed his norm."""
    level = deal.level
    per_trick = norm(w * conv.liability)
    owed: list[tuple[str, int]] = []
    if len(whisters) == 1:
        need = _norm_of(conv, level)
        if defence < need:
            owed.append((whisters[0].player, need - defence))
    elif conv.two_whisters == "each":
        quota = _quota(conv, level)
        owed = [(x.player, quota - (x.tricks or 0)) for x in whisters if (x.tricks or 0) < quota]
    elif defence < _norm_of(conv, level):
        if level == 6:
            owed = [(x.player, 2 - (x.tricks or 0)) for x in whisters if (x.tricks or 0) < 2]
        elif level == 7:
            owed = [(x.player, 1) for x in whisters if (x.tricks or 0) < 1]
        elif conv.two_whisters == "both":
            owed = [(x.player, 1) for x in whisters]
        else:
            owed = [(whisters[1].player, _norm_of(conv, level) - defence)]
    for player, missing in owed:
        amount = norm(missing * per_trick)
        st.to_mountain(
            st.seat[player],
            amount,
            "whister's shortfall on {0}: {1} missing × {2} = {3}",
            deal.label,
            missing,
            per_trick,
            amount,
        )
    return [player for player, _ in owed]


def _made(
    st: _State, conv: Convention, i: int, points: Amount, why: str, excluded: tuple[int, ...]
) -> None:
    """The points of a made game or misère: into the pool (with the help rule), or with
    ``mountain_first`` first off the declarer's own mountain."""
    if not conv.mountain_first:
        st.to_pool(i, points, why, excluded)
        return
    off = min(points, st.mountain[i]) if st.mountain[i] > 0 else 0
    if off:
        st.to_mountain(i, -off, "{0}: {1:point} written off the own mountain first", why, off)
    rest = norm(points - off)
    if rest:
        st.to_pool(i, rest, why, excluded)


def _score_misere(
    st: _State, conv: Convention, deal: Misere, dealer: str | None, four: bool
) -> None:
    i = st.seat[deal.declarer]
    if deal.tricks == 0:
        excluded = (st.seat[dealer],) if four and dealer is not None else ()
        _made(st, conv, i, conv.misere_price, "misère made", excluded)
        return
    per = conv.misere_penalty * conv.remise_factor
    st.to_mountain(
        i,
        deal.tricks * per,
        "misère failed: {0:trick} × {1} = {2}",
        deal.tricks,
        per,
        deal.tricks * per,
    )


def _score_all_pass(
    st: _State, conv: Convention, deal: AllPass, dealer: str | None, four: bool, price: Amount
) -> None:
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
                        "all-pass: ({0} − {1}) tricks × {2} = {3}",
                        n,
                        shift,
                        price,
                        amount,
                    )
                else:
                    st.to_mountain(
                        seat[name], amount, "all-pass: {0:trick} × {1} = {2}", n, price, amount
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
                            "all-pass: ({0} − {1}) tricks × {2} = {3}",
                            n,
                            low,
                            per,
                            amount,
                        )
                    else:
                        st.to_whists(
                            seat[writer],
                            seat[name],
                            amount,
                            "all-pass: ({0} − {1}) tricks × {2} / {3} tied = {4}",
                            n,
                            low,
                            per,
                            share,
                            amount,
                        )
    zero = conv.passes_zero_bonus
    bonus = zero if isinstance(zero, int) else price
    for name, n in tricks:
        if n == 0 and bonus:
            st.to_pool(seat[name], bonus, "all-pass: no tricks", helps=False)
    if four and dealer is not None and conv.passes_dealer_bonus:
        st.to_pool(seat[dealer], conv.passes_dealer_bonus, "all-pass: dealer's bonus", helps=False)


def _score_adjustment(st: _State, deal: Adjustment) -> None:
    i = st.seat[deal.player]
    note = deal.note
    if deal.pool:
        st.to_pool_raw(i, deal.pool, "adjustment of {1}: {0}", note, deal.pool)
    if deal.mountain:
        st.to_mountain(i, deal.mountain, "adjustment of {1}: {0}", note, deal.mountain)
    for other, amount in deal.whists:
        st.to_whists(i, st.seat[other], amount, "adjustment of {1}: {0}", note, amount)


def _finished(st: _State, conv: Convention) -> bool:
    if conv.closing == "each":
        return min(st.pool) >= st.target
    return sum(st.pool) >= st.target * len(st.pool)


def _ends_streak(conv: Convention, deal: Contract) -> bool:
    if conv.passes_ends_streak == "any":
        return True
    return deal.tricks is not None and any(d.role == "w" for d in deal.defenders)


def score(game: Game, convention: Convention, strict: bool = False) -> Sheet:
    """Replay ``game`` under ``convention`` and return the sheet.

    The record is never changed. Deals the rules would refuse in their place (below the
    exit level after all-passes, or after the game finished) are scored anyway and listed
    in ``Sheet.problems``; with ``strict=True`` the first one raises :class:`DealError`.
    """
    with gc_paused():
        return _replay(game, convention, strict)


def _replay(game: Game, convention: Convention, strict: bool) -> Sheet:
    conv = convention
    st = _State(game.players, conv, game.target)
    four = len(game.players) == 4
    scored: list[Scored] = []
    problems: list[Problem] = []
    streak = 0
    finished = False
    for number, entry in enumerate(game.entries, 1):
        deal = entry.deal
        dealer = entry.dealer
        st.writes = []
        min_level = conv.exit_level(streak)
        price: Amount | None = None
        if isinstance(deal, Contract):
            if deal.level < min_level and not entry.forced:
                problems.append(
                    Problem(
                        number,
                        f"after {streak} all-pass deal{'s' if streak > 1 else ''} the lowest contract is {min_level}, not {deal.level} (record it as forced if the table agreed)",
                    )
                )
            _score_contract(st, conv, deal, dealer, four)
            if _ends_streak(conv, deal):
                streak = 0
        elif isinstance(deal, AllPass):
            streak += 1
            price = conv.passes_price(streak)
            _score_all_pass(st, conv, deal, dealer, four, price)
        elif isinstance(deal, Misere):
            _score_misere(st, conv, deal, dealer, four)
            if conv.passes_misere_ends:
                streak = 0
        else:
            _score_adjustment(st, deal)
        if finished and not entry.forced and not isinstance(deal, Adjustment):
            problems.append(
                Problem(number, "the game had already finished (record it as forced to go on)")
            )
        finished = _finished(st, conv)
        scored.append(Scored(number, entry, tuple(st.writes), streak, price, min_level, finished))
    if strict and problems:
        raise DealError(problems[0].message, f"deal {problems[0].number}")
    names = game.players
    return Sheet(
        players=names,
        convention=conv,
        target=game.target,
        scored=tuple(scored),
        pool=dict(zip(names, st.pool, strict=True)),
        mountain=dict(zip(names, st.mountain, strict=True)),
        whists={
            a: {b: st.whists[i][j] for j, b in enumerate(names) if j != i}
            for i, a in enumerate(names)
        },
        streak=streak,
        next_dealer=game.next_dealer,
        finished=finished,
        min_level=conv.exit_level(streak),
        problems=tuple(problems),
    )
