"""Conventions from files: the bundled presets, a house-rules TOML file, a game's own rules.

The reading lives here (a regular UTF-8 file of at most 1 MiB, its TOML shape checked before
``tomllib`` sees it); what a table means is :func:`prefcalc.rules.conventions.from_table`'s
to say. :func:`resolve` gives the convention a game is played by.

Validating a convention builds the pydantic models of its options; for the conventions of
the ledgers this program wrote, that repeats what is already known. So the values of every
convention resolved on the way to a write (the preset, the preset with the game's overrides,
or the game's own table) are kept as plain data in ``<data dir>/cache/conventions``, keyed by
what was resolved and by the identity of the code and of the presets (their bytes): a command
that records into such a game builds no model. Like every cache (:mod:`prefcalc.store.cache`)
it is read only if it is a regular file of sane size, is written only when a ledger is
written, adds no trust (whoever can write the data directory can write the ledger), and may
be deleted at any time: the next command validates again. A convention read from a ledger
under validation (``strict``) never comes from the cache.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any

from prefcalc.errors import ConventionError, shown
from prefcalc.i18n import N_, _
from prefcalc.resources import bundled
from prefcalc.rules.conventions import PRESETS, Convention, preset_key, to_jsonable
from prefcalc.rules.conventions import from_table as _from_table
from prefcalc.rules.model import ConventionRef
from prefcalc.store import cache, files

# --- reading ---------------------------------------------------------------------------------


def load_file(path: Path) -> Convention:
    """Load a convention from a TOML file (a regular UTF-8 file of at most 1 MiB)."""
    import tomllib  # only when a file is read: a trusted game's convention needs none

    what = N_("the convention file")
    try:
        raw = files.read_regular(path, what, files.MAX_SMALL, ConventionError)
    except OSError as exc:
        raise ConventionError(
            _("cannot read convention file: {value}").format(value=files.os_reason(exc)),
            str(path),
        ) from None
    text = files.decode_text(raw, what, path, ConventionError)
    if not text.strip():  # valid TOML, but no rules: nothing to read
        raise ConventionError(_("the file is empty"), str(path))
    files.check_toml_shape(text, what, path, ConventionError)
    try:
        table = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConventionError(
            _("not valid TOML: {exc}").format(exc=files.parser_reason(str(exc), text=text)),
            str(path),
        ) from None
    except RecursionError:
        raise ConventionError(
            _("{what} nests too deeply").format(what=_(what)), str(path)
        ) from None
    except ValueError:  # an integer over Python's 4,300-digit limit
        raise ConventionError(
            _("not valid TOML: a number has too many digits"), str(path)
        ) from None
    return from_table(table, str(path))


def from_table(table: Mapping[str, Any], source: str, strict: bool = True) -> Convention:
    """:func:`prefcalc.rules.conventions.from_table`, a ``base`` read from the bundled
    presets."""
    return _from_table(table, source, strict, preset=load_preset)


def load_preset(name: str) -> Convention:
    """Load a bundled preset by name (``sochi``, ``leningrad``, ``rostov``, ``classic``,
    ``fspr``) or by the name the table calls it (``Сочинка``, ``ФСПР``)."""
    key = preset_key(name) or name.strip().lower()
    if key not in PRESETS:
        raise ConventionError(
            _("unknown convention '{name}' (use {PRESETS} or a .toml file)").format(
                name=shown(name), PRESETS=", ".join(PRESETS)
            )
        )
    return _resolved(
        ConventionRef(key, {}), False, lambda: load_file(bundled("templates") / f"{key}.toml")
    )


def load(name_or_path: str) -> Convention:
    """A preset name or the path of a house-rules TOML file."""
    if preset_key(name_or_path) is not None:
        return load_preset(name_or_path)
    path = Path(name_or_path)
    try:
        exists = path.exists()
    except OSError:  # a name too long for the file system, a bad byte...: not a file
        exists = False
    if path.suffix.lower() == ".toml" or exists:
        return load_file(path)
    raise ConventionError(
        _("unknown convention '{name_or_path}' (use {PRESETS} or a .toml file)").format(
            name_or_path=shown(name_or_path), PRESETS=", ".join(PRESETS)
        )
    )


def resolve(ref: ConventionRef, strict: bool = False) -> Convention:
    """The convention a game is played by: its preset with overrides, or its own table
    (``strict``: the options as read from the ledger file, nothing coerced)."""
    if ref.preset is not None:
        preset = ref.preset
        if not ref.options:
            return load_preset(preset)

        def overridden() -> Convention:
            return load_preset(preset).with_options(ref.options, f"{preset} overrides", strict)

        return _resolved(ref, strict, overridden)

    def own() -> Convention:
        table = dict(ref.options)
        if ref.name:
            table["name"] = ref.name
        return from_table(table, "the game's house rules", strict)

    return _resolved(ref, strict, own)


# --- the conventions of the games written -----------------------------------------------------

CACHE_ENTRIES = 16
"""How many conventions the cache keeps (the most recently written)."""

_CACHE_LIMIT = 256 * 1024

_known: dict[str, Convention] = {}
"""The conventions resolved in this process, by :func:`_key`."""

_unsaved: dict[str, Convention] = {}
"""Those of them validated here and not yet in the cache file."""

_file: dict[str, Convention] | None = None
"""The cache file's conventions (read once, when first needed)."""


