"""``prefcalc share --png``: the pool sheet as an image for the group chat.

The image is the printable PDF's first page (:mod:`prefcalc.export.pdf`): the sheet with the
result under it (who pays whom), drawn without the page furniture (no footer, no "page 1 of
4"), rendered by PDFium through pypdfium2: one drawing of the sheet, the same fonts and
fallbacks as the print. (reportlab's own bitmap renderer, renderPM, draws only
``reportlab.graphics`` drawings, not the canvas the sheet is drawn on.) Pillow, which
reportlab already requires, encodes the PNG.
"""

from __future__ import annotations

import io
from pathlib import Path

from prefcalc.errors import PrefcalcError
from prefcalc.report import Report
from prefcalc.store.files import write_atomic

#: Pixels per PDF point: 2 renders an A4 landscape sheet at 1684 × 1190 (144 dpi), sharp on a
#: phone and a few hundred kilobytes.
SCALE = 2.0


def sheet_png(pdf: bytes, scale: float = SCALE) -> bytes:
    """The first page of ``pdf`` as PNG bytes."""
    import pypdfium2  # type: ignore[import-untyped]

    try:
        document = pypdfium2.PdfDocument(pdf)
        try:
            image = document[0].render(scale=scale).to_pil()
        finally:
            document.close()
    except pypdfium2.PdfiumError as exc:  # pragma: no cover - our own PDF always renders
        raise PrefcalcError(f"cannot render the pool sheet: {exc}") from None
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=True)
    return buffer.getvalue()


def write_png(report: Report, path: Path, paper: str = "a4") -> list[str]:
    """Write the pool sheet of the game of ``report`` as a PNG image to ``path``; return
    warnings to show."""
    from prefcalc.export.pdf import build_picture

    built = build_picture(report, paper)
    write_atomic(Path(path), sheet_png(built.data), "the image")
    return built.warnings
