"""Legality: whether an entry may be recorded, decided in one place (docs/rules.md §8).

The record keeps what was legal at the table; only what cannot have happened, or what the
convention does not play or cannot price, is refused. Every check is a small flat function
that returns what is wrong (and where), as a value, never raising; four tables list them in
the order they are reported:

- :data:`GAME_CHECKS` — the entry fits the *game* (known players, tricks that add up, the
  dealer sitting out...), whatever the convention: one per kind of entry;
- :data:`RULE_CHECKS` — it fits the convention's *rules* (a dark game needs ``dark_games``,
  a 6♠ under ``stalingrad`` must be whisted by both...);
- :data:`PRICE_CHECKS` — the convention can *price* it in its place (a contract during a
  Classic opening circle, a bomb the declarer does not hold, a talon bonus without
  ``talon_bonus``...);
- :data:`PLACE_CHECKS` — it fits its *place* in the night (a contract below the exit level
  after all-passes, a deal after the game finished); only these may be overridden, by
  recording the entry as forced (``--force``).

The entry points, each for one question:

- :func:`validate` — may this entry be appended now? Every check; the API's recording, which
  every front end goes through, refuses the first problem (a place problem unless forced);
- :func:`problems` — may a ledger hold this deal at all (the game and rules checks, whatever
  its place)? The ledger loader asks it, and the API before an insert or an edit;
- :func:`misfit` — which entry of a record no longer fits the seating of its moment, after an
  edit or a deletion?
- :func:`findings` — what does the replay of a record (:mod:`prefcalc.rules.scoring`) list of
  an entry: what the price checks find (``Sheet.unpriced``, when a night is re-scored under
  other rules) and what the place checks find (``Sheet.problems``)? Scoring never refuses.
- :func:`join_refusal` — may a player join the table now?

Every message goes through the catalog, in words: no option of the command line is spelled
here (the grammar, :mod:`prefcalc.rules.notation`, alone knows them); a refusal names the
ledger field it concerns instead.
"""

from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple, Protocol

from prefcalc.errors import DealError, PrefcalcError, shown
from prefcalc.i18n import N_, _, ngettext
from prefcalc.rules.conventions import Convention
from prefcalc.rules.model import (
    LEVELS,
    MAX_PLAYERS,
    ROLES,
    SUITS,
    Adjustment,
    AllPass,
    Contract,
    Deal,
    Entry,
    Game,
    Join,
    Misere,
    Penalty,
    Preference,
    Role,
    SetTerm,
    active_players,
    check_note,
    check_players,
    check_term,
    joined,
    name_key,
    seating,
    sitting_out,
)
from prefcalc.rules.penalties import check_looked, check_penalty
from prefcalc.rules.wording import bomb_name


class Refusal(NamedTuple):
    """What is wrong with an entry and where: ``field`` names the ledger field (``dark``,
    ``defenders[1].role``; ``""`` for the entry as a whole), ``message`` is the one line shown,
    in the language in use. A refusal of the entry's place in the night concerns its
    ``forced`` field: recording it as forced is what the table may agree to."""

    field: str
    message: str

    @property
    def forceable(self) -> bool:
        """Whether ``--force`` may override it (only the place-in-the-night checks)."""
        return self.field == FORCED


FORCED = "forced"
"""The field of a refusal of an entry's place in the night (see :attr:`Refusal.forceable`)."""


class Finding(NamedTuple):
    """What a price or place check found, kept as the check's ``key`` and its ``args`` (plain
    JSON values) and told in the language in use only when read (:attr:`message`): a
    sheet's findings outlive the language they were found in (a checkpoint of the replay
    is read back by another process)."""

    field: str
    key: str
    args: tuple[Any, ...] = ()

    @property
    def message(self) -> str:
        return _TELL[self.key](*self.args)


class Problem(NamedTuple):
    """What the replay found wrong with deal ``number`` of a record (``Sheet.problems``: out
    of its place, scored anyway; ``Sheet.unpriced``: what the convention cannot price)."""

    number: int
    finding: Finding

    @property
    def message(self) -> str:
        return self.finding.message

    def __str__(self) -> str:
        return _("deal {number}: {message}").format(number=self.number, message=self.message)


class Before(Protocol):
    """What the checks read of the sheet before an entry: a
    :class:`prefcalc.rules.scoring.State`, or the replay's running sheet, which has the same
    attributes."""

    @property
    def players(self) -> Sequence[str]:
        """The seating (after every join so far)."""

    @property
    def number(self) -> int:
        """How many entries came before."""

    @property
    def streak(self) -> int:
        """The all-pass deals in a row."""

    @property
    def finished(self) -> bool:
        """Whether the game had finished."""

    @property
    def bombs(self) -> Sequence[Sequence[int]]:
        """Every player's bombs (their factors, oldest first), by seat."""

    @property
    def opening_left(self) -> int:
        """The deals of the opening circles still to come (``bombs.opening``)."""

    @property
    def circle_size(self) -> int:
        """The deals of one opening circle (the players at the start)."""


