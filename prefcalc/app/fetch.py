"""The app's inputs, fetched once into the cache of the data folder and checked against the lock.

The registries are reached the way this machine's pip and npm reach them, with the standard
library (:mod:`urllib`):

- a wheel is looked up in pip's index (``PIP_INDEX_URL``, else ``index-url`` of ``pip config
  list``, else https://pypi.org/simple/), then in its extra indexes, by the simple API
  (PEP 691 JSON, else the PEP 503 page); a wheel already in a ``find-links`` folder is
  taken from there; the lock's own URL is the last resort. pip's ``cert`` (``PIP_CERT``)
  is the certificate bundle, its ``proxy`` the proxy (else the usual ``https_proxy``);
- Pyodide's tarball comes from npm's registry (``npm_config_registry``, else ``npm config
  get registry``, else https://registry.npmjs.org/).

A download goes to ``NAME.part`` and becomes ``NAME`` in the cache only once its size and
sha256 are the lock's: the cache never holds a wrong file. A cached file that is not the
pinned one is refused, never used or replaced silently.
"""

from __future__ import annotations

import json
import os
import shutil
import ssl
import subprocess
import sys
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

from prefcalc.app.lock import AppBuildError, Pinned, Runtime, Wheel, check, norm
from prefcalc.i18n import _

PYPI = "https://pypi.org/simple/"
NPM = "https://registry.npmjs.org/"
TIMEOUT = 60.0  # seconds without a byte before a download is given up
MAX_PAGE = 32 * 1024 * 1024  # bytes of an index page read at most
CHUNK = 1 << 16


@dataclass(frozen=True)
class Sources:
    """Where this machine's pip and npm find packages."""

    indexes: tuple[str, ...] = (PYPI,)
    find_links: tuple[Path, ...] = ()
    npm: str = NPM
    cert: str | None = None
    proxy: str | None = None
    said: list[str] = field(default_factory=list, compare=False)

    def opener(self) -> urllib.request.OpenerDirector:
        handlers: list[urllib.request.BaseHandler] = []
        if self.cert:
            context = ssl.create_default_context(cafile=self.cert)
            handlers.append(urllib.request.HTTPSHandler(context=context))
        if self.proxy:
            handlers.append(urllib.request.ProxyHandler({"http": self.proxy, "https": self.proxy}))
        return urllib.request.build_opener(*handlers)


