"""What the app ships of prefcalc, checked without building it: the engine's files alone (no
front end, no export, no server) run a night in a fresh Python where the front ends'
libraries cannot be imported, as in the browser; the page's words and the worker's
operations are all there."""

from __future__ import annotations

import importlib.util
import io
import json
import marshal
import re
import subprocess
import sys
import textwrap
import zipfile
from pathlib import Path

import pytest

from prefcalc.app import HERE, build, engine, pyc
from prefcalc.app.words import APP_WORDS, app_words
from prefcalc.i18n import voice

STATIC = HERE / "static"
HEAVY = (
    "typer",
    "click",
    "fastapi",
    "starlette",
    "sse_starlette",
    "uvicorn",
    "jinja2",
    "segno",
    "prompt_toolkit",
    "reportlab",
    "openpyxl",
    "pypdfium2",
    "PIL",
)
"""What no browser can load (no wasm wheels) or the phone has no use for."""


def test_the_engine_wheel_leaves_the_front_ends_and_the_documents_out() -> None:
    names = {name for name, _path in build.engine_files()}
    for needed in (
        "prefcalc/__init__.py",
        "prefcalc/api.py",
        "prefcalc/commands.py",
        "prefcalc/rules/model.py",
        "prefcalc/store/ledger.py",
        "prefcalc/views/payloads.py",
        "prefcalc/views/sheet_svg.py",
        "prefcalc/views/night.py",
        "prefcalc/table/service.py",
        "prefcalc/app/engine.py",
        "prefcalc/templates/sochi.toml",
        "prefcalc/templates/sheet-layout.toml",
        "prefcalc/locale/ru/LC_MESSAGES/prefcalc.mo",
    ):
        assert needed in names, needed
    for left_out in (
        "prefcalc/cli.py",
        "prefcalc/play.py",
        "prefcalc/web/__init__.py",  # the server's package: nothing of it is on the phone
        "prefcalc/web/app.py",
        "prefcalc/web/json_api.py",
        "prefcalc/app/build.py",
        "prefcalc/app/cli.py",
    ):
        assert left_out not in names, left_out
    assert not [
        n
        for n in names
        if n.startswith(("prefcalc/export/", "prefcalc/history/", "prefcalc/tournament/"))
    ]
    # a new module or package of prefcalc is shipped to phones only when it is chosen to be
    tops = {n.split("/")[1] for n in names}
    assert tops == {
        "__init__.py",
        "api.py",
        "app",
        "cases.py",
        "commands.py",
        "errors.py",
        "i18n.py",
        "locale",
        "perf.py",
        "report.py",
        "resources.py",
        "resume.py",
        "rules",
        "store",
        "table",
        "templates",
        "terms.py",
        "views",
    }, tops
    assert not [n for n in names if n.endswith((".po", ".pot", ".pyc"))]


