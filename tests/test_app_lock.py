"""The app's pinned inputs: the lock file read strictly, every input checked by size and sha256
before anything is built (a tampered file is one line and nothing is written), and the
downloads through this machine's indexes (a loopback index here: no network in the tests).
"""

from __future__ import annotations

import functools
import hashlib
import http.server
import io
import json
import re
import threading
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from prefcalc.app import build as app_build
from prefcalc.app import cache_dir
from prefcalc.app.fetch import Sources, fetch, machine_sources
from prefcalc.app.lock import (
    EMPTY_PYDANTIC_CORE,
    LOCK,
    AppBuildError,
    Wheel,
    read_lock,
)
from tests.support import invoke


@pytest.fixture(autouse=True)
def _data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))


def test_the_committed_lock_pins_the_browsers_python_and_real_wheels() -> None:
    lock = read_lock()
    assert lock.pyodide.version == "314.0.8" and lock.pyodide.python == "3.14"
    assert lock.pyodide.url == "https://registry.npmjs.org/pyodide/-/pyodide-314.0.8.tgz"
    by_name = {w.name: w for w in lock.wheels}
    core = by_name["pydantic-core"]
    assert core.file == "pydantic_core-2.50.5-cp314-cp314-pyemscripten_2026_0_wasm32.whl"
    assert core.size == 1_496_394
    assert by_name["pydantic"].version == "2.14.4"
    assert {w.tag() for w in lock.wheels} <= set(lock.allowed_tags())
    for wheel in lock.wheels:
        assert wheel.url.startswith("https://files.pythonhosted.org/packages/")
        assert wheel.url.endswith("/" + wheel.file)
    # nothing the engine cannot run without, nothing of the front ends, no platformdirs (a
    # browser has no user folders to look up)
    assert set(by_name) == {
        "pydantic",
        "pydantic-core",
        "typing-extensions",
        "annotated-types",
        "typing-inspection",
        "babel",
        "pytrovich",
    }
    # the packages of a validation are installed after the engine's start, the rest at it
    assert {w.name for w in lock.wheels if w.later} == {
        "pydantic",
        "pydantic-core",
        "typing-extensions",
        "annotated-types",
        "typing-inspection",
    }


def _lock_text(**changes: str) -> str:
    text = LOCK.read_text(encoding="utf-8")
    for old, new in changes.items():
        assert old in text
        text = text.replace(old, new)
    return text


@pytest.mark.parametrize(
    ("old", "new", "said"),
    [
        (
            'version = "2.50.5"\nfile = "pydantic_core-2.50.5-cp314-cp314-pyemscripten_2026_0_wasm32.whl"',
            f'version = "0.0.1"\nfile = "{EMPTY_PYDANTIC_CORE}"',
            "an empty wheel",
        ),
        (
            "pydantic-2.14.4-py3-none-any.whl",
            "pydantic-2.14.4-cp312-cp312-manylinux_2_17_x86_64.whl",
            "built for",
        ),
        ("size = 494865", 'size = "494865"', "size"),
        ('imports = ["pydantic"]', 'imports = ["pydantic"]\nsurprise = 1', "surprise"),
        ('sha256 = "653a', 'sha256 = "zz3a', "sha256"),
        (
            'depends = ["typing-extensions"]\nlater = true\n\n[[wheels]]\nname = "typing-extensions"',
            'depends = ["left-pad"]\nlater = true\n\n[[wheels]]\nname = "typing-extensions"',
            "left-pad",
        ),
        (
            'imports = ["pytrovich"]',
            'imports = ["pytrovich"]\ndepends = ["pydantic"]',
            "installed later",
        ),
        ("later = true", 'later = "yes"', "later"),
    ],
)
def test_a_wrong_lock_is_one_line(tmp_path: Path, old: str, new: str, said: str) -> None:
    path = tmp_path / "lock.toml"
    path.write_text(_lock_text(**{old: new}), encoding="utf-8")
    with pytest.raises(AppBuildError) as caught:
        read_lock(path)
    assert said in str(caught.value) and "\n" not in str(caught.value)


def _seed(cache: Path, name: str, data: bytes) -> Path:
    cache.mkdir(parents=True, exist_ok=True)
    (cache / name).write_bytes(data)
    return cache / name


@pytest.mark.parametrize("same_size", [False, True])
def test_a_tampered_input_is_one_line_and_nothing_is_written(
    tmp_path: Path, same_size: bool
) -> None:
    pin = read_lock().pyodide
    data = b"\0" * pin.size if same_size else b"not pyodide"
    cached = _seed(cache_dir(), pin.file, data)
    out = tmp_path / "app"
    result = invoke(["app", "build", "--out", str(out)], tmp_path)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert pin.file in lines[0] and "nothing was written" in lines[0]
    assert ("sha256" in lines[0]) is same_size
    assert not out.exists()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".app")] == []
    assert cached.read_bytes() == data  # the person's cache is theirs: named, not deleted


def test_the_build_never_writes_into_a_folder_that_is_not_an_app(tmp_path: Path) -> None:
    mine = tmp_path / "photos"
    mine.mkdir()
    (mine / "cat.jpg").write_bytes(b"meow")
    with pytest.raises(AppBuildError, match="holds no app built by prefcalc"):
        app_build.build(mine)
    assert sorted(p.name for p in mine.iterdir()) == ["cat.jpg"]
    a_file = tmp_path / "file"
    a_file.write_text("x")
    with pytest.raises(AppBuildError, match="not a folder"):
        app_build.build(a_file)