def _pip_config() -> dict[str, str]:
    """``pip config list`` as a dictionary (``global.index-url`` -> value); empty when pip
    cannot say."""
    try:
        done = subprocess.run(
            [sys.executable, "-m", "pip", "config", "list"],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
            env={**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1"},
        )
    except (OSError, subprocess.SubprocessError):
        return {}
    found: dict[str, str] = {}
    for line in done.stdout.splitlines():
        key, sep, value = line.partition("=")
        if sep:
            found[key.strip()] = value.strip().strip("'\"")
    return found


def _pip_value(config: dict[str, str], env: dict[str, str], name: str) -> str | None:
    variable = "PIP_" + name.upper().replace("-", "_")
    if env.get(variable):
        return env[variable]
    for section in (":env:", "install", "global"):
        value = config.get(f"{section}.{name}")
        if value:
            return value
    return None


def _npm_registry(env: dict[str, str]) -> str:
    for variable in ("npm_config_registry", "NPM_CONFIG_REGISTRY"):
        if env.get(variable):
            return env[variable]
    npm = shutil.which("npm")
    if npm:
        try:
            done = subprocess.run(
                [npm, "config", "get", "registry"],
                capture_output=True,
                text=True,
                timeout=60,
                check=False,
            )
            value = done.stdout.strip()
            if done.returncode == 0 and value.startswith(("https://", "http://")):
                return value
        except (OSError, subprocess.SubprocessError):
            pass
    return NPM


def machine_sources(env: dict[str, str] | None = None) -> Sources:
    """The sources of this machine: its pip configuration and its npm registry."""
    env = dict(os.environ if env is None else env)
    config = _pip_config()
    index = _pip_value(config, env, "index-url") or PYPI
    extra = (_pip_value(config, env, "extra-index-url") or "").split()
    links = (_pip_value(config, env, "find-links") or "").split()
    folders = tuple(
        Path(urllib.parse.urlparse(link).path if link.startswith("file:") else link)
        for link in links
        if not link.startswith(("http://", "https://"))
    )
    return Sources(
        indexes=tuple(u for u in (index, *extra) if u),
        find_links=folders,
        npm=_npm_registry(env),
        cert=_pip_value(config, env, "cert"),
        proxy=_pip_value(config, env, "proxy"),
    )


class _Links(HTMLParser):
    """The anchors of a PEP 503 page: (text, href)."""

    def __init__(self) -> None:
        super().__init__()
        self.links: list[tuple[str, str]] = []
        self._href: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "a":
            self._href = dict(attrs).get("href")

    def handle_data(self, data: str) -> None:
        if self._href is not None and data.strip():
            self.links.append((data.strip(), self._href))
            self._href = None


def _index_urls(sources: Sources, wheel: Wheel) -> Iterator[str]:
    """The URLs the indexes give for ``wheel``'s file, in the order pip would ask them."""
    opener = sources.opener()
    for index in sources.indexes:
        if not index.startswith(("https://", "http://")):
            continue  # a local index folder: its files are found by find-links, if anywhere
        page = urllib.parse.urljoin(index.rstrip("/") + "/", norm(wheel.name) + "/")
        request = urllib.request.Request(
            page,
            headers={
                "Accept": "application/vnd.pypi.simple.v1+json, text/html;q=0.1",
                "User-Agent": "prefcalc-app-build",
            },
        )
        try:
            with opener.open(request, timeout=TIMEOUT) as answer:
                kind = answer.headers.get("Content-Type", "")
                body: bytes = answer.read(MAX_PAGE + 1)
        except (OSError, ValueError):
            continue
        if "json" in kind:
            try:
                files = json.loads(body).get("files", [])
            except (ValueError, AttributeError):
                continue
            for entry in files:
                if isinstance(entry, dict) and entry.get("filename") == wheel.file:
                    yield urllib.parse.urljoin(page, str(entry.get("url", "")))
        else:
            parser = _Links()
            parser.feed(body.decode("utf-8", "replace"))
            for text, href in parser.links:
                if text == wheel.file:
                    yield urllib.parse.urljoin(page, href.split("#")[0])


def _candidates(sources: Sources, pin: Pinned) -> Iterator[str]:
    if isinstance(pin, Runtime):
        registry = sources.npm.rstrip("/") + "/"
        yield f"{registry}{pin.name}/-/{pin.file}"
    elif isinstance(pin, Wheel):
        yield from _index_urls(sources, pin)
    yield pin.url


def _download(sources: Sources, url: str, part: Path, pin: Pinned) -> None:
    """``url`` into ``part``, refused as soon as it is longer than the pinned size."""
    request = urllib.request.Request(url, headers={"User-Agent": "prefcalc-app-build"})
    size = 0
    with sources.opener().open(request, timeout=TIMEOUT) as answer, part.open("wb") as out:
        while chunk := answer.read(CHUNK):
            size += len(chunk)
            if size > pin.size:
                raise AppBuildError(
                    _("{file} from {url} is longer than the lock says: nothing was written").format(
                        file=pin.file, url=url
                    )
                )
            out.write(chunk)


def cached(pin: Pinned, cache: Path) -> Path | None:
    """The pinned file in the cache, checked; None when it is not there yet."""
    path = cache / pin.file
    if not path.is_file():
        return None
    check(pin, path.read_bytes(), str(path))
    return path


def fetch(pin: Pinned, cache: Path, sources: Sources | None = None) -> Path:
    """The pinned file: from the cache, else from a find-links folder, else downloaded.
    Only a file that is exactly the pinned one enters the cache."""
    found = cached(pin, cache)
    if found is not None:
        return found
    sources = sources if sources is not None else machine_sources()
    cache.mkdir(parents=True, exist_ok=True)
    target = cache / pin.file
    part = cache / (pin.file + ".part")
    for folder in sources.find_links:
        local = folder / pin.file
        if local.is_file():
            check(pin, local.read_bytes(), str(local))
            shutil.copyfile(local, part)
            part.replace(target)
            return target
    problems: list[str] = []
    for url in dict.fromkeys(_candidates(sources, pin)):
        try:
            _download(sources, url, part, pin)
            check(pin, part.read_bytes(), url)
        except AppBuildError:
            part.unlink(missing_ok=True)
            raise
        except (OSError, ValueError, urllib.error.URLError) as exc:
            part.unlink(missing_ok=True)
            reason = getattr(exc, "reason", None) or exc
            problems.append(f"{url}: {reason}")
            continue
        part.replace(target)
        sources.said.append(url)
        return target
    raise AppBuildError(
        _(
            "cannot fetch {file} ({reason}); the build needs the registries once, then it"
            " works from the cache"
        ).format(file=pin.file, reason="; ".join(problems) or _("no source")),
        str(cache),
    )