def test_the_engine_alone_runs_a_night_without_the_front_ends_libraries(tmp_path: Path) -> None:
    """The bundle's prefcalc (its files only) in a fresh interpreter where importing any of
    HEAVY fails, as in the browser: an import chain that drags one in fails here, named."""
    site = tmp_path / "site"
    for name, path in build.engine_files():
        target = site / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(path.read_bytes())
    script = textwrap.dedent(
        f"""
        import importlib.abc, json, sys, tempfile
        from pathlib import Path
        HEAVY = {HEAVY!r}
        class Refuse(importlib.abc.MetaPathFinder):
            def find_spec(self, name, path=None, target=None):
                if name.split(".")[0] in HEAVY:
                    raise ImportError(f"{{name}} is not in the browser")
                return None
        sys.meta_path.insert(0, Refuse())
        sys.path.insert(0, {str(site)!r})
        from prefcalc.app import engine
        assert engine.__file__.startswith({str(site)!r}), engine.__file__
        result = engine.selftest(Path(tempfile.mkdtemp()))
        loaded = sorted(m for m in sys.modules if m.split(".")[0] == "prefcalc")
        print(json.dumps({{"result": result, "loaded": loaded}}))
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        cwd=tmp_path,
        env={
            "PATH": "/usr/bin:/bin",
            "XDG_DATA_HOME": str(tmp_path / "data"),
            "PREFCALC_LANG": "en",
        },
    )
    assert done.returncode == 0, done.stderr[-3000:]
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["result"]["deals"] == 3
    assert "prefcalc.views.sheet_svg" in out["loaded"]
    assert not [m for m in out["loaded"] if m.startswith(("prefcalc.export", "prefcalc.cli"))]


def _static(name: str) -> str:
    return (STATIC / name).read_text(encoding="utf-8")


def test_every_word_of_the_page_is_in_its_dictionary() -> None:
    said = set(re.findall(r'data-t="([^"]+)"', _static("index.html")))
    for script in ("app.js", "storage.js", "worker-table.js"):
        said |= set(re.findall(r'\bt\("((?:[^"\\]|\\.)+)"', _static(script)))
    said |= {"{n} deals"}
    for lang in ("en", "ru"):
        with voice(lang=lang):
            words = app_words()
        missing = sorted(w for w in said if w not in words)
        assert missing == [], (lang, missing)
    with voice(lang="ru"):
        russian = app_words()
    untranslated = [w for w in APP_WORDS if russian[w] == w]
    assert untranslated == []


def test_every_operation_the_page_asks_for_is_the_engines() -> None:
    asked = set()
    for script in ("app.js", "worker-table.js"):
        asked |= set(re.findall(r'\.call\("([a-z]+)"', _static(script)))
    assert asked, "the scripts call the engine"
    assert asked <= set(engine.OPERATIONS), asked - set(engine.OPERATIONS)
    assert "hello" in _static("worker.js")


def test_the_page_loads_nothing_from_another_origin() -> None:
    for path in STATIC.iterdir():
        if path.suffix in (".html", ".js", ".css"):
            text = path.read_text(encoding="utf-8")
            assert not re.search(r"https?://(?!127\.0\.0\.1)", text), path.name


# --- the precompiled archives (pyc.py runs in the browser's Python at build time; its logic
# --- is the same in this one, whose bytecode it then writes) ------------------------------------


def _zip(members: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return out.getvalue()


def test_a_wheel_is_precompiled_into_a_stored_reproducible_archive() -> None:
    wheel = _zip(
        {
            "tiny/__init__.py": b'"""A tiny package."""\nX = 1\n',
            "tiny/data.json": b"{}",
            "tiny/__init__.pyi": b"X: int\n",
            "tiny/py.typed": b"",
            "tiny-1.0.dist-info/RECORD": b"",
        }
    )
    made = pyc.compile_wheel(wheel)
    assert made == pyc.compile_wheel(wheel)  # the same bytes for the same input
    with zipfile.ZipFile(io.BytesIO(made)) as archive:
        infos = archive.infolist()
        assert [i.filename for i in infos] == sorted(i.filename for i in infos)
        assert {i.filename for i in infos} == {
            "tiny/__init__.pyc",
            "tiny/data.json",
            "tiny-1.0.dist-info/RECORD",
        }
        assert all(i.compress_type == zipfile.ZIP_STORED for i in infos)
        record = archive.read("tiny-1.0.dist-info/RECORD").decode()
    assert "tiny/__init__.pyc,sha256=" in record and "tiny/data.json," in record


def test_the_standard_library_is_cut_to_what_was_imported(tmp_path: Path) -> None:
    source = tmp_path / "python_stdlib.zip"
    source.write_bytes(
        _zip(
            {
                "kept.py": b'"""Kept."""\ndef f():\n    """Said."""\n    return 2\n',
                "pkg/__init__.py": b"",
                "pkg/sub.py": b"Y = 3\n",
                "dropped.py": b"Z = 4\n",
                "pyodide/__init__.py": b"",  # Pyodide's own: always kept
            }
        )
    )
    out = tmp_path / "cut.zip"
    written = pyc.stdlib(str(source), ["kept.py", "pkg/sub.py"], str(out))
    assert written == ["kept.pyc", "pkg/sub.pyc", "pyodide/__init__.pyc"]
    with zipfile.ZipFile(out) as archive:
        data = archive.read("kept.pyc")
    assert data[:4] == importlib.util.MAGIC_NUMBER
    code = marshal.loads(data[16:])
    space: dict[str, object] = {}
    exec(code, space)
    assert space.get("__doc__") is None and space["f"].__doc__ is None  # type: ignore[attr-defined]
    assert space["f"]() == 2  # type: ignore[operator]
    assert code.co_filename == f"{pyc.STDLIB}/kept.py"
    kept: dict[str, object] = {}  # a wheel's modules keep theirs
    exec(marshal.loads(pyc.pyc(b'"""Kept."""\n', "kept.py")[16:]), kept)
    assert kept["__doc__"] == "Kept."
    with pytest.raises(ValueError, match=r"missing\.py"):
        pyc.stdlib(str(source), ["kept.py", "missing.py"], str(out))
