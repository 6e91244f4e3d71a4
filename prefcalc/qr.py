"""A QR code drawn in a terminal: the address ``prefcalc serve`` gives the phones at the table,
and the one ``prefcalc app build --url`` prints for wherever the app is put. segno is imported
only when a code is drawn."""

from __future__ import annotations

RESET = "\x1b[0m"
QUIET = 4  # modules of light around the code, as the standard asks


def qr_text(url: str) -> str:
    """``url``'s QR code for a terminal: dark modules on light, both drawn (a half block a
    pair of rows, its top in the foreground colour, its bottom in the background), with its
    quiet zone, so that a phone reads it on a dark theme and a light one alike."""
    import segno

    rows = [
        list(row)
        for row in segno.make(url, error="l", micro=False).matrix_iter(scale=1, border=QUIET)
    ]
    if len(rows) % 2:
        rows.append([0] * len(rows[0]))
    # the 256-colour palette's black (16) and white (231) are fixed colours, not the theme's
    black, white = "\x1b[38;5;16m", "\x1b[38;5;231m"
    on_black, on_white = "\x1b[48;5;16m", "\x1b[48;5;231m"
    lines = []
    for top, bottom in zip(rows[::2], rows[1::2], strict=True):
        cells, now = [], ("", "")
        for up, down in zip(top, bottom, strict=True):
            colours = (black if up else white, on_black if down else on_white)
            cells.append("".join(c for c, was in zip(colours, now, strict=True) if c != was))
            cells.append("▀")
            now = colours
        lines.append("".join(cells) + RESET)
    return "\n".join(lines) + "\n"
