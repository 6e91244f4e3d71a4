"""The table's shorthand, parsed into deals with precise errors.

Forms (the same words as the CLI commands)::

    game Anna 7h 7 Boris:w Vera:p        a contract: declarer, contract, tricks, defenders
    game Anna 6s 5 Boris:w3 Vera:w2      two whisters with their tricks (first listed spoke first)
    game Anna 6d - Boris:p Vera:h        not played: both passed, or a half-whist
    misere Anna 0                        a misère and the declarer's tricks
    passes Anna=2 Boris=5 Vera=3         an all-pass deal
    adjust Anna --pool 2 --mountain 4 --whists Boris=10 --note "peeked at the talon"
    penalty Anna peek                    a penalty of the Code: 5 into Anna's mountain
    penalty Anna cards 8h 2              «без двух» on 8♥ (a remise on the contract)
    game Anna 6s 6 Boris:w Vera:p --looked Boris   Boris loses a trick for looking at one

Player names may be abbreviated to any unique prefix, in any case (``a`` for Anna).

This is the one grammar: text becomes a typed value here, once. :func:`split_deal` splits a
deal's words into its kind, its words and its typed :class:`DealFlags` (every flag checked
and "given twice" refused in :func:`split_flags`, the one place the options' spellings are
known); :func:`read` makes the deal of them against the seating. :func:`parse_words` does
both. Nothing below (legality, scoring, the record) knows how an option is spelled.
"""

import re
import shlex
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, assert_never

from prefcalc.errors import DealError, NotationError, shown
from prefcalc.i18n import N_, _
from prefcalc.rules import lexicon
from prefcalc.rules.amounts import Amount, AmountError, exact_text, parse_amount, parse_whole
from prefcalc.rules.model import (
    SET_KEYS,
    Adjustment,
    AllPass,
    Contract,
    Deal,
    Defender,
    Join,
    Misere,
    Penalty,
    Preference,
    SetTerm,
    Suit,
    check_note,
    check_term,
    name_key,
)
from prefcalc.rules.penalties import DEFAULT_POINTS, DEFAULT_UNDERTRICKS

_CONTRACT = re.compile(r"^(\d+)(.*)$")
_ROLE = re.compile(r"^(\D*?)(\d+)?$")
"""An answer and a whister's tricks: ``w3``, ``в3``, ``вист3``; the words are the lexicon's."""


def resolve_player(word: str, players: Sequence[str]) -> str:
    """A player by exact name, the same name (:func:`~prefcalc.rules.model.name_key`: any case,
    NFC or NFD, invisible characters ignored), or a unique prefix of it; failing these, the
    same with ё read as е (a Russian typist writes Алёна as «Алена»)."""
    if word in players:
        return word
    folded = name_key(word)
    same = [p for p in players if name_key(p) == folded]
    if len(same) == 1:
        return same[0]
    starts = [p for p in players if name_key(p).startswith(folded)] if folded else []
    if not same and not starts and "е" in folded:
        # ё is mostly typed as е: «Алена» is Алёна, when no player is written with е there
        plain = folded.replace("ё", "е")
        starts = [p for p in players if name_key(p).replace("ё", "е").startswith(plain)]
        exact = [p for p in starts if name_key(p).replace("ё", "е") == plain]
        if len(exact) == 1:
            return exact[0]
    if len(starts) == 1:
        return starts[0]
    if len(starts) > 1:
        raise NotationError(
            _("'{word}' could be {starts}: type more of the name").format(
                word=shown(word), starts=_(" or ").join(starts)
            )
        )
    raise NotationError(
        _("unknown player '{word}' (players: {players})").format(
            word=shown(word), players=", ".join(players)
        )
    )


def parse_contract(text: str) -> tuple[int, Suit]:
    """``7h`` -> ``(7, "h")``; also ``10nt``, ``6♠``, ``8NT``."""
    match = _CONTRACT.match(text.strip())
    if not match:
        raise NotationError(
            _("cannot read contract '{text}' (write the level and suit, e.g. 7h, 6s, 10nt)").format(
                text=shown(text)
            )
        )
    digits = match.group(1)
    level = int(digits) if len(digits) <= 3 else -1  # no int() of a huge digit string
    suit_text = match.group(2)
    if level not in (6, 7, 8, 9, 10):
        shown_level = level if level >= 0 else shown(digits, 12)
        raise NotationError(
            _("there is no contract level {shown_level} in '{text}' (levels are 6-10)").format(
                shown_level=shown_level, text=shown(text)
            )
        )
    if not suit_text:
        raise NotationError(
            _("contract '{text}' has no suit (use s, c, d, h or nt)").format(text=shown(text))
        )
    suit = lexicon.suit_of(suit_text)
    if suit is None:
        raise NotationError(
            _("unknown suit '{suit_text}' in contract '{text}' (use s, c, d, h or nt)").format(
                suit_text=shown(suit_text), text=shown(text)
            )
        )
    return level, suit


