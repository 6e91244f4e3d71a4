"""Fonts for the PDF export: the bundled DejaVu Sans first, system fonts for what it lacks.

DejaVu Sans ships inside the package (``prefcalc/fonts``), so Latin with every diacritic
(Vietnamese, Turkish...), Cyrillic (Russian, Mongolian Ө Ү) and the suit symbols always print.
Scripts it does not cover (Thai, Korean...) are looked up among the TrueType fonts installed on
the machine: ``fc-list`` when fontconfig is there, and the usual font folders in any case. Only
the ``cmap`` table of each candidate is read (a few kilobytes), and only when a text needs a
character DejaVu lacks. A character no font can draw is printed as ``?`` and reported, never
as an empty box.

reportlab is imported only here, in the PDF toolkit (:mod:`prefcalc.export.pdf_kit`) and in the
charts (:mod:`prefcalc.export.charts`).
"""

from __future__ import annotations

import bisect
import functools
import os
import shutil
import struct
import subprocess
import sys
import unicodedata
import zlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from reportlab.pdfbase import pdfmetrics  # type: ignore[import-untyped]
from reportlab.pdfbase.ttfonts import TTFont  # type: ignore[import-untyped]

from prefcalc.errors import PrefcalcError
from prefcalc.i18n import _
from prefcalc.store.files import os_reason

FONT_DIR = Path(__file__).resolve().parent.parent / "fonts"
BUNDLED = {"regular": "DejaVuSans.ttf", "bold": "DejaVuSans-Bold.ttf"}
REGULAR = "PrefcalcSans"
BOLD = "PrefcalcSans-Bold"

# Characters that change nothing when they cannot be drawn (joiners, variation selectors).
_IGNORABLE = frozenset("\u200b\u200c\u200d\u200e\u200f\u2060\ufeff") | frozenset(
    chr(c) for c in range(0xFE00, 0xFE10)
)
_STYLE_WORDS = ("bold", "italic", "oblique", "light", "thin", "black", "heavy", "condensed")
_MAX_FILES = 5000


@dataclass(frozen=True, slots=True, order=True)
class FontFile:
    """A face in a font file: ``index`` picks the face of a TrueType collection (.ttc)."""

    path: Path
    index: int = 0


# --- the bundled fonts ---------------------------------------------------------------------


_loaded: dict[str, TTFont] = {}
_covered: dict[str, frozenset[str]] = {}


def _register(name: str, font: FontFile) -> TTFont:
    """Register ``font`` with reportlab under ``name`` once per process."""
    face = _loaded.get(name)
    if face is None:
        face = TTFont(name, str(font.path), subfontIndex=font.index)
        pdfmetrics.registerFont(face)
        _loaded[name] = face
        _covered[name] = frozenset(chr(c) for c, g in face.face.charToGlyph.items() if g)
    return face


def bundled() -> tuple[TTFont, TTFont]:
    """The bundled regular and bold fonts, registered with reportlab."""
    faces = []
    for style, name in (("regular", REGULAR), ("bold", BOLD)):
        path = FONT_DIR / BUNDLED[style]
        try:
            faces.append(_register(name, FontFile(path)))
        except OSError as exc:
            raise PrefcalcError(
                _("the bundled font {font} cannot be read ({reason}): reinstall prefcalc").format(
                    font=path.name, reason=os_reason(exc)
                )
            ) from None
    return faces[0], faces[1]


# --- system fonts --------------------------------------------------------------------------


def font_dirs() -> list[Path]:
    """The folders where fonts are usually installed on Linux, macOS and Windows."""
    home = Path.home()
    dirs = [
        Path(os.environ.get("XDG_DATA_HOME") or home / ".local" / "share") / "fonts",
        home / ".fonts",
        Path("/usr/share/fonts"),
        Path("/usr/local/share/fonts"),
        Path("/Library/Fonts"),
        Path("/System/Library/Fonts"),
        home / "Library" / "Fonts",
    ]
    windir = os.environ.get("WINDIR") or os.environ.get("SYSTEMROOT")
    if windir:
        dirs.append(Path(windir) / "Fonts")
    local = os.environ.get("LOCALAPPDATA")
    if local:
        dirs.append(Path(local) / "Microsoft" / "Windows" / "Fonts")
    elif sys.platform == "win32":
        dirs.append(Path("C:/Windows/Fonts"))
    return dirs


