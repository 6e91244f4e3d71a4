"""Legality: whether a deal may be recorded, decided in one place (docs/rules.md §8).

The record keeps what was legal at the table; only what cannot have happened, or what the
convention does not play at all, is refused. Every check is a small function that says what is
wrong and where, in the manner of a validator's flat list of checks:

- :func:`check_deal` — the deal fits the *game* (known players, tricks that add up, the
  dealer sitting out...), whatever the convention;
- :data:`RULE_CHECKS` — the deal fits the convention's *rules* (a dark game needs
  ``dark_games``, a 6♠ under ``stalingrad`` must be whisted by both...);
- :data:`PLACE_CHECKS` — the deal fits its *place* in the night (a contract below the exit
  level after all-passes, a deal after the game finished): the scoring engine applies them
  to the night it replayed and lists what they find in ``Sheet.problems``; recording refuses such a
  deal unless the table agreed (``--force``).

:func:`problems` is the one entry point for a deal about to be recorded: the API's recording
(which every front end goes through) and the ledger loader both call it; :func:`check` raises
the first refusal as the one-line :class:`~prefcalc.errors.DealError` the CLI prints. What the
scoring engine cannot price when a night is re-scored under other rules is its own report
(``Sheet.unpriced``), not a refusal of the record.
"""

from collections.abc import Callable, Sequence
from typing import NamedTuple, Protocol, assert_never

from prefcalc.errors import DealError, shown
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


class Refusal(NamedTuple):
    """What is wrong with a deal and where: ``field`` names the ledger field (``dark``,
    ``defenders[1].role``; ``""`` for the deal as a whole), ``message`` is the one line shown."""

    field: str
    message: str


class Problem(NamedTuple):
    """A deal the rules would refuse in its place (the CLI refuses to record it)."""

    number: int
    message: str

    def __str__(self) -> str:
        return _("deal {number}: {message}").format(number=self.number, message=self.message)


# --- the entry point -----------------------------------------------------------------------------


def problems(
    game: Game,
    convention: Convention,
    deal: Deal,
    dealer: str | None,
    seats: tuple[str, ...] | None = None,
) -> list[Refusal]:
    """Everything that refuses ``deal`` dealt by ``dealer`` (``None`` for an adjustment, a
    change of terms or a join) after ``game``'s entries, under ``convention``; empty when it
    may be recorded. ``seats`` is the seating at the deal (default: after all of ``game``'s
    entries). A deal that does not fit the game is refused for that alone (the rules' checks
    read a well-formed deal)."""
    try:
        check_deal(game, deal, dealer, convention.half_whist, seats)
    except DealError as exc:
        return [Refusal("", exc.message)]
    found = []
    for rule in RULE_CHECKS:
        refused = rule(convention, deal)
        if refused is not None:
            found.append(refused)
    return found


def check(
    game: Game,
    convention: Convention,
    deal: Deal,
    dealer: str | None,
    seats: tuple[str, ...] | None = None,
) -> None:
    """Raise the first of :func:`problems` as a :class:`DealError` (never forced)."""
    found = problems(game, convention, deal, dealer, seats)
    if found:
        raise DealError(found[0].message)


# --- the deal fits the game ----------------------------------------------------------------------


def _known(seats: tuple[str, ...], name: str) -> str:
    if name not in seats:
        raise DealError(
            _("unknown player '{name}' (players: {seats})").format(
                name=shown(name), seats=", ".join(seats)
            )
        )
    return name


def _tricks(value: int | None, owner: str) -> None:
    """Tricks are 0-10; ``owner`` is a name (or ``""`` for the declarer)."""
    if value is not None and not 0 <= value <= 10:
        what = _("{owner}'s tricks").format(owner=owner) if owner else _("the declarer's tricks")
        raise DealError(
            _("{what} must be 0-10 tricks, not {value}").format(what=what, value=shown(str(value)))
        )


