"""Classic's bombs and dark games (docs/rules.md §8.1): the deal factor ``F = bomb × (2 if
dark)``, the bombs a made game uses up, the opening circles and the blind passes that earn
them.

What the convention cannot price (a dark game without ``dark_games``, a bomb the declarer
does not hold) is scored without it; the replay lists it
(:data:`prefcalc.rules.legality.PRICE_CHECKS`).
"""

from prefcalc.i18n import N_
from prefcalc.rules.conventions import Convention
from prefcalc.rules.model import AllPass, Contract, Misere
from prefcalc.rules.scoring.closing import from_left, to_pool
from prefcalc.rules.scoring.sheet import Reason, product
from prefcalc.rules.scoring.state import Tally
from prefcalc.rules.wording import BOMB_WORDS, OTHER_BOMB

Factor = tuple[int, Reason | str, int | None]
"""A deal's factor F, F in its reasons (`` × 16 (triple bomb, dark)``, ``""`` when F = 1),
and the index of the declarer's bomb it uses (``None``: none)."""

NO_FACTOR: Factor = (1, "", None)


def factor_reason(f: int, bomb: int, dark: bool) -> Reason | str:
    """`` × 16 (triple bomb, dark)``; ``""`` when F = 1 (each one made once: an immutable
    value the writes of every deal with that factor share)."""
    if f == 1:
        return ""
    known = _FACTORS.get((f, bomb, dark))
    if known is None:
        known = _FACTORS[f, bomb, dark] = _factor_reason(f, bomb, dark)
    return known


_FACTORS: dict[tuple[int, int, bool], Reason] = {}


def _factor_reason(f: int, bomb: int, dark: bool) -> Reason:
    named = BOMB_WORDS.get(bomb)
    bomb_words = Reason(named, {}) if named else Reason(OTHER_BOMB, {"factor": bomb})
    if bomb > 1 and dark:
        what = Reason(N_("{bomb}, dark"), {"bomb": bomb_words})
    elif bomb > 1:
        what = bomb_words
    else:
        what = Reason(N_("dark"), {})
    return Reason(" × {f} ({what})", {"f": f, "what": what})


def deal_factor(t: Tally, conv: Convention, deal: Contract | Misere) -> Factor:
    """The deal factor of a game or misère (docs/rules.md §8.1): dark ×2 under
    ``dark_games``; the bomb the declarer names (``bombs.order = declared``, one he holds) or
    his oldest (``oldest``)."""
    held = t.bombs[t.seat[deal.declarer]]
    if not (deal.dark or deal.bomb is not None or (t.classic and held)):
        return NO_FACTOR
    dark = deal.dark and conv.dark_games
    use: int | None = None
    if deal.bomb is not None:
        if conv.bombs_order == "declared" and deal.bomb in held:
            use = held.index(deal.bomb)
    elif held and conv.bombs_order == "oldest":
        use = 0
    bomb = held[use] if use is not None else 1
    f = bomb * (2 if dark else 1)
    t.factor = f
    return f, factor_reason(f, bomb, dark), use


def bomb_after(t: Tally, declarer: str, use: int | None, made: bool) -> None:
    """The declarer's bomb: used up when the contract is made (an unplayed game counts as
    made), kept on a remise (docs/rules.md §8.1)."""
    if use is None:
        return
    held = t.bombs[t.seat[declarer]]
    if made:
        t.events.append((declarer, "used", held.pop(use)))
    else:
        t.events.append((declarer, "kept", held[use]))


def score_opening(t: Tally, deal: AllPass) -> None:
    """A deal of an opening circle (docs/rules.md §8.1, §8.8): tricks × 2^k into the mountain,
    2^k into the pool of a player with no trick (it never helps), and every active player
    earns a bomb ×2^k. ``passes.*`` do not apply, nor a blind pass. The players are taken in
    seating order from the dealer's left, like the pool writes of every all-pass deal."""
    factor = t.opening
    circle = t.circle
    for name, n in from_left(t, deal.tricks):
        i = t.seat[name]
        if n:
            t.to_mountain(
                i,
                product(
                    N_("opening circle {circle}: {n:trick} × {factor} = {amount}"),
                    ("n", "factor"),
                    circle=circle,
                    n=n,
                    factor=factor,
                ),
            )
        else:
            why = Reason(N_("opening circle {circle}: no tricks"), {"circle": circle})
            to_pool(t, i, factor, why, helps=False)
    for name, _ in deal.tricks:
        if t.seat[name] not in t.away:  # the dealer playing the talon holds no cards
            t.bombs[t.seat[name]].append(factor)
            t.events.append((name, "earned", factor))


def blind_bombs(t: Tally, conv: Convention, deal: AllPass) -> None:
    """Blind passes (``bombs.blind``): each blind player earns a bomb ×2."""
    if conv.bombs_blind:
        for name in deal.blind:
            t.bombs[t.seat[name]].append(2)
            t.events.append((name, "earned", 2))