def _fc_list() -> list[FontFile]:
    exe = shutil.which("fc-list")
    if exe is None:
        return []
    try:
        done = subprocess.run(
            [exe, "--format", "%{file}\t%{index}\n"],
            capture_output=True,
            text=True,
            timeout=20,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return []
    out = []
    for line in done.stdout.splitlines():
        file, _, index = line.partition("\t")
        if file.lower().endswith((".ttf", ".ttc")):
            out.append(FontFile(Path(file), int(index) if index.isdigit() else 0))
    return out


def _scan(dirs: Iterable[Path]) -> list[FontFile]:
    out: list[FontFile] = []
    for top in dirs:
        if not top.is_dir():
            continue
        for root, _subdirs, files in os.walk(top):
            for file in sorted(files):
                lower = file.lower()
                if lower.endswith(".ttf"):
                    out.append(FontFile(Path(root) / file))
                elif lower.endswith(".ttc"):
                    path = Path(root) / file
                    out.extend(FontFile(path, i) for i in range(_faces_in(path)))
                if len(out) >= _MAX_FILES:
                    return out
    return out


@functools.lru_cache(maxsize=1)
def system_font_files() -> tuple[FontFile, ...]:
    """Every TrueType face the machine has (fontconfig's list, then the usual folders)."""
    seen: set[tuple[str, int]] = set()
    out: list[FontFile] = []
    for font in [*_fc_list(), *_scan(font_dirs())]:
        try:
            key = (str(font.path.resolve()), font.index)
        except OSError:
            continue
        if key not in seen:
            seen.add(key)
            out.append(font)
    return tuple(out)


# --- reading a font's character map --------------------------------------------------------


def _faces_in(path: Path) -> int:
    try:
        with path.open("rb") as handle:
            head = handle.read(12)
    except OSError:
        return 0
    if len(head) < 12 or head[:4] != b"ttcf":
        return 1
    return int(struct.unpack(">I", head[8:12])[0])


Ranges = tuple[tuple[int, int], ...]


def _cmap_ranges(data: bytes, offset: int) -> Ranges | None:
    """The code point ranges (inclusive) a cmap subtable maps to a real glyph."""
    fmt = struct.unpack_from(">H", data, offset)[0]
    ranges: list[tuple[int, int]] = []
    if fmt == 12:
        (count,) = struct.unpack_from(">I", data, offset + 12)
        for k in range(count):
            start, end, glyph = struct.unpack_from(">III", data, offset + 16 + 12 * k)
            if glyph == 0:
                start += 1
            if start <= end:
                ranges.append((start, end))
    elif fmt == 4:
        seg2 = struct.unpack_from(">H", data, offset + 6)[0]
        segs = seg2 // 2
        ends = struct.unpack_from(f">{segs}H", data, offset + 14)
        starts = struct.unpack_from(f">{segs}H", data, offset + 16 + seg2)
        deltas = struct.unpack_from(f">{segs}h", data, offset + 16 + 2 * seg2)
        range_at = offset + 16 + 3 * seg2
        range_offsets = struct.unpack_from(f">{segs}H", data, range_at)
        for k in range(segs):
            start, end = starts[k], ends[k]
            if start == 0xFFFF or start > end:
                continue
            if range_offsets[k] == 0:  # glyph = code + delta: one code at most maps to 0
                hole = (-deltas[k]) & 0xFFFF
                if start <= hole <= end:
                    ranges.extend(r for r in ((start, hole - 1), (hole + 1, end)) if r[0] <= r[1])
                else:
                    ranges.append((start, end))
                continue
            run: int | None = None
            for code in range(start, end + 1):
                if range_offsets[k] == 0:
                    glyph = (code + deltas[k]) & 0xFFFF
                else:
                    at = range_at + 2 * k + range_offsets[k] + 2 * (code - start)
                    glyph = struct.unpack_from(">H", data, at)[0] if at + 2 <= len(data) else 0
                    if glyph:
                        glyph = (glyph + deltas[k]) & 0xFFFF
                if glyph and run is None:
                    run = code
                elif not glyph and run is not None:
                    ranges.append((run, code - 1))
                    run = None
            if run is not None:
                ranges.append((run, end))
    else:
        return None
    return tuple(sorted(ranges))


@functools.lru_cache(maxsize=512)
def read_cmap(font: FontFile) -> Ranges | None:
    """The characters a TrueType-outline face can draw, as sorted ranges.

    ``None`` when the file is unreadable or not drawable by reportlab (CFF outlines,
    no Unicode cmap). Reads the table directory and the ``cmap`` table only.
    """
    try:
        with font.path.open("rb") as handle:
            head = handle.read(12)
            base = 0
            if head[:4] == b"ttcf":
                (count,) = struct.unpack_from(">I", head, 8)
                if font.index >= count:
                    return None
                handle.seek(12 + 4 * font.index)
                (base,) = struct.unpack(">I", handle.read(4))
                handle.seek(base)
                head = handle.read(12)
            version, tables = struct.unpack_from(">4sH", head, 0)
            if version not in (b"\x00\x01\x00\x00", b"true"):
                return None  # 'OTTO': CFF outlines, which reportlab cannot embed
            directory = handle.read(16 * tables)
            found: dict[bytes, tuple[int, int]] = {}
            for k in range(tables):
                tag, _checksum, at, length = struct.unpack_from(">4sIII", directory, 16 * k)
                found[tag] = (at, length)
            if b"glyf" not in found or b"cmap" not in found:
                return None
            at, length = found[b"cmap"]
            handle.seek(at)
            cmap = handle.read(length)
    except (OSError, struct.error):
        return None
    try:
        _version, subtables = struct.unpack_from(">HH", cmap, 0)
        best: tuple[int, int] | None = None
        for k in range(subtables):
            platform, encoding, offset = struct.unpack_from(">HHI", cmap, 4 + 8 * k)
            rank = {(3, 10): 0, (0, 6): 1, (0, 4): 1, (3, 1): 2, (0, 3): 3}.get(
                (platform, encoding)
            )
            if rank is not None and (best is None or rank < best[0]):
                best = (rank, offset)
        if best is None:
            return None
        return _cmap_ranges(cmap, best[1])
    except (struct.error, IndexError):
        return None


def covers(ranges: Ranges, code: int) -> bool:
    k = bisect.bisect_right(ranges, (code, 0x7FFFFFFF)) - 1
    return k >= 0 and ranges[k][0] <= code <= ranges[k][1]


def _style_penalty(font: FontFile) -> int:
    stem = font.path.stem.lower()
    return sum(word in stem for word in _STYLE_WORDS) + (font.index > 0)


# --- choosing a font for every character ---------------------------------------------------


@dataclass(frozen=True, slots=True)
class Run:
    """A piece of text drawn in one registered font."""

    font: str
    text: str


@dataclass
class FontBook:
    """Which registered font draws which character, for one document.

    ``search`` lists the system fonts to fall back on (tests replace it to simulate a
    machine without any).
    """

    search: Callable[[], Iterable[FontFile]] | None = None
    _faces: dict[str, TTFont] = field(default_factory=dict)
    _cover: dict[str, frozenset[str]] = field(default_factory=dict)
    _fallbacks: list[str] = field(default_factory=list)
    _char_font: dict[tuple[str, bool], str | None] = field(default_factory=dict)
    _files: dict[str, FontFile] = field(default_factory=dict)
    _searched: bool = False
    _candidates: list[tuple[FontFile, Ranges]] = field(default_factory=list)

    def __post_init__(self) -> None:
        regular, bold = bundled()
        for name, face in ((REGULAR, regular), (BOLD, bold)):
            self._faces[name] = face
            self._cover[name] = _covered[name]

    # -- queries --------------------------------------------------------------------------
    def face(self, name: str) -> TTFont:
        return self._faces[name]

    def plain(self, text: str, bold: bool = False) -> bool:
        """True when the bundled font draws all of ``text`` as it is (the fast, common case)."""
        return text.isascii() or (
            self._cover[BOLD if bold else REGULAR].issuperset(text)
            and unicodedata.is_normalized("NFC", text)
        )

    def missing(self, text: str) -> list[str]:
        """The characters of ``text`` that no available font can draw."""
        text = unicodedata.normalize("NFC", text)
        out = []
        for ch in dict.fromkeys(text):
            if ch in _IGNORABLE or ch in self._cover[REGULAR]:
                continue
            if self._font_for(ch) is None:
                out.append(ch)
        return out

    def runs(self, text: str, bold: bool = False) -> list[Run]:
        """``text`` cut into pieces, each in a font that draws it (``?`` where none does)."""
        main = BOLD if bold else REGULAR
        if not text.isascii():
            text = unicodedata.normalize("NFC", text)
        if self.plain(text, bold):
            return [Run(main, text)]
        out: list[Run] = []
        for ch in text:
            font: str | None
            if ch in self._cover[main]:
                font = main
            elif ch in _IGNORABLE:
                continue
            elif ch in self._cover[REGULAR]:
                font = REGULAR
            else:
                font = self._font_for(ch, bold)
                if font is None:
                    font, ch = main, "?"
            if out and out[-1].font == font:
                out[-1] = Run(font, out[-1].text + ch)
            else:
                out.append(Run(font, ch))
        return out

    def check(self, texts: Iterable[str]) -> list[str]:
        """One warning for every text with characters no font can draw."""
        warnings = []
        for text in dict.fromkeys(texts):
            lost = self.missing(text)
            if lost:
                shown = unicodedata.normalize("NFC", text)
                warnings.append(
                    f"no font can draw {shown!r} (missing {''.join(lost)!r}); it is printed with "
                    f"'?' in their place: install a TrueType font covering them"
                )
        return warnings

    # -- fallback search --------------------------------------------------------------------
    def _font_for(self, ch: str, bold: bool = False) -> str | None:
        key = (ch, bold)
        if key in self._char_font:
            return self._char_font[key]
        chosen = self._bold_for(ch) if bold else self._regular_for(ch)
        self._char_font[key] = chosen
        return chosen

    def _regular_for(self, ch: str) -> str | None:
        code = ord(ch)
        for name in self._fallbacks:
            if ch in self._cover[name]:
                return name
        if not self._searched:
            self._searched = True
            search = self.search or system_font_files
            for font in search():
                ranges = read_cmap(font)
                if ranges:
                    self._candidates.append((font, ranges))
            self._candidates.sort(key=lambda c: (_style_penalty(c[0]), c[0]))
        for font, ranges in list(self._candidates):
            if covers(ranges, code):
                loaded = self._load(font)
                if loaded is not None and ch in self._cover[loaded]:
                    return loaded
        return None

    def _bold_for(self, ch: str) -> str | None:
        """A bold face for ``ch``, from the regular fallback's folder first; else the regular."""
        regular = self._regular_for(ch)
        if regular is None:
            return None
        home = self._files[regular].path.parent
        code = ord(ch)
        bolds = [
            font
            for font, ranges in self._candidates
            if "bold" in font.path.stem.lower()
            and _style_penalty(font) == 1
            and covers(ranges, code)
        ]
        for font in sorted(bolds, key=lambda f: (f.path.parent != home, f)):
            loaded = self._load(font, regular=False)
            if loaded is not None and ch in self._cover[loaded]:
                return loaded
        return regular

    def _load(self, font: FontFile, regular: bool = True) -> str | None:
        """Register a system font; regular ones are tried first for later characters."""
        name = f"PrefcalcFallback-{font.path.stem}-{font.index}-{zlib.crc32(bytes(font.path)):08x}"
        if name in self._faces:
            return name
        try:
            face = _register(name, font)
        except Exception:  # a system font reportlab refuses (embedding forbidden, broken...)
            self._candidates = [c for c in self._candidates if c[0] != font]
            return None
        self._faces[name] = face
        self._cover[name] = _covered[name]
        self._files[name] = font
        if regular:
            self._fallbacks.append(name)
        return name
