"""The app as the project publishes it: the workflow that builds and deploys it (the same build
command as CI's, every action pinned, least permissions, actionlint clean), ``--url`` and its
QR code, and a built folder that works from any sub-path of any static host: no absolute
address in its files, the standard library cut and precompiled, a gzip copy beside every file
that shrinks, pydantic installed after the engine's start; in chromium, served from ``/some/sub/path/``
by a plain static server (it compresses nothing) and by one that undoes the copies itself
(``Content-Encoding: gzip``, as a host that compresses does).

The tests of a built folder need ``PREFCALC_APP_DIR`` (``prefcalc app build --out DIR``), as
the app's other browser tests; without it they are skipped, saying so.
"""

from __future__ import annotations

import functools
import gzip
import http.server
import json
import os
import re
import shutil
import subprocess
import threading
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest

from prefcalc.app.build import COMPRESSED, MARK, check_url, sources_digest
from prefcalc.app.lock import AppBuildError, read_lock
from tests.browser_support import CHROMIUM_ARGS, PHONE
from tests.browser_support import chromium as _chromium
from tests.support import invoke

ROOT = Path(__file__).resolve().parent.parent
WORKFLOW = ROOT / ".github" / "workflows" / "pages.yml"
WAIT = 180_000  # ms: the browser's Python on a loaded 2-core machine
SUB = "/some/sub/path/"


# --- the workflow ------------------------------------------------------------------------------


def test_the_workflow_builds_as_ci_does_and_deploys_to_pages() -> None:
    text = WORKFLOW.read_text(encoding="utf-8")
    assert re.search(r"^on:\n  push:\n    branches: \[main\]$", text, re.M)
    # least privilege, nothing else granted
    block = re.search(r"^permissions:\n((?:  .*\n)+)", text, re.M)
    assert block is not None
    assert sorted(block.group(1).split()) == sorted(
        ["contents:", "read", "pages:", "write", "id-token:", "write"]
    )
    # every action pinned to a commit (the tag it was named by in a comment)
    uses = re.findall(r"uses: ([\w./-]+)@(\S+)", text)
    assert {name for name, _ref in uses} >= {
        "actions/checkout",
        "actions/upload-pages-artifact",
        "actions/deploy-pages",
    }
    assert all(re.fullmatch(r"[0-9a-f]{40}", ref) for _name, ref in uses), uses
    # the same build command as CI's, into the folder the artifact uploads
    build = re.search(r"prefcalc app build --out (\S+) --url", text)
    assert build is not None
    assert re.search(rf"path: {re.escape(build.group(1))}$", text, re.M)
    assert 'prefcalc app build --out "$appdir"' in (ROOT / ".ci" / "run").read_text()


def test_the_workflow_is_clean_for_actionlint() -> None:
    actionlint = shutil.which("actionlint")
    if actionlint is None:
        if os.environ.get("PREFCALC_REQUIRE_TOOLS"):
            pytest.fail("actionlint is not installed (pip install -e '.[dev]')")
        pytest.skip("actionlint is not installed")
    done = subprocess.run(
        [actionlint, "-no-color", str(WORKFLOW)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    # and it does read the file: a broken one is refused
    broken = WORKFLOW.read_text(encoding="utf-8").replace("runs-on:", "runs_on:", 1)
    done = subprocess.run(
        [actionlint, "-no-color", "-"],
        input=broken,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        cwd=ROOT,
    )
    assert done.returncode != 0


# --- --url -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("given", "kept"),
    [
        ("https://owner.github.io/prefcalc", "https://owner.github.io/prefcalc/"),
        ("https://club.example/preferans/app/", "https://club.example/preferans/app/"),
        ("https://example.org", "https://example.org/"),
        ("http://localhost:8000/app", "http://localhost:8000/app/"),
        ("http://[::1]:8000/index.html", "http://[::1]:8000/index.html"),
    ],
)
def test_an_address_where_the_app_can_be_put(given: str, kept: str) -> None:
    assert check_url(given) == kept


@pytest.mark.parametrize(
    ("given", "said"),
    [
        ("http://192.168.1.5/app/", "https://"),
        ("ftp://example.org/", "https://"),
        ("example.org/app", "https://"),
        ("https://user:secret@example.org/", "user name"),
        ("https://example.org/?x=1", "?query"),
        ("https://example.org/#top", "#fragment"),
        ("https://example.org/a b/", "not an address"),
        ("https://example.org/\x1b[2J", "not an address"),
        ("https://example.org:99999/", "not an address"),
        ("https:///app/", "not an address"),
        ("https://example.org/" + "a" * 3000, "not an address"),
    ],
)
def test_an_address_that_is_not_one_is_one_line(given: str, said: str) -> None:
    with pytest.raises(AppBuildError) as caught:
        check_url(given)
    line = str(caught.value)
    assert said in line and "nothing was built" in line
    assert "\n" not in line and "\x1b" not in line


def test_a_wrong_url_is_refused_before_anything_is_built(tmp_path: Path) -> None:
    out = tmp_path / "app"
    result = invoke(["app", "build", "--out", str(out), "--url", "http://192.168.1.5/"], tmp_path)
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert "https://" in result.stderr
    assert not out.exists()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".app")] == []