def parse_tricks(text: str, what: str = N_("tricks"), allow_dash: bool = False) -> int | None:
    """``7`` -> 7; ``-`` -> None when the game was not played."""
    if allow_dash and text.strip() in ("-", "—", "–"):
        return None
    try:
        value = parse_whole(text)
    except AmountError:
        hint = _(" or '-' if the game was not played") if allow_dash else ""
        raise NotationError(
            _("{what} must be a number 0-10{hint}, not '{text}'").format(
                what=_(what), hint=hint, text=shown(text)
            )
        ) from None
    if not 0 <= value <= 10:
        raise NotationError(_("{what} must be 0-10, not {value}").format(what=_(what), value=value))
    return value


def parse_defender(text: str, players: Sequence[str]) -> Defender:
    """``Boris:w``, ``Boris:w3``, ``Vera:p``, ``Vera:h`` or ``Gleb:r``; the answer in either
    language and in the words prefcalc prints it with too (``Вера:в``, ``Вера:вист3``,
    ``Гена:ПАС``, ``Боря:полвиста``: :func:`~prefcalc.rules.lexicon.role_of`). A refusal
    names the player as the table declines him (``у Веры``), not as typed."""
    name, sep, role = text.partition(":")
    if not sep:
        raise NotationError(
            _("cannot read defender '{text}' (write NAME:w, NAME:w3, NAME:p or NAME:h)").format(
                text=shown(text)
            )
        )
    player = resolve_player(name, players)
    match = _ROLE.match(role.strip())
    answer = lexicon.role_of(match.group(1)) if match and match.group(1).strip() else None
    if match is None or answer is None:
        raise NotationError(
            _(
                "unknown role '{role}' for {name} (use w, wN for whist with N tricks, p or h)"
            ).format(role=shown(role), name=player)
        )
    tricks = None
    if match.group(2) is not None:
        if answer not in ("w", "r"):
            raise NotationError(
                _("only a whister's tricks are written ('{text}')").format(text=shown(text))
            )
        tricks = parse_tricks(match.group(2), _("{name}'s tricks").format(name=player))
    return Defender(player, answer, tricks)


_GAME_FLAGS = ("--dark", "--no-talon", "--bomb", "--talon", "--returned-by", "--looked")
_MISERE_FLAGS = ("--dark", "--no-talon", "--bomb", "--looked")
FLAGS_OF = {
    "game": (_GAME_FLAGS, N_("a contract")),
    "misere": (_MISERE_FLAGS, N_("a misère")),
    "passes": (("--blind", "--looked"), N_("an all-pass deal")),
}
"""The flags each kind of deal takes, and how a refusal names the kind."""

NOTATION_FLAGS = (
    "--dark",
    "--no-talon",
    "--bomb",
    "--talon",
    "--returned-by",
    "--blind",
    "--looked",
)
"""The flags a deal's words may carry (Classic, docs/rules.md §8): front ends pass them on."""

_ATTRIBUTES = {
    "--dark": "dark",
    "--no-talon": "no_talon",
    "--bomb": "bomb",
    "--talon": "talon",
    "--returned-by": "returned_by",
    "--blind": "blind",
    "--looked": "looked",
}
"""Each flag's attribute of :class:`DealFlags` (the only place the spellings are known)."""
_VALUED = frozenset({"--bomb", "--blind", "--talon", "--returned-by", "--looked"})
"""Flags followed by a value (``--bomb 4`` or ``--bomb=4``)."""


def _bad_bomb(text: str) -> NotationError:
    return NotationError(
        _("--bomb takes a bomb's factor (2, 4, 8...), not '{text}'").format(text=shown(text))
    )


def _bad_talon(text: str) -> NotationError:
    return NotationError(_("--talon is 0, 1, 2 or 3 tricks, not '{text}'").format(text=shown(text)))