# --- the entry points ----------------------------------------------------------------------------


def validate(state: Before, convention: Convention, entry: Entry) -> list[Refusal]:
    """Everything that refuses ``entry`` after ``state`` under ``convention``, in the order
    they are reported (the first one is shown): empty when it may be recorded. An entry that
    does not fit the game is refused for that alone (the other checks read a well-formed
    entry); a price or place finding on a field a rule already refuses is not repeated."""
    deal = entry.deal
    wrong = _fits(_Table.of(tuple(state.players), entry.dealer, convention), deal)
    if wrong is not None:
        return [Refusal("", wrong)]
    found = _rules(convention, deal)
    ruled = {r.field for r in found}
    refused = _price_in_reach(state, convention, entry)
    if refused is not None:
        found.append(refused)
    unpriced, out_of_place = findings(state, convention, entry)
    for finding in (*unpriced, *out_of_place):
        if finding.field not in ruled:
            found.append(Refusal(finding.field, finding.message))
    return found


def problems(
    game: Game,
    convention: Convention,
    deal: Deal,
    dealer: str | None,
    seats: tuple[str, ...] | None = None,
    *,
    rules: bool = True,
) -> list[Refusal]:
    """What refuses ``deal`` dealt by ``dealer`` (``None`` for an adjustment, a penalty, a
    change of terms or a join) after ``game``'s entries whatever its place: the game and rules
    checks of :func:`validate` (what a ledger file may hold at all); ``rules=False`` leaves
    out the rules checks (what a deal must be whatever the convention plays). ``seats`` is the
    seating at the deal (default: after all of ``game``'s entries)."""
    wrong = _fits(_Table.of(seating(game) if seats is None else seats, dealer, convention), deal)
    if wrong is not None:
        return [Refusal("", wrong)]
    return _rules(convention, deal) if rules else []


def misfit(game: Game, convention: Convention, first: int = 1) -> tuple[int, str] | None:
    """The first entry from number ``first`` on that does not fit the seating of its moment
    (after a join is deleted or an earlier deal edited, say), as its number and what is
    wrong: the game checks of :func:`problems`; ``None`` when every one fits."""
    seats = game.players
    for number, entry in enumerate(game.entries, 1):
        if number >= first:
            wrong = _fits(_Table.of(seats, entry.dealer, convention), entry.deal)
            if wrong is not None:
                return number, wrong
        if isinstance(entry.deal, Join):
            seats = joined(seats, entry.deal)
    return None


_NOTHING: tuple[tuple[Finding, ...], tuple[Finding, ...]] = ((), ())


def findings(
    state: Before, convention: Convention, entry: Entry
) -> tuple[tuple[Finding, ...], tuple[Finding, ...]]:
    """What the price checks find in ``entry`` after ``state`` (the replay lists them in
    ``Sheet.unpriced``) and what the place checks find (``Sheet.problems``). The replay asks
    for every entry of a long night: the common one (no Classic's flag, no opening circle, no
    all-pass streak, the game going on) is answered without running a check."""
    if (
        not state.opening_left
        and (entry.forced or not (state.streak or state.finished))
        and not _priced_apart(entry.deal)
    ):
        return _NOTHING
    return _unpriced(state, convention, entry), _out_of_place(state, convention, entry)


# --- the deal fits the game ----------------------------------------------------------------------
#
# Each check returns what is wrong as one line, or ``None``: the first line found refuses the
# deal (:func:`_fits` dispatches on the kind of entry, :data:`GAME_CHECKS`).


class _Table(NamedTuple):
    """What the game checks read besides the deal: the seating when it is played, its dealer
    (``None`` for an entry that is not dealt) and the convention's two options that change
    what a deal may hold: ``half_whist`` and ``passes.dealer_plays_talon`` (the sitting-out
    dealer's all-pass tricks are written)."""

    seats: tuple[str, ...]
    dealer: str | None
    half_whist: bool
    dealer_talon: bool

    @classmethod
    def of(cls, seats: tuple[str, ...], dealer: str | None, conv: Convention) -> "_Table":
        return cls(seats, dealer, conv.half_whist, conv.passes_dealer_plays_talon)


def _said(check: Callable[..., object], *args: Any) -> str | None:
    """What a value check of the record's types (:mod:`prefcalc.rules.model`,
    :mod:`prefcalc.rules.penalties`) finds wrong, as a line: they raise, as the grammar that
    reads a deal calls them too."""
    try:
        check(*args)
    except DealError as exc:
        return exc.message
    return None


def _unknown(seats: tuple[str, ...], name: str) -> str | None:
    if name not in seats:
        return _("unknown player '{name}' (players: {seats})").format(
            name=shown(name), seats=", ".join(seats)
        )
    return None


def _tricks(value: int | None, owner: str) -> str | None:
    """Tricks are 0-10; ``owner`` is a name (or ``""`` for the declarer)."""
    if value is not None and not 0 <= value <= 10:
        what = _("{owner}'s tricks").format(owner=owner) if owner else _("the declarer's tricks")
        return _("{what} must be 0-10 tricks, not {value}").format(
            what=what, value=shown(str(value))
        )
    return None


