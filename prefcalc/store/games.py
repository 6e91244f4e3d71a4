"""The saved games in the data folder: listing them and finding one by a name."""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from prefcalc.errors import LedgerError, PrefcalcError, shown
from prefcalc.i18n import _, ngettext
from prefcalc.rules.model import deal_count, seating
from prefcalc.rules.scoring import score
from prefcalc.store import ledger as ledger_io


class SavedGame(NamedTuple):
    """One ledger of the games folder, as ``prefcalc games`` lists it."""

    number: int  # its place in the list (1 = the oldest), usable as ``prefcalc use 3``
    path: Path
    players: tuple[str, ...]
    created: str  # ISO time with offset ("" if unknown)
    deals: int
    finished: bool
    current: bool
    problem: str = ""  # why it could not be read ("" when it could)


def games_dir() -> Path:
    return ledger_io.data_dir() / "games"


def _current() -> Path | None:
    try:
        return ledger_io.current_path().absolute()
    except PrefcalcError:
        return None


def saved_games() -> list[SavedGame]:
    """Every ledger in the games folder, oldest first (the current game too, wherever it
    is, when it lives elsewhere)."""
    current = _current()
    paths = sorted(games_dir().glob("*.json")) if games_dir().is_dir() else []
    if current is not None and current not in {p.absolute() for p in paths} and current.exists():
        paths.append(current)
    found: list[SavedGame] = []
    for number, path in enumerate(paths, 1):
        is_current = current is not None and path.absolute() == current
        try:
            game = ledger_io.load(path)
            finished = score(game, ledger_io.resolve_convention(game.convention)).finished
        except PrefcalcError as exc:
            found.append(SavedGame(number, path, (), "", 0, False, is_current, exc.message))
            continue
        found.append(
            SavedGame(
                number, path, seating(game), game.created, deal_count(game), finished, is_current
            )
        )
    return found


def find(name: str) -> Path:
    """A game by file path, by its number in ``prefcalc games``, or by a word of its file
    name or its players' names (it must pick one game)."""
    path = Path(name)
    if path.suffix == ".json" or _exists(path) or "/" in name:
        return path
    games = saved_games()
    if name.isdecimal():
        for g in games:
            if len(name) <= 18 and g.number == int(name):
                return g.path
        raise LedgerError(
            ngettext(
                "there is no game {name} (prefcalc games lists {count})",
                "there is no game {name} (prefcalc games lists {count})",
                len(games),
            ).format(name=shown(name), count=len(games))
        )
    folded = name.casefold()
    hits = [
        g
        for g in games
        if folded in g.path.stem.casefold() or any(folded == p.casefold() for p in g.players)
    ]
    if len(hits) == 1:
        return hits[0].path
    if not hits:
        raise LedgerError(
            _("no saved game matches '{name}' (prefcalc games lists them)").format(name=shown(name))
        )
    numbers = ", ".join(str(g.number) for g in hits)
    raise LedgerError(
        _("'{name}' matches games {numbers}: use the number or the file").format(
            name=shown(name), numbers=numbers
        )
    )


def _exists(path: Path) -> bool:
    """Whether ``path`` exists; a name the system cannot even look up (too long, a NUL)
    does not."""
    try:
        return path.exists()
    except (OSError, ValueError):
        return False
