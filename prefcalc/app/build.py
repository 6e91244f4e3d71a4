"""``prefcalc app build``: the installable web app, a static folder that needs nothing else.

From the pinned inputs (:mod:`prefcalc.app.lock`, fetched once by :mod:`prefcalc.app.fetch`)
and prefcalc's own engine:

1. Pyodide's runtime from its npm tarball (the WebAssembly Python);
2. the wheels, Babel trimmed to the locales prefcalc speaks, plus a wheel of prefcalc's
   engine: every module but the front ends and the exports (the CLI, ``play``, the PDF and
   XLSX, the club history, the server; see :data:`LEFT_OUT`), with the presets and the
   compiled catalogs. The engine's module is brought back from the left-out ``app``
   package (its ``__init__`` too, which imports nothing of the build);
3. all of them precompiled by the browser's own Python under Node (a ``.pyc`` is only
   valid for the interpreter that wrote it), which then installs them and runs a night
   through every operation of the engine, refusals included; the standard library is then
   cut to the modules imported by the end of that night, precompiled too;
4. the browser's start run again under Node from the built folder alone (the cut standard
   library, the lock the phone reads): the engine imported with only the packages of the
   start, then the night again with the later ones (the lock's ``later``: pydantic, which
   only a validation needs). A module the bundle lacks fails the build, never the phone;
5. the page, the worker, the service worker and its list of files with their sha256, the
   manifest and icons, the words of the pages in every language; every file that shrinks
   gets a gzip copy (the service worker fetches it and undoes it, so what a phone downloads
   does not depend on the host compressing).

Everything is made in a temporary folder beside the destination and renamed into place at
the end: a failure at any step leaves the previous app (or nothing) as it was. Nothing in
the folder names its own address: it works from any path of any static host.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import os
import shutil
import subprocess
import tarfile
import tempfile
import zipfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from prefcalc import __version__
from prefcalc.app import HERE, cache_dir, default_dir
from prefcalc.app.fetch import Sources, cached, fetch, machine_sources
from prefcalc.app.lock import LOCK, AppBuildError, Lock, Wheel, digest, norm, pins, read_lock
from prefcalc.i18n import LANGUAGES, _, voice

PACKAGE = HERE.parent
"""prefcalc's own package folder (the modules the engine wheel is made of)."""

LEFT_OUT = (
    "prefcalc/__main__.py",
    "prefcalc/cli.py",
    "prefcalc/play.py",
    "prefcalc/completion.py",
    "prefcalc/qr.py",
    "prefcalc/help_extract.py",
    "prefcalc/help_words.py",
    "prefcalc/export/",
    "prefcalc/history/",
    "prefcalc/tournament/",
    "prefcalc/web/",
    "prefcalc/app/",
)
"""What the phone's engine does without: the terminal front ends, the documents (they need
reportlab, openpyxl, pypdfium2: no browser wheels), the club's history and the tournaments
(folders of games on a computer), the server (FastAPI) and the build."""

BROUGHT_BACK = (
    "prefcalc/app/__init__.py",
    "prefcalc/app/engine.py",
)
"""Modules of left-out packages the engine uses: the engine itself (the views it answers
with, the sheet's drawing and the night's list of deals, are in ``views``; the operations on
a game in ``table``)."""

RUNTIME = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip")
"""Pyodide's files the app loads (of its npm package, which also holds types and consoles)."""

SERVE_SCRIPTS = (
    "bar.js",
    "builder.js",
    "common.js",
    "deal.js",
    "dom.js",
    "engine.js",
    "format.js",
    "night.js",
    "score.js",
    "summary.js",
    "watch.js",
    "words.js",
)
"""serve's scripts the app's pages are made of (one front-end code base: the score page and
the watch view are given the phone's table instead of serve's)."""

COMPRESSED = (
    ".wasm",
    ".mjs",
    ".js",
    ".zip",
    ".whl",
    ".json",
    ".css",
    ".html",
    ".svg",
    ".webmanifest",
)
"""Files stored beside a gzip copy when it saves a tenth or more: the service worker fetches
the copy and keeps the file itself, so a phone moves the fewest bytes from any static server
(one that compresses nothing too). The wheels and the standard library are stored zips, so
their copy compresses them whole."""

