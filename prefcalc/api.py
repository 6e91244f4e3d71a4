"""The public Python API: open a game, record deals through every rule check, read the sheet
and the settlement. The front ends reach it through the command layer (:mod:`prefcalc.commands`:
the CLI's writes and ``play``'s lines) and the table service (:mod:`prefcalc.table`: serve's
pages and the app); the CLI's readers call it directly.

A game is an immutable :class:`~prefcalc.rules.model.Game` value: every call returns a new one,
in the manner of ``board.push_san("e4")`` — one call checks the deal and applies it, and a
refused deal raises :class:`~prefcalc.errors.PrefcalcError` whose ``str()`` is the one-line
message the CLI prints. Files are touched only by :func:`load`, :func:`load_current`,
:func:`save`, :func:`update`, :func:`undo_file` and :func:`redo_file` (a write holds the
ledger's lock from reading to writing). What the API keeps between calls (the night it last
scored, so that the next deal is one step) is :mod:`prefcalc.resume`'s. In short::

    import prefcalc
    g = prefcalc.new_game(["Anna", "Boris", "Vera"], convention="sochi", target=20)
    g = prefcalc.record(g, "game Anna 7h 7 Boris:w Vera:p")
    s = prefcalc.sheet(g)                 # s.pool["Anna"], s.whists["Boris"]["Anna"]
    r = prefcalc.settle(g, method="average")
"""

import shlex
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from prefcalc import resume
from prefcalc.cases import Gender, genders
from prefcalc.errors import DealError, PrefcalcError, shown
from prefcalc.i18n import N_, _, check_language, ngettext
from prefcalc.rules import legality
from prefcalc.rules.amounts import Amount, AmountError, to_amount
from prefcalc.rules.conventions import Convention, default_target, parse_overrides, preset_key
from prefcalc.rules.legality import Problem
from prefcalc.rules.lexicon import Method, Rounding, parse_gender, parse_method, parse_rounding
from prefcalc.rules.model import (
    UNDEALT,
    Adjustment,
    AllPass,
    Contract,
    ConventionRef,
    Deal,
    Entry,
    Game,
    Join,
    Misere,
    Penalty,
    Preference,
    SetTerm,
    check_currency,
    check_name,
    check_players,
    check_price,
    check_target,
    joined,
    play_order,
    seat_after,
    seating,
)
from prefcalc.rules.model import price_in_force as _price_in_force
from prefcalc.rules.notation import (
    DealWords,
    parse_set,
    read,
    resolve_player,
    split_deal,
)
from prefcalc.rules.scoring import Night, Sheet, score
from prefcalc.rules.settlement import Settlement
from prefcalc.rules.settlement import settle as _settle
from prefcalc.store import files, ledger
from prefcalc.store.conventions import load as load_convention

if TYPE_CHECKING:
    from prefcalc.report import Report

DealInput = str | Sequence[str] | DealWords | Deal
"""A deal in the table's shorthand (``"game Anna 7h 7 Boris:w Vera:p --dark"``), as its words,
as its words already split from its typed flags (a
:class:`~prefcalc.rules.notation.DealWords`, what a command carries), or as a deal value.
Text is read once, by the one grammar (:mod:`prefcalc.rules.notation`)."""

Options = Mapping[str, Any] | Iterable[str]
"""Convention options: ``{"passes.prices": [1, 2, 4]}`` or ``["passes.prices=1,2,4"]``."""


# --- games -------------------------------------------------------------------------------------


def new_game(
    players: Sequence[str],
    convention: str = "sochi",
    target: int | None = None,
    *,
    whist_price: Amount | str = 1,
    currency: str = "",
    options: Options | None = None,
    dealer: str | None = None,
    lang: str | None = None,
) -> Game:
    """A new game with no deals: players in seating order (2 to 5), a preset name or the path
    of a house-rules TOML file, the target (default 20; Classic 50), the money terms and
    option overrides; ``lang`` (``ru``/``en``) the language its documents are made in."""
    names = check_players(tuple(players))
    if target is None:
        target = default_target(convention)
    if isinstance(target, bool) or not isinstance(target, int):
        raise DealError(
            _("the target must be a whole number, not {target}").format(target=shown(repr(target)))
        )
    check_target(target)
    try:
        price = to_amount(whist_price)
    except AmountError as exc:
        raise DealError(exc.about(_("the whist price"))) from None
    check_price(price)
    ref = _convention_ref(convention, _options(options))
    rules(Game(names, ref, target, names[0]))  # refuse bad rules before anything else
    first = resolve_player(dealer, names) if dealer else names[0]
    return Game(
        players=names,
        convention=ref,
        target=target,
        first_dealer=first,
        whist_price=price,
        currency=check_currency(currency),
        created=ledger.now(),
        lang=check_language(lang, "the language") if lang else "",
    )