def cache_path() -> Path:
    """The side file of the conventions of the ledgers this program wrote."""
    return cache.folder() / "conventions"


def _resolved(ref: ConventionRef, strict: bool, validate: Callable[[], Convention]) -> Convention:
    """The convention of ``ref``: known in this process, else kept in the cache (never for
    ``strict``: a ledger under validation validates its rules), else ``validate()``."""
    key = _key(ref, strict)
    if key is None:
        return validate()
    known = _known.get(key)
    if known is not None:
        return known
    if not strict:
        kept = _cached().get(key)
        if kept is not None:
            _known[key] = kept
            return kept
    result = validate()
    _known[key] = result
    if _encoded(result) is not None:
        _unsaved[key] = result
    return result


def keep(ref: ConventionRef | None = None) -> None:
    """Add the conventions validated in this process to the cache (called when a ledger is
    written: only a write adds to a cache); ``ref`` is the convention of the game written,
    also kept as the file holds it (its options as JSON), which is how the next command
    reads it. Best effort: a cache that cannot be written is left as it is."""
    global _file
    if ref is not None:
        _keep_as_written(ref)
    if not _unsaved:
        return
    try:
        identity = _identity()
        entries = {k: v for k, v in _read_file(identity).items() if k not in _unsaved}
        entries.update(_unsaved)
        kept = list(entries.items())[-CACHE_ENTRIES:]
        rows = [[key, _encoded(value)] for key, value in kept]
        data = json.dumps({"program": identity, "conventions": rows}, ensure_ascii=True)
    except (OSError, ValueError, TypeError, RecursionError):
        return
    if len(data) <= _CACHE_LIMIT and cache.replace(cache_path(), data.encode("ascii")):
        _unsaved.clear()
        _file = dict(kept)


def _keep_as_written(ref: ConventionRef) -> None:
    """The convention of ``ref`` (resolved in this process) under the key of ``ref`` as the
    ledger stores it: a game made in this process holds its options as validated values
    (``Fraction(1, 2)``, ``(1, 2, 4)``), the file as JSON (``"1/2"``, ``[1, 2, 4]``), which
    reads back to the same values (the ledger's round trip)."""
    if ref.preset is not None and not ref.options:
        return  # a preset's key is its name either way
    known = _known.get(_key(ref, False) or "") or _known.get(_key(ref, True) or "")
    written = ConventionRef(
        ref.preset, {k: to_jsonable(v) for k, v in ref.options.items()}, ref.name
    )
    key = _key(written, False)
    if known is None or key is None or key in _known:
        return
    _known[key] = known
    if _encoded(known) is not None:
        _unsaved[key] = known


def _cached() -> dict[str, Convention]:
    global _file
    if _file is None:
        try:
            _file = _read_file(_identity())
        except (OSError, ValueError):
            _file = {}
    return _file


def _read_file(identity: str) -> dict[str, Convention]:
    """The conventions in the cache file for this code and these presets ({} if none)."""
    raw = cache.read(cache_path(), _CACHE_LIMIT)
    if raw is None:
        return {}
    try:
        data = json.loads(raw, parse_constant=_refuse)
    except (ValueError, RecursionError):
        return {}
    if not isinstance(data, dict) or data.get("program") != identity:
        return {}
    rows = data.get("conventions")
    out: dict[str, Convention] = {}
    for row in rows if isinstance(rows, list) else ():
        if isinstance(row, list) and len(row) == 2 and isinstance(row[0], str):
            value = _decoded(row[1])
            if value is not None:
                out[row[0]] = value
    return out