FILE_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
    ".webmanifest": "application/manifest+json",
    ".wasm": "application/wasm",
    ".zip": "application/zip",
    ".whl": "application/zip",
    ".png": "image/png",
    ".svg": "image/svg+xml",
}

MARK = "build.json"
"""The file that says a folder is a built app (and what it was built from)."""

CHECK = """
import json, sys, tempfile
from pathlib import Path

HEAVY = ("typer", "fastapi", "reportlab", "openpyxl", "pypdfium2", "prompt_toolkit", "jinja2",
         "segno", "uvicorn", "platformdirs")

def ask(engine, op, **args):
    return json.loads(engine.handle(json.dumps({"op": op, "args": args})))

def night(engine):
    # the protocol's operations through handle(), as the worker calls them, in both
    # languages, with what a phone may be given: a ledger from elsewhere (with a BOM), a
    # redo, refusals of every kind; each answer is what it must be, or the build fails
    expect = []
    def want(ok, op, **args):
        answer = ask(engine, op, **args)
        if answer["ok"] is not ok:
            raise AssertionError(f"{op}: {answer}")
        expect.append(op)
        return answer.get("result")
    want(True, "lang", lang="ru")
    made = want(True, "new", players=["Аня", "Боря", "Вера"], convention="leningrad",
                target=10, price="0.5", currency="₽", taken=[])
    name = made["name"]
    for line in ("game Аня 6s 6 Боря:w Вера:p", "passes Аня=2 Боря=5 Вера=3", "undo", "redo",
                 "misere Вера 0", "settle"):
        want(True, "line", name=name, line=line)
    want(False, "line", name=name, line="game Дима 6s 6")
    for op in ("game", "log", "seats", "sheet", "cases", "summary"):
        want(True, op, name=name)
    want(True, "settle", name=name, method="average", rounding="whole")
    want(True, "explain", name=name, number=1)
    want(True, "lang", lang="en")
    ledger = Path("/games", name + ".json").read_text(encoding="utf-8")
    want(True, "check", ledger="\ufeff" + ledger)
    want(True, "open", name="copy", ledger=ledger.replace("Боря", "Борис"), redo=None)
    want(True, "close", name="copy")
    data = json.loads(ledger)
    data["deals"][0]["tricks"] = 11
    want(False, "check", ledger=json.dumps(data))
    data["schema"] = 99
    want(False, "check", ledger=json.dumps(data))
    want(False, "check", ledger="[" * 100000)
    want(False, "check", ledger="{not json")
    want(False, "open", name="../x", ledger=ledger, redo=None)
    want(False, "nonsense")
    return expect

def main():
    from prefcalc.app import engine
    result = engine.selftest(Path(tempfile.mkdtemp()))
    result["night"] = night(engine)
    result["heavy"] = sorted(m for m in HEAVY if m in sys.modules)
    result["python"] = sys.version.split()[0]
    return json.dumps(result)
"""


@dataclass(frozen=True)
class Built:
    """What ``prefcalc app build`` made."""

    out: Path
    build: str
    files: int
    size: int  # bytes of the files the app loads
    transfer: int  # bytes the service worker fetches on the first install
    selftest: dict[str, Any]
    later: int = 0  # of ``transfer``: the packages installed once the engine is ready


Say = Callable[[str], None]


MAX_URL = 2000
"""The longest address ``--url`` takes (a QR code a phone reads holds far fewer)."""

LOOPBACK = ("localhost", "127.0.0.1", "::1")
"""Hosts a browser treats as secure over plain http (a service worker runs there)."""