def check_entries(game: Game, half_whist: bool = True, first: int = 1, shift: int = 0) -> None:
    """Check every entry from number ``first`` on against the seating of its moment (after a
    join is deleted or an earlier deal edited); a refusal names the deal, its number plus
    ``shift`` (the number it had before a deletion)."""
    seats = game.players
    for number, entry in enumerate(game.entries, 1):
        if number >= first:
            try:
                check_deal(game, entry.deal, entry.dealer, half_whist, seats)
            except DealError as exc:
                raise DealError(
                    exc.message, _("deal {number}").format(number=number + shift)
                ) from None
        if isinstance(entry.deal, Join):
            seats = joined(seats, entry.deal)


def _sits_out(seats: tuple[str, ...], dealer: str, name: str, what: str) -> None:
    """Refuse ``name`` doing ``what`` when he sits out the deal dealt by ``dealer``."""
    out = sitting_out(seats, dealer)
    if name not in out:
        return
    if name == dealer:
        raise DealError(
            _("{name} is the dealer and sits out this deal, so {what}").format(name=name, what=what)
        )
    raise DealError(
        _("{name} deals next and sits out this deal, so {what}").format(name=name, what=what)
    )


def check_deal(
    game: Game,
    deal: Deal,
    dealer: str | None,
    half_whist: bool = True,
    seats: tuple[str, ...] | None = None,
) -> None:
    """Raise :class:`DealError` unless ``deal`` fits ``game`` (context-free checks).

    ``seats`` is the seating when the deal is played (default: after all of ``game``'s
    entries, i.e. ``game`` holds the entries before the deal)."""
    seats = seating(game) if seats is None else seats
    if isinstance(deal, Join):
        if dealer is not None:
            raise DealError(_("a player joins between deals: a join has no dealer"))
        _check_join(seats, deal)
        return
    if dealer is not None:
        _known(seats, dealer)
    if isinstance(deal, SetTerm):
        check_term(deal)
        return
    if isinstance(deal, Adjustment):
        _known(seats, deal.player)
        for other, _amount in deal.whists:
            _known(seats, other)
            if other == deal.player:
                raise DealError(
                    _("{player} cannot write whists on himself").format(player=deal.player)
                )
        if not check_note(deal.note):
            raise DealError(_("an adjustment needs a note saying why"))
        return
    if dealer is None:
        raise DealError(_("a deal needs its dealer"))
    if isinstance(deal, Preference):
        _known(seats, deal.player)
        _sits_out(seats, dealer, deal.player, _("holds no cards to declare the Preference"))
        return
    active = active_players(game, dealer, seats)
    if isinstance(deal, AllPass):
        names = [name for name, _ in deal.tricks]
        for name in names:
            _known(seats, name)
            _sits_out(seats, dealer, name, _("takes no all-pass tricks"))
        if len(set(names)) != len(names):
            raise DealError(_("a player is listed twice in the all-pass tricks"))
        missing = [p for p in active if p not in names]
        if missing:
            raise DealError(
                _("all-pass tricks of every active player are needed: missing {missing}").format(
                    missing=", ".join(missing)
                )
            )
        for name, count in deal.tricks:
            _tricks(count, name)
        for name in deal.blind:
            _known(seats, name)
            _sits_out(seats, dealer, name, _("cannot pass blind"))
        if len(set(deal.blind)) != len(deal.blind):
            raise DealError(_("a player is listed twice as passing blind"))
        total = sum(count for _, count in deal.tricks)
        if total != 10:
            if len(seats) == 2:
                raise DealError(
                    _(
                        "all-pass tricks must add up to 10, not {total} (the dummy takes no part)"
                    ).format(total=total)
                )
            raise DealError(_("all-pass tricks must add up to 10, not {total}").format(total=total))
        return
    _known(seats, deal.declarer)
    _sits_out(seats, dealer, deal.declarer, _("cannot declare"))
    if isinstance(deal, Misere):
        _tricks(deal.tricks, deal.declarer)
    elif isinstance(deal, Contract):
        _check_contract(seats, deal, dealer, active, half_whist)
    else:
        assert_never(deal)