def _refuse(constant: str) -> Any:
    raise ValueError(f"{constant} is not a JSON number")


_identity_memo: str | None = None


def _identity() -> str:
    """The code's identity and the bytes of the bundled presets."""
    global _identity_memo
    if _identity_memo is None:
        import hashlib

        digest = hashlib.sha256(cache.sources().encode())
        for name in PRESETS:
            digest.update(b"\0" + (bundled("templates") / f"{name}.toml").read_bytes())
        _identity_memo = digest.hexdigest()[:32]
    return _identity_memo


# --- plain data ---------------------------------------------------------------------------------
#
# A convention's values are text, whole numbers, booleans, fractions and tuples of whole
# numbers; as JSON a fraction is {"fraction": "1/2"} and a tuple {"tuple": [...]}, so that a
# value reads back exactly as it was (a tuple stays a tuple, 1/2 never becomes "1/2").


def _key(ref: ConventionRef, strict: bool) -> str | None:
    """What ``ref`` is, as text: two refs with one key resolve alike. None when its options
    are not plain values (it is then validated every time, as without a cache)."""
    options = {k: _plain(v) for k, v in ref.options.items()}
    if any(v is _NOT_PLAIN for v in options.values()):
        return None
    name = None if ref.preset is not None else ref.name
    try:
        return json.dumps([ref.preset, options, name, strict], ensure_ascii=True)
    except (TypeError, ValueError, RecursionError):
        return None


_NOT_PLAIN: Any = object()


def _plain(value: Any) -> Any:
    """``value`` as JSON data that tells its type, or :data:`_NOT_PLAIN`."""
    if value is None or isinstance(value, bool | str):
        return value
    if type(value) is int:
        return value
    if type(value) is Fraction:
        return {"fraction": f"{value.numerator}/{value.denominator}"}
    if isinstance(value, tuple):
        items = [_plain(v) for v in value]
        return _NOT_PLAIN if any(v is _NOT_PLAIN for v in items) else {"tuple": items}
    if isinstance(value, list):
        items = [_plain(v) for v in value]
        return _NOT_PLAIN if any(v is _NOT_PLAIN for v in items) else items
    return _NOT_PLAIN


def _encoded(convention: Convention) -> list[Any] | None:
    """The values of ``convention`` as plain data, or None when one would not read back
    exactly (then it is not kept)."""
    values = [_plain(v) for v in convention]
    if any(v is _NOT_PLAIN for v in values):
        return None
    back = _decoded(values)
    if (
        back is None
        or back != convention
        or list(map(_types, back)) != list(map(_types, convention))
    ):
        return None
    return values


def _types(value: Any) -> Any:
    return tuple(map(_types, value)) if isinstance(value, tuple) else type(value)


def _decoded(values: Any) -> Convention | None:
    """The convention whose plain data is ``values``, or None when it is not one."""
    if not isinstance(values, list) or len(values) != len(Convention._fields):
        return None
    out = []
    for value in values:
        item = _value(value)
        if item is _NOT_PLAIN:
            return None
        out.append(item)
    if not isinstance(out[0], str) or not isinstance(out[1], str):
        return None
    return Convention(*out)


def _value(value: Any) -> Any:
    """One option's value from its plain data (text, a whole number, a boolean, a fraction,
    a tuple of whole numbers), or :data:`_NOT_PLAIN`."""
    if isinstance(value, bool | str) or type(value) is int:
        return value
    if isinstance(value, dict) and len(value) == 1:
        if "fraction" in value and isinstance(value["fraction"], str):
            num, slash, den = value["fraction"].partition("/")
            if slash and _digits(num.removeprefix("-")) and _digits(den) and int(den) > 1:
                number = Fraction(int(num), int(den))
                if number.denominator == int(den):  # in lowest terms, as written
                    return number
        items = value.get("tuple")
        if isinstance(items, list) and all(type(v) is int for v in items):
            return tuple(items)
    return _NOT_PLAIN


def _digits(text: str) -> bool:
    return 0 < len(text) <= 12 and text.isascii() and text.isdigit()