@dataclass(frozen=True)
class DealFlags:
    """The flags of a game, misère or all-pass deal (Classic, docs/rules.md §8), typed and
    checked: found among a deal's words by :func:`split_flags`, or given typed by a front end
    (the CLI's options). ``returned_by`` and ``blind`` are names as typed (a unique prefix
    will do); the deal resolves them against the seating when it is read."""

    dark: bool = False
    """``--dark``: ordered blind, the deal counts ×2."""
    no_talon: bool = False
    """``--no-talon``: played without the talon."""
    bomb: int | None = None
    """``--bomb F``: the factor of the bomb the declarer names (2, 4, 8...)."""
    talon: int | None = None
    """``--talon N``: the tricks the talon gave the declarer (0-3, two aces count 3)."""
    returned_by: str | None = None
    """``--returned-by NAME``: the sitting-out dealer who returned the whist."""
    blind: tuple[str, ...] = ()
    """``--blind A,B``: the players who passed blind."""
    looked: tuple[str, ...] = ()
    """``--looked A,B``: the players who looked at a trick other than the last (the Code,
    3.9.11.2): each loses a trick of the deal."""

    def __post_init__(self) -> None:
        if self.bomb is not None and not _is_bomb(self.bomb):
            raise _bad_bomb(str(self.bomb))
        if self.talon is not None and not 0 <= self.talon <= 3:
            raise _bad_talon(str(self.talon))

    def given(self) -> tuple[str, ...]:
        """The flags given, as the notation spells them (``("--dark", "--bomb")``)."""
        return tuple(
            key for key, attribute in _ATTRIBUTES.items() if _set(getattr(self, attribute))
        )


NO_FLAGS = DealFlags()


def _set(value: object) -> bool:
    """Whether a flag's value says it was given (``talon = 0`` was)."""
    return value is not None and value is not False and value != ()


def blind_names(text: str) -> tuple[str, ...]:
    """``A,B`` (the value of ``--blind``) -> ``("A", "B")``, the names as typed."""
    names = tuple(part.strip() for part in text.split(",") if part.strip())
    if not names:
        raise NotationError(_("--blind needs the names of the players who passed blind"))
    return names


def looked_names(text: str) -> tuple[str, ...]:
    """``A,B`` (the value of ``--looked``) -> ``("A", "B")``, the names as typed."""
    names = tuple(part.strip() for part in text.split(",") if part.strip())
    if not names:
        raise NotationError(
            _("--looked needs the names of the players who looked at a trick other than the last")
        )
    return names


def _flag_value(key: str, text: str) -> Any:
    """A valued flag's word typed, as its attribute holds it."""
    if key == "--blind":
        return blind_names(text)
    if key == "--looked":
        return looked_names(text)
    if key == "--returned-by":
        return text
    try:
        value = parse_whole(text)
    except AmountError:
        raise (_bad_bomb(text) if key == "--bomb" else _bad_talon(text)) from None
    if key == "--bomb" and not _is_bomb(value):
        raise _bad_bomb(text)
    if key == "--talon" and not 0 <= value <= 3:
        raise _bad_talon(text)
    return value


def _is_bomb(factor: int) -> bool:
    """A bomb's factor: 2, 4, 8... up to 1024."""
    return 2 <= factor <= 1024 and not factor & (factor - 1)


def split_flags(
    words: Sequence[str], allowed: Sequence[str], what: str, given: DealFlags = NO_FLAGS
) -> tuple[list[str], DealFlags]:
    """The words of a deal without its flags, and the flags: those ``given`` typed and those
    found among the words (``--dark``, ``--bomb 4``, ``--bomb=4``), each checked and typed
    here, once; a flag given twice (in the words or typed and in the words) is refused."""
    rest: list[str] = []
    found: dict[str, Any] = {}
    taken = set(given.given())
    queue = list(words)
    while queue:
        word = queue.pop(0)
        if not (word.startswith("--") and len(word) > 2):
            rest.append(word)
            continue
        key, eq, inline = word.partition("=")
        key = key.lower()
        if key not in allowed:
            raise NotationError(
                _("unknown option '{word}' for {what} (use {allowed})").format(
                    word=shown(word), what=_(what), allowed=", ".join(allowed)
                )
            )
        if key in taken:
            raise NotationError(_("{key} is given twice").format(key=key))
        taken.add(key)
        if key in _VALUED:
            if eq:
                text = inline
            elif queue:
                text = queue.pop(0)
            else:
                raise NotationError(_("{key} needs a value").format(key=key))
            found[_ATTRIBUTES[key]] = _flag_value(key, text)
        elif eq:
            raise NotationError(_("{key} takes no value").format(key=key))
        else:
            found[_ATTRIBUTES[key]] = True
    return rest, replace(given, **found) if found else given