def _sits_out(seats: tuple[str, ...], dealer: str, name: str, what: str) -> str | None:
    """Refuse ``name`` doing ``what`` when he sits out the deal dealt by ``dealer``."""
    out = sitting_out(seats, dealer)
    if name not in out:
        return None
    if name == dealer:
        return _("{name} is the dealer and sits out this deal, so {what}").format(
            name=name, what=what
        )
    return _("{name} deals next and sits out this deal, so {what}").format(name=name, what=what)


def _fits(t: _Table, deal: Deal) -> str | None:
    """What keeps ``deal`` from fitting the table ``t`` (the game checks of
    :func:`validate`), or ``None``."""
    if t.dealer is not None and not isinstance(deal, Join):
        wrong = _unknown(t.seats, t.dealer)
        if wrong is not None:
            return wrong
    check: GameCheck = GAME_CHECKS[deal.__class__]
    return check(t, deal)


def _fits_join(t: _Table, deal: Join) -> str | None:
    """A late arrival (docs/rules.md §8.7, §8.8): between deals, up to five players, a new
    name, after a seated one."""
    if t.dealer is not None:
        return _("a player joins between deals: a join has no dealer")
    seats = t.seats
    if len(seats) >= MAX_PLAYERS:
        return _("the table is full: {MAX_PLAYERS} players at most ({seats})").format(
            MAX_PLAYERS=MAX_PLAYERS, seats=", ".join(seats)
        )
    key = name_key(deal.player)
    taken = next((p for p in seats if name_key(p) == key), None)
    if taken is not None:
        return _("'{player}' cannot join: {taken} already plays").format(
            player=shown(deal.player), taken=taken
        )
    if deal.after is not None:
        wrong = _unknown(seats, deal.after)
        if wrong is not None:
            return wrong
    return _said(check_players, joined(seats, deal))


def _fits_term(t: _Table, deal: SetTerm) -> str | None:
    return _said(check_term, deal)


def _fits_adjustment(t: _Table, deal: Adjustment) -> str | None:
    wrong = _unknown(t.seats, deal.player)
    if wrong is not None:
        return wrong
    for other, _amount in deal.whists:
        wrong = _unknown(t.seats, other)
        if wrong is not None:
            return wrong
        if other == deal.player:
            return _("{player} cannot write whists on himself").format(player=deal.player)
    wrong = _said(check_note, deal.note)
    if wrong is None and not deal.note.strip():  # check_note stores the note stripped
        wrong = _("an adjustment needs a note saying why")
    return wrong


def _fits_penalty(t: _Table, deal: Penalty) -> str | None:
    """A penalty of the Code (docs/rules.md §8.10)."""
    if t.dealer is not None:
        return _("a penalty is not dealt: it has no dealer")
    wrong = _unknown(t.seats, deal.player)
    if wrong is None and deal.on is not None:
        wrong = _unknown(t.seats, deal.on)
    return wrong if wrong is not None else _said(check_penalty, deal)


def _fits_preference(t: _Table, deal: Preference) -> str | None:
    if t.dealer is None:
        return _("a deal needs its dealer")
    return _unknown(t.seats, deal.player) or _sits_out(
        t.seats, t.dealer, deal.player, _("holds no cards to declare the Preference")
    )


def _fits_passes(t: _Table, deal: AllPass) -> str | None:
    if t.dealer is None:
        return _("a deal needs its dealer")
    seats, dealer = t.seats, t.dealer
    out = sitting_out(seats, dealer)
    active = active_players(seats, dealer)
    names = [name for name, _ in deal.tricks]
    # passes.dealer_plays_talon: the sitting-out dealer leads the talon cards and his
    # tricks (0-2) are written with everybody's (at five, only the dealer's)
    talon = dealer if t.dealer_talon and out else None
    for name in names:
        wrong = _unknown(seats, name)
        if wrong is None and name != talon:
            wrong = _sits_out(seats, dealer, name, _("takes no all-pass tricks"))
        if wrong is not None:
            return wrong
    if len(set(names)) != len(names):
        return _("a player is listed twice in the all-pass tricks")
    holding = (*active, talon) if talon is not None else active
    missing = [p for p in holding if p not in names]
    if missing:
        return _("all-pass tricks of every active player are needed: missing {missing}").format(
            missing=", ".join(missing)
        )
    for name, count in deal.tricks:
        wrong = _tricks(count, name)
        if wrong is not None:
            return wrong
        if name == talon and count > 2:
            return _(
                "{name} deals and plays only the two talon cards: at most 2 tricks, not {count}"
            ).format(name=name, count=count)
    for name in deal.blind:
        wrong = _unknown(seats, name) or _sits_out(seats, dealer, name, _("cannot pass blind"))
        if wrong is not None:
            return wrong
    if len(set(deal.blind)) != len(deal.blind):
        return _("a player is listed twice as passing blind")
    total = sum(count for _, count in deal.tricks)
    if total != 10:
        if len(seats) == 2:
            return _(
                "all-pass tricks must add up to 10, not {total} (the dummy takes no part)"
            ).format(total=total)
        return _("all-pass tricks must add up to 10, not {total}").format(total=total)
    return _said(check_looked, deal)


