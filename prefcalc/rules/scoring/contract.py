"""A trick contract (docs/rules.md §4.1-§4.2, §8.3-§8.4), in the parts a player thinks in:
not played (both passed, or half-whist: it counts as made), the declarer (made → pool,
remise → mountain), the defence (whists for tricks, consolation, the lone whister greedy or
gentleman, the whisters' shortfall), the sitting-out dealer's consolation, his return of the
whist and his talon bonus. They use the letters of docs/rules.md §4 (:class:`Terms`)::

    L   the contract's level (6-10)
    t   the declarer's tricks
    P   the game price of level L (game_prices: pool points 2, 4, 6, 8, 10 in the presets)
    W   = P × whist_factor: whists per defence trick
    C   consolation per undertrick per consoled player: W, or a flat number (Rostov: 10)
    u   = max(0, L − t): undertricks (u = 0: made, u > 0: remise)
    d   = 10 − t: the defence's tricks
    F   the deal factor (docs/rules.md §8.1): the declarer's bomb × 2 if dark
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, NamedTuple

from prefcalc.i18n import N_
from prefcalc.rules.amounts import Amount, norm
from prefcalc.rules.conventions import Convention
from prefcalc.rules.model import Contract, Defender
from prefcalc.rules.penalties import counted
from prefcalc.rules.scoring.classic import NO_FACTOR, bomb_after, deal_factor
from prefcalc.rules.scoring.closing import made, pool_closed
from prefcalc.rules.scoring.sheet import Label, Reason, product, told
from prefcalc.rules.scoring.state import Tally

if TYPE_CHECKING:  # the options' models (pydantic) are imported only to validate a file
    from prefcalc.rules.options import LoneWhister

NORMS = {6: 4, 7: 2, 8: 1, 9: 1}
"""The defence's norm of tricks by level (10: ``ten_norm``)."""
QUOTAS = {6: 2, 7: 1, 8: 1, 9: 1}
"""Each whister's quota by level under ``two_whisters = each`` (10: ``ten_norm``)."""


class Terms(NamedTuple):
    """The numbers of one contract, named after the legend (module docstring): every write
    of the contract is made from them."""

    label: Label  # the contract, e.g. ``7♥``
    declarer: int  # the declarer's seat
    level: int  # L
    p: int  # P
    w: int  # W = P × whist_factor
    c: Amount  # C
    u: int  # u = max(0, L − t)
    d: int  # d = 10 − t
    f: int = 1  # F
    fx: Reason | str = ""  # F in a reason: `` × 16 (triple bomb, dark)``, ``""`` when F = 1


_new = tuple.__new__  # a named tuple made without its keyword-reading __new__ (hot path)
_LABELS: dict[tuple[int, str], Label] = {}
"""The label of each contract (``7♥``), made once: an immutable value every write may share."""


def terms(
    t: Tally, conv: Convention, deal: Contract, tricks: int, f: int, fx: Reason | str
) -> Terms:
    """The terms of ``deal`` with the declarer's ``tricks`` (its level when not played)."""
    level = deal.level
    p = conv.game_prices[level - 6]
    w = p * conv.whist_factor
    c = conv.consolation if isinstance(conv.consolation, int) else w
    u = level - tricks if tricks < level else 0
    label = _LABELS.get((level, deal.suit))
    if label is None:
        label = _LABELS[level, deal.suit] = Label(level, deal.suit, deal.label)
    return _new(Terms, (label, t.seat[deal.declarer], level, p, w, c, u, 10 - tricks, f, fx))


def norm_of(conv: Convention, level: int) -> int:
    return NORMS.get(level, conv.ten_norm)


def lone_rule(conv: Convention, deal: Contract) -> LoneWhister:
    """How a lone whister writes (docs/rules.md §4.1.3): ``lone_whister`` (greedy or
    gentleman), except that he is greedy whatever it says when he answers for a whist he
    took back: the returner after a half-whist (role ``r``, §8.4) and the lone defender of two
    players (Gusarik, §8.7). The one place this is decided."""
    if len(deal.defenders) == 1:
        return "greedy"
    for x in deal.defenders:
        if x.role == "r":
            return "greedy"
    return conv.lone_whister


def ends_streak(conv: Convention, deal: Contract) -> bool:
    """Whether a contract ends the all-pass streak (``passes.ends_streak``): any contract,
    only a whisted and played one, or only a whisted one that was made (``whisted_made``:
    neither a game both defenders passed nor a remise). A dealer's return and role ``r``
    make the game whisted (the returner or the ``r`` player is its whister, docs/rules.md
    §8.8)."""
    rule = conv.passes_ends_streak
    if rule == "any":
        return True
    tricks = deal.tricks
    whisted = tricks is not None and (
        deal.returned_by is not None or any(d.role in ("w", "r") for d in deal.defenders)
    )
    if rule == "whisted":
        return whisted
    return whisted and tricks is not None and tricks >= deal.level