def test_the_build_ends_with_the_address_and_its_qr_code(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from prefcalc.app.cli import _publish
    from prefcalc.qr import qr_text

    _publish(tmp_path, "https://owner.github.io/prefcalc/")
    said = capsys.readouterr().out
    assert str(tmp_path) in said
    assert qr_text("https://owner.github.io/prefcalc/") in said
    assert said.rstrip().endswith("https://owner.github.io/prefcalc/")
    _publish(tmp_path, None)
    said = capsys.readouterr().out
    assert "--url" in said and "GitHub Pages" in said and "▀" not in said


# --- the built folder --------------------------------------------------------------------------


def _built() -> Path:
    given = os.environ.get("PREFCALC_APP_DIR")
    if not given:
        pytest.skip(
            "the app is not built here: `prefcalc app build --out DIR` and PREFCALC_APP_DIR=DIR"
            " run these tests (.ci/run does)"
        )
    folder = Path(given)
    mark = folder / MARK
    if not mark.is_file():
        pytest.fail(f"PREFCALC_APP_DIR={given} holds no app built by prefcalc")
    if json.loads(mark.read_text()).get("sources") != sources_digest():
        pytest.fail(f"the app in {given} was built from other sources: build it again")
    return folder


def _ours(app: Path) -> list[Path]:
    """The files of the app that prefcalc writes (not Pyodide's runtime, which is as its
    authors publish it)."""
    return [
        p
        for p in sorted(app.rglob("*"))
        if p.is_file()
        and p.suffix in (".html", ".js", ".css", ".json", ".webmanifest", ".svg")
        and p.parent.name != "pyodide"
    ]


ABSOLUTE = [
    re.compile(r"https?://(?!www\.w3\.org/)"),  # an SVG's namespace names, it is not fetched
    re.compile(r"""\b(?:src|href|action|content)\s*=\s*["']/"""),
    re.compile(r"""url\(\s*["']?/"""),
    re.compile(r"""\b(?:fetch|register|Worker|import|URL)\s*\(\s*["'`]/"""),
    re.compile(r"""\bimport\s+[^;]*?from\s*["']/"""),
    re.compile(r"""\blocation(?:\.href)?\s*=\s*["'`]/"""),
]


def test_no_file_of_the_app_names_an_absolute_address() -> None:
    app = _built()
    ours = _ours(app)
    assert {p.name for p in ours} >= {"index.html", "app.js", "sw.js", "worker.js"}
    for path in ours:
        text = path.read_text(encoding="utf-8")
        for pattern in ABSOLUTE:
            found = pattern.search(text)
            assert found is None, (path.name, text[max(0, found.start() - 60) : found.end() + 40])
    manifest = json.loads((app / "manifest.webmanifest").read_text(encoding="utf-8"))
    assert manifest["start_url"] == "./" and manifest["scope"] == "./"
    assert all(not i["src"].startswith(("/", "http")) for i in manifest["icons"])
    # the pattern does catch what it is for
    assert ABSOLUTE[3].search('navigator.serviceWorker.register("/sw.js")')
    assert ABSOLUTE[1].search('<script src="/app.js">')


def test_the_standard_library_is_cut_and_precompiled() -> None:
    app = _built()
    with zipfile.ZipFile(app / "pyodide" / "python_stdlib.zip") as stdlib:
        names = stdlib.namelist()
        assert all(i.compress_type == zipfile.ZIP_STORED for i in stdlib.infolist())
    assert names and all(n.endswith(".pyc") for n in names)
    kept = set(names)
    # what the engine and Pyodide's start import; nothing the phone never runs
    assert {"json/__init__.pyc", "fractions.pyc", "gettext.pyc", "_pyodide/_base.pyc"} <= kept
    for never in ("unittest/", "pydoc", "tkinter/", "idlelib/", "doctest", "pdb", "xmlrpc/"):
        assert not [n for n in names if n.startswith(never)], never
    mark = json.loads((app / MARK).read_text())
    assert mark["stdlib_modules"] <= len(names) < 400


def test_what_the_phone_keeps_and_what_the_engine_installs_after_its_start() -> None:
    app = _built()
    lock = read_lock()
    later = {f"pyodide/{w.file}" for w in lock.wheels if w.later}
    assert later
    files = {f["url"]: f for f in _sw_files(app)}
    assert later <= set(files)  # kept when the app is installed: offline, everything works
    assert not [p for p in app.rglob("*") if "platformdirs" in p.name]
    pyodide_lock = json.loads((app / "pyodide" / "pyodide-lock.json").read_text())
    start = set(pyodide_lock["packages"]["prefcalc"]["depends"])
    assert start == {"babel", "pytrovich"}
    worker = (app / "worker.js").read_text(encoding="utf-8")
    assert "__LATER__" not in worker and '"pydantic"' in worker
    mark = json.loads((app / MARK).read_text())
    moved = sum(f.get("gz", f["size"]) for f in files.values())
    assert moved < mark["transfer"] < moved + 20_000  # and sw.js itself
    assert mark["later"] == sum(files[u].get("gz", files[u]["size"]) for u in later)
    # the install as it is (the app before moved 10.2 MB); the 6 MB would need pydantic
    # out of a new game's and a reopened game's way (docs/app.md)
    assert mark["transfer"] <= 8_500_000, mark["transfer"]


def _sw_files(app: Path) -> list[dict[str, Any]]:
    text = (app / "sw.js").read_text(encoding="utf-8")
    found = re.search(r"^const FILES = (\[.*\]);$", text, re.M)
    assert found is not None
    files: list[dict[str, Any]] = json.loads(found.group(1))
    return files


def test_every_file_that_shrinks_has_its_gzip_copy() -> None:
    app = _built()
    for entry in _sw_files(app):
        path = app / entry["url"]
        data = path.read_bytes()
        copy = path.with_name(path.name + ".gz")
        if "gz" in entry:
            packed = copy.read_bytes()
            assert len(packed) == entry["gz"] and gzip.decompress(packed) == data
        else:
            assert not copy.exists()
            assert (
                path.suffix not in COMPRESSED
                or len(data) < 4096
                or len(gzip.compress(data)) > 0.9 * len(data)
            ), entry["url"]


# --- in chromium, from a sub-path ---------------------------------------------------------------


class SubPathServer:
    """A static file server on 127.0.0.1 with the app at :data:`SUB` and nothing else; it
    counts what it sends and notes every path asked for. ``encoding``: serve ``X.gz`` as
    ``X`` itself with ``Content-Encoding: gzip``, as a host that compresses does (the browser
    undoes it before the service worker sees it)."""

    def __init__(
        self, app: Path, root: Path, encoding: bool = False, missing: str | None = None
    ) -> None:
        target = root / SUB.strip("/")
        target.parent.mkdir(parents=True)
        target.symlink_to(app, target_is_directory=True)
        self.sent = 0
        self.asked: list[str] = []
        server = self

        class Handler(http.server.SimpleHTTPRequestHandler):
            extensions_map: ClassVar[dict[str, str]] = {
                **http.server.SimpleHTTPRequestHandler.extensions_map,
                ".mjs": "text/javascript",
                ".js": "text/javascript",
                ".wasm": "application/wasm",
                ".webmanifest": "application/manifest+json",
            }

            def log_message(self, *args: Any) -> None:
                pass

            def do_GET(self) -> None:
                server.asked.append(self.path)
                if missing is not None and missing in self.path:
                    self.send_error(404)
                    return
                super().do_GET()

            def guess_type(self, path: Any) -> str:
                if encoding and str(path).endswith(".gz"):
                    return super().guess_type(str(path)[:-3])
                return super().guess_type(path)

            def end_headers(self) -> None:
                if encoding and self.path.split("?")[0].endswith(".gz"):
                    self.send_header("Content-Encoding", "gzip")
                super().end_headers()

            def copyfile(self, source: Any, outputfile: Any) -> None:
                data = source.read()
                server.sent += len(data)
                outputfile.write(data)

        self.httpd = http.server.ThreadingHTTPServer(
            ("127.0.0.1", 0), functools.partial(Handler, directory=str(root))
        )
        self.origin = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def stop(self) -> None:
        if self.httpd.fileno() != -1:
            self.httpd.shutdown()
            self.httpd.server_close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    executable = _chromium()
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield b
        b.close()


def _phone(browser: Any) -> tuple[Any, Any, list[str]]:
    context = browser.new_context(viewport=PHONE, is_mobile=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on(
        "console",
        lambda m: (
            errors.append(m.text)
            if m.type == "error" and "Failed to load resource" not in m.text
            else None
        ),
    )
    return context, page, errors


def _ready(page: Any) -> None:
    from playwright.sync_api import expect

    expect(page.locator("body")).to_have_attribute("data-engine", "ready", timeout=WAIT)


@pytest.mark.parametrize("encoding", [False, True], ids=["plain-server", "compressing-server"])
def test_the_app_from_a_sub_path_installs_records_and_reopens_offline(
    browser: Any, tmp_path: Path, encoding: bool
) -> None:
    from playwright.sync_api import expect

    app = _built()
    served = SubPathServer(app, tmp_path / "site", encoding=encoding)
    context, page, errors = _phone(browser)
    try:
        page.goto(served.origin + SUB)
        _ready(page)
        bar = page.get_by_test_id("load-progress")
        expect(bar).to_be_hidden()
        assert bar.evaluate("b => b.value") == 100
        scope = page.evaluate("navigator.serviceWorker.getRegistration().then(r => r.scope)")
        assert scope == served.origin + SUB
        page.fill("input[name=players]", "Anna Boris Vera")
        page.click("[data-testid=start]")  # a new game: its rules validated, with pydantic
        body = page.locator("body")
        expect(body).to_have_attribute("data-deals", "0", timeout=WAIT)
        page.fill("input[name=line]", "game Anna 7h 7 Boris:w Vera:p")
        page.press("input[name=line]", "Enter")
        expect(body).to_have_attribute("data-deals", "1", timeout=WAIT)
        # nothing asked outside the app's folder; the wheels as their gzip copies
        assert served.asked and all(p.startswith(SUB) for p in served.asked), served.asked
        wheels = [p for p in served.asked if ".whl" in p]
        assert wheels and all(p.endswith(".whl.gz") for p in wheels)
        # the gzip copies, whether the server undoes them or not: the same bytes moved (the
        # page's own first requests, before its service worker, come on top)
        mark = json.loads((app / MARK).read_text())
        whole = mark["transfer"]
        assert whole <= served.sent <= whole + 300_000, (served.sent, whole)
        # the same game, reopened with no server at all (the service worker's update check
        # of sw.js finds nothing, which is no error)
        served.stop()
        context.set_offline(True)
        errors.clear()
        page.reload()
        _ready(page)
        expect(body).to_have_attribute("data-deals", "1", timeout=WAIT)
        expect(page.locator("body")).to_have_attribute("data-game", re.compile(".+"))
    finally:
        context.close()
        served.stop()
    assert [e for e in errors if "sw.js" not in e] == []


def test_a_phone_that_cannot_fetch_the_later_packages_says_so_in_one_line(
    browser: Any, tmp_path: Path
) -> None:
    """pydantic is installed into Python after the engine's start: a phone that could not
    download it (here the server has lost it, so the app could not be installed either)
    starts the engine all the same, and a new game, whose rules need it, is refused in one
    line that says what to do, in the page's language; nothing is kept."""
    from playwright.sync_api import expect

    app = _built()
    served = SubPathServer(app, tmp_path / "site", missing="pydantic")
    context, page, errors = _phone(browser)
    try:
        page.goto(served.origin + SUB)
        _ready(page)
        page.fill("input[name=players]", "Anna Boris Vera")
        page.click("[data-testid=start]")
        said = page.locator("#import-said")
        expect(said).to_contain_text("open the app once with the network", timeout=WAIT)
        assert "\n" not in said.inner_text()
        expect(page.locator("#games > li")).to_have_count(0)
        assert page.locator("body").get_attribute("data-game") == ""
    finally:
        context.close()
        served.stop()
    assert [e for e in errors if "pydantic" not in e] == []