@dataclass(frozen=True)
class DealWords:
    """A deal as written, split once: its ``kind`` (one of :data:`KINDS`, or the word typed
    when it names none), its words without the flags, and its flags, typed. :func:`read`
    makes the deal of it once the seating is known (under the ledger's lock: who holds
    cards, for ``passes 2 5 3``, depends on the dealer)."""

    kind: str
    words: tuple[str, ...]
    flags: DealFlags = NO_FLAGS


def split_deal(words: Sequence[str], given: DealFlags = NO_FLAGS) -> DealWords:
    """A deal's words, kind first (``["game", "Anna", "7h", "7", "Boris:w", "Vera:p",
    "--dark"]``), split into its kind, words and flags (``given``: flags typed by a front
    end, as if written among the words)."""
    if words and "=" in words[0] and lexicon.read("terms", words[0].partition("=")[0]):
        words = ["set", *words]  # a change of terms said bare: ``пуля=30``, ``цена=0,5``
    if not words:
        kind = ""
        rest: list[str] = []
    else:
        kind = lexicon.kind_of(words[0]) or words[0]
        rest = list(words[1:])
    if kind in FLAGS_OF:
        allowed, what = FLAGS_OF[kind]
        rest, given = split_flags(rest, allowed, what, given)
    elif given != NO_FLAGS:
        raise NotationError(
            _("{flags}: not for {value}").format(
                flags=", ".join(given.given()), value=kind or _("this deal")
            )
        )
    return DealWords(kind, tuple(rest), given)


def parse_game(
    words: Sequence[str],
    players: Sequence[str],
    active: Sequence[str] | None = None,
    flags: DealFlags = NO_FLAGS,
) -> Contract:
    """``Anna 7h 7 Boris:w Vera:p`` (the words without the flags). With three players
    holding cards (``active``, default every player at a 3-player table), a defender left out
    passes: ``Anna 6s 6 Boris:w`` is ``Anna 6s 6 Boris:w Vera:p``."""
    if len(players) == 2 and len(words) != 4:
        raise NotationError(
            _(
                "two players (Gusarik): a contract needs DECLARER CONTRACT TRICKS DEFENDER:ROLE, e.g. Anna 6s 5 Boris:w"
            )
        )
    if len(players) != 2 and len(words) == 4:
        words = [*words, *_implied_passer(words, players, active)]
    if len(players) != 2 and len(words) != 5:
        raise NotationError(
            _(
                "a contract needs DECLARER CONTRACT TRICKS DEFENDER:ROLE DEFENDER:ROLE, e.g. Anna 7h 7 Boris:w Vera:p"
            )
        )
    declarer = resolve_player(words[0], players)
    level, suit = parse_contract(words[1])
    tricks = parse_tricks(words[2], _("the declarer's tricks"), allow_dash=True)
    defenders = tuple(parse_defender(w, players) for w in words[3:])
    returned_by = None if flags.returned_by is None else resolve_player(flags.returned_by, players)
    roles = sorted(d.role for d in defenders)
    if returned_by is None and len(defenders) == 2 and roles in (["p", "p"], ["h", "p"]):
        _check_not_played(level, tricks, half=roles == ["h", "p"])
        tricks = None
    return Contract(
        declarer,
        level,
        suit,
        tricks,
        defenders,
        dark=flags.dark,
        no_talon=flags.no_talon,
        bomb=flags.bomb,
        talon=flags.talon,
        returned_by=returned_by,
        looked=_looked(flags, players),
    )


def _looked(flags: DealFlags, players: Sequence[str]) -> tuple[str, ...]:
    return tuple(resolve_player(name, players) for name in flags.looked)


def _check_not_played(level: int, tricks: int | None, half: bool = False) -> None:
    """A game both defenders passed, or one passed and the other half-whisted (``half``), is
    not played: its tricks are written ``-``, or as the contract itself (the declarer's own
    count, ``о 8б 8 л:п``, ``а 7бк 7 г:п б:пв``), recorded as not played."""
    if tricks is not None and tricks != level:
        raise NotationError(
            (
                _(
                    "a half-whisted game is not played: write its tricks as '-' (or {level}, the contract), not {tricks}"
                )
                if half
                else _(
                    "both defenders passed, so the game was not played: write its tricks as '-' (or {level}, the contract), not {tricks}"
                )
            ).format(level=level, tricks=tricks)
        )