def _declared(t: _Table, declarer: str) -> str | None:
    """A game or a misère: dealt, declared by a known player who holds cards."""
    if t.dealer is None:
        return _("a deal needs its dealer")
    return _unknown(t.seats, declarer) or _sits_out(
        t.seats, t.dealer, declarer, _("cannot declare")
    )


def _fits_misere(t: _Table, deal: Misere) -> str | None:
    return (
        _declared(t, deal.declarer)
        or _tricks(deal.tricks, deal.declarer)
        or _said(check_looked, deal)
    )


def _fits_contract(t: _Table, deal: Contract) -> str | None:
    return _declared(t, deal.declarer) or _contract(t, deal) or _said(check_looked, deal)


def _contract(t: _Table, deal: Contract) -> str | None:
    """A game: its level, suit and tricks, its defenders and what their roles require."""
    seats, dealer, half_whist = t.seats, t.dealer, t.half_whist
    assert dealer is not None  # _declared refused a game without its dealer
    if deal.level not in LEVELS:
        return _("there is no contract level {level} (6-10)").format(level=deal.level)
    if deal.suit not in SUITS:
        return _("unknown suit '{suit}' (use s, c, d, h or nt)").format(suit=deal.suit)
    wrong = (
        _tricks(deal.tricks, "") or _defenders(seats, deal, dealer) or _talon_tricks(seats, deal)
    )
    if wrong is not None:
        return wrong
    active = active_players(seats, dealer)
    expected = [p for p in active if p != deal.declarer]
    if len(expected) == 1:
        return _gusarik(deal, expected[0], half_whist)
    names = [d.player for d in deal.defenders]
    missing = [p for p in expected if p not in names]
    if missing or len(names) != 2:
        return _("both defenders are needed: {expected}").format(expected=" and ".join(expected))
    roles = sorted(d.role for d in deal.defenders)
    if deal.returned_by is not None:
        return _dealer_return(seats, deal, dealer, roles, half_whist)
    if "r" in roles:
        return _whist_returned(deal, roles, half_whist)
    if "h" in roles:
        if roles != ["h", "p"]:
            return _("half-whist needs a passing partner (the other defender passes)")
        wrong = _half_whist(deal, half_whist)
        if wrong is None and deal.tricks is not None:
            wrong = _("a half-whisted game is not played: write its tricks as '-'")
        return wrong
    return _whisted(deal)


def _defenders(seats: tuple[str, ...], deal: Contract, dealer: str) -> str | None:
    """Each defender a known player, not the declarer, holding cards, with a known role and
    0-10 tricks; none listed twice."""
    for d in deal.defenders:
        wrong = _unknown(seats, d.player)
        if wrong is not None:
            return wrong
        if d.player == deal.declarer:
            return _("{player} declares and cannot also defend").format(player=d.player)
        wrong = _sits_out(seats, dealer, d.player, _("cannot defend"))
        if wrong is not None:
            return wrong
        if d.role not in ROLES:
            return _("unknown role '{role}' for {player} (use w, wN, p, h or r)").format(
                role=shown(d.role), player=d.player
            )
        wrong = _tricks(d.tricks, d.player)
        if wrong is not None:
            return wrong
    names = [d.player for d in deal.defenders]
    if len(set(names)) != len(names):
        return _("a defender is listed twice")
    return None


def _talon_tricks(seats: tuple[str, ...], deal: Contract) -> str | None:
    """The talon bonus: a sitting-out dealer's (at three, talon_bonus_three says: a price
    check), for 0-3 tricks."""
    if deal.talon is None:
        return None
    if len(seats) == 2:
        return _("the talon bonus is written by a sitting-out dealer: only at 4 or 5 players")
    if not 0 <= deal.talon <= 3:
        return _("the talon gives 0, 1, 2 or 3 tricks, not {talon}").format(
            talon=shown(str(deal.talon))
        )
    return None


def _whisted(deal: Contract) -> str | None:
    """Both defenders passed (the game not played), or one or two whisted: their tricks and
    the declarer's add up to 10."""
    whisters = [d for d in deal.defenders if d.role == "w"]
    if not whisters:
        if deal.tricks is not None:
            return _("both defenders passed, so the game was not played: write its tricks as '-'")
        return None
    if deal.tricks is None:
        return _("a whisted game is played: give the declarer's tricks (0-10)")
    defence = 10 - deal.tricks
    if len(whisters) == 2:
        if any(w.tricks is None for w in whisters):
            return _("two whisters: give each one's tricks, e.g. Boris:w3 Vera:w1")
        total = sum(w.tricks or 0 for w in whisters)
        if total != defence:
            return _(
                "whisters' tricks {first}+{second} and the declarer's {declared} must add up to 10"
            ).format(first=whisters[0].tricks, second=whisters[1].tricks, declared=deal.tricks)
        return None
    lone = whisters[0]
    if lone.tricks is not None and lone.tricks != defence:
        return _("{player} took {tricks} but the declarer's {declared} leave {defence}").format(
            player=lone.player, tricks=lone.tricks, declared=deal.tricks, defence=defence
        )
    passer = next(d for d in deal.defenders if d.role == "p")
    if passer.tricks not in (None, 0):
        return _("{player} passed: the lone whister takes the defence's tricks").format(
            player=passer.player
        )
    return None


