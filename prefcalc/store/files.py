"""Touching the file system safely: read only regular files, write atomically, never clobber.

* :func:`read_regular` opens a path without ever blocking (a FIFO named as a ledger, a
  convention file or the current-game pointer is refused, not waited on), follows symbolic
  links, refuses anything that is not a regular file and caps the size it reads.
* :func:`write_atomic` replaces a file through a temporary file in the real file's folder
  (symbolic links are resolved once, so a linked ledger keeps receiving the deals), refuses
  folders, devices, FIFOs and read-only files, and keeps the file's permissions.
* :func:`check_output` refuses an export that would land on a ledger (recognised by parsing
  it, never by its first bytes), its lock file or its temporary files, also through a
  symbolic or a hard link; :func:`check_outputs` also refuses two outputs of one command
  that would land on one file.
* :func:`fault` is the fault-injection point the crash tests use: with
  ``PREFCALC_FAULT=<point>`` in the environment the process kills itself (SIGKILL) when it
  reaches that point of a write, so a test can land a crash exactly where it wants to.

Every refusal is a one-line :class:`PrefcalcError` (or the subclass the caller asks for).
"""

from __future__ import annotations

import errno
import json
import os
import re
import signal
import stat
import time
from pathlib import Path

from prefcalc.errors import PrefcalcError
from prefcalc.i18n import N_, _

MAX_LEDGER = 256 * 1024 * 1024  # bytes read at most from a ledger
MAX_SMALL = 1024 * 1024  # ... from a convention (.toml) file or the current-game pointer
MAX_TOML_NESTING = 64  # brackets/braces open at once, and parts of one dotted key

BOM = b"\xef\xbb\xbf"

_O_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_O_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_O_NOCTTY = getattr(os, "O_NOCTTY", 0)
_O_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_O_BINARY = getattr(os, "O_BINARY", 0)

# --- fault injection --------------------------------------------------------------------------

FAULT_ENV = "PREFCALC_FAULT"
#: The points of a write, in order, where ``PREFCALC_FAULT`` can kill the process.
FAULT_POINTS = (
    "before-temp",  # the lock is held (for the ledger), no temporary file yet
    "before-fsync",  # the temporary file is written but not synced
    "before-rename",  # the temporary file is synced, the target not yet replaced
    "before-dir-sync",  # the target is replaced, the folder not yet synced
    "after-write",  # all done, the lock (for the ledger) still held
)


def fault(point: str) -> None:
    """Kill this process on the spot if ``PREFCALC_FAULT`` names ``point`` (tests only)."""
    if os.environ.get(FAULT_ENV) == point:
        kill = getattr(signal, "SIGKILL", None)
        if kill is not None:
            os.kill(os.getpid(), kill)
        os._exit(137)  # pragma: no cover - no SIGKILL (Windows)


# --- what the system said --------------------------------------------------------------------

OS_REASONS = {
    errno.ENOENT: N_("No such file or directory"),
    errno.EACCES: N_("Permission denied"),
    errno.EPERM: N_("Operation not permitted"),
    errno.EISDIR: N_("Is a directory"),
    errno.ENOTDIR: N_("Not a directory"),
    errno.EEXIST: N_("File exists"),
    errno.ENOSPC: N_("No space left on device"),
    errno.EROFS: N_("Read-only file system"),
    errno.ENAMETOOLONG: N_("File name too long"),
    errno.ELOOP: N_("Too many levels of symbolic links"),
    errno.EIO: N_("Input/output error"),
    errno.EBUSY: N_("Device or resource busy"),
    errno.EMFILE: N_("Too many open files"),
    errno.ENFILE: N_("Too many open files in system"),
    errno.ETXTBSY: N_("Text file busy"),
    errno.EXDEV: N_("Invalid cross-device link"),
    errno.ENOTEMPTY: N_("Directory not empty"),
    errno.EINVAL: N_("Invalid argument"),
    errno.ENXIO: N_("No such device or address"),
    errno.ENODEV: N_("No such device"),
    errno.EAGAIN: N_("Resource temporarily unavailable"),
    errno.EFBIG: N_("File too large"),
    errno.EADDRINUSE: N_("Address already in use"),
    errno.EADDRNOTAVAIL: N_("Cannot assign requested address"),
    errno.ECONNREFUSED: N_("Connection refused"),
    errno.EPIPE: N_("Broken pipe"),
    errno.EDQUOT: N_("Disk quota exceeded"),
}
"""What the system says of a failed file operation, by its error number: the English is the
system's own (glibc's ``strerror``), the other languages are the catalog's."""