def check_url(text: str) -> str:
    """The address the app will be put at, as ``--url`` gives it: ``https://host/path/`` (or
    ``http://`` on this computer, where a browser runs a service worker too), a folder's
    address (a trailing ``/`` added), with no user name, query or fragment. Anything else is
    one line."""
    import urllib.parse

    from prefcalc.errors import one_line

    def refuse(why: str) -> AppBuildError:
        return AppBuildError(
            _("--url {url}: {why} (nothing was built)").format(url=one_line(text, 80), why=why)
        )

    if len(text) > MAX_URL or not text.isprintable() or any(c.isspace() for c in text):
        raise refuse(_("not an address"))
    try:
        parts = urllib.parse.urlsplit(text)
        host = parts.hostname or ""
        parts.port  # noqa: B018 (a port that is not a number raises here)
    except ValueError:
        raise refuse(_("not an address")) from None
    if not (parts.scheme == "https" or (parts.scheme == "http" and host in LOOPBACK)):
        raise refuse(
            _("a phone installs the app only from an https:// address (or http://localhost)")
        )
    if not host:
        raise refuse(_("not an address"))
    if parts.username is not None or parts.password is not None or parts.query or parts.fragment:
        raise refuse(_("the address of a folder, without a user name, ?query or #fragment"))
    path = parts.path or "/"
    if not path.endswith(("/", ".html")):
        path += "/"
    return urllib.parse.urlunsplit((parts.scheme, parts.netloc, path, "", ""))


def build(
    out: Path | None = None,
    *,
    lock_path: Path = LOCK,
    cache: Path | None = None,
    sources: Sources | None = None,
    node: str | None = None,
    say: Say = lambda _line: None,
) -> Built:
    """Build the app into ``out`` (default: the data folder's ``app``)."""
    lock = read_lock(lock_path)
    out = (out or default_dir()).absolute()
    cache = cache or cache_dir()
    _check_destination(out)
    inputs: dict[str, Path] = {}
    for pin in pins(lock):
        found = cached(pin, cache)
        if found is None:
            sources = sources or machine_sources()  # asked of pip and npm once, if needed
            say(_("fetching {file}…").format(file=pin.file))
            found = fetch(pin, cache, sources)
        inputs[pin.file] = found
    _check_pydantic(lock, inputs)
    say(_("inputs: {count} files checked against the lock").format(count=len(inputs)))
    node = node or shutil.which("node")
    if not node:
        raise AppBuildError(
            _(
                "the build runs the browser's Python under Node.js to precompile prefcalc"
                " for it: install Node.js 18 or later (nothing was written)"
            )
        )
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{out.name}.build-", dir=out.parent))
    try:
        built = _assemble(staging, lock, lock_path, inputs, node, say)
        _swap(staging, out)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return Built(
        out, built.build, built.files, built.size, built.transfer, built.selftest, built.later
    )


def _check_destination(out: Path) -> None:
    """``out`` is missing, empty, or an app built before: never anybody's other folder."""
    if out.is_symlink() or (out.exists() and not out.is_dir()):
        raise AppBuildError(_("not a folder: nothing was written"), str(out))
    if out.is_dir() and any(out.iterdir()) and not (out / MARK).is_file():
        raise AppBuildError(
            _("the folder is not empty and holds no app built by prefcalc: nothing was written"),
            str(out),
        )


def _check_pydantic(lock: Lock, inputs: dict[str, Path]) -> None:
    """pydantic refuses to start with another pydantic-core than the one it was released
    with: the lock's two pins must agree (read from pydantic's wheel itself)."""
    pydantic = next((w for w in lock.wheels if norm(w.name) == "pydantic"), None)
    core = next((w for w in lock.wheels if norm(w.name) == "pydantic-core"), None)
    if pydantic is None or core is None:
        return
    with zipfile.ZipFile(inputs[pydantic.file]) as wheel:
        text = wheel.read("pydantic/version.py").decode("utf-8")
    for line in text.splitlines():
        if line.startswith("_COMPATIBLE_PYDANTIC_CORE_VERSION"):
            wanted = line.partition("=")[2].strip().strip("'\"")
            if wanted != core.version:
                raise AppBuildError(
                    _(
                        "pydantic {version} needs pydantic-core {wanted}, the lock pins"
                        " {pinned}: nothing was written"
                    ).format(version=pydantic.version, wanted=wanted, pinned=core.version)
                )


# --- the parts -------------------------------------------------------------------------------