def _implied_passer(
    words: Sequence[str], players: Sequence[str], active: Sequence[str] | None
) -> list[str]:
    """``[NAME:p]`` for the one active player neither declaring nor named as a defender in
    a contract written with one defender; ``[]`` when that is not exactly one player (the
    caller then refuses the line as too short)."""
    holding = players if active is None and len(players) == 3 else active
    if not holding or len(holding) != 3:
        return []
    try:
        named = {resolve_player(words[0], players), parse_defender(words[3], players).player}
    except NotationError:
        return []  # the full parse names the mistake
    left = [p for p in holding if p not in named]
    return [f"{left[0]}:p"] if len(left) == 1 else []


def parse_misere(
    words: Sequence[str], players: Sequence[str], flags: DealFlags = NO_FLAGS
) -> Misere:
    """``Anna 0`` (the words without the flags)."""
    if len(words) != 2:
        raise NotationError(_("a misère needs DECLARER TRICKS, e.g. misere Anna 0"))
    return Misere(
        resolve_player(words[0], players),
        parse_tricks(words[1], _("the misère tricks")) or 0,
        dark=flags.dark,
        no_talon=flags.no_talon,
        bomb=flags.bomb,
        looked=_looked(flags, players),
    )


def parse_passes(
    words: Sequence[str],
    players: Sequence[str],
    active: Sequence[str] | None = None,
    flags: DealFlags = NO_FLAGS,
) -> AllPass:
    """``Anna=2 Boris=5 Vera=3``, or the bare tricks ``2 5 3`` of the ``active`` players
    (those who take tricks in this deal) in the order they play: from the hand after the
    dealer round the table (:func:`~prefcalc.rules.model.play_order`), as a scorer reads
    them out, and recorded in seating order like the named ones; ``flags.blind`` names the
    players who passed blind (Classic bombs)."""
    if not words:
        raise NotationError(
            _("an all-pass deal needs every active player's tricks, e.g. Anna=2 Boris=5 Vera=3")
        )
    tricks: list[tuple[str, int]] = []
    if active is not None and all("=" not in w for w in words):
        if len(words) != len(active):
            raise NotationError(
                _(
                    "{count} trick counts for {count2} players in the deal: give one each, from the hand after the dealer ({active})"
                ).format(count=len(words), count2=len(active), active=", ".join(active))
            )
        for name, word in zip(active, words, strict=True):
            tricks.append((name, parse_tricks(word, _("{name}'s tricks").format(name=name)) or 0))
        seat = {name: k for k, name in enumerate(players)}
        tricks.sort(key=lambda pair: seat.get(pair[0], len(seat)))  # recorded in seating order
    else:
        for word in words:
            name, sep, count = word.partition("=")
            if not sep:
                raise NotationError(
                    _("cannot read '{word}' (write NAME=TRICKS, e.g. Anna=2)").format(
                        word=shown(word)
                    )
                )
            player = resolve_player(name, players)
            tricks.append(
                (player, parse_tricks(count, _("{name}'s tricks").format(name=player)) or 0)
            )
    return AllPass(
        tuple(tricks),
        tuple(resolve_player(name, players) for name in flags.blind),
        _looked(flags, players),
    )


def parse_whists(pairs: Sequence[str], players: Sequence[str]) -> tuple[tuple[str, Amount], ...]:
    out: list[tuple[str, Amount]] = []
    for pair in pairs:
        name, sep, amount = pair.partition("=")
        if not sep:
            raise NotationError(
                _("cannot read whists '{pair}' (write OTHER=N, e.g. Boris=10)").format(
                    pair=shown(pair)
                )
            )
        player = resolve_player(name, players)
        out.append((player, _amount(amount, _("whists on {name}").format(name=player))))
    return tuple(out)


def _amount(text: str, what: str) -> Amount:
    try:
        return parse_amount(text, typed=True)
    except AmountError as exc:
        raise NotationError(exc.about(what)) from None