def os_reason(exc: OSError) -> str:
    """Why ``exc`` happened, in the language in use: in English as the system says it
    (``No such file or directory``), in Russian by its error number («нет такого файла или
    папки»); an error number prefcalc does not word is shown as the system words it, with
    its symbolic name."""
    from prefcalc.i18n import DEFAULT, language

    text = exc.strerror or str(exc) or type(exc).__name__
    if language() == DEFAULT:
        return text
    word = OS_REASONS.get(exc.errno) if exc.errno is not None else None
    if word is not None:
        return _(word)
    name = errno.errorcode.get(exc.errno, "") if exc.errno is not None else ""
    return f"{text} ({name})" if name else text


KEY_TWICE = N_("a key given twice")
BREAKS_OFF = N_("the text breaks off")

PARSER_REASONS: tuple[tuple[tuple[str, ...], str], ...] = (
    (
        ("escape", "Unescaped", "Unicode scalar", "hex value", "surrogate", "code point"),
        N_("a wrong backslash sequence in a string"),
    ),
    (("EOF while parsing", "Unterminated string", "Unclosed", "unexpected end"), BREAKS_OFF),
    (("trailing comma",), N_("a comma before a closing bracket")),
    (
        ("trailing characters", "Extra data", "Expected newline or end of document"),
        N_("more text after the end of a value"),
    ),
    (("key must be a string", "Expecting property name"), N_("a key not in double quotes")),
    (("expected `:`", "Expecting ':'"), N_("no colon after a key")),
    (("Expected '=' after a key",), N_("no equals sign after a key")),
    (("expected `,`", "Expecting ','"), N_("a missing comma or closing bracket")),
    (("control character", "Illegal character"), N_("a control character")),
    (
        ("Cannot overwrite", "Cannot declare", "Cannot mutate", "Cannot redefine", "Duplicate"),
        KEY_TWICE,
    ),
    (
        ("at the end of a table declaration", "at the end of an array declaration"),
        N_("a table's name without its closing bracket"),
    ),
    (("Expected \"'''\"", 'Expected \'"""\''), BREAKS_OFF),  # a multi-line string not closed
    (("Invalid date",), N_("a date that cannot be read")),
    (("number out of range",), N_("a number too large")),
    (
        ("Invalid initial character for a key", "Invalid statement"),
        N_("a line that is neither key = value nor [table]"),
    ),
    (("Found invalid character",), N_("a character that has no place here")),
    (
        ("expected value", "Expecting value", "expected ident", "invalid number", "Invalid value"),
        N_("a value that cannot be read"),
    ),
)
"""What a JSON or TOML parser says of a text it cannot read (pydantic's, the json module's,
tomllib's English), by a fragment of its message: in the first entry that matches."""

_PARSER_PLACE = re.compile(r"line (\d+),? column (\d+)")
_PARSER_CHAR = re.compile(r"\(char (\d+)\)")


def parser_reason(reason: str, lang: str | None = None, text: str | None = None) -> str:
    """Why a parser could not read a text, in ``lang`` (None: the language in use; a server
    thread gives the table's): in English as the parser says it (``EOF while parsing a list
    at line 1 column 16``), in another language what is wrong and where («текст обрывается
    (строка 1, столбец 16)»).

    Given the ``text`` it read, an empty text is said to be empty, and a text the parser
    stopped at the end of is said to break off, in every language: ``{`` breaks off, though
    the json module says it expected a key in double quotes there."""
    from prefcalc.i18n import DEFAULT, catalog, language

    lang = language() if lang is None else lang
    gettext = catalog(lang).gettext
    if text is not None and not text.strip():
        return gettext(N_("the text is empty"))
    what = next(
        (w for keys, w in PARSER_REASONS if any(k in reason for k in keys)),
        N_("a syntax error"),
    )
    place = _PARSER_PLACE.search(reason)
    cut = text is not None and what != KEY_TWICE and _at_end(reason, place, text)
    if lang == DEFAULT and not cut:
        return reason
    if cut:
        what = BREAKS_OFF
    if place is not None:
        return gettext(N_("{what} (line {line}, column {column})")).format(
            what=gettext(what), line=place[1], column=place[2]
        )
    if "(at end of document)" in reason:
        return gettext(N_("{what} (at the end of the text)")).format(what=gettext(what))
    return gettext(what)