def _options(options: Options | None) -> dict[str, Any]:
    if options is None:
        return {}
    if isinstance(options, Mapping):
        return dict(options)
    return parse_overrides(list(options))


def _convention_ref(convention: str, options: dict[str, Any]) -> ConventionRef:
    """A preset with overrides is stored by name; a house-rules file is stored whole."""
    key = preset_key(convention)
    if key is not None:
        base = load_convention(key)
        checked = base.with_options(options) if options else base
        return ConventionRef(key, {k: checked.value(k) for k in options})
    conv = load_convention(convention)
    if options:
        conv = conv.with_options(options)
    return ConventionRef(None, dict(conv.options()), conv.name)


def rules(
    game: Game, convention: str | None = None, overrides: Options | None = None
) -> Convention:
    """The convention a game is scored by: its own, or ``convention`` (a preset or a TOML
    file) to re-score the same record, with ``overrides`` on top."""
    conv = load_convention(convention) if convention else ledger.resolve_convention(game.convention)
    extra = _options(overrides)
    return conv.with_options(extra) if extra else conv


# --- recording ---------------------------------------------------------------------------------


def record(
    game: Game,
    deal: DealInput,
    *,
    dealer: str | None = None,
    force: bool = False,
    time: str | None = None,
) -> Game:
    """The game with ``deal`` appended, after every check of :func:`legality.validate
    <prefcalc.rules.legality.validate>`, in one step whatever the length of the night.

    ``dealer`` defaults to the next dealer clockwise. A deal the rules refuse in its place
    (below the exit level after all-passes, after the game finished) raises unless ``force``,
    which records it marked as forced. The same deal as the last one is legal (two
    all-pass deals with the same tricks happen) and recorded like any other:
    :func:`repeats` tells a front end to mention it.
    """
    night = resume.latest(game)
    state = night.state
    next_dealer = _dealer(state.players, dealer, state.next_dealer)
    parsed = _parse(deal, state.players, next_dealer, night.convention)
    if isinstance(parsed, Join):
        if dealer:
            raise DealError(_("a player joins between deals: a join has no dealer"))
        return join(game, parsed.player, after=parsed.after, time=time)
    who = None if isinstance(parsed, Adjustment | Penalty | SetTerm) else next_dealer
    entry = _judged(night, Entry(parsed, who, time or ledger.now()), force)
    return _appended(game, night, entry)


def _judged(night: Night | resume.Resumed, entry: Entry, force: bool) -> Entry:
    """``entry`` as it may be appended to ``night``: refused for the first problem
    :func:`legality.validate <prefcalc.rules.legality.validate>` finds, a problem of its
    place only unless ``force`` (then it is recorded as forced)."""
    found = legality.validate(night.state, night.convention, entry)
    if not found:
        return entry
    for refusal in found:
        if not refusal.forceable:
            raise DealError(refusal.message)
    if not force:
        place = _("deal {number}: {message}").format(
            number=night.state.number + 1, message=found[0].message
        )
        raise DealError(_("{fresh}; add --force to record it anyway").format(fresh=place))
    return entry._replace(forced=True)


def _appended(game: Game, night: Night | resume.Resumed, entry: Entry) -> Game:
    """The game with a judged ``entry`` appended, its night resumed by one step."""
    new = game._replace(entries=game.entries + (entry,))  # noqa: RUF005 (a memcpy)
    resume.appended(new, night, entry)
    return new