def _runtime(tgz: Path, into: Path) -> dict[str, Any]:
    """Pyodide's files out of its npm tarball; the ``info`` of its own lock."""
    into.mkdir(parents=True, exist_ok=True)
    info: dict[str, Any] = {}
    with tarfile.open(tgz, "r:gz") as tar:
        wanted = {f"package/{name}": name for name in (*RUNTIME, "pyodide-lock.json")}
        found: set[str] = set()
        for member in tar.getmembers():
            name = wanted.get(member.name)
            if name is None or not member.isfile():
                continue
            data = tar.extractfile(member)
            assert data is not None
            body = data.read()
            if name == "pyodide-lock.json":
                info = json.loads(body)["info"]
            else:
                (into / name).write_bytes(body)
            found.add(name)
    missing = sorted(set(wanted.values()) - found)
    if missing:
        raise AppBuildError(
            _("{file} lacks {missing}: nothing was written").format(
                file=tgz.name, missing=", ".join(missing)
            )
        )
    return info


def _trimmed(wheel: Wheel, data: bytes) -> bytes:
    """``data`` without the members the lock drops (and keeps back); RECORD rewritten."""
    if not wheel.drop:
        return data

    def wanted(name: str) -> bool:
        return name in wheel.keep or not name.startswith(tuple(wheel.drop))

    return _rewrite(data, wanted)