def parse_adjust(words: Sequence[str], players: Sequence[str]) -> Adjustment:
    """``Anna --pool 2 --mountain -4 --whists Boris=10 --note "text"``."""
    if not words:
        raise NotationError(_("an adjustment needs a PLAYER"))
    player = resolve_player(words[0], players)
    pool: Amount = 0
    mountain: Amount = 0
    whists: list[str] = []
    note = ""
    rest = list(words[1:])
    while rest:
        flag = rest.pop(0)
        key, eq, inline = flag.partition("=")
        if key not in ("--pool", "--mountain", "--whists", "--note"):
            raise NotationError(
                _(
                    "unknown adjustment option '{flag}' (use --pool, --mountain, --whists, --note)"
                ).format(flag=shown(flag))
            )
        if eq:
            value = inline
        elif rest:
            value = rest.pop(0)
        else:
            raise NotationError(_("{key} needs a value").format(key=shown(key)))
        if key == "--pool":
            pool = _amount(value, "--pool")
        elif key == "--mountain":
            mountain = _amount(value, "--mountain")
        elif key == "--whists":
            whists.append(value)
        else:
            note = value
    return make_adjustment(player, pool, mountain, whists, note, players)


def make_adjustment(
    player: str,
    pool: Amount,
    mountain: Amount,
    whists: Sequence[str],
    note: str,
    players: Sequence[str],
) -> Adjustment:
    if not (pool or mountain or whists):
        raise NotationError(_("an adjustment needs --pool, --mountain or --whists"))
    note = check_note(note)
    if not note:
        raise NotationError(_("an adjustment needs --note saying why"))
    return Adjustment(player, pool, mountain, parse_whists(whists, players), note)


PENALTY_USAGE = N_(
    "penalty PLAYER KIND [N]: peek [N] (5), dealing [N] (5), illegal CONTRACT, cards CONTRACT [N] (2), miscount CONTRACT [N] (2), entry N [OTHER]"
)


def parse_penalty(words: Sequence[str], players: Sequence[str]) -> Penalty:
    """``Anna peek``, ``Anna peek 3``, ``Anna dealing 5``, ``Anna illegal 8h`` («без всех»),
    ``Anna cards 8h 2``, ``Anna miscount 7s 3``, ``Anna entry 8 Boris`` (the excess Anna wrote
    on Boris, written back on her) or ``Anna entry 8`` (into her mountain): a penalty of the
    Code (docs/rules.md §8.10), its defaults filled in (the record holds the number used)."""
    if len(words) < 2:
        raise NotationError(_(PENALTY_USAGE))
    player = resolve_player(words[0], players)
    kind = lexicon.penalty_of(words[1])
    rest = list(words[2:])
    if kind is None:
        raise NotationError(
            _("unknown penalty '{kind}' ({usage})").format(
                kind=shown(words[1]), usage=_(PENALTY_USAGE)
            )
        )
    if kind == "trick":
        raise NotationError(
            _(
                "a trick lost for looking at a trick (Code 3.9.11.2) is written with its deal: add --looked {player} to it (edit N for a deal already recorded)"
            ).format(player=player)
        )
    if kind == "peek" or kind == "dealing":
        if len(rest) > 1:
            raise NotationError(_(PENALTY_USAGE))
        amount = _amount(rest[0], _("the penalty")) if rest else DEFAULT_POINTS
        return Penalty(player, kind, amount)
    if kind == "entry":
        if not 1 <= len(rest) <= 2:
            raise NotationError(_(PENALTY_USAGE))
        on = resolve_player(rest[1], players) if len(rest) == 2 else None
        return Penalty(player, "entry", _amount(rest[0], _("the excess")), on=on)
    if not 1 <= len(rest) <= (1 if kind == "illegal" else 2):
        raise NotationError(_(PENALTY_USAGE))
    level, suit = parse_contract(rest[0])
    if kind == "illegal":
        return Penalty(player, "illegal", level, level, suit)
    n = DEFAULT_UNDERTRICKS
    if len(rest) == 2:
        try:
            n = parse_whole(rest[1])
        except AmountError:
            raise NotationError(
                _("the undertricks are a whole number, not '{text}'").format(text=shown(rest[1]))
            ) from None
    return Penalty(player, "cards" if kind == "cards" else "miscount", n, level, suit)