def repeats(game: Game, number: int) -> int | None:
    """The number of the deal that deal ``number`` (1-based) repeats, when it is the same
    contract, misère or all-pass (same players, same tricks) as the entry just before it;
    else None. Such a deal is legal and recorded: the front ends only say so in one line
    (it may have been typed twice, and ``undo`` is one word away)."""
    if not 2 <= number <= len(game.entries):
        return None
    deal = game.entries[number - 1].deal
    if isinstance(deal, UNDEALT):
        return None
    return number - 1 if _same(game.entries[number - 2].deal, deal) else None


def _same(one: Deal, other: Deal) -> bool:
    """Whether two deals are the same (an all-pass deal whatever order its tricks were
    typed in)."""
    if isinstance(one, AllPass) and isinstance(other, AllPass):
        return (sorted(one.tricks), sorted(one.blind)) == (
            sorted(other.tricks),
            sorted(other.blind),
        )
    return one == other


def repeat_note(game: Game, number: int) -> str | None:
    """The one line a front end prints after recording deal ``number`` when it repeats the
    deal before it (see :func:`repeats`), else None."""
    same = repeats(game, number)
    if same is None:
        return None
    return _("same as deal {number} — undo if it was typed twice").format(number=same)


def insert(
    game: Game,
    number: int,
    deal: DealInput,
    *,
    force: bool = False,
    time: str | None = None,
) -> Game:
    """The game with a forgotten ``deal`` put in as deal ``number`` (1-based; one past the
    last appends). Dealers are re-derived from there on: the inserted deal is dealt by the
    player after the previous dealer, and every later deal by the player after the one
    before it, so the next dealer is right again. A later deal that no longer fits (in a
    4-player game its declarer or a defender would now be the sitting-out dealer) is
    refused with its number. The night is replayed from the inserted deal on."""
    count = len(game.entries)
    if not 1 <= number <= count + 1:
        raise DealError(
            ngettext(
                "cannot insert at {number}: the game has {count} deal (insert at 1 to {last})",
                "cannot insert at {number}: the game has {count} deals (insert at 1 to {last})",
                count,
            ).format(number=number, count=count, last=count + 1)
        )
    night = resume.night(game)
    conv = night.convention
    state = night.before(game.entries, number)
    dealer = state.next_dealer
    parsed = _parse(deal, state.players, dealer, conv)
    if isinstance(parsed, Join):
        raise DealError(_("a join is recorded between deals as it happens: use join, not insert"))
    who = None if isinstance(parsed, Adjustment | Penalty | SetTerm) else dealer
    _refuse(legality.problems(game, conv, parsed, who, state.players))
    head = (*game.entries[: number - 1], Entry(parsed, who, time or ledger.now()))
    later = game.entries[number - 1 :]
    entries = _rederived(game, conv, head, later, number + 1, "insert")
    return _changed(game, night, entries, number, force, (), (), first=number)


REDEALT = {
    "insert": N_("after the insert, deal {k} would be dealt by {rederived}: {message}"),
    "delete": N_("after the delete, deal {k} would be dealt by {rederived}: {message}"),
}
"""A later deal that no longer fits after a change of the record, by the change (each its
own message: a language says "after the deletion" in its own words)."""


def _rederived(
    game: Game,
    conv: Convention,
    head: tuple[Entry, ...],
    later: tuple[Entry, ...],
    first: int,
    verb: Literal["insert", "delete"],
) -> tuple[Entry, ...]:
    """``head`` followed by ``later`` (numbered from ``first``) with the dealers of
    ``later`` re-derived: each deal is dealt by the player after the one before it, so the
    next dealer is right again after an insert or a delete. A later deal that no longer fits
    (in a 4- or 5-player game its declarer or a defender would now sit out) is refused
    with its number (``verb`` names the change)."""
    entries = list(head)
    seats = game.players
    last: str | None = None
    for entry in head:
        if isinstance(entry.deal, Join):
            seats = joined(seats, entry.deal)
        if entry.dealer is not None:
            last = entry.dealer
    for k, old in enumerate(later, first):
        if old.dealer is None:
            entries.append(old)
            if isinstance(old.deal, Join):
                seats = joined(seats, old.deal)
            continue
        rederived = game.first_dealer if last is None else seat_after(seats, last)
        refused = legality.problems(game, conv, old.deal, rederived, seats, rules=False)
        if refused:
            raise DealError(
                _(REDEALT[verb]).format(k=k, rederived=rederived, message=refused[0].message)
            )
        entries.append(old._replace(dealer=rederived))
        last = rederived
    return tuple(entries)