def _at_end(reason: str, place: re.Match[str] | None, text: str) -> bool:
    """Whether the parser stopped at the end of ``text`` (only blanks after it): the json
    module says where by ``(char N)``, tomllib by ``end of document``, both by line and
    column (from 1)."""
    if "(at end of document)" in reason:
        return True
    char = _PARSER_CHAR.search(reason)
    if char is not None:
        offset = int(char[1])
    elif place is not None:
        start = 0
        for _line in range(int(place[1]) - 1):
            start = text.find("\n", start) + 1
            if start == 0:
                return False
        offset = start + int(place[2]) - 1
    else:
        return False
    return offset >= len(text.rstrip())


# --- what a path is ---------------------------------------------------------------------------


def kind_of(mode: int) -> str:
    """A file type in words: 'a folder', 'a FIFO (named pipe)', ..."""
    if stat.S_ISREG(mode):
        return _("a regular file")
    if stat.S_ISDIR(mode):
        return _("a folder")
    if stat.S_ISFIFO(mode):
        return _("a FIFO (named pipe)")
    if stat.S_ISCHR(mode):
        return _("a character device")
    if stat.S_ISBLK(mode):
        return _("a block device")
    if stat.S_ISSOCK(mode):
        return _("a socket")
    if stat.S_ISLNK(mode):
        return _("a symbolic link")
    return _("not a regular file")


def _not_regular(what: str, mode: int) -> str:
    return _("{what} is not a regular file (it is {kind})").format(what=_(what), kind=kind_of(mode))


def real_path(path: Path) -> Path:
    """``path`` with every symbolic link resolved (also a dangling one), made absolute."""
    return Path(os.path.realpath(path))


def check_regular_if_exists(
    path: Path, what: str, error: type[PrefcalcError] = PrefcalcError
) -> bool:
    """Refuse ``path`` if it exists (following links) and is not a regular file.

    Only ``stat`` is used: nothing is opened or created. Returns whether it exists.
    """
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return False
    except OSError:
        return True  # let the real open report it
    if not stat.S_ISREG(st.st_mode):
        raise error(_not_regular(what, st.st_mode), str(path))
    return True


# --- reading ----------------------------------------------------------------------------------


def read_regular(
    path: Path, what: str, limit: int, error: type[PrefcalcError] = PrefcalcError
) -> bytes:
    """The bytes of the regular file at ``path`` (symbolic links followed), at most ``limit``.

    Never blocks: the file is opened non-blocking and checked with ``fstat``; a FIFO, a
    device, a socket or a folder is refused with ``error``, and so is a file larger than
    ``limit``. ``OSError`` (a missing file, no permission) is left to the caller to word.
    """
    if not check_regular_if_exists(path, what, error):
        raise FileNotFoundError(2, os.strerror(2), str(path))
    fd = os.open(path, os.O_RDONLY | _O_NONBLOCK | _O_NOCTTY | _O_CLOEXEC | _O_BINARY)
    with os.fdopen(fd, "rb") as handle:
        st = os.fstat(handle.fileno())
        if not stat.S_ISREG(st.st_mode):  # swapped after the stat above
            raise error(_not_regular(what, st.st_mode), str(path))
        if st.st_size > limit:
            raise error(_too_big(what, st.st_size, limit), str(path))
        data = handle.read(limit + 1)
    if len(data) > limit:
        raise error(_too_big(what, len(data), limit), str(path))
    return data


def _too_big(what: str, size: int, limit: int) -> str:
    return _("{what} is too big ({size}; at most {limit} is read)").format(
        what=_(what), size=_mib(size), limit=_mib(limit)
    )


def _mib(size: int) -> str:
    if size >= 1024 * 1024:
        return _("{size:.1f} MiB").format(size=size / (1024 * 1024))
    return _("{size} bytes").format(size=size)


def decode_text(
    data: bytes, what: str, path: Path, error: type[PrefcalcError] = PrefcalcError
) -> str:
    """``data`` as UTF-8 text, a leading byte-order mark (Windows Notepad adds one) dropped."""
    if data.startswith(BOM):
        data = data[len(BOM) :]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise error(
            _("{what} is not UTF-8 text (byte 0x{data:02x} at offset {start})").format(
                what=_(what), data=data[exc.start], start=exc.start
            ),
            str(path),
        ) from None