def parse_join(words: Sequence[str], players: Sequence[str]) -> Join:
    """``Dima`` or ``Dima --after Vera``: a late arrival and the seat he takes."""
    rest = list(words)
    after: str | None = None
    if len(rest) == 3 and rest[1] == "--after":
        after = resolve_player(rest[2], players)
        rest = rest[:1]
    elif len(rest) == 2 and rest[1].startswith("--after="):
        after = resolve_player(rest[1].partition("=")[2], players)
        rest = rest[:1]
    if len(rest) != 1:
        raise NotationError(_("a join needs NAME [--after PLAYER], e.g. join Dima --after Vera"))
    return Join(rest[0], after)


def parse_preference(words: Sequence[str], players: Sequence[str]) -> Preference:
    """``Anna``: the player who declares the "Preference" combination (docs/rules.md §8.5)."""
    if len(words) != 1:
        raise NotationError(_("the Preference combination needs PLAYER, e.g. preference Anna"))
    return Preference(resolve_player(words[0], players))


KINDS = ("game", "misere", "passes", "adjust", "penalty", "join", "preference", "set")
"""The kinds of deal (each named in either language: :func:`~prefcalc.rules.lexicon.kind_of`)."""


def parse_set(words: Sequence[str]) -> SetTerm:
    """``target=30`` or ``whist_price=0.5`` (also ``target 30``; as a Russian table says them,
    ``пуля=30``, ``цена=0,5``: the lexicon's terms)."""
    text = " ".join(words)
    key, sep, value = text.partition("=")
    if not sep and len(words) == 2:
        key, value = words
    term_key = lexicon.read("terms", key) if key.strip() else None
    key = term_key or key.strip().lower().replace("-", "_").replace(" ", "_")
    if key not in SET_KEYS:
        if not key:
            raise NotationError(_("set needs KEY=VALUE, e.g. set target=30"))
        from prefcalc.rules.conventions import OPTION_KEYS  # only for a refusal

        if key == "convention" or key in OPTION_KEYS:  # fixed when the game began
            raise NotationError(
                _("cannot set '{key}' mid-game (set target=N or set whist_price=N)").format(
                    key=shown(key)
                )
            )
        raise NotationError(
            _("there is no '{key}' to set (set target=N or set whist_price=N)").format(
                key=shown(key)
            )
        )
    value = value.strip()
    if not value:
        raise NotationError(_("set {key} needs a value, e.g. set {key}=30").format(key=key))
    if key == "target":
        try:
            number: Amount = parse_whole(value)
        except AmountError as exc:
            raise NotationError(exc.about(_("the target"))) from None
        term = SetTerm("target", number)
    else:
        term = SetTerm("whist_price", _amount(value, _("the whist price")))
    try:
        check_term(term)
    except DealError as exc:
        raise NotationError(exc.message) from None
    return term


def parse_words(
    words: Sequence[str],
    players: Sequence[str],
    active: Sequence[str] | None = None,
    flags: DealFlags = NO_FLAGS,
) -> Deal:
    """Parse a whole deal: ``["game", "Anna", "7h", "7", "Boris:w", "Vera:p"]``.

    ``active`` (the players taking tricks in this deal, in the order they play:
    :func:`~prefcalc.rules.model.play_order`) lets an all-pass deal be written as bare
    tricks: ``passes 2 5 3``. ``flags`` are a game's, misère's or
    all-pass deal's flags given typed, as if written among the words."""
    return read(split_deal(words, flags), players, active)


def read(deal: DealWords, players: Sequence[str], active: Sequence[str] | None = None) -> Deal:
    """The deal ``deal``'s words write, at a table seated as ``players`` (``active``: those
    who hold cards in it)."""
    kind, rest, flags = deal.kind, deal.words, deal.flags
    if kind == "game":
        return parse_game(rest, players, active, flags)
    if kind == "misere":
        return parse_misere(rest, players, flags)
    if kind == "passes":
        return parse_passes(rest, players, active, flags)
    if kind == "adjust":
        return parse_adjust(rest, players)
    if kind == "penalty":
        return parse_penalty(rest, players)
    if kind == "join":
        return parse_join(rest, players)
    if kind == "set":
        return parse_set(rest)
    if kind == "preference":
        return parse_preference(rest, players)
    if not kind and not rest:
        raise NotationError(
            _("no deal given (start with one of {KINDS})").format(KINDS=", ".join(KINDS))
        )
    raise NotationError(
        _("unknown deal kind '{words}' (use {KINDS})").format(
            words=shown(kind), KINDS=", ".join(KINDS)
        )
    )