def _dealer_return(
    seats: tuple[str, ...], deal: Contract, dealer: str, roles: list[Role], half_whist: bool
) -> str | None:
    """A whist returned by the sitting-out dealer after both defenders declined: both passed,
    or pass – half-whist – pass (docs/rules.md §8.4): a played game with the dealer as the
    only whister."""
    if deal.returned_by != dealer or not sitting_out(seats, dealer):
        return (
            _(
                "only the sitting-out dealer ({dealer}) can return the whist, not {returned_by}"
            ).format(dealer=dealer, returned_by=deal.returned_by)
            if sitting_out(seats, dealer)
            else _("only a sitting-out dealer (4 or 5 players) can return the whist")
        )
    if roles == ["h", "p"]:  # pass – half-whist – pass: the half-whist was not taken back
        wrong = _half_whist(deal, half_whist)
        if wrong is not None:
            return wrong
    elif roles != ["p", "p"]:
        return _(
            "the dealer returns the whist only when both defenders passed (p p) or after pass – half-whist – pass (h p)"
        )
    if deal.tricks is None:
        return _("a returned whist is played: give the declarer's tricks (0-10)")
    if any(d.tricks not in (None, 0) for d in deal.defenders):
        return _("the dealer plays the defence: the passers' tricks are not written")
    return None


def _half_whist(deal: Contract, half_whist: bool) -> str | None:
    """A half-whist is allowed by the convention and only on a 6 or a 7 (docs/rules.md §4.2)."""
    if not half_whist:
        return _("half-whist is not played under this convention (half_whist = false)")
    if deal.level > 7:
        return _("half-whist is only possible on 6 and 7, not on {level}").format(level=deal.level)
    return None


def _whist_returned(deal: Contract, roles: list[Role], half_whist: bool) -> str | None:
    """Role ``r``: the first defender returned the whist after the second's half-whist
    (docs/rules.md §8.4): a played game with the returner as the lone whister."""
    if roles != ["h", "r"]:
        return _("r (returned the whist) needs the other defender's half-whist (h)")
    wrong = _half_whist(deal, half_whist)
    if wrong is not None:
        return wrong
    if deal.tricks is None:
        return _("a returned whist is played: give the declarer's tricks (0-10)")
    returner = next(d for d in deal.defenders if d.role == "r")
    defence = 10 - deal.tricks
    if returner.tricks is not None and returner.tricks != defence:
        return _("{player} took {tricks} but the declarer's {declared} leave {defence}").format(
            player=returner.player,
            tricks=returner.tricks,
            declared=deal.tricks,
            defence=defence,
        )
    half = next(d for d in deal.defenders if d.role == "h")
    if half.tricks not in (None, 0):
        return _("{player} half-whisted: the returner takes the defence's tricks").format(
            player=half.player
        )
    return None


def _gusarik(deal: Contract, other: str, half_whist: bool) -> str | None:
    """Two players (Gusarik, docs/rules.md §8.7): the other player defends alone with the dummy:
    ``w`` (plays, answers for the whole defence), ``h`` (leaves for his tricks, 6 and 7
    only) or ``p`` (the game counts as made)."""
    if len(deal.defenders) != 1 or deal.defenders[0].player != other:
        return _(
            "two players (Gusarik): {other} is the one defender, e.g. {other}:w, {other}:h or {other}:p"
        ).format(other=other)
    lone = deal.defenders[0]
    if lone.role == "r":
        return _("r (returned the whist) needs the other defender's half-whist (h)")
    if deal.returned_by is not None:
        return _("only a sitting-out dealer (4 or 5 players) can return the whist")
    if lone.role == "h":
        if not half_whist:
            return _("half-whist is not played under this convention (half_whist = false)")
        if deal.level > 7:
            return _(
                "leaving for one's tricks (h) is only possible on 6 and 7, not on {level}"
            ).format(level=deal.level)
        if deal.tricks is not None:
            return _(
                "{other} left for own tricks, so the game was not played: write its tricks as '-'"
            ).format(other=other)
        return None
    if lone.role == "p":
        if deal.tricks is not None:
            return _("{other} passed, so the game was not played: write its tricks as '-'").format(
                other=other
            )
        return None
    if deal.tricks is None:
        return _("a whisted game is played: give the declarer's tricks (0-10)")
    defence = 10 - deal.tricks
    if lone.tricks is not None and lone.tricks != defence:
        return _("{player} took {tricks} but the declarer's {declared} leave {defence}").format(
            player=lone.player, tricks=lone.tricks, declared=deal.tricks, defence=defence
        )
    return None