def _check_contract(
    seats: tuple[str, ...], deal: Contract, dealer: str, active: tuple[str, ...], half_whist: bool
) -> None:
    if deal.level not in LEVELS:
        raise DealError(_("there is no contract level {level} (6-10)").format(level=deal.level))
    if deal.suit not in SUITS:
        raise DealError(_("unknown suit '{suit}' (use s, c, d, h or nt)").format(suit=deal.suit))
    _tricks(deal.tricks, "")
    names = [d.player for d in deal.defenders]
    for d in deal.defenders:
        _known(seats, d.player)
        if d.player == deal.declarer:
            raise DealError(_("{player} declares and cannot also defend").format(player=d.player))
        _sits_out(seats, dealer, d.player, _("cannot defend"))
        if d.role not in ROLES:
            raise DealError(
                _("unknown role '{role}' for {player} (use w, wN, p, h or r)").format(
                    role=shown(d.role), player=d.player
                )
            )
        _tricks(d.tricks, d.player)
    if len(set(names)) != len(names):
        raise DealError(_("a defender is listed twice"))
    if deal.talon is not None:
        if not sitting_out(seats, dealer):
            raise DealError(
                _("the talon bonus is written by a sitting-out dealer: only at 4 or 5 players")
            )
        if not 0 <= deal.talon <= 3:
            raise DealError(
                _("--talon is 0, 1, 2 or 3 tricks, not {talon}").format(
                    talon=shown(str(deal.talon))
                )
            )
    expected = [p for p in active if p != deal.declarer]
    if len(expected) == 1:
        _check_gusarik(deal, expected[0], half_whist)
        return
    missing = [p for p in expected if p not in names]
    if missing or len(names) != 2:
        raise DealError(
            _("both defenders are needed: {expected}").format(expected=" and ".join(expected))
        )
    roles = sorted(d.role for d in deal.defenders)
    if deal.returned_by is not None:
        _check_dealer_return(seats, deal, dealer, roles)
        return
    if "r" in roles:
        _check_returned(deal, roles, half_whist)
        return
    whisters = [d for d in deal.defenders if d.role == "w"]
    if "h" in roles:
        if roles != ["h", "p"]:
            raise DealError(_("half-whist needs a passing partner (the other defender passes)"))
        _check_half_whist(deal, half_whist)
        if deal.tricks is not None:
            raise DealError(_("a half-whisted game is not played: write its tricks as '-'"))
        return
    if not whisters:
        if deal.tricks is not None:
            raise DealError(
                _("both defenders passed, so the game was not played: write its tricks as '-'")
            )
        return
    if deal.tricks is None:
        raise DealError(_("a whisted game is played: give the declarer's tricks (0-10)"))
    defence = 10 - deal.tricks
    if len(whisters) == 2:
        if any(w.tricks is None for w in whisters):
            raise DealError(_("two whisters: give each one's tricks, e.g. Boris:w3 Vera:w1"))
        total = sum(w.tricks or 0 for w in whisters)
        if total != defence:
            raise DealError(
                _(
                    "whisters' tricks {first}+{second} and the declarer's {declared} must add up to 10"
                ).format(first=whisters[0].tricks, second=whisters[1].tricks, declared=deal.tricks)
            )
    else:
        lone = whisters[0]
        if lone.tricks is not None and lone.tricks != defence:
            raise DealError(
                _("{player} took {tricks} but the declarer's {declared} leave {defence}").format(
                    player=lone.player, tricks=lone.tricks, declared=deal.tricks, defence=defence
                )
            )
        passer = next(d for d in deal.defenders if d.role == "p")
        if passer.tricks not in (None, 0):
            raise DealError(
                _("{player} passed: the lone whister takes the defence's tricks").format(
                    player=passer.player
                )
            )


def _check_dealer_return(
    seats: tuple[str, ...], deal: Contract, dealer: str, roles: list[Role]
) -> None:
    """A whist returned by the sitting-out dealer after both defenders passed (docs/rules.md §8.4):
    a played game with the dealer as the only whister."""
    if deal.returned_by != dealer or not sitting_out(seats, dealer):
        raise DealError(
            _(
                "only the sitting-out dealer ({dealer}) can return the whist, not {returned_by}"
            ).format(dealer=dealer, returned_by=deal.returned_by)
            if sitting_out(seats, dealer)
            else _("only a sitting-out dealer (4 or 5 players) can return the whist")
        )
    if roles != ["p", "p"]:
        raise DealError(_("the dealer returns the whist only when both defenders passed (p p)"))
    if deal.tricks is None:
        raise DealError(_("a returned whist is played: give the declarer's tricks (0-10)"))
    if any(d.tricks not in (None, 0) for d in deal.defenders):
        raise DealError(_("the dealer plays the defence: the passers' tricks are not written"))


