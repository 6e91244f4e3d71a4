"""Modules precompiled for the browser's Python: every ``.py`` becomes a sourceless ``.pyc``.

This module runs inside Pyodide (under Node, driven by ``node/pyodide-run.mjs``), so the
bytecode is the browser's own CPython's: a ``.pyc`` is only valid for the interpreter that
wrote it (its magic number), and the Python running ``prefcalc app build`` is another one.
It uses the standard library alone and writes reproducible archives: the members sorted,
one fixed date, the same bytes for the same input.

A sourceless module is a ``.pyc`` where the ``.py`` was (``pkg/mod.pyc``, not in
``__pycache__``): the import system loads it without looking for a source, so a phone
neither compiles nor stats a source at start-up. The ``RECORD`` of a wheel is written again
for the files it now holds. Type stubs (``.pyi``, ``py.typed``) are left out: nothing
type-checks in a browser.

The archives are stored, not deflated: the build keeps a gzip copy of each file for the
transfer (the service worker undoes it), and the phone then reads the members without
inflating them in WebAssembly. The bytecode carries line numbers but no column tables (the
build runs Python with ``PYTHONNODEBUGRANGES``): a traceback names the line, without the
``^^^`` under it.

The standard library is Pyodide's ``python_stdlib.zip`` cut to the modules the engine's
night imported (:func:`stdlib`), their docstrings left out (nothing in the browser reads
them: no ``help()``, no command-line help).
"""

from __future__ import annotations

import ast
import base64
import hashlib
import importlib.util
import io
import marshal
import sys
import zipfile
from collections.abc import Iterable
from pathlib import Path

SITE = f"/lib/python{sys.version_info[0]}.{sys.version_info[1]}/site-packages"
"""Where Pyodide installs wheels: the file names the bytecode reports in tracebacks."""

STDLIB = f"/lib/python{sys.version_info[0]}{sys.version_info[1]}.zip"
"""Where Pyodide puts its standard library (imported from the archive itself)."""

DATE = (1980, 1, 1, 0, 0, 0)
"""Every member's date: the same input gives the same archive."""

LEFT_OUT = (".pyi", "py.typed")

ALWAYS = ("_pyodide/", "pyodide/")
"""Pyodide's own Python packages, kept whole in the standard library: the browser's start
(a worker, not Node) may import a module of them that the build's night did not."""


def pyc(source: bytes, name: str, where: str = SITE, docstrings: bool = True) -> bytes:
    """The bytecode of ``source`` as a ``.pyc`` file (PEP 552, hash-based, unchecked: the
    loader never compares it with a source, there is none); ``where/name`` is the file name
    tracebacks show; without ``docstrings`` the modules', classes' and functions' docstrings
    are left out."""
    tree: ast.Module | bytes = source
    if not docstrings:
        tree = _without_docstrings(ast.parse(source, name))
    code = compile(tree, f"{where}/{name}", "exec", dont_inherit=True, optimize=0)
    flags = (0b01).to_bytes(4, "little")
    return (
        importlib.util.MAGIC_NUMBER
        + flags
        + importlib.util.source_hash(source)
        + marshal.dumps(code)
    )


def _without_docstrings(tree: ast.Module) -> ast.Module:
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            first = body[0] if body else None
            if (
                isinstance(first, ast.Expr)
                and isinstance(first.value, ast.Constant)
                and isinstance(first.value.value, str)
            ):
                if len(body) == 1:
                    body[0] = ast.copy_location(ast.Pass(), first)
                else:
                    del body[0]
    return tree


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def _archive(members: dict[str, bytes]) -> bytes:
    """A stored zip of ``members``, reproducible."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as archive:
        for name in sorted(members):
            info = zipfile.ZipInfo(name, DATE)
            info.compress_type = zipfile.ZIP_STORED
            info.external_attr = 0o644 << 16
            archive.writestr(info, members[name])
    return out.getvalue()


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
    return _archive(members)


def stdlib(source: str, wanted: Iterable[str], out: str) -> list[str]:
    """The standard library's archive ``source`` cut to the ``wanted`` modules (and
    :data:`ALWAYS`), each precompiled, written to ``out``: the members written."""
    keep = set(wanted)
    members: dict[str, bytes] = {}
    with zipfile.ZipFile(source) as archive:
        for info in archive.infolist():
            name = info.filename
            if info.is_dir() or not name.endswith(".py"):
                continue
            if name in keep or name.startswith(ALWAYS):
                members[name[:-3] + ".pyc"] = pyc(
                    archive.read(info), name, STDLIB, docstrings=False
                )
    missing = sorted(keep - {n[:-1] for n in members})
    if missing:
        raise ValueError(f"not in the standard library's archive: {', '.join(missing)}")
    Path(out).write_bytes(_archive(members))
    return sorted(members)


def main(source_dir: str, out_dir: str) -> list[str]:
    """Every wheel of ``source_dir`` precompiled into ``out_dir`` (same file names)."""
    done: list[str] = []
    for path in sorted(Path(source_dir).glob("*.whl")):
        (Path(out_dir) / path.name).write_bytes(compile_wheel(path.read_bytes()))
        done.append(path.name)
    return done