def _flags(deal: Contract | Misere) -> str:
    """The Classic flags of a game or misère as the shorthand writes them (``""``: none)."""
    out = ""
    if deal.dark:
        out += " --dark"
    if deal.no_talon:
        out += " --no-talon"
    if deal.bomb is not None:
        out += f" --bomb {deal.bomb}"
    if isinstance(deal, Contract):
        if deal.talon is not None:
            out += f" --talon {deal.talon}"
        if deal.returned_by is not None:
            out += f" --returned-by {_name(deal.returned_by)}"
    if deal.looked:
        out += f" --looked {_names(deal.looked)}"
    return out


def _penalty_words(deal: Penalty, lang: str | None) -> list[str]:
    """A penalty's words after ``penalty``, as :func:`parse_penalty` reads them."""
    words = [_name(deal.player), lexicon.written("penalties", deal.offence, lang)]
    if deal.level is not None and deal.suit is not None:
        words.append(f"{deal.level}{lexicon.written('suits', deal.suit, lang)}")
        if deal.offence != "illegal":
            words.append(exact_text(deal.amount))
    else:
        words.append(exact_text(deal.amount))
        if deal.on is not None:
            words.append(_name(deal.on))
    return words


def _name(name: str) -> str:
    """A name as a word of the shorthand: quoted when it has a space (``'Anna Maria'``)."""
    return shlex.quote(name) if any(c.isspace() for c in name) or "'" in name else name


def _names(names: Sequence[str]) -> str:
    """Names as the value of ``--blind`` or ``--looked``: ``A,B``."""
    return _name(",".join(names))


def describe(deal: Deal, lang: str | None = None) -> str:
    """A deal back in the table's shorthand in ``lang`` (None: the language in use), which
    :func:`parse_words` reads back to the same deal in every language: ``game Anna 7h 7
    Boris:w Vera:p`` / ``игра Аня 7ч 7 Боря:в Вера:п``, ``misere Anna 0`` / ``мизер Аня 0``,
    ``passes Anna=2 Boris=5 Vera=3`` / ``распасы Аня=2 Боря=5 Вера=3``. The one writer of the
    shorthand (the record's ``notation`` is the English one, the pages' lines the language
    of the page); the flags (``--dark``...) are the same in every language."""

    def kind(name: str) -> str:
        return lexicon.written("kinds", name, lang)

    if isinstance(deal, Contract):
        tricks = "-" if deal.tricks is None else str(deal.tricks)
        defenders = "".join(
            f" {_name(d.player + ':' + lexicon.written('roles', d.role, lang))}"
            + ("" if d.tricks is None else str(d.tricks))
            for d in deal.defenders
        )
        suit = lexicon.written("suits", deal.suit, lang)
        return (
            f"{kind('game')} {_name(deal.declarer)} {deal.level}{suit} {tricks}{defenders}"
            + _flags(deal)
        )
    if isinstance(deal, Misere):
        return f"{kind('misere')} {_name(deal.declarer)} {deal.tricks}" + _flags(deal)
    if isinstance(deal, AllPass):
        blind = f" --blind {_names(deal.blind)}" if deal.blind else ""
        looked = f" --looked {_names(deal.looked)}" if deal.looked else ""
        tricks = " ".join(_name(f"{name}={n}") for name, n in deal.tricks)
        return f"{kind('passes')} {tricks}{blind}{looked}"
    if isinstance(deal, Penalty):
        return f"{kind('penalty')} " + " ".join(_penalty_words(deal, lang))
    if isinstance(deal, Join):
        after = f" --after {_name(deal.after)}" if deal.after else ""
        return f"{kind('join')} {_name(deal.player)}{after}"
    if isinstance(deal, SetTerm):
        word = lexicon.written("terms", deal.key, lang)  # пуля=30 is said bare, set target=30
        term = f"{word}={exact_text(deal.value)}"
        return term if word != deal.key else f"{kind('set')} {term}"
    if isinstance(deal, Preference):
        return f"{kind('preference')} {_name(deal.player)}"
    if not isinstance(deal, Adjustment):
        assert_never(deal)
    parts = [f"{kind('adjust')} {_name(deal.player)}"]
    if deal.pool:
        parts.append(f"--pool {deal.pool}")
    if deal.mountain:
        parts.append(f"--mountain {deal.mountain}")
    parts.extend(f"--whists {_name(f'{other}={amount}')}" for other, amount in deal.whists)
    parts.append(f"--note {shlex.quote(deal.note)}")
    return " ".join(parts)