def _check_half_whist(deal: Contract, half_whist: bool) -> None:
    """A half-whist is allowed by the convention and only on a 6 or a 7 (docs/rules.md §4.2)."""
    if not half_whist:
        raise DealError(_("half-whist is not played under this convention (half_whist = false)"))
    if deal.level > 7:
        raise DealError(
            _("half-whist is only possible on 6 and 7, not on {level}").format(level=deal.level)
        )


def _check_returned(deal: Contract, roles: list[Role], half_whist: bool) -> None:
    """Role ``r``: the first defender returned the whist after the second's half-whist
    (docs/rules.md §8.4): a played game with the returner as the lone whister."""
    if roles != ["h", "r"]:
        raise DealError(_("r (returned the whist) needs the other defender's half-whist (h)"))
    _check_half_whist(deal, half_whist)
    if deal.tricks is None:
        raise DealError(_("a returned whist is played: give the declarer's tricks (0-10)"))
    returner = next(d for d in deal.defenders if d.role == "r")
    defence = 10 - deal.tricks
    if returner.tricks is not None and returner.tricks != defence:
        raise DealError(
            _("{player} took {tricks} but the declarer's {declared} leave {defence}").format(
                player=returner.player,
                tricks=returner.tricks,
                declared=deal.tricks,
                defence=defence,
            )
        )
    half = next(d for d in deal.defenders if d.role == "h")
    if half.tricks not in (None, 0):
        raise DealError(
            _("{player} half-whisted: the returner takes the defence's tricks").format(
                player=half.player
            )
        )


def _check_gusarik(deal: Contract, other: str, half_whist: bool) -> None:
    """Two players (Gusarik, docs/rules.md §8.7): the other player defends alone with the dummy:
    ``w`` (plays, answers for the whole defence), ``h`` (leaves for his tricks, 6 and 7
    only) or ``p`` (the game counts as made)."""
    if len(deal.defenders) != 1 or deal.defenders[0].player != other:
        raise DealError(
            _(
                "two players (Gusarik): {other} is the one defender, e.g. {other}:w, {other}:h or {other}:p"
            ).format(other=other)
        )
    lone = deal.defenders[0]
    if lone.role == "r":
        raise DealError(_("r (returned the whist) needs the other defender's half-whist (h)"))
    if deal.returned_by is not None:
        raise DealError(_("only a sitting-out dealer (4 or 5 players) can return the whist"))
    if lone.role == "h":
        if not half_whist:
            raise DealError(
                _("half-whist is not played under this convention (half_whist = false)")
            )
        if deal.level > 7:
            raise DealError(
                _(
                    "leaving for one's tricks (h) is only possible on 6 and 7, not on {level}"
                ).format(level=deal.level)
            )
        if deal.tricks is not None:
            raise DealError(
                _(
                    "{other} left for own tricks, so the game was not played: write its tricks as '-'"
                ).format(other=other)
            )
        return
    if lone.role == "p":
        if deal.tricks is not None:
            raise DealError(
                _("{other} passed, so the game was not played: write its tricks as '-'").format(
                    other=other
                )
            )
        return
    if deal.tricks is None:
        raise DealError(_("a whisted game is played: give the declarer's tricks (0-10)"))
    defence = 10 - deal.tricks
    if lone.tricks is not None and lone.tricks != defence:
        raise DealError(
            _("{player} took {tricks} but the declarer's {declared} leave {defence}").format(
                player=lone.player, tricks=lone.tricks, declared=deal.tricks, defence=defence
            )
        )