def score_contract(t: Tally, conv: Convention, deal: Contract) -> None:
    """A trick contract. The writes come in this order: the whisters' shortfall, the
    declarer, the defence's whists, the sitting-out dealer's consolation, the talon bonus
    (``explain`` and the exports show them so). ``t.away`` are the seats that sit the deal
    out, the dealer first; only the dealer writes his consolation, and help never goes to
    any of them. A trick lost for looking at an old trick (``looked``) is taken off first:
    the deal is scored with the tricks the sheet counts (docs/rules.md §8.10)."""
    if deal.looked:
        deal = counted(deal)
    away = t.away
    f, fx, use = (
        deal_factor(t, conv, deal) if deal.dark or deal.bomb is not None or t.classic else NO_FACTOR
    )
    if deal.tricks is None:
        k = terms(t, conv, deal, deal.level, f, fx)
        not_played(t, conv, deal, k)
        bomb_after(t, deal.declarer, use, True)
    else:
        k = terms(t, conv, deal, deal.tricks, f, fx)
        bomb_after(t, deal.declarer, use, not k.u)
        if deal.returned_by is not None and away:
            dealer_return(t, conv, k)
        else:
            whisters = deal.whisters or tuple(x for x in deal.defenders if x.role == "r")
            failed = shortfall(t, conv, k, whisters)
            declarer(t, conv, k, failed + away)
            if len(whisters) == 2:
                two_whisters(t, k, whisters)
            else:
                lone = whisters[0].player
                others = [t.seat[x.player] for x in deal.defenders if x.player != lone]
                passer = others[0] if others else None
                lone_whister(t, k, t.seat[lone], passer, lone_rule(conv, deal))
            if away:
                dealer_consolation(t, conv, k, away[0])
    if deal.talon is not None:
        talon_bonus(t, conv, deal, k)
    if ends_streak(conv, deal):
        t.streak = 0