GameCheck = Callable[[_Table, Any], str | None]

GAME_CHECKS: Mapping[type, GameCheck] = {
    Contract: _fits_contract,
    Misere: _fits_misere,
    AllPass: _fits_passes,
    Preference: _fits_preference,
    Adjustment: _fits_adjustment,
    Penalty: _fits_penalty,
    Join: _fits_join,
    SetTerm: _fits_term,
}
"""How each kind of entry must fit the game (known players, tricks that add up, the dealer
sitting out...), whatever the convention: the first thing wrong, as one line, or ``None``."""


# --- the deal fits the convention's rules --------------------------------------------------------

RuleCheck = Callable[[Convention, Deal], Refusal | None]


def _dark(conv: Convention, deal: Deal) -> Refusal | None:
    if isinstance(deal, Contract | Misere) and deal.dark and not conv.dark_games:
        return Refusal(
            "dark", _("a dark game is not played under this convention (dark_games = false)")
        )
    return None


def _bomb(conv: Convention, deal: Deal) -> Refusal | None:
    if (
        isinstance(deal, Contract | Misere)
        and deal.bomb is not None
        and conv.bombs_order != "declared"
    ):
        return Refusal(
            "bomb",
            _(
                "a declarer names his bomb only under bombs.order = declared (this convention: {bombs_order})"
            ).format(bombs_order=conv.bombs_order),
        )
    return None


def _preference(conv: Convention, deal: Deal) -> Refusal | None:
    if isinstance(deal, Preference) and not conv.preference_combo:
        return Refusal(
            "kind",
            _(
                "the Preference combination is not played under this convention (preference_combo = false)"
            ),
        )
    return None


def _blind(conv: Convention, deal: Deal) -> Refusal | None:
    if isinstance(deal, AllPass) and deal.blind and not conv.bombs_blind:
        return Refusal(
            "blind", _("a blind pass is not played under this convention (bombs.blind = false)")
        )
    return None


def _talon(conv: Convention, deal: Deal) -> Refusal | None:
    if isinstance(deal, Contract) and deal.talon is not None and not conv.talon_bonus:
        return Refusal(
            "talon", _("the talon bonus is not paid under this convention (talon_bonus = false)")
        )
    return None


def _talon_required(conv: Convention, deal: Deal) -> Refusal | None:
    """``talon_required`` (FSPR): no game and no misère is ordered without the talon."""
    if isinstance(deal, Contract | Misere) and deal.no_talon and conv.talon_required:
        return Refusal(
            "no_talon",
            _(
                "a game or misère is not ordered without the talon under this convention (talon_required = true)"
            ),
        )
    return None


def _returned(conv: Convention, deal: Deal) -> Refusal | None:
    if not isinstance(deal, Contract) or conv.return_whist:
        return None
    why = _("the whist is not returned under this convention (return_whist = false)")
    if deal.returned_by is not None:
        return Refusal("returned_by", why)
    for i, d in enumerate(deal.defenders):
        if d.role == "r":
            return Refusal(f"defenders[{i}].role", why)
    return None


def _six_spades(conv: Convention, deal: Deal) -> Refusal | None:
    """6♠ whisted by both defenders: always under ``stalingrad``, in the dark under
    ``dark_six_whisted`` (docs/rules.md §8.8)."""
    if not (isinstance(deal, Contract) and deal.level == 6 and deal.suit == "s"):
        return None
    rule = ""
    if conv.stalingrad:
        rule = "stalingrad"
    elif deal.dark and conv.dark_six_whisted:
        rule = "dark_six_whisted"
    if not rule:
        return None
    what = _("a dark 6♠") if rule == "dark_six_whisted" else "6♠"
    if deal.returned_by is not None:
        return Refusal(
            "returned_by",
            _(
                "{what} must be whisted by both defenders ({rule} = true): the dealer cannot return the whist"
            ).format(what=what, rule=rule),
        )
    for i, d in enumerate(deal.defenders):
        if d.role != "w":
            return Refusal(
                f"defenders[{i}].role",
                _(
                    "{what} must be whisted by both defenders ({rule} = true): {player} cannot {role}"
                ).format(
                    what=what,
                    rule=rule,
                    player=d.player,
                    role=_(_ROLE_VERB.get(d.role, N_("do that"))),
                ),
            )
    return None


_ROLE_VERB = {"p": N_("pass"), "h": N_("half-whist"), "r": N_("return the whist")}

RULE_CHECKS: tuple[RuleCheck, ...] = (
    _dark,
    _bomb,
    _preference,
    _blind,
    _talon,
    _talon_required,
    _returned,
    _six_spades,
)
"""The convention's refusals, in the order they are reported (the first one is shown)."""


