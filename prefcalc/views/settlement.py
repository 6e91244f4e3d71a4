"""The settlement in words: the steps a player would do on paper (:func:`settlement_steps`), the
settlement with its result and payments (:func:`settlement_text`, ``prefcalc settle``) and both
methods side by side (:func:`compare_text`, ``settle --compare``).
"""

from __future__ import annotations

from fractions import Fraction

from prefcalc import terms
from prefcalc.i18n import _, pgettext
from prefcalc.rules.amounts import norm
from prefcalc.rules.settlement import Settlement
from prefcalc.views.numbers import number as fmt
from prefcalc.views.numbers import price as price_text
from prefcalc.views.text_kit import money_text, signed, table


def settlement_steps(s: Settlement) -> list[str]:
    """The steps a player would do on paper, one line each (sub-lines indented)."""
    players = s.players
    lines = []
    if s.combination:
        lines.append(s.combination[0])
        lines += [f"   {line}" for line in s.combination[1:]]
    n = len(players)
    if s.pool_average is not None:
        lines += _pools_against_the_average(s)
    else:
        lines.append(
            _(
                "1. Unclosed pools into the mountain: largest pool {largest}, "
                "each missing point × {factor}"
            ).format(largest=fmt(s.pool_max), factor=fmt(s.pool_factor))
        )
        for p in players:
            added = s.pool_factor * (s.pool_max - s.pools[p])
            lines.append(
                "   "
                + _("{player}: pool {pool}, mountain +{added} = {mountain}").format(
                    player=p, pool=fmt(s.pools[p]), added=fmt(added), mountain=fmt(s.mountains[p])
                )
            )
    lines.append(
        _("2. Amnesty: the smallest mountain {amnesty} is taken off every mountain").format(
            amnesty=fmt(s.amnesty)
        )
    )
    lines.append("   " + ", ".join(f"{p} {fmt(s.amnestied[p])}" for p in players))
    if s.prizes:
        lines.append("   " + _("Prizes (judged on the mountains before the amnesty; game whists):"))
        lines += [
            "   "
            + _("{writer} writes {amount} on {player} ({why})").format(
                writer=p.writer, amount=fmt(p.amount), player=p.on, why=p.why
            )
            for p in s.prizes
        ]
    if s.method == "pairwise":
        lines.append(
            _(
                "3. Mountains into whists: every opponent writes 10 × mountain / {n} on each player"
            ).format(n=n)
        )
        lines.append(
            "   "
            + ", ".join(
                _("on {player}: {whists}").format(player=p, whists=fmt(s.mountain_entries[p]))
                for p in players
            )
        )
        if s.pool_entries:
            lines.append(
                "   "
                + _(
                    "pools into whists: every player writes {rate} × pool / {n} on each opponent"
                ).format(rate=s.pool_rate, n=n)
            )
            lines.append(
                "   "
                + ", ".join(
                    _("{player} writes {whists}").format(player=p, whists=fmt(s.pool_entries[p]))
                    for p in players
                )
            )
        lines.append(
            _(
                "4. Pairwise balances (game whists and mountain whists, the larger side keeps the difference)"
            )
        )
        for i, a in enumerate(players):
            for b in players[i + 1 :]:
                diff = s.pairwise[(a, b)]
                if diff == 0:
                    lines.append(f"   {a} – {b}: " + _("square"))
                else:
                    winner, loser = (a, b) if diff > 0 else (b, a)
                    lines.append(
                        f"   {a} – {b}: "
                        + _("{winner} +{whists} from {loser}").format(
                            winner=winner, whists=fmt(diff if diff > 0 else -diff), loser=loser
                        )
                    )
    else:
        lines.append(
            _("3. Average mountain: {total} / {n} = {average}").format(
                total=fmt(sum(s.amnestied.values(), Fraction(0))), n=n, average=fmt(s.average)
            )
        )
        lines.append("   " + _("mountain result 10 × (average − mountain):"))
        lines.append("   " + ", ".join(f"{p} {signed(s.mountain_whists[p])}" for p in players))
        lines.append(_("4. Game whists (written on others − written on him):"))
        lines.append("   " + ", ".join(f"{p} {signed(s.game_whists[p])}" for p in players))
        if s.pool_results:
            lines.append(_("5. Pool whists (step 1):"))
            lines.append("   " + ", ".join(f"{p} {signed(s.pool_results[p])}" for p in players))
    return lines