def not_played(t: Tally, conv: Convention, deal: Contract, k: Terms) -> None:
    """Not played (docs/rules.md §4.2): both defenders passed, or one passed and the other said
    half-whist. Either way the game counts as made (``P × F`` into the declarer's pool); the
    half-whister writes ``W`` per trick for half the norm (2 tricks on a 6, 1 on a 7)."""
    half = next((x for x in deal.defenders if x.role == "h"), None)
    alone = len(deal.defenders) == 1  # Gusarik: "h" leaves for his tricks, "p" passes
    if half is not None:
        t.to_whists(
            t.seat[half.player],
            k.declarer,
            product(
                N_("left for own tricks on {contract}: {n:trick} × {w}{fx} = {amount}")
                if alone
                else N_("half-whist on {contract}: {n:trick} × {w}{fx} = {amount}"),
                ("n", "w", "f"),
                contract=k.label,
                n=norm_of(conv, k.level) // 2,
                w=k.w,
                f=k.f,
                fx=k.fx,
            ),
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
    made(t, conv, k.declarer, k.p * k.f, Reason(why, {"contract": k.label, "fx": k.fx}), t.away)


def declarer(t: Tally, conv: Convention, k: Terms, excluded: tuple[int, ...]) -> None:
    """The declarer of a played contract (docs/rules.md §4.1.1): made (``u = 0``) → ``P × F``
    into the pool (help rule, ``mountain_first``), never to the ``excluded`` seats; remise →
    ``u × P × remise_factor × F`` into his mountain."""
    if not k.u:
        why = Reason(N_("{contract} made{fx}"), {"contract": k.label, "fx": k.fx})
        made(t, conv, k.declarer, k.p * k.f, why, excluded)
        return
    if conv.remise_factor == 1:
        remise = product(
            N_("remise on {contract}: {u:undertrick} × {p}{fx} = {amount}"),
            ("u", "p", "f"),
            contract=k.label,
            u=k.u,
            p=k.p,
            f=k.f,
            fx=k.fx,
        )
    else:
        remise = product(
            N_("remise on {contract}: {u:undertrick} × {p} × {factor}{fx} = {amount}"),
            ("u", "p", "factor", "f"),
            contract=k.label,
            u=k.u,
            p=k.p,
            factor=conv.remise_factor,
            f=k.f,
            fx=k.fx,
        )
    t.to_mountain(k.declarer, remise)


def whists_for_tricks(t: Tally, k: Terms, i: int, n: int) -> None:
    """Seat ``i`` writes ``n × W × F`` on the declarer for ``n`` defence tricks."""
    t.to_whists(
        i,
        k.declarer,
        product(
            N_("whists on {contract}: {n:trick} × {w}{fx} = {amount}"),
            ("n", "w", "f"),
            contract=k.label,
            n=n,
            w=k.w,
            f=k.f,
            fx=k.fx,
        ),
    )


_CONSOLATION = N_("consolation: {u:undertrick} × {c}{fx} = {amount}")


def consolation(t: Tally, k: Terms, i: int, template: str = _CONSOLATION) -> None:
    """Seat ``i`` writes ``u × C × F`` consolation on the declarer."""
    t.to_whists(i, k.declarer, product(template, ("u", "c", "f"), u=k.u, c=k.c, f=k.f, fx=k.fx))


def two_whisters(t: Tally, k: Terms, whisters: tuple[Defender, ...]) -> None:
    """Two whisters (docs/rules.md §4.1.2): each writes his own tricks × ``W`` and, on a
    remise, ``u × C``."""
    for x in whisters:
        i = t.seat[x.player]
        whists_for_tricks(t, k, i, x.tricks or 0)
        if k.u:
            consolation(t, k, i)


def lone_whister(t: Tally, k: Terms, a: int, b: int | None, rule: LoneWhister) -> None:
    """One whister ``a`` answers for the whole defence (``d`` tricks); ``b`` passed (or
    half-whisted before ``a`` returned the whist; ``None``: Gusarik's dummy, who writes
    nothing). Made: ``a`` writes ``d × W``. Remise, greedy: ``a`` writes ``d × W`` and
    ``u × C``, ``b`` writes ``u × C``. Remise, gentleman: ``(d × W + 2 × u × C)`` in halves
    (docs/rules.md §4.1.3; ``rule`` is :func:`lone_rule`'s)."""
    if not k.u:
        whists_for_tricks(t, k, a, k.d)
    elif rule == "greedy" or b is None:
        whists_for_tricks(t, k, a, k.d)
        consolation(t, k, a)
        if b is not None:
            consolation(t, k, b, N_("consolation (passed): {u:undertrick} × {c}{fx} = {amount}"))
    else:
        half = norm(Fraction((k.d * k.w + 2 * k.u * k.c) * k.f, 2))
        template = N_(
            "gentleman's whist: ({d:trick} × {w} + 2 × {u:undertrick} × {c}){fx} / 2 = {amount}"
        )
        for seat in (a, b):
            t.to_whists(seat, k.declarer, told(template, half, d=k.d, w=k.w, u=k.u, c=k.c, fx=k.fx))


def dealer_consolation(t: Tally, conv: Convention, k: Terms, dealer: int) -> None:
    """4-5 players: on a remise the sitting-out dealer writes ``u × C`` consolation too
    (docs/rules.md §4.1.4, ``dealer_consolation``)."""
    if k.u and conv.dealer_consolation:
        consolation(t, k, dealer, N_("dealer's consolation: {u:undertrick} × {c}{fx} = {amount}"))


def shortfall(
    t: Tally, conv: Convention, k: Terms, whisters: tuple[Defender, ...]
) -> tuple[int, ...]:
    """The defence's shortfall (docs/rules.md §4.1.5): each whister who failed his norm writes
    ``W × liability × F`` per missing trick into his mountain. Returns the failed seats."""
    level = k.level
    owed: list[tuple[str, int]] = []
    if len(whisters) == 1:
        need = norm_of(conv, level)
        if k.d < need:
            owed.append((whisters[0].player, need - k.d))
    elif conv.two_whisters == "each":
        quota = QUOTAS.get(level, conv.ten_norm)
        owed = [(x.player, quota - (x.tricks or 0)) for x in whisters if (x.tricks or 0) < quota]
    elif k.d < norm_of(conv, level):
        if level == 6:
            owed = [(x.player, 2 - (x.tricks or 0)) for x in whisters if (x.tricks or 0) < 2]
        elif level == 7:
            owed = [(x.player, 1) for x in whisters if (x.tricks or 0) < 1]
        elif conv.two_whisters == "both":
            owed = [(x.player, 1) for x in whisters]
        else:
            owed = [(whisters[1].player, norm_of(conv, level) - k.d)]
    if not owed:
        return ()  # the defence made its norm (most deals): nothing to price
    liability = conv.liability
    note: Reason | str = ""
    after = conv.liability_after_close
    if after != "none" and conv.closing != "average" and pool_closed(t):
        liability = after
        note = Reason(N_(" (liability {liability} after a pool closed)"), {"liability": after})
    base = norm(k.w * liability)
    per_trick = base if k.f == 1 else norm(base * k.f)
    # the liability is told as a factor of its own when it is not 1 (``× 4 × ½``): the
    # reason shows every term its amount is made of
    template = (
        N_("whister's shortfall on {contract}: {missing} missing × {w}{fx} = {amount}{note}")
        if liability == 1
        else N_(
            "whister's shortfall on {contract}: "
            "{missing} missing × {w} × {liability}{fx} = {amount}{note}"
        )
    )
    for player, missing in owed:
        t.to_mountain(
            t.seat[player],
            product(
                template,
                ("missing", "per_trick"),
                contract=k.label,
                missing=missing,
                per_trick=per_trick,
                w=k.w,
                liability=liability,
                fx=k.fx,
                note=note,
            ),
        )
    return tuple(t.seat[player] for player, _ in owed)


def dealer_return(t: Tally, conv: Convention, k: Terms) -> None:
    """Both defenders declined (both passed, or pass – half-whist – pass) and the
    sitting-out dealer returned the whist (docs/rules.md §8.4): he is the only whister:
    ``d × W``, answering for the norm at ``dealer_return_liability`` (1 by default: fully
    responsible, also after a pool closed; 0: not liable) and on a remise writes the
    consolation of both defenders (``2 × u × C``); the defenders write nothing, and there
    is no dealer's consolation."""
    dealer = t.away[0]
    need = norm_of(conv, k.level)
    failed: tuple[int, ...] = ()
    liability = conv.dealer_return_liability  # 1 by default; the FSPR dealer: 0
    if k.d < need and liability:
        template = N_(
            "dealer's return, whister's shortfall on {contract}: "
            "{missing} missing × {w}{fx} = {amount}"
        )
        if liability == 1:
            term = product(
                template,
                ("missing", "w", "f"),
                contract=k.label,
                missing=need - k.d,
                w=k.w,
                f=k.f,
                fx=k.fx,
            )
        else:
            base = norm(k.w * liability)
            term = product(
                N_(
                    "dealer's return, whister's shortfall on {contract}: "
                    "{missing} missing × {w} × {liability}{fx} = {amount}"
                ),
                ("missing", "per_trick"),
                contract=k.label,
                missing=need - k.d,
                per_trick=base if k.f == 1 else norm(base * k.f),
                w=k.w,
                liability=liability,
                fx=k.fx,
            )
        t.to_mountain(dealer, term)
        failed = (dealer,)
    declarer(t, conv, k, failed + t.away)
    whists_for_tricks(t, k, dealer, k.d)
    if k.u:
        t.to_whists(
            dealer,
            k.declarer,
            product(
                N_(
                    "consolation of both defenders (dealer's return): "
                    "2 × {u:undertrick} × {c}{fx} = {amount}"
                ),
                ("both", "u", "c", "f"),
                both=2,
                u=k.u,
                c=k.c,
                f=k.f,
                fx=k.fx,
            ),
        )


def talon_bonus(t: Tally, conv: Convention, deal: Contract, k: Terms) -> None:
    """The 4-player dealer's talon bonus (docs/rules.md §8.3): the sitting-out dealer writes
    ``N × W × F`` whists on the declarer for the N tricks the talon gave him, made or not
    (under ``talon_bonus`` only); at three players, under ``talon_bonus_three``, each of the
    declarer's two opponents writes half of it (:func:`talon_halves`)."""
    n = deal.talon or 0
    if not conv.talon_bonus or not n:
        return
    if not t.away:
        if len(t.players) == 3 and conv.talon_bonus_three:
            talon_halves(t, deal, k, n)
        return
    t.to_whists(
        t.away[0],
        k.declarer,
        product(
            N_("talon bonus on {contract}: {n:trick} × {w}{fx} = {amount}"),
            ("n", "w", "f"),
            contract=k.label,
            n=n,
            w=k.w,
            f=k.f,
            fx=k.fx,
        ),
    )


def talon_halves(t: Tally, deal: Contract, k: Terms, n: int) -> None:
    """The talon bonus at three players (``talon_bonus_three``, docs/rules.md §8.3): each of
    the declarer's two opponents writes ``N × W × F / 2`` on him, whoever dealt."""
    half = norm(Fraction(n * k.w * k.f, 2))
    template = N_("talon bonus on {contract}: {n:trick} × {w}{fx} / 2 = {amount}")
    for x in deal.defenders:
        t.to_whists(
            t.seat[x.player],
            k.declarer,
            told(template, half, contract=k.label, n=n, w=k.w, fx=k.fx),
        )