def _rules(conv: Convention, deal: Deal) -> list[Refusal]:
    """What :data:`RULE_CHECKS` refuse in ``deal``, in their order."""
    found = []
    for rule in RULE_CHECKS:
        refused = rule(conv, deal)
        if refused is not None:
            found.append(refused)
    return found


# --- the convention can price the entry in its place ---------------------------------------------

Check = Callable[[Before, Convention, Entry], Finding | None]


def _circle(state: Before, conv: Convention) -> int:
    """The opening circle the next deal belongs to (1, 2...), while they last."""
    done = len(conv.bombs_opening) * state.circle_size - state.opening_left
    return done // state.circle_size + 1


def _in_opening(state: Before, entry: Entry) -> bool:
    """Whether ``entry`` is a deal of the opening circles (``bombs.opening``)."""
    return bool(state.opening_left) and entry.dealer is not None


def _opening_kind(state: Before, conv: Convention, entry: Entry) -> Finding | None:
    """The opening circles are played in all-pass deals only (docs/rules.md §8.1): another
    deal there is scored as outside them."""
    if _in_opening(state, entry) and not isinstance(entry.deal, AllPass):
        return Finding("kind", "opening_kind", (_circle(state, conv),))
    return None


def _opening_blind(state: Before, conv: Convention, entry: Entry) -> Finding | None:
    """No blind pass in an opening circle: scored without its bombs."""
    deal = entry.deal
    if isinstance(deal, AllPass) and deal.blind and _in_opening(state, entry):
        return Finding("blind", "opening_blind")
    return None


def _blind_off(state: Before, conv: Convention, entry: Entry) -> Finding | None:
    """A blind pass earns a bomb under ``bombs.blind`` only."""
    deal = entry.deal
    if (
        isinstance(deal, AllPass)
        and deal.blind
        and not conv.bombs_blind
        and not _in_opening(state, entry)
    ):
        return Finding("blind", "blind")
    return None


def _dark_off(state: Before, conv: Convention, entry: Entry) -> Finding | None:
    """A dark game counts ×2 under ``dark_games`` only."""
    deal = entry.deal
    if isinstance(deal, Contract | Misere) and deal.dark and not conv.dark_games:
        return Finding("dark", "dark")
    return None


def _bomb_named(state: Before, conv: Convention, entry: Entry) -> Finding | None:
    """A bomb named by the declarer: only under ``bombs.order = declared``, and one he holds."""
    deal = entry.deal
    if not isinstance(deal, Contract | Misere) or deal.bomb is None:
        return None
    if conv.bombs_order != "declared":
        return Finding("bomb", "bomb_order", (deal.bomb,))
    held = state.bombs[list(state.players).index(deal.declarer)]
    if deal.bomb not in held:
        return Finding("bomb", "bomb_held", (deal.declarer, deal.bomb, tuple(held)))
    return None


def _talon_off(state: Before, conv: Convention, entry: Entry) -> Finding | None:
    """The dealer's talon bonus is written under ``talon_bonus`` only."""
    deal = entry.deal
    if isinstance(deal, Contract) and deal.talon is not None and not conv.talon_bonus:
        return Finding("talon", "talon")
    return None


def _talon_three(state: Before, conv: Convention, entry: Entry) -> Finding | None:
    """At three players the talon bonus is written under ``talon_bonus_three`` only (each
    opponent half of it); otherwise it needs a sitting-out dealer."""
    deal = entry.deal
    if (
        isinstance(deal, Contract)
        and deal.talon is not None
        and conv.talon_bonus
        and len(state.players) == 3
        and not conv.talon_bonus_three
    ):
        return Finding("talon", "talon_three")
    return None


def _preference_off(state: Before, conv: Convention, entry: Entry) -> Finding | None:
    """The "Preference" combination is scored under ``preference_combo`` only."""
    if isinstance(entry.deal, Preference) and not conv.preference_combo:
        return Finding("kind", "preference")
    return None


PRICE_CHECKS: Mapping[type, tuple[Check, ...]] = {
    Contract: (_opening_kind, _dark_off, _bomb_named, _talon_off, _talon_three),
    Misere: (_opening_kind, _dark_off, _bomb_named),
    AllPass: (_opening_blind, _blind_off),
    Preference: (_opening_kind, _preference_off),
    Adjustment: (),
    Penalty: (),
    Join: (),
    SetTerm: (),
}
"""What each kind of entry may hold that the convention cannot price in its place, in the
order they are reported; the replay scores such an entry without what it cannot price."""


def _unpriced(state: Before, convention: Convention, entry: Entry) -> tuple[Finding, ...]:
    """What :data:`PRICE_CHECKS` find in ``entry`` after ``state``."""
    deal = entry.deal
    if not state.opening_left and not _priced_apart(deal):
        return ()  # the common entry (the replay asks for every one of a long night)
    found: tuple[Finding, ...] = ()
    for check in PRICE_CHECKS[deal.__class__]:
        finding = check(state, convention, entry)
        if finding is not None:
            found += (finding,)
    return found


