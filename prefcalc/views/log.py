"""The deals in words: one deal as people read it (:func:`deal_words`, :func:`deal_text`), why
each write is what it is (:func:`reason_text`), the numbered log (:func:`log_text`,
``prefcalc log``) and one deal with every write and its reason (:func:`explain_text`,
``prefcalc explain N``).
"""

from __future__ import annotations

from typing import Any, NamedTuple, assert_never

from prefcalc import terms
from prefcalc.cases import CASES, decline
from prefcalc.i18n import _, language, ngettext
from prefcalc.rules.model import (
    UNDEALT,
    Adjustment,
    AllPass,
    Contract,
    Entry,
    Join,
    Misere,
    Penalty,
    Preference,
    SetTerm,
)
from prefcalc.rules.penalties import OFFENCE_WORDS
from prefcalc.rules.scoring import Label, ReasonFormatter, Scored, Sheet, Write
from prefcalc.views.numbers import number as fmt
from prefcalc.views.numbers import price as price_text
from prefcalc.views.text_kit import local_time, signed, table


class DealView(NamedTuple):
    """A deal as the log, the messages and the exports show it: the one renderer of a deal
    for people (the ledger's JSON and the shorthand are the record's own formats)."""

    kind: str  # contract, misère, all-pass, adjustment, penalty, change
    player: str  # the declarer, or the adjusted player ("" for an all-pass deal)
    contract: str  # "7♥", "misère" or ""
    tricks: int | None  # the declarer's tricks (None: not played, or not a game)
    defenders: tuple[tuple[str, str, int | None], ...]  # (player, role in words, tricks)
    text: str  # one line: "Anna 7♥ took 7; Boris whist, Vera pass"


def deal_words(entry: Entry) -> DealView:
    """The parts of a deal in words, and the whole deal as one line."""
    deal = entry.deal
    forced = " (" + _("forced") + ")" if entry.forced else ""
    if isinstance(deal, Contract):
        label = terms.contract(deal.level, deal.suit)
        alone = len(deal.defenders) == 1  # Gusarik: "h" leaves for his tricks
        defenders = tuple((d.player, terms.role(d.role, alone), d.tricks) for d in deal.defenders)
        answers = ", ".join(
            f"{p} {role}" + (f" {n}" if n is not None else "") for p, role, n in defenders
        )
        text = (
            _("{declarer} {contract}{flags} not played; {answers}")
            if deal.tricks is None
            else _("{declarer} {contract}{flags} took {n}; {answers}")
        ).format(
            declarer=deal.declarer,
            contract=label,
            flags=_classic_text(deal),
            n=deal.tricks,
            tricks=terms.tricks(deal.tricks or 0),
            answers=answers,
        )
        text += looked_text(deal)
        return DealView("contract", deal.declarer, label, deal.tricks, defenders, text + forced)
    if isinstance(deal, Misere):
        text = _("{declarer} misère{flags}, took {n}").format(
            declarer=deal.declarer,
            flags=_classic_text(deal),
            n=deal.tricks,
            tricks=terms.tricks(deal.tricks),
        )
        text += looked_text(deal)
        return DealView("misère", deal.declarer, terms.misere(), deal.tricks, (), text + forced)
    if isinstance(deal, AllPass):
        text = _("all-pass: {tricks}").format(tricks=", ".join(f"{n} {t}" for n, t in deal.tricks))
        if deal.blind:
            text += " (" + _("{players} blind").format(players=", ".join(deal.blind)) + ")"
        text += looked_text(deal)
        return DealView("all-pass", "", "", None, (), text + forced)
    if isinstance(deal, SetTerm):
        change = (
            _("target set to {value}") if deal.key == "target" else _("whist price set to {value}")
        )
        value = fmt(deal.value) if deal.key == "target" else price_text(deal.value)
        text = change.format(value=value)
        return DealView("change", "", "", None, (), text + forced)
    if isinstance(deal, Adjustment):
        text = _("adjustment for {player}: {note}").format(player=deal.player, note=deal.note)
        return DealView("adjustment", deal.player, "", None, (), text + forced)
    if isinstance(deal, Penalty):
        contract = terms.contract(deal.level, deal.suit) if deal.level and deal.suit else ""
        text = penalty_text(deal)
        return DealView("penalty", deal.player, contract, None, (), text + forced)
    if isinstance(deal, Preference):
        text = _("{player} declares the Preference combination: the game ends").format(
            player=deal.player
        )
        return DealView("preference", deal.player, "", None, (), text + forced)
    if isinstance(deal, Join):
        text = (
            _("{player} joins the game, after {after}")
            if deal.after
            else _("{player} joins the game, in the last seat")
        ).format(player=deal.player, after=deal.after)
        return DealView("join", deal.player, "", None, (), text + forced)
    assert_never(deal)


def deal_text(entry: Entry) -> str:
    """A deal in words a player reads at a glance."""
    return deal_words(entry).text


def penalty_text(deal: Penalty) -> str:
    """A penalty in words: ``penalty for Anna: looking at the talon (Code 3.2.21), 5 into the
    mountain`` (docs/rules.md §8.10)."""
    offence = _(OFFENCE_WORDS[deal.offence])
    amount = fmt(deal.amount)
    if deal.level is not None and deal.suit is not None:
        what = _("{contract} down {n}").format(
            contract=terms.contract(deal.level, deal.suit), n=amount
        )
    elif deal.on is not None:
        what = _("the excess of {amount} written back by {on}").format(amount=amount, on=deal.on)
    else:
        what = _("{amount} into the mountain").format(amount=amount)
    return _("penalty for {player}: {offence}, {what}").format(
        player=deal.player, offence=offence, what=what
    )