def _refuse(found: Sequence[legality.Refusal]) -> None:
    """Raise the first of what the legality checks found (:func:`legality.problems
    <prefcalc.rules.legality.problems>`) as a :class:`DealError`."""
    if found:
        raise DealError(found[0].message)


def _refuse_misfit(game: Game, conv: Convention, first: int, shift: int = 0) -> None:
    """Raise the first entry from number ``first`` on that no longer fits the seating of its
    moment (:func:`legality.misfit <prefcalc.rules.legality.misfit>`), named by its number
    plus ``shift`` (the number it had before a deletion)."""
    found = legality.misfit(game, conv, first)
    if found is not None:
        number, message = found
        raise DealError(message, _("deal {number}").format(number=number + shift))


def redo(game: Game, entry: Entry) -> Game:
    """The game with an undone ``entry`` put back at its end, as it was (dealer, time, the
    forced mark), after the checks recording applies."""
    night = resume.latest(game)
    return _appended(game, night, _judged(night, entry, entry.forced))


def set_term(game: Game, term: str | SetTerm, *, time: str | None = None) -> Game:
    """The game with a change of its terms recorded (``"target=30"``, ``"whist_price=0.5"``):
    a target applies to the deals after it; the whist price in force at the end of the
    record is the price of the whole night at the settlement."""
    parsed = term if isinstance(term, SetTerm) else parse_set(shlex.split(term))
    return record(game, parsed, time=time)


def set_gender(game: Game, player: str, gender: Gender | None) -> Game:
    """The game with ``player`` (a player at the table, or a unique prefix of one) declined
    by ``gender`` in Russian (``m``/``f``; None: by the guess on the name again). Not a deal:
    no number changes, the record of the deals is the same. The same game (nothing to
    write) when the gender is already so."""
    seats = seating(game)
    name = resolve_player(player, seats)
    table = dict(game.genders)
    if gender is None:
        table.pop(name, None)
    else:
        table[name] = gender
    genders = tuple((p, table[p]) for p in seats if p in table)
    if genders == game.genders:
        return game
    new = game._replace(genders=genders)
    resume.renamed(game, new)  # the same deals: the same night, the same checkpoint
    return new


def price_in_force(game: Game) -> Amount:
    """The whist price in force, the one the settlement uses: the last ``set whist_price``,
    else the opening price (``Game.whist_price``, agreed at ``new``)."""
    return _price_in_force(game)


def edit(
    game: Game,
    number: int,
    deal: DealInput,
    *,
    dealer: str | None = None,
    force: bool = False,
) -> Game:
    """The game with deal ``number`` (1-based) replaced; its time and dealer are kept unless
    ``dealer`` is given. The rest of the night is replayed from it."""
    check_number(game, number)
    night = resume.night(game)
    conv = night.convention
    old = game.entries[number - 1]
    state = night.before(game.entries, number)
    seats = state.players  # the table at that deal: a late arrival is not there before his join
    default = _dealer(seats, dealer, old.dealer or state.next_dealer)
    parsed = _parse(deal, seats, default, conv)
    if isinstance(old.deal, Join) or isinstance(parsed, Join):
        raise DealError(
            _("a join is not edited: delete it (prefcalc delete N) and record the join again")
            if isinstance(old.deal, Join)
            else _("a join cannot replace a deal: use prefcalc join between deals")
        )
    who = None if isinstance(parsed, Adjustment | Penalty | SetTerm) else default
    _refuse(legality.problems(game, conv, parsed, who, state.players))
    entries = (*game.entries[: number - 1], Entry(parsed, who, old.time), *game.entries[number:])
    try:
        _refuse_misfit(game._replace(entries=entries), conv, first=number + 1)
    except DealError as exc:
        raise DealError(
            _("deal {number} cannot be changed so: {exc}").format(number=number, exc=exc)
        ) from None
    now = night.state
    return _changed(game, night, entries, number, force, now.problems, now.unpriced)


