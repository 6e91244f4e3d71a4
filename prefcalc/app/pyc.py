"""Wheels precompiled for the browser's Python: every ``.py`` becomes a sourceless ``.pyc``.

This module runs inside Pyodide (under Node, driven by ``node/pyodide-run.mjs``), so the
bytecode is the browser's own CPython's: a ``.pyc`` is only valid for the interpreter that
wrote it (its magic number), and the Python running ``prefcalc app build`` is another one.
It uses the standard library alone and writes reproducible archives: the members sorted,
one fixed date, the same bytes for the same input.

A sourceless module is a ``.pyc`` where the ``.py`` was (``pkg/mod.pyc``, not in
``__pycache__``): the import system loads it without looking for a source, so a phone
neither compiles nor stats a source at start-up. The ``RECORD`` of the wheel is written
again for the files it now holds. Type stubs (``.pyi``, ``py.typed``) are left out: nothing
type-checks in a browser.
"""

from __future__ import annotations

import base64
import hashlib
import importlib.util
import io
import marshal
import sys
import zipfile
from pathlib import Path

SITE = f"/lib/python{sys.version_info[0]}.{sys.version_info[1]}/site-packages"
"""Where Pyodide installs wheels: the file names the bytecode reports in tracebacks."""

DATE = (1980, 1, 1, 0, 0, 0)
"""Every member's date: the same input gives the same archive."""

LEFT_OUT = (".pyi", "py.typed")


def pyc(source: bytes, name: str) -> bytes:
    """The bytecode of ``source`` as a ``.pyc`` file (PEP 552, hash-based, unchecked: the
    loader never compares it with a source, there is none)."""
    code = compile(source, f"{SITE}/{name}", "exec", dont_inherit=True, optimize=0)
    flags = (0b01).to_bytes(4, "little")
    return (
        importlib.util.MAGIC_NUMBER
        + flags
        + importlib.util.source_hash(source)
        + marshal.dumps(code)
    )


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def compile_wheel(data: bytes) -> bytes:
    """The wheel ``data`` with its modules precompiled."""
    members: dict[str, bytes] = {}
    record = ""
    with zipfile.ZipFile(io.BytesIO(data)) as wheel:
        for info in wheel.infolist():
            name = info.filename
            if info.is_dir() or "/__pycache__/" in f"/{name}" or name.endswith(LEFT_OUT):
                continue
            if name.endswith(".dist-info/RECORD"):
                record = name
                continue
            body = wheel.read(info)
            if name.endswith(".py"):
                members[name[:-3] + ".pyc"] = pyc(body, name)
            else:
                members[name] = body
    if not record:
        raise ValueError("a wheel without a RECORD")
    lines = [_record_line(name, body) for name, body in sorted(members.items())]
    members[record] = ("\n".join([*lines, f"{record},,"]) + "\n").encode()
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as wheel:
        for name in sorted(members):
            info = zipfile.ZipInfo(name, DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            wheel.writestr(info, members[name])
    return out.getvalue()


def main(source_dir: str, out_dir: str) -> list[str]:
    """Every wheel of ``source_dir`` precompiled into ``out_dir`` (same file names)."""
    done: list[str] = []
    for path in sorted(Path(source_dir).glob("*.whl")):
        (Path(out_dir) / path.name).write_bytes(compile_wheel(path.read_bytes()))
        done.append(path.name)
    return done