def looked_text(deal: Contract | Misere | AllPass) -> str:
    """``; Boris loses a trick: looking at a trick other than the last (Code 3.9.11.2)``
    for each player who did (on an all-pass deal or a misère: takes a trick more); ``""``."""
    offence = _(OFFENCE_WORDS["trick"])
    out = ""
    for name in deal.looked:
        line = (
            _("{player} loses a trick: {offence}")
            if isinstance(deal, Contract)
            else _("{player} takes a trick more: {offence}")
        )
        out += "; " + line.format(player=name, offence=offence)
    return out


def _classic_text(deal: Contract | Misere) -> str:
    """`` (dark, no talon)``: the Classic flags of a game or misère; ``""`` when none."""
    parts = [word for word, on in ((_("dark"), deal.dark), (_("no talon"), deal.no_talon)) if on]
    if deal.bomb is not None:
        parts.append(_("bomb ×{factor}").format(factor=deal.bomb))
    if isinstance(deal, Contract):
        if deal.talon is not None:
            parts.append(_("talon {tricks}").format(tricks=deal.talon))
        if deal.returned_by is not None:
            parts.append(_("whist returned by {player}").format(player=deal.returned_by))
    return f" ({', '.join(parts)})" if parts else ""


def bomb_event_lines(scored: Scored) -> list[str]:
    """What a deal did to the bombs, one line each: ``Anna: earns a bomb ×4``."""
    lines = {
        "earned": _("{player}: earns a bomb ×{factor}"),
        "used": _("{player}: uses up a bomb ×{factor}"),
        "kept": _("{player}: keeps (remise) a bomb ×{factor}"),
    }
    return [lines[what].format(player=who, factor=factor) for who, what, factor in scored.bombs]


def write_lines(scored: Scored) -> list[str]:
    return [
        f"{w.player}: {signed(w.amount)} {_write_target(w)} — {reason_text(w)}"
        for w in scored.writes
    ]


def reason_text(w: Write) -> str:
    """Why a write is what it is, in the language in use (``whists on 8NT: 2 tricks × 6 = 12``
    / ``висты на 8БК: 2 взятки × 6 = 12``); English is the write's own reason."""
    if language() == "en":
        return w.reason
    return _said().render(w.template, w.args)


def _said() -> ReasonFormatter:
    return ReasonFormatter(_, _reason_unit, _reason_contract, fmt)


def _reason_contract(label: Label) -> str:
    return terms.contract(label.level, label.suit)  # type: ignore[arg-type]


def _reason_unit(unit: str, value: Any, text: str) -> str:
    """``2 tricks`` / ``2 взятки``: a counted unit of a reason in its plural form (a fraction
    of a point takes the form of 2: ``16⅔ очка``); a name in the case its Russian template
    asks for (``{player:dat}``: see :mod:`prefcalc.cases`)."""
    if unit in CASES:
        return decline(value, unit) if isinstance(value, str) else text
    n = value if isinstance(value, int) else 2
    if unit == "trick":
        form = ngettext("{n} trick", "{n} tricks", n)
    elif unit == "undertrick":
        form = ngettext("{n} undertrick", "{n} undertricks", n)
    elif unit == "point":
        form = ngettext("{n} point", "{n} points", n)
    else:
        return f"{text} {unit}"
    return form.format(n=text)


def _write_target(w: Any) -> str:
    """Where a write went: ``pool``, ``mountain``, ``whists on Anna`` in the language in use
    (``в пулю``, ``в гору``, ``висты на Аню``: :func:`prefcalc.terms.into`)."""
    return terms.into(w.column, w.on)


def log_text(sheet: Sheet) -> str:
    rows = [["#", _("time"), _("dealer"), _("deal")]]
    for s in sheet.scored:
        time = local_time(s.entry.time, "%H:%M")
        rows.append([str(s.number), time, s.entry.dealer or "", deal_text(s.entry)])
    if len(rows) == 1:
        return _("no deals recorded yet")
    return "\n".join(table(rows, right=[True, False, False, False]))


def explain_text(sheet: Sheet, number: int) -> str:
    s = sheet.scored[number - 1]
    if isinstance(s.entry.deal, UNDEALT):  # a line of the record, not a deal
        head = _("No. {number}").format(number=s.number)
    else:
        head = (
            _("deal {number}, dealt by {dealer}") if s.entry.dealer else _("deal {number}")
        ).format(number=s.number, dealer=s.entry.dealer)
    lines = [f"{head}: {deal_text(s.entry)}"]
    if isinstance(s.entry.deal, AllPass) and s.price is None and s.bombs:
        factor = max(f for _who, what, f in s.bombs if what == "earned")
        lines.append(
            _("opening circle deal at ×{factor} per trick (not in the all-pass streak)").format(
                factor=factor
            )
        )
    elif isinstance(s.entry.deal, AllPass):
        lines.append(
            _("all-pass deal {streak} in a row, price ×{price}").format(
                streak=s.streak, price=fmt(s.price or 0)
            )
        )
    elif isinstance(s.entry.deal, Contract) and s.min_level > 6:
        lines.append(
            _("lowest contract after the all-pass streak: {level}").format(level=s.min_level)
        )
    if s.factor != 1:
        lines.append(_("deal factor ×{factor}").format(factor=s.factor))
    writes = write_lines(s)
    if writes:
        lines.extend(f"  {line}" for line in writes)
    else:
        lines.append("  " + _("nothing written"))
    lines.extend(f"  {line}" for line in bomb_event_lines(s))
    if s.finished:
        lines.append(_("the game is finished after this deal"))
    return "\n".join(lines)