def delete(game: Game, number: int, *, force: bool = False) -> Game:
    """The game without deal ``number`` (1-based); the later deals are re-scored. Their
    dealers are re-derived as after :func:`insert` (the deleted deal never happened, so the
    rotation goes on from the deal before it); a later deal that no longer fits is refused
    with its number as the scorekeeper sees it (before the delete)."""
    check_number(game, number)
    night = resume.night(game)
    entries = _without(game, night.convention, number)
    now = night.state
    problems = _renumbered(now.problems, number)
    return _changed(
        game, night, entries, number, force, problems, _renumbered(now.unpriced, number)
    )


def _without(game: Game, conv: Convention, number: int) -> tuple[Entry, ...]:
    """The entries without entry ``number``, the later deals' dealers re-derived; refused
    when a later deal no longer fits its table (the check :func:`delete` makes first, before
    any scoring)."""
    head = game.entries[: number - 1]
    later = game.entries[number:]
    try:
        _refuse_misfit(game._replace(entries=head + later), conv, first=number, shift=1)
        return _rederived(game, conv, head, later, number + 1, "delete")
    except DealError as exc:
        raise DealError(
            _("deal {number} cannot be deleted: {exc}").format(number=number, exc=exc)
        ) from None


def deletion_refusal(game: Game, number: int) -> str | None:
    """Why deal ``number`` cannot be deleted for who deals and who holds cards after it (at
    four or five, a later deal whose re-derived dealer seats one of its players out), in
    :func:`delete`'s own words; None when that check passes. The scores are not replayed:
    a deletion this passes may still be refused for what it breaks in them (a contract
    below the lowest after an all-pass deal taken away), as :func:`delete` says."""
    check_number(game, number)
    try:
        _without(game, rules(game), number)
    except DealError as exc:
        return exc.message
    return None


def join(game: Game, name: str, *, after: str | None = None, time: str | None = None) -> Game:
    """The game with ``name`` seated after ``after`` (default: the last seat) between deals
    (docs/rules.md §8.7): his pool and mountain start at the exact averages of the seated players.
    Refused once the game has finished, at five players and for a name already playing."""
    night = resume.latest(game)
    state = night.state
    late = legality.join_refusal(name, state.finished, state.opening_left > 0)
    if late is not None:
        raise DealError(late)
    newcomer = Join(check_name(name), resolve_player(after, state.players) if after else None)
    entry = _judged(night, Entry(newcomer, None, time or ledger.now()), False)
    return _appended(game, night, entry)


def undo(game: Game) -> Game:
    """The game without its last deal."""
    if not game.entries:
        raise DealError(_("there is no deal to undo"))
    new = game._replace(entries=game.entries[:-1])
    resume.dropped(game, new)
    return new


def _parse(
    deal: DealInput, seats: tuple[str, ...], dealer: str | None, conv: Convention | None = None
) -> Deal:
    """The deal ``deal`` is or writes, read once, by the one grammar, against the seating;
    ``dealer`` tells who holds cards and in which order the bare all-pass tricks are read
    (``passes 2 5 3``: :func:`~prefcalc.rules.model.play_order`, from the hand after the
    dealer), and under ``passes.dealer_plays_talon`` (``conv``) the dealer too, who plays
    the talon cards (his tricks last: ``passes 2 5 3 0``)."""
    if isinstance(
        deal, Contract | Misere | AllPass | Adjustment | Penalty | Join | SetTerm | Preference
    ):
        return deal
    if isinstance(deal, DealWords):
        written = deal
    elif isinstance(deal, str):
        try:
            words = shlex.split(deal)
        except ValueError as exc:
            raise DealError(
                _("cannot read {deal}: {exc}").format(deal=shown(deal), exc=exc)
            ) from None
        written = split_deal(words)
    else:
        written = split_deal(list(deal))
    active = None
    if dealer is not None:
        talon = written.kind == "passes" and conv is not None and conv.passes_dealer_plays_talon
        active = play_order(seats, dealer, talon=talon)
    return read(written, seats, active)


def _dealer(seats: tuple[str, ...], given: str | None, default: str) -> str:
    return resolve_player(given, seats) if given else default