def _wheel(files: dict[str, str]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        for name, text in files.items():
            z.writestr(name, text)
    return out.getvalue()


def test_pydantic_and_its_core_must_agree(tmp_path: Path) -> None:
    lock = read_lock()
    pydantic = next(w for w in lock.wheels if w.name == "pydantic")
    fake = tmp_path / pydantic.file
    fake.write_bytes(
        _wheel({"pydantic/version.py": "_COMPATIBLE_PYDANTIC_CORE_VERSION = '2.41.5'\n"})
    )
    with pytest.raises(
        AppBuildError, match=re.escape("needs pydantic-core 2.41.5, the lock pins 2.50.5")
    ):
        app_build._check_pydantic(lock, {pydantic.file: fake})


# --- the downloads, from a loopback index --------------------------------------------------


class _Index:
    """A PEP 691 (JSON) or PEP 503 (HTML) simple index on 127.0.0.1 serving some files."""

    def __init__(self, files: dict[str, bytes], html: bool = False) -> None:
        self.files = files
        self.asked: list[str] = []
        index = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                pass

            def do_GET(self) -> None:
                index.asked.append(self.path)
                if self.path.startswith("/simple/"):
                    if html:
                        links = "".join(
                            f'<a href="/files/{n}#sha256=x">{n}</a><br>' for n in index.files
                        )
                        body = f"<html><body>{links}</body></html>".encode()
                        kind = "text/html"
                    else:
                        entries = [{"filename": n, "url": f"../../files/{n}"} for n in index.files]
                        body = json.dumps({"files": entries}).encode()
                        kind = "application/vnd.pypi.simple.v1+json"
                elif self.path.startswith("/files/") and self.path[7:] in index.files:
                    body, kind = index.files[self.path[7:]], "application/octet-stream"
                else:
                    self.send_error(404)
                    return
                self.send_response(200)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def wheel_pin() -> tuple[Wheel, bytes]:
    data = _wheel({"tiny/__init__.py": "x = 1\n"})
    name = "tiny-1.0-py3-none-any.whl"
    pin = Wheel(
        name="tiny",
        version="1.0",
        file=name,
        url=f"https://files.pythonhosted.org/packages/aa/{name}",
        size=len(data),
        sha256=hashlib.sha256(data).hexdigest(),
    )
    return pin, data


@pytest.fixture
def index_of() -> Iterator[functools.partial[_Index]]:
    made: list[_Index] = []

    def make(files: dict[str, bytes], html: bool = False) -> _Index:
        made.append(_Index(files, html))
        return made[-1]

    yield functools.partial(make)
    for index in made:
        index.close()


@pytest.mark.parametrize("html", [False, True])
def test_a_wheel_comes_from_pips_index_checked_and_cached(
    tmp_path: Path, wheel_pin: tuple[Wheel, bytes], index_of: functools.partial[_Index], html: bool
) -> None:
    pin, data = wheel_pin
    index = index_of({pin.file: data}, html)
    sources = Sources(indexes=(index.url + "/simple/",))
    cache = tmp_path / "cache"
    got = fetch(pin, cache, sources)
    assert got.read_bytes() == data and got == cache / pin.file
    assert index.asked[:2] == ["/simple/tiny/", f"/files/{pin.file}"]
    assert sources.said == [f"{index.url}/files/{pin.file}"]
    # the second time, from the cache: no request at all
    asked = len(index.asked)
    assert fetch(pin, cache, sources) == got and len(index.asked) == asked


def test_a_tampered_download_never_enters_the_cache(
    tmp_path: Path, wheel_pin: tuple[Wheel, bytes], index_of: functools.partial[_Index]
) -> None:
    pin, data = wheel_pin
    for served in (data[:-1] + b"!", data + b"more"):
        index = index_of({pin.file: served})
        cache = tmp_path / "cache"
        with pytest.raises(AppBuildError) as caught:
            fetch(pin, cache, Sources(indexes=(index.url + "/simple/",)))
        assert "nothing was written" in str(caught.value)
        assert list(cache.iterdir()) == []  # neither the file nor its .part


def test_a_wheel_in_a_find_links_folder_needs_no_index(
    tmp_path: Path, wheel_pin: tuple[Wheel, bytes]
) -> None:
    pin, data = wheel_pin
    folder = tmp_path / "wheels"
    folder.mkdir()
    (folder / pin.file).write_bytes(data)
    got = fetch(pin, tmp_path / "cache", Sources(indexes=(), find_links=(folder,)))
    assert got.read_bytes() == data


def test_unreachable_registries_are_one_line(
    tmp_path: Path, wheel_pin: tuple[Wheel, bytes], index_of: functools.partial[_Index]
) -> None:
    pin, _data = wheel_pin
    index = index_of({})
    url = index.url
    index.close()
    bad = pin.model_copy(update={"url": url + "/files/" + pin.file})
    with pytest.raises(AppBuildError) as caught:
        fetch(bad, tmp_path / "cache", Sources(indexes=(url + "/simple/",)))
    message = str(caught.value)
    assert "cannot fetch tiny-1.0-py3-none-any.whl" in message and "\n" not in message
    assert "the build needs the registries once" in message


def test_the_machines_pip_and_npm_configuration_is_honoured(tmp_path: Path) -> None:
    env = {
        "PIP_INDEX_URL": "https://mirror.example/simple/",
        "PIP_EXTRA_INDEX_URL": "https://extra.example/simple/",
        "PIP_FIND_LINKS": str(tmp_path),
        "PIP_CERT": "/etc/ssl/certs/ca-certificates.crt",
        "npm_config_registry": "https://npm.example/",
    }
    sources = machine_sources(env)
    assert sources.indexes == ("https://mirror.example/simple/", "https://extra.example/simple/")
    assert sources.find_links == (tmp_path,)
    assert sources.cert == "/etc/ssl/certs/ca-certificates.crt"
    assert sources.npm == "https://npm.example/"