def _priced_apart(deal: Deal) -> bool:
    """Whether ``deal`` holds anything a price check reads outside the opening circles: a
    dark game, a named bomb, a talon bonus, a blind pass, the Preference combination."""
    if isinstance(deal, Contract):
        return deal.dark or deal.bomb is not None or deal.talon is not None
    if isinstance(deal, Misere):
        return deal.dark or deal.bomb is not None
    if isinstance(deal, AllPass):
        return bool(deal.blind)
    return isinstance(deal, Preference)


def _price_in_reach(state: Before, conv: Convention, entry: Entry) -> Refusal | None:
    """An all-pass deal whose price the convention cannot reach (``passes.after_last =
    geometric`` past every amount): refused, and a replay of such a record fails the same."""
    if isinstance(entry.deal, AllPass) and not _in_opening(state, entry):
        try:
            conv.passes_price(state.streak + 1)
        except PrefcalcError as exc:
            return Refusal("tricks", exc.message)
    return None


# --- the entry fits its place in the night -------------------------------------------------------


def _below_exit(state: Before, conv: Convention, entry: Entry) -> Finding | None:
    """A contract below the exit level after all-pass deals (docs/rules.md §5)."""
    deal = entry.deal
    if isinstance(deal, Contract) and not entry.forced:
        lowest = conv.exit_level(state.streak)
        if deal.level < lowest:
            return Finding(FORCED, "below_exit", (state.streak, lowest, deal.level))
    return None


def _after_finish(state: Before, conv: Convention, entry: Entry) -> Finding | None:
    """A deal after the game finished (an adjustment, a penalty or a change of terms may
    come)."""
    if (
        state.finished
        and not entry.forced
        and not isinstance(entry.deal, Adjustment | Penalty | SetTerm)
    ):
        return Finding(FORCED, "finished")
    return None


PLACE_CHECKS: tuple[Check, ...] = (_below_exit, _after_finish)
"""The refusals of an entry in its place, in the order they are reported; an entry the table
agreed to is recorded as forced and no longer refused."""


def _out_of_place(state: Before, convention: Convention, entry: Entry) -> tuple[Finding, ...]:
    """What :data:`PLACE_CHECKS` find in ``entry`` after ``state``."""
    if entry.forced or not (state.streak or state.finished):
        return ()  # every level is allowed and the game goes on: nothing is out of place
    found: tuple[Finding, ...] = ()
    for check in PLACE_CHECKS:
        finding = check(state, convention, entry)
        if finding is not None:
            found += (finding,)
    return found


def _held(held: Sequence[int]) -> str:
    return ", ".join(f"×{b}" for b in held) or _("none")


def _below_exit_text(streak: int, lowest: int, level: int) -> str:
    return ngettext(
        "after {streak} all-pass deal the lowest contract is {min_level}, not {level} (record it as forced if the table agreed)",
        "after {streak} all-pass deals the lowest contract is {min_level}, not {level} (record it as forced if the table agreed)",
        streak if streak > 1 else 1,  # English said "0 all-pass deal"
    ).format(streak=streak, min_level=lowest, level=level)


_TELL: Mapping[str, Callable[..., str]] = {
    "opening_kind": lambda circle: _(
        "circle {circle} of the opening (bombs.opening) is played in all-pass deals only"
    ).format(circle=circle),
    "opening_blind": lambda: _("no blind pass in the opening circles (bombs.opening)"),
    "blind": lambda: _("a blind pass needs bombs.blind = true: no bomb earned"),
    "dark": lambda: _("a dark game needs dark_games = true: scored without its ×2"),
    "bomb_order": lambda bomb: _(
        "a bomb ×{bomb} named by the declarer needs bombs.order = declared: scored without the bomb"
    ).format(bomb=bomb),
    "bomb_held": lambda declarer, bomb, held: _(
        "{declarer} holds no {bomb} ×{factor} (bombs: {held})"
    ).format(declarer=declarer, bomb=bomb_name(bomb), factor=bomb, held=_held(held)),
    "talon": lambda: _("the talon bonus needs talon_bonus = true: not written"),
    "talon_three": lambda: _(
        "the talon bonus is written by a sitting-out dealer: only at 4 or 5 players (at 3 under talon_bonus_three = true): not written"
    ),
    "preference": lambda: _("the Preference combination needs preference_combo = true: not scored"),
    "below_exit": _below_exit_text,
    "finished": lambda: _("the game had already finished (record it as forced to go on)"),
}
"""How each finding is told (by its key), from its arguments."""


def join_refusal(player: str, finished: bool, opening: bool) -> str | None:
    """Why ``player`` cannot join the table now: the game has ``finished``, or the opening
    circles (``bombs.opening``) are being dealt; else ``None`` (docs/rules.md §8.7)."""
    if finished:
        return _("the game has finished: {player} cannot join it").format(player=shown(player))
    if opening:
        return _(
            "the opening circles are being dealt (bombs.opening): {player} can join once they are over"
        ).format(player=shown(player))
    return None