def check_number(game: Game, number: int) -> None:
    """Refuse a deal number the game does not have (deals are numbered from 1)."""
    count = len(game.entries)
    if not 1 <= number <= count:
        raise DealError(
            ngettext(
                "there is no deal {number} (the game has {count} deal)",
                "there is no deal {number} (the game has {count} deals)",
                count,
            ).format(number=number, count=count)
        )


def _changed(
    game: Game,
    night: Night,
    entries: tuple[Entry, ...],
    number: int,
    force: bool,
    problems: Sequence[Problem],
    unpriced: Sequence[Problem],
    first: int = 1,
) -> Game:
    """The game with ``entries``, a record that agrees with ``game``'s before entry
    ``number``, replayed from there; refused if an entry from number ``first`` on is out of
    its place or cannot be priced where it was not before the change (``problems`` and
    ``unpriced``: what the sheet listed, numbered as after the change): a change is refused
    for what it breaks, never for what the record already held.

    With ``force`` every newly misplaced entry is marked as forced instead.
    """
    after = night.changed(entries, number)
    was = set(unpriced)
    bad = [p for p in after.state.unpriced if p.number >= first and p not in was]
    if bad:  # never forced: the rules cannot price the deal at all (docs/rules.md §8)
        raise DealError(bad[0].message if bad[0].number == len(entries) else str(bad[0]))
    was = set(problems)
    fresh = [p for p in after.state.problems if p.number >= first and p not in was]
    if fresh:
        if not force:
            raise DealError(_("{fresh}; add --force to record it anyway").format(fresh=fresh[0]))
        numbers = {p.number for p in fresh}
        entries = tuple(
            e._replace(forced=True) if k in numbers else e for k, e in enumerate(entries, 1)
        )
        after = night.changed(entries, min(number, *numbers))
    new = game._replace(entries=entries)
    resume.remember(new, after)
    return new


def _renumbered(problems: Sequence[Problem], deleted: int) -> tuple[Problem, ...]:
    """``problems`` as they would be numbered once deal ``deleted`` is gone."""
    return tuple(
        p._replace(number=p.number - 1 if p.number > deleted else p.number)
        for p in problems
        if p.number != deleted
    )


# --- reading -----------------------------------------------------------------------------------


def sheet(game: Game, convention: str | None = None, overrides: Options | None = None) -> Sheet:
    """The scoresheet: ``pool``, ``mountain`` and ``whists`` per player, and for every deal
    (``scored[n - 1]``) its writes with their reasons. ``convention`` and ``overrides``
    re-score the same record under other rules."""
    if convention is None and not overrides:
        return resume.sheet(game)  # the night this process last scored, kept
    return score(game, rules(game, convention, overrides))


def settle(
    game: Game,
    method: Method | str = "pairwise",
    rounding: Rounding | str = "exact",
    *,
    convention: str | None = None,
    overrides: Options | None = None,
) -> Settlement:
    """The settlement by ``method`` (pairwise or average mountain) under ``rounding`` (exact
    or whole), each named in either language (``средняя``, ``целые``: :func:`parse_method`;
    refused in one line else): ``whists`` per player, ``money`` and ``payments``. Works at
    any moment of a game."""
    return _settle(
        sheet(game, convention, overrides), method, rounding, _price_in_force(game), game.currency
    )


def report(game: Game, convention: str | None = None, overrides: Options | None = None) -> "Report":
    """Everything the exports show of ``game``, computed once: the sheet (under its own rules,
    or ``convention`` and ``overrides``), the seating, the settlements by both methods at the
    whist price in force, the running balance after every deal. Hand it to the PDF, the
    workbook and ``share``; they never settle or score again."""
    from prefcalc.report import build_report  # the exports' module: not on a command's path

    return build_report(game, sheet(game, convention, overrides))


# --- files -------------------------------------------------------------------------------------


def load(path: str | Path) -> Game:
    """Read and validate a ledger file (any schema this prefcalc reads)."""
    return ledger.load(Path(path))


def save(game: Game, path: str | Path) -> None:
    """Write ``game`` to ``path`` atomically under the ledger's lock (replacing the file)."""
    ledger.create(Path(path), game, force=True)