def check_toml_shape(
    text: str, what: str, path: Path, error: type[PrefcalcError] = PrefcalcError
) -> None:
    """Refuse TOML nested deeper than :data:`MAX_TOML_NESTING` before ``tomllib`` sees it.

    ``tomllib`` recurses once per bracket (100,000 of them end in a RecursionError) and
    takes quadratic time in the parts of a dotted key (``a.a.a...``: minutes for a megabyte).
    This scan skips strings and comments and counts the brackets and braces open at once and
    the dots of one key; it is linear and costs a few milliseconds for a big file.
    """
    depth = 0
    dots = 0
    i = 0
    n = len(text)
    limit = MAX_TOML_NESTING
    while i < n:
        c = text[i]
        if c == '"' or c == "'":
            i = _skip_string(text, i)
            continue  # a quoted key part: the dotted key goes on
        if c == "#":
            end = text.find("\n", i)
            i = n if end < 0 else end
            continue
        if c == ".":
            dots += 1
            if dots >= limit:
                raise error(
                    _("{what} has a key of more than {limit} dotted parts").format(
                        what=_(what), limit=limit
                    ),
                    str(path),
                )
        elif c in "[{":
            depth += 1
            dots = 0
            if depth > limit:
                raise error(
                    _("{what} nests more than {limit} levels deep").format(
                        what=_(what), limit=limit
                    ),
                    str(path),
                )
        elif c in "]}":
            depth = max(0, depth - 1)
            dots = 0
        elif not (c.isalnum() or c in "_- \t+:"):
            dots = 0  # '=', ',', a newline...: the key (or number) is over
        i += 1


def _skip_string(text: str, i: int) -> int:
    """The index just past the TOML string that starts at ``text[i]``."""
    quote = text[i]
    if text.startswith(quote * 3, i):
        j = i + 3
        while True:
            if quote == '"':
                k = j
                while True:
                    k = text.find('"""', k)
                    if k < 0 or not _escaped(text, k, j):
                        break
                    k += 1
            else:
                k = text.find("'''", j)
            if k < 0:
                return len(text)
            end = k + 3
            while end < len(text) and end - k < 5 and text[end] == quote:
                end += 1  # up to two quotes of the content may sit before the closing three
            return end
    j = i + 1
    while j < len(text):
        c = text[j]
        if c == "\n":
            return j
        if c == "\\" and quote == '"':
            j += 2
            continue
        if c == quote:
            return j + 1
        j += 1
    return j


def _escaped(text: str, k: int, start: int) -> bool:
    """Whether ``text[k]`` is preceded by an odd number of backslashes (after ``start``)."""
    count = 0
    while k - 1 - count >= start and text[k - 1 - count] == "\\":
        count += 1
    return count % 2 == 1


# --- writing ----------------------------------------------------------------------------------


def temp_pattern(name: str) -> re.Pattern[str]:
    """The names of the temporary files :func:`write_atomic` makes for a file ``name``."""
    return re.compile(rf"\.{re.escape(name)}\.[0-9]+\.[0-9]+\.tmp")


_ANY_TEMP = re.compile(r"\..+\.[0-9]+\.[0-9]+\.tmp")


def remove_stale_temporaries(path: Path) -> None:
    """Delete the temporary files a killed writer of ``path`` left in its folder.

    Only names that :func:`write_atomic` makes for exactly this file are touched (the name
    is matched literally, so a ledger called ``*`` or ``game[12].json`` matches nothing
    else), and only regular files. Call it while holding the file's lock.
    """
    pattern = temp_pattern(path.name)
    try:
        entries = list(os.scandir(path.parent))
    except OSError:
        return
    for entry in entries:
        if pattern.fullmatch(entry.name) and entry.is_file(follow_symlinks=False):
            Path(entry.path).unlink(missing_ok=True)


def check_writable_target(path: Path, what: str, shown: str | None = None) -> os.stat_result | None:
    """Refuse to replace ``path`` (links followed) unless it is a writable regular file.

    A folder, a FIFO, a device (``/dev/null`` included) or a socket is refused, and so is a
    file without write permission: ``os.replace`` would ignore the file's own mode. Returns
    the file's ``stat`` if it exists. Errors name ``shown`` (default: ``path``).
    """
    where = str(path) if shown is None else shown
    try:
        st = os.stat(path)
    except OSError:
        return None  # missing: it will be created; anything else: the write reports it
    if not stat.S_ISREG(st.st_mode):
        raise PrefcalcError(
            _("cannot write {what} over {kind}").format(what=_(what), kind=kind_of(st.st_mode)),
            where,
        )
    if not st.st_mode & 0o222 or not os.access(path, os.W_OK):
        raise PrefcalcError(
            _("cannot write {what}: the file is read-only").format(what=_(what)), where
        )
    return st