def _check_join(seats: tuple[str, ...], join: Join) -> None:
    """A late arrival (docs/rules.md §8.7, §8.8): up to five players, a new name, after a
    seated one."""
    if len(seats) >= MAX_PLAYERS:
        raise DealError(
            _("the table is full: {MAX_PLAYERS} players at most ({seats})").format(
                MAX_PLAYERS=MAX_PLAYERS, seats=", ".join(seats)
            )
        )
    key = name_key(join.player)
    taken = next((p for p in seats if name_key(p) == key), None)
    if taken is not None:
        raise DealError(
            _("'{player}' cannot join: {taken} already plays").format(
                player=shown(join.player), taken=taken
            )
        )
    if join.after is not None:
        _known(seats, join.after)
    check_players(joined(seats, join))


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
                "--bomb names a bomb only under bombs.order = declared (this convention: {bombs_order})"
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
    _returned,
    _six_spades,
)
"""The convention's refusals, in the order they are reported (the first one is shown)."""


# --- the deal fits its place in the night --------------------------------------------------------


class Row(Protocol):
    """What the replay knows of every entry (a :class:`prefcalc.rules.scoring.Scored`): its
    number, the entry, the all-pass deals in a row after it, the lowest contract allowed when
    it came and whether the game had finished after it."""

    @property
    def number(self) -> int: ...
    @property
    def entry(self) -> Entry: ...
    @property
    def streak(self) -> int: ...
    @property
    def min_level(self) -> int: ...
    @property
    def finished(self) -> bool: ...


PlaceCheck = Callable[[Sequence[Row]], list[Problem]]


def _below_exit(rows: Sequence[Row]) -> list[Problem]:
    """A contract below the exit level after all-pass deals (docs/rules.md §5)."""
    found = []
    streak = 0  # the all-pass deals in a row before the row
    for row in rows:
        deal = row.entry.deal
        if isinstance(deal, Contract) and deal.level < row.min_level and not row.entry.forced:
            found.append(
                Problem(
                    row.number,
                    ngettext(
                        "after {streak} all-pass deal the lowest contract is {min_level}, not {level} (record it as forced if the table agreed)",
                        "after {streak} all-pass deals the lowest contract is {min_level}, not {level} (record it as forced if the table agreed)",
                        streak if streak > 1 else 1,  # English said "0 all-pass deal"
                    ).format(
                        streak=streak,
                        min_level=row.min_level,
                        level=deal.level,
                    ),
                )
            )
        streak = row.streak
    return found


def _after_finish(rows: Sequence[Row]) -> list[Problem]:
    """A deal after the game finished (an adjustment or a change of terms may come)."""
    found = []
    finished = False  # whether the game had finished before the row
    for row in rows:
        entry = row.entry
        if finished and not entry.forced and not isinstance(entry.deal, Adjustment | SetTerm):
            found.append(
                Problem(
                    row.number, _("the game had already finished (record it as forced to go on)")
                )
            )
        finished = row.finished
    return found


PLACE_CHECKS: tuple[PlaceCheck, ...] = (_below_exit, _after_finish)
"""The refusals of a deal in its place, in the order they are reported for one deal; a deal
the table agreed to is recorded as forced and no longer refused."""


def out_of_place(rows: Sequence[Row]) -> list[Problem]:
    """What :data:`PLACE_CHECKS` find wrong with the replayed entries, by deal number (the
    scoring engine asks once it has replayed a night; recording refuses a new problem unless
    forced)."""
    found: list[Problem] = []
    for rule in PLACE_CHECKS:
        found.extend(rule(rows))
    found.sort(key=_number)  # stable: one deal's problems stay in the checks' order
    return found


def _number(problem: Problem) -> int:
    return problem.number


def join_refusal(player: str, finished: bool, opening: bool) -> str | None:
    """Why ``player`` cannot join the table now: the game has ``finished``, or the opening
    circles (``bombs.opening``) are being dealt; else ``None`` (docs/rules.md §8.7)."""
    if finished:
        return _("the game has finished: {player} cannot join it").format(player=shown(player))
    if opening:
        return (
            f"the opening circles are being dealt (bombs.opening): {shown(player)} can join "
            "once they are over"
        )
    return None


def new_problems(found: Sequence[Problem], before: Sequence[Problem], first: int) -> list[Problem]:
    """The problems of ``found`` from deal number ``first`` on that were not there ``before``
    the change (the same deals, numbered as after it): a change is refused for what it
    breaks, never for what the record already held."""
    was = set(before)
    return [p for p in found if p.number >= first and p not in was]
