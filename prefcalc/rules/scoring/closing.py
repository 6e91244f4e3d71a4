"""Closing the pool (docs/rules.md §4.5, §8.8): the pool write with the cap and the help rule,
points nobody can take, ``mountain_first``, the end of the game and the first to close.
"""

from prefcalc.i18n import N_
from prefcalc.rules.amounts import Amount, norm
from prefcalc.rules.conventions import Convention
from prefcalc.rules.scoring.sheet import POOL, Joined, Reason, told
from prefcalc.rules.scoring.state import Tally

TricksOf = tuple[tuple[str, int], ...]
"""An all-pass deal's tricks: ``(player, tricks)`` pairs."""


def to_pool(
    t: Tally,
    i: int,
    amount: Amount,
    why: Reason,
    excluded: tuple[int, ...] = (),
    helps: bool = True,
) -> None:
    """Write ``amount`` pool points into seat ``i``'s pool for ``why``; past the target
    (``closing = each``) the help rule gives the rest to other pools, never to the
    ``excluded`` seats (``helps=False``: the rest is written off at once)."""
    if not t.closing_each:
        t.to_pool_raw(i, told("{why}: {amount}", amount, why=why))
        return
    room = t.target - t.pool[i]
    take = amount if amount <= room else max(room, 0)
    rest = norm(amount - take)
    plan = _help_plan(t, i, rest, excluded) if rest > 0 and helps and t.help != "none" else []
    if not plan:
        if take:
            t.to_pool_raw(i, told("{why}: {amount}", take, why=why))
        if rest > 0:
            _write_off(t, i, rest, why)
        return
    # The help rule (docs/rules.md §4.5): every write tells the whole story of the points.
    helper = t.players[i]
    given = [(t.players[q], give, give * t.help_whists) for q, give in plan]
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
        t.to_pool_raw(i, told("{story}", take, story=story))
    for (q, give), (name, _, whists) in zip(plan, given, strict=True):
        t.to_pool_raw(
            q,
            told(
                N_("help from {player}: {amount} of the {earned} for {why}"),
                give,
                player=helper,
                earned=amount,
                why=why,
            ),
        )
        t.to_whists(
            i,
            q,
            told(
                N_("help to {player}: {points:point} × {factor} = {whists} ({story})"),
                whists,
                player=name,
                points=give,
                factor=t.help_whists,
                whists=whists,
                story=head,
            ),
        )
    if rest > 0:
        _write_off(t, i, rest, why)


def _help_plan(
    t: Tally, i: int, rest: Amount, excluded: tuple[int, ...]
) -> list[tuple[int, Amount]]:
    """Who the points past the target help, and how many each (``help = most``: the
    fullest pool first; ``hole``: the emptiest), never the ``excluded`` seats."""
    n = len(t.players)
    order = [(i + k) % n for k in range(1, n)]
    candidates = [q for q in order if q not in excluded and t.pool[q] < t.target]
    plan: list[tuple[int, Amount]] = []
    while rest > 0 and candidates:
        if t.help == "most":
            best = max(candidates, key=lambda q: (t.pool[q], -t.mountain[q], -order.index(q)))
        else:  # "hole": the biggest hole is the smallest pool
            best = min(candidates, key=lambda q: (t.pool[q], t.mountain[q], order.index(q)))
        candidates.remove(best)
        give = min(rest, t.target - t.pool[best])
        plan.append((best, give))
        rest = norm(rest - give)
    return plan


def off_own_mountain(t: Tally, i: int, points: Amount, template: str, why: Reason) -> Amount:
    """Write up to ``points`` off seat ``i``'s own mountain (never below 0), the write told
    by ``template`` (``{why}``, ``{points}``); return the points left over."""
    off = min(points, t.mountain[i]) if t.mountain[i] > 0 else 0
    if off:
        t.to_mountain(i, told(template, -off, why=why, points=off))
    return norm(points - off)


def _write_off(t: Tally, i: int, rest: Amount, why: Reason) -> None:
    """Points nobody can take: off the player's own mountain, the rest onto every other."""
    remaining = off_own_mountain(
        t, i, rest, N_("{why}: {points:point} nobody can take written off the own mountain"), why
    )
    if remaining > 0:
        name = t.players[i]
        for q in range(len(t.players)):
            if q != i:
                t.to_mountain(
                    q,
                    told(
                        N_("{player} could not use {points:point}: added to every other mountain"),
                        remaining,
                        player=name,
                        points=remaining,
                    ),
                )


def made(
    t: Tally, conv: Convention, i: int, points: Amount, why: Reason, excluded: tuple[int, ...]
) -> None:
    """The points of a made game or misère: into the pool (with the help rule), or with
    ``mountain_first`` first off the declarer's own mountain."""
    if not conv.mountain_first:
        to_pool(t, i, points, why, excluded)
        return
    rest = off_own_mountain(
        t, i, points, N_("{why}: {points:point} written off the own mountain first"), why
    )
    if rest:
        to_pool(t, i, rest, why, excluded)


def pool_closed(t: Tally) -> bool:
    """Whether a player's pool has reached the target (``liability_after_close``: the
    shortfall is written before any pool write of its deal, so this is the state the deal
    started with, docs/rules.md §8.8)."""
    target = t.target
    return any(p >= target for p in t.pool)


def finished(t: Tally, conv: Convention) -> bool:
    """Whether the game is over: every pool at the target (``closing = each``), or the
    pools together at the target times the players (``total``); never by the pools under
    ``average`` (played by time: the game ends when the table stops)."""
    closing = conv.closing
    if closing == "each":
        return min(t.pool) >= t.target
    if closing == "average":
        return False
    return sum(t.pool) >= t.target * len(t.pool)


def from_left(t: Tally, tricks: TricksOf) -> TricksOf:
    """An all-pass deal's tricks in seating order from the dealer's left (the dealer last
    at three players), whatever order they were typed in: the order of its pool writes, so
    "the first to close" never depends on the typing (docs/rules.md §8.8)."""
    if t.dealer is None:
        return tricks
    n = len(t.players)
    seat = t.seat
    start = seat[t.dealer] + 1
    return tuple(sorted(tricks, key=lambda item: (seat[item[0]] - start) % n))


def first_to_close(t: Tally) -> str | None:
    """Who of this entry's pool writes first reached the target in force (``None``: nobody
    yet); a pool already there before the entry (a join's average, a lowered target) first,
    in seating order."""
    target = t.target
    if all(p < target for p in t.pool):
        return None
    pools = list(t.pool)
    for w in t.writes:  # back to the pools before the deal
        if w.column == POOL:
            pools[t.seat[w.player]] -= w.amount
    for q, p in enumerate(pools):
        if p >= target:
            return t.players[q]
    for w in t.writes:
        if w.column == POOL:
            q = t.seat[w.player]
            pools[q] += w.amount
            if pools[q] >= target:
                return w.player
    return None