def write_atomic(path: Path, data: str | bytes, what: str = N_("the file")) -> None:
    """Replace ``path`` with ``data`` so that readers see the old file or the new one.

    A symbolic link is resolved once and the real file is replaced (the link stays). The data
    goes to a fresh temporary file in the real file's folder, is flushed to disk, then renamed
    over the target; the folder is synced so the rename itself survives a crash. A folder, a
    device, a FIFO or a read-only file is refused (:func:`check_writable_target`); an existing
    file keeps its permissions. A failure is a one-line :class:`PrefcalcError` naming ``what``
    could not be written, and leaves no temporary file.
    """
    raw = data.encode("utf-8") if isinstance(data, str) else data
    real = real_path(path)
    old = check_writable_target(real, what, str(path))
    directory = real.parent
    fault("before-temp")
    tmp = directory / f".{real.name}.{os.getpid()}.{time.monotonic_ns()}.tmp"
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _O_CLOEXEC | _O_BINARY, 0o644)
        try:
            with os.fdopen(fd, "wb") as handle:
                if old is not None and hasattr(os, "fchmod"):
                    os.fchmod(handle.fileno(), stat.S_IMODE(old.st_mode) & 0o777)
                handle.write(raw)
                handle.flush()
                fault("before-fsync")
                os.fsync(handle.fileno())
            fault("before-rename")
            os.replace(tmp, real)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
        fault("before-dir-sync")
        if hasattr(os, "O_DIRECTORY"):
            dir_fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
            try:
                os.fsync(dir_fd)
            finally:
                os.close(dir_fd)
        fault("after-write")
    except OSError as exc:
        raise PrefcalcError(
            _("cannot write {what}: {reason}").format(what=_(what), reason=os_reason(exc)),
            str(path),
        ) from None


# --- exports ----------------------------------------------------------------------------------


def _same_file(a: os.stat_result, b: os.stat_result) -> bool:
    return (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino)


def _stat(path: Path) -> os.stat_result | None:
    try:
        return os.stat(path)
    except (OSError, ValueError):
        return None


def check_output(target: Path, ledger: Path | None = None, what: str = N_("the export")) -> None:
    """Refuse to write an export to ``target`` where it would destroy something.

    Refused: the ledger itself, its lock file (``NAME.lock``) or its temporary files
    (``.NAME.PID.NS.tmp``), also reached through a symbolic link (the resolved paths are
    compared) or a hard link (the same inode); any other prefcalc lock or temporary file;
    any file that holds a prefcalc ledger; and whatever :func:`check_writable_target`
    refuses (a folder, a device such as ``/dev/null``, a FIFO, a read-only file).
    Only ``stat`` and a read of an existing regular file (parsed when it looks like JSON):
    nothing is written, created or opened in a way that could block.
    """
    real = real_path(target)
    shown = str(target)
    if ledger is not None:
        _check_not_the_ledger(real, ledger, what, shown)
    if check_writable_target(real, what, shown) is None:
        return
    if _ANY_TEMP.fullmatch(real.name):
        raise PrefcalcError(
            _("cannot write {what} over a prefcalc temporary file").format(what=_(what)), shown
        )
    for side in (".lock", ".redo"):  # a ledger's lock, and what undo keeps for redo
        if real.name.endswith(side) and real.with_name(real.name[: -len(side)]).exists():
            raise PrefcalcError(
                _("cannot write {what} over a prefcalc {side} file").format(
                    what=_(what), side=side[1:]
                ),
                shown,
            )
    if _holds_a_ledger(real):
        raise PrefcalcError(
            _("cannot write {what} over a prefcalc ledger").format(what=_(what)), shown
        )


def check_outputs(targets: list[tuple[Path, str]], ledger: Path | None = None) -> None:
    """:func:`check_output` for every output of one command (each ``(path, what)``), and
    refuse two of them that would land on one file: the same path once links are resolved,
    or one existing file reached through a hard link. Nothing is written before all pass."""
    seen: list[tuple[Path, os.stat_result | None, str]] = []
    for target, what in targets:
        check_output(target, ledger, what)
        real = real_path(target)
        found = _stat(real)
        for other, other_found, other_what in seen:
            same = real == other or (
                found is not None and other_found is not None and _same_file(found, other_found)
            )
            if same:
                raise PrefcalcError(
                    _(
                        "cannot write {other_what} and {what} to one file (give each its own name)"
                    ).format(other_what=_(other_what), what=_(what)),
                    str(target),
                )
        seen.append((real, found, what))