def update(path: str | Path, change: Callable[[Game], Game]) -> Game:
    """Load the ledger, apply ``change`` and write the result, holding the lock throughout
    (so a second terminal never loses a deal); return the new game. If ``change`` raises,
    the file stays byte for byte as it was. A refusal names the players as the game declines
    them (its genders are in force during the change)."""

    def changed(game: Game) -> Game:
        with genders(game.genders):
            after = change(game)
        return after if after is game else _kept(after)

    return ledger.update(Path(path), changed)[1]


def _kept(game: Game) -> Game:
    """``game``, about to be written: the state after its last entry, when this process
    knows it (it just recorded, changed or scored the game under its own rules), is kept
    with the ledger as a checkpoint, for the next command to resume from."""
    state = resume.state_to_keep(game)
    if state is not None:
        ledger.keep_checkpoint(game, state)
    return game


def undo_file(path: str | Path) -> tuple[Game, Entry]:
    """Remove the last deal of the ledger at ``path`` under its lock and keep it for
    :func:`redo_file` (in ``NAME.redo`` beside the ledger, so a later command, another
    session or another terminal can redo it); return the game and the removed entry.

    The redo file is written before the ledger: when it cannot be (a folder, a FIFO, a
    read-only file there), the undo is refused and the deal stays where it was."""
    removed: list[Entry] = []

    def change(game: Game) -> Game:
        after = undo(game)
        removed.append(game.entries[-1])
        return _kept(after)

    game = ledger.update(Path(path), change, first=ledger.push_redo)[1]
    return game, removed[0]


def redo_file(path: str | Path) -> tuple[Game, Entry]:
    """Put back the deal the last :func:`undo_file` removed, if nothing else was recorded
    since (otherwise :class:`DealError`); return the game and the entry put back.

    Both files must be writable before either is written (a folder, a FIFO, a read-only file
    there refuses the redo with the deal where it was); the ledger (where the deal goes back)
    is written first, so a failure in between never loses the deal."""
    back: list[Entry] = []
    rest: list[list[dict[str, str]]] = []

    def change(real: Path, game: Game) -> Game:
        found = ledger.peek_redo(real, game)  # read under the lock
        if found is None or len(found[0].entries) != len(game.entries) + 1:
            raise DealError(_("there is nothing to redo (no undo since the last change)"))
        previous, remaining = found
        files.check_writable_target(ledger.redo_path(real), N_("the redo file"))
        after = redo(game, previous.entries[-1])
        back.append(previous.entries[-1])
        rest.append(remaining)
        return _kept(after)

    def then(real: Path, _before: Game, _after: Game) -> None:
        ledger.drop_redo(real, rest[0])

    game = ledger.update_at(Path(path), change, then)[1]
    return game, back[0]


def load_current(path: str | Path) -> Game:
    """:func:`load`, reusing the game this process last read or wrote at ``path`` while the
    file holds the same bytes (a session keeps its game between lines without parsing it
    again, and still sees whatever another process wrote, judged by content)."""
    return ledger.load_cached(Path(path))


def load_current_version(path: str | Path) -> tuple[Game, str]:
    """:func:`load_current`, and the ledger's version: the hex sha256 of the bytes the game
    was read from (:func:`prefcalc.store.ledger.version`), which changes with every write."""
    return ledger.load_versioned(Path(path))


def __getattr__(name: str) -> Any:
    """``prefcalc.api.Report``, imported when first asked for."""
    if name == "Report":
        from prefcalc.report import Report

        return Report
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "DealInput",
    "Method",
    "Options",
    "PrefcalcError",
    "Report",
    "Rounding",
    "check_number",
    "delete",
    "deletion_refusal",
    "edit",
    "insert",
    "join",
    "load",
    "load_current",
    "load_current_version",
    "new_game",
    "parse_gender",
    "parse_method",
    "parse_rounding",
    "price_in_force",
    "record",
    "redo",
    "redo_file",
    "repeat_note",
    "repeats",
    "report",
    "rules",
    "save",
    "set_gender",
    "set_term",
    "settle",
    "sheet",
    "undo",
    "undo_file",
    "update",
]