def _rewrite(data: bytes, wanted: Callable[[str], bool]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w") as dst:
        for info in src.infolist():
            if wanted(info.filename):
                dst.writestr(info, src.read(info), compress_type=zipfile.ZIP_DEFLATED)
    return out.getvalue()


def engine_files(package: Path = PACKAGE) -> list[tuple[str, Path]]:
    """The files of prefcalc's engine wheel: (name in the wheel, file)."""
    root = package.parent
    chosen: list[tuple[str, Path]] = []
    for path in sorted(package.rglob("*")):
        if not path.is_file() or "__pycache__" in path.parts:
            continue
        name = path.relative_to(root).as_posix()
        if name.startswith(LEFT_OUT) and name not in BROUGHT_BACK:
            continue
        if path.suffix == ".py" or (path.suffix == ".mo" and "/locale/" in name):
            chosen.append((name, path))
    from prefcalc.resources import bundled

    for path in sorted(bundled("templates").glob("*.toml")):
        chosen.append((f"prefcalc/templates/{path.name}", path))
    return chosen


def sources_digest(lock_path: Path = LOCK) -> str:
    """One digest of everything a build is made of here (the lock, the engine's files, the
    page's): a built app whose ``build.json`` says another one is out of date."""
    h = hashlib.sha256(lock_path.read_bytes())
    parts = [*engine_files(), ("serve.css", PACKAGE / "web" / "static" / "app.css")]
    parts += [(f"serve/{name}", PACKAGE / "web" / "static" / name) for name in SERVE_SCRIPTS]
    parts += [(f"static/{p.name}", p) for p in sorted((HERE / "static").iterdir()) if p.is_file()]
    for name, path in parts:
        h.update(name.encode() + b"\0" + hashlib.sha256(path.read_bytes()).digest())
    return h.hexdigest()


def _engine_wheel(into: Path) -> str:
    """A wheel of prefcalc's engine (sources: the Pyodide step compiles them)."""
    name = f"prefcalc-{__version__}-py3-none-any.whl"
    info = f"prefcalc-{__version__}.dist-info"
    with zipfile.ZipFile(into / name, "w", zipfile.ZIP_DEFLATED) as wheel:
        for member, path in engine_files():
            wheel.writestr(zipfile.ZipInfo(member, (1980, 1, 1, 0, 0, 0)), path.read_bytes())
        meta = f"Metadata-Version: 2.1\nName: prefcalc\nVersion: {__version__}\n"
        wheel.writestr(f"{info}/METADATA", meta)
        wheel.writestr(
            f"{info}/WHEEL",
            "Wheel-Version: 1.0\nGenerator: prefcalc app build\nRoot-Is-Purelib: true\n"
            "Tag: py3-none-any\n",
        )
        wheel.writestr(f"{info}/RECORD", "")
    return name


def _node(node: str, step: str, *args: str) -> dict[str, Any]:
    """One step of ``node/pyodide-run.mjs``: its answer, or the build refused in one line."""
    command = [node, str(HERE / "node" / "pyodide-run.mjs"), step, *args]
    try:
        done = subprocess.run(
            command, capture_output=True, text=True, timeout=1800, check=False, env=_node_env()
        )
    except (OSError, subprocess.SubprocessError) as exc:
        raise AppBuildError(
            _("cannot run Node.js: {reason}: nothing was written").format(reason=exc)
        ) from None
    last = done.stdout.strip().splitlines()[-1:] or [""]
    try:
        answer: dict[str, Any] = json.loads(last[0])
    except ValueError:
        answer = {"error": (done.stderr.strip().splitlines() or [_("no answer")])[-1]}
    if "error" in answer or done.returncode != 0:
        raise AppBuildError(
            _("the browser's Python refused the bundle: {reason}: nothing was written").format(
                reason=answer.get("error", done.returncode)
            )
        )
    return answer


def _precompile(node: str, runtime: Path, sources: Path) -> None:
    """The wheels of ``sources`` compiled by the browser's Python into ``runtime``."""
    if not (runtime / "pyodide-lock.json").exists():
        raise AppBuildError(_("the runtime has no lock file"), str(runtime / "pyodide-lock.json"))
    _node(node, "compile", str(runtime), str(sources), str(runtime), str(HERE / "pyc.py"))


def _night(node: str, runtime: Path, check: Path, lock: Lock) -> dict[str, Any]:
    """The packages installed from the phone's lock, as its worker installs them, on Pyodide's
    whole standard library, and the engine's night run; then the standard library cut to
    what was imported, in place of the whole one. The night's figures, and how many modules
    the standard library keeps."""
    answer = _node(
        node, "night", str(runtime), str(check), str(HERE / "pyc.py"), json.dumps(_later(lock))
    )
    result: dict[str, Any] = answer["check"]
    _refuse_heavy(result)
    (runtime / "python_stdlib.cut.zip").replace(runtime / "python_stdlib.zip")
    result["stdlib"] = len(answer["stdlib"])
    return result


def _refuse_heavy(result: dict[str, Any]) -> None:
    if result.get("heavy"):
        raise AppBuildError(
            _("the engine imported {modules} in the browser: nothing was written").format(
                modules=", ".join(result["heavy"])
            )
        )


def _check_bundle(
    node: str, runtime: Path, check: Path, lock: Lock, night: dict[str, Any]
) -> dict[str, int]:
    """The browser's start from the built folder alone, then the night again: the same
    answers as on the whole standard library, nothing of the later packages imported before
    the engine is ready. The start's figures (ms)."""
    later = _later(lock)
    answer = _node(node, "check", str(runtime), str(check), json.dumps(later))
    result: dict[str, Any] = answer["check"]
    _refuse_heavy(result)
    if result.get("night") != night.get("night") or result.get("deals") != night.get("deals"):
        raise AppBuildError(
            _("the cut bundle answers otherwise than the whole one: nothing was written")
        )
    imports = {i for w in lock.wheels if w.later for i in w.imports}
    early = sorted(imports & set(answer["early"]))
    if early:
        raise AppBuildError(
            _(
                "the engine's start imported {modules}, which the lock installs after it"
                " (later = true): nothing was written"
            ).format(modules=", ".join(early))
        )
    return {str(k): int(v) for k, v in answer["ms"].items()}


def _later(lock: Lock) -> list[str]:
    """The packages installed once the engine is ready (their dependencies come with them)."""
    return [norm(w.name) for w in lock.wheels if w.later]


def _node_env() -> dict[str, str]:
    keep = ("PATH", "HOME", "TMPDIR", "LANG", "SYSTEMROOT")
    return {k: v for k, v in os.environ.items() if k in keep}


def _pyodide_lock(info: dict[str, Any], lock: Lock, wheels: Path, engine: str) -> dict[str, Any]:
    """The lock file Pyodide's package loader reads: our wheels, their sha256 (it checks
    them) and what depends on what."""
    packages: dict[str, Any] = {}
    entries: list[tuple[str, str, str, list[str], list[str]]] = [
        (w.name, w.version, w.file, w.imports, w.depends) for w in lock.wheels
    ]
    start = [w.name for w in lock.wheels if not w.later]
    entries.append(("prefcalc", __version__, engine, ["prefcalc"], start))
    for name, version, file, imports, depends in entries:
        packages[norm(name)] = {
            "name": name,
            "version": version,
            "file_name": file,
            "install_dir": "site",
            "package_type": "package",
            "sha256": digest((wheels / file).read_bytes()),
            "imports": list(imports),
            "depends": [norm(d) for d in depends],
            "unvendored_tests": False,
            "tool": {},
        }
    return {"info": info, "packages": packages}


def words_json() -> dict[str, Any]:
    """The words of the app's pages in the language in use (the serve pages' and the app's
    own)."""
    from prefcalc.app.words import app_words

    return app_words()


def _static(into: Path, lock: Lock) -> None:
    """The page, its scripts, styles and icons; serve's pages (the score page and the watch
    view, the same files as serve's) and serve's stylesheet; the worker told which packages
    come after the start."""
    for path in sorted((HERE / "static").iterdir()):
        if path.is_file() and path.name != "sw.js":
            shutil.copyfile(path, into / path.name)
    worker = (into / "worker.js").read_text(encoding="utf-8")
    (into / "worker.js").write_text(
        worker.replace("__LATER__", json.dumps(_later(lock))), encoding="utf-8"
    )
    for name in SERVE_SCRIPTS:
        shutil.copyfile(PACKAGE / "web" / "static" / name, into / name)
    shutil.copyfile(PACKAGE / "web" / "static" / "app.css", into / "serve.css")
    shutil.copyfile(PACKAGE / "web" / "static" / "icon.svg", into / "icon.svg")
    (into / "words").mkdir()
    for lang in LANGUAGES:
        with voice(lang=lang):  # each language's file in its voice
            text = json.dumps(words_json(), ensure_ascii=False, sort_keys=True, indent=1)
        (into / "words" / f"{lang}.json").write_text(text + "\n", encoding="utf-8")


def _manifest(into: Path) -> None:
    manifest = {
        "name": "prefcalc",
        "short_name": "prefcalc",
        "description": "Preference score sheet and settlement, offline",
        "start_url": "./",
        "scope": "./",
        "display": "standalone",
        "orientation": "portrait",
        "background_color": "#f4f1e8",
        "theme_color": "#1d3b2a",
        "lang": "ru",
        "icons": [
            {"src": "icon-192.png", "sizes": "192x192", "type": "image/png"},
            {"src": "icon-512.png", "sizes": "512x512", "type": "image/png"},
            {
                "src": "icon-512.png",
                "sizes": "512x512",
                "type": "image/png",
                "purpose": "maskable",
            },
            {"src": "icon.svg", "sizes": "any", "type": "image/svg+xml"},
        ],
    }
    (into / "manifest.webmanifest").write_text(
        json.dumps(manifest, ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
    )


def _gzip(path: Path) -> int | None:
    """A ``.gz`` copy beside ``path`` when it saves a tenth or more: its size."""
    if path.suffix not in COMPRESSED or path.stat().st_size < 4096:
        return None
    data = path.read_bytes()
    packed = gzip.compress(data, compresslevel=9, mtime=0)
    if len(packed) > 0.9 * len(data):
        return None
    path.with_name(path.name + ".gz").write_bytes(packed)
    return len(packed)


def _files(root: Path) -> Iterable[Path]:
    for path in sorted(root.rglob("*")):
        if path.is_file() and path.suffix != ".gz" and path.name not in ("sw.js", MARK):
            yield path


def _service_worker(
    into: Path, lock: Lock, selftest: dict[str, Any], start: dict[str, int], sources: str
) -> Built:
    """The list of files the service worker keeps (with their sha256, their type, the gzip
    copy it fetches), the build's name, the worker itself and build.json."""
    later = {f"pyodide/{w.file}" for w in lock.wheels if w.later}
    entries: list[dict[str, Any]] = []
    for path in _files(into):
        rel = path.relative_to(into).as_posix()
        data = path.read_bytes()
        entry: dict[str, Any] = {
            "url": rel,
            "size": len(data),
            "sha256": digest(data),
            "type": FILE_TYPES.get(path.suffix, "application/octet-stream"),
        }
        packed = _gzip(path)
        if packed is not None:
            entry["gz"] = packed
        entries.append(entry)
    name = hashlib.sha256(
        json.dumps(entries, sort_keys=True).encode() + __version__.encode()
    ).hexdigest()[:16]
    template = (HERE / "static" / "sw.js").read_text(encoding="utf-8")
    files = json.dumps(entries, separators=(",", ":"))
    worker = template.replace("__BUILD__", json.dumps(name)).replace("__FILES__", files)
    (into / "sw.js").write_text(worker, encoding="utf-8")
    size = sum(e["size"] for e in entries)
    moved = {e["url"]: e.get("gz", e["size"]) for e in entries}
    afterwards = sum(n for url, n in moved.items() if url in later)
    transfer = sum(moved.values()) + len(worker.encode())
    mark = {
        "build": name,
        "prefcalc": __version__,
        "pyodide": lock.pyodide.version,
        "python": selftest.get("python"),
        "wheels": {w.name: w.version for w in lock.wheels},
        "lock": digest(json.dumps(lock.model_dump(), sort_keys=True).encode()),
        "sources": sources,
        "files": len(entries),
        "size": size,
        "transfer": transfer,
        "later": afterwards,
        "stdlib_modules": selftest.get("stdlib"),
        "start_ms": start,
        "selftest_ms": selftest.get("ms", {}),
    }
    (into / MARK).write_text(json.dumps(mark, indent=1) + "\n", encoding="utf-8")
    return Built(into, name, len(entries), size, transfer, selftest, afterwards)


def _assemble(
    staging: Path, lock: Lock, lock_path: Path, inputs: dict[str, Path], node: str, say: Say
) -> Built:
    runtime = staging / "pyodide"
    info = _runtime(inputs[lock.pyodide.file], runtime)
    raw = staging / ".wheels"
    raw.mkdir()
    for wheel in lock.wheels:
        (raw / wheel.file).write_bytes(_trimmed(wheel, inputs[wheel.file].read_bytes()))
    engine = _engine_wheel(raw)
    (runtime / "pyodide-lock.json").write_text(json.dumps({"info": info, "packages": {}}))
    say(
        _("precompiling for Python {version} in the browser's own interpreter…").format(
            version=info.get("python", lock.pyodide.python)
        )
    )
    _precompile(node, runtime, raw)
    shutil.rmtree(raw)
    pyodide_lock = _pyodide_lock(info, lock, runtime, engine)
    (runtime / "pyodide-lock.json").write_text(
        json.dumps(pyodide_lock, indent=1, sort_keys=True) + "\n", encoding="utf-8"
    )
    check = staging / "check.py"
    check.write_text(CHECK, encoding="utf-8")
    selftest = _night(node, runtime, check, lock)
    say(_("checking the bundle as a phone starts it…"))
    start = _check_bundle(node, runtime, check, lock, selftest)
    check.unlink()
    _static(staging, lock)
    _manifest(staging)
    built = _service_worker(staging, lock, selftest, start, sources_digest(lock_path))
    for path in staging.rglob("*"):  # readable by any static server, like any other site
        path.chmod(0o755 if path.is_dir() else 0o644)
    staging.chmod(0o755)
    return built


def _swap(staging: Path, out: Path) -> None:
    """The new app in place of the old one, which is removed only once the new one is."""
    old: Path | None = None
    if out.exists():
        old = out.with_name(f".{out.name}.old-{os.getpid()}")
        out.rename(old)
    try:
        staging.rename(out)
    except OSError:
        if old is not None:
            old.rename(out)
        raise
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)