def _pools_against_the_average(s: Settlement) -> list[str]:
    """Step 1 under ``closing = average`` (docs/rules.md §5.9): every pool against the
    average pool, ``pool_whists`` a point; the mountains stay as they are."""
    players = s.players
    average = s.pool_average if s.pool_average is not None else 0
    lines = [
        _(
            "1. Pools against the average: {total} / {n} = {average}, "
            "each point above or below it {rate} whists (the mountains stay as they are)"
        ).format(
            total=fmt(sum((Fraction(s.pools[p]) for p in players), Fraction(0))),
            n=len(players),
            average=fmt(average),
            rate=s.pool_rate,
        )
    ]
    for p in players:
        lines.append(
            "   "
            + _("{player}: pool {pool}, {difference} × {rate} = {whists}").format(
                player=p,
                pool=fmt(s.pools[p]),
                difference=signed(norm(s.pools[p] - average)),
                rate=s.pool_rate,
                whists=signed(norm(s.pool_rate * (s.pools[p] - average))),
            )
        )
    return lines


def settlement_text(s: Settlement, steps: bool = True) -> str:
    players = s.players
    head = (
        _("Settlement by pairwise method (method 1), rounding: {rounding}")
        if s.method == "pairwise"
        else _("Settlement by average method (method 2), rounding: {rounding}")
    )
    lines = [head.format(rounding=_rounding(s.rounding))]
    lines.append(
        _("Counted: {players} (N = {n}: every player seated at the end)").format(
            players=", ".join(players), n=len(players)
        )
    )
    if steps:
        lines += ["", *settlement_steps(s), ""]
    rows = [[_("player"), terms.column("whists"), _("money")]]
    for p in players:
        rows.append([p, signed(s.whists[p]), money_text(s.money[p], s.currency)])
    each = money_text(s.whist_price, s.currency) if s.currency else price_text(s.whist_price)
    lines.append(_("Result (1 whist = {price}):").format(price=each))
    lines += ["   " + line for line in table(rows)]
    lines.append(_("Payments:"))
    if s.payments:
        lines += [
            "   "
            + _("{payer} pays {payee} {amount}").format(
                payer=p.payer, payee=p.payee, amount=money_text(p.amount, s.currency)
            )
            for p in s.payments
        ]
    else:
        lines.append("   " + _("nobody owes anything"))
    return "\n".join(lines)


def _rounding(rounding: str) -> str:
    """``exact`` / ``whole`` in the language in use."""
    return {"exact": pgettext("rounding", "exact"), "whole": pgettext("rounding", "whole")}.get(
        rounding, rounding
    )


def _method(method: str) -> str:
    """``pairwise`` / ``average`` in the language in use."""
    words = {"pairwise": pgettext("method", "pairwise"), "average": pgettext("method", "average")}
    return words.get(method, method)


def compare_text(a: Settlement, b: Settlement) -> str:
    rows = [
        [
            _("player"),
            _("{method} whists").format(method=_method(a.method)),
            _("{method} whists").format(method=_method(b.method)),
            _("difference"),
            _("{method} money").format(method=_method(a.method)),
            _("{method} money").format(method=_method(b.method)),
        ]
    ]
    for p in a.players:
        diff = a.whists[p] - b.whists[p]
        rows.append(
            [
                p,
                signed(a.whists[p]),
                signed(b.whists[p]),
                fmt(diff) if diff else "—",
                money_text(a.money[p], a.currency),
                money_text(b.money[p], b.currency),
            ]
        )
    same = all(a.whists[p] == b.whists[p] for p in a.players)
    lines = [
        _("Both methods, rounding: {rounding}").format(rounding=_rounding(a.rounding)),
        *table(rows),
    ]
    lines.append(
        _("The methods agree.")
        if same
        else _("The methods differ (rounding): the table picks one before settling.")
    )
    return "\n".join(lines)