def _check_not_the_ledger(real: Path, ledger: Path, what: str, shown: str) -> None:
    # The ledger as named (its folder resolved) and as resolved: a link's old lock file counts.
    bases = list(dict.fromkeys((real_path(ledger.parent) / ledger.name, real_path(ledger))))
    locks = [base.with_name(base.name + ".lock") for base in bases]
    if real in bases:
        raise PrefcalcError(
            _("cannot write {what} over the ledger {ledger}: choose another file").format(
                what=_(what), ledger=ledger
            ),
            shown,
        )
    if real in locks:
        raise PrefcalcError(
            _("cannot write {what} over the lock file of {ledger}").format(
                what=_(what), ledger=ledger
            ),
            shown,
        )
    if real in [base.with_name(base.name + ".redo") for base in bases]:
        raise PrefcalcError(
            _("cannot write {what} over what undo kept of {ledger}").format(
                what=_(what), ledger=ledger
            ),
            shown,
        )
    for base in bases:
        if real.parent == base.parent and temp_pattern(base.name).fullmatch(real.name):
            raise PrefcalcError(
                _("cannot write {what} over a temporary file of the ledger {ledger}").format(
                    what=_(what), ledger=ledger
                ),
                shown,
            )
    found = _stat(real)
    if found is None:
        return
    for base, lock in zip(bases, locks, strict=True):
        for name, part in ((base, N_("the ledger")), (lock, N_("the lock file of"))):
            other = _stat(name)
            if other is not None and _same_file(found, other):
                raise PrefcalcError(
                    _("cannot write {what} over a hard link to {part} {ledger}").format(
                        what=_(what), part=part, ledger=ledger
                    ),
                    shown,
                )
        pattern = temp_pattern(base.name)
        try:
            temps = [e.path for e in os.scandir(base.parent) if pattern.fullmatch(e.name)]
        except OSError:
            temps = []
        for temp in temps:
            other = _stat(Path(temp))
            if other is not None and _same_file(found, other):
                raise PrefcalcError(
                    _(
                        "cannot write {what} over a hard link to a temporary file of the ledger {ledger}"
                    ).format(what=_(what), ledger=ledger),
                    shown,
                )


def _holds_a_ledger(path: Path) -> bool:
    """Whether the regular file at ``path`` holds a prefcalc ledger, decided by parsing it.

    A ledger is a JSON object with a ``"schema"`` key, wherever the key sits (a ledger
    rewritten with sorted keys puts it after the deals, far past any prefix). A file that
    does not start like a JSON object is not one; one that does is read up to
    :data:`MAX_LEDGER` (the ledger reader's cap) and parsed. A JSON object too big to
    check, or one that no longer parses but names a ``"schema"`` (a hand edit that broke
    it), counts as a ledger: refusing an export costs a file name, overwriting a ledger
    costs the night.
    """
    try:
        fd = os.open(path, os.O_RDONLY | _O_NONBLOCK | _O_NOCTTY | _O_CLOEXEC | _O_BINARY)
    except OSError:
        return False
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            return False
        try:
            data = handle.read(4096)
            if _json_start(data) not in (b"{", b""):
                return False  # a workbook, a PDF, a picture: read no further
            data += handle.read(max(0, MAX_LEDGER + 1 - len(data)))
        except OSError:
            return False
    if _json_start(data) != b"{":
        return False
    if len(data) > MAX_LEDGER:
        return True
    try:
        parsed = json.loads(data[len(BOM) :] if data.startswith(BOM) else data)
    except (ValueError, RecursionError):
        return b'"schema"' in data
    return isinstance(parsed, dict) and "schema" in parsed


def _json_start(data: bytes) -> bytes:
    """The first byte of ``data`` after a byte-order mark and JSON whitespace (b"" if none)."""
    found = _JSON_SPACE.match(data, len(BOM) if data.startswith(BOM) else 0)
    end = found.end() if found is not None else 0
    return data[end : end + 1]


_JSON_SPACE = re.compile(rb"[ \t\r\n]*")
