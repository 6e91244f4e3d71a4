"""The lock file of the app's inputs (``lock.toml``), read strictly, and the checks every input
passes before the build uses it: its size, its sha256, and for a wheel its name, version and
platform tag (pure Python, or Pyodide's own Python and ABI).
"""

from __future__ import annotations

import hashlib
import re
import tomllib
from collections.abc import Iterable
from pathlib import Path
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from prefcalc.app import HERE
from prefcalc.errors import PrefcalcError
from prefcalc.i18n import _

LOCK = HERE / "lock.toml"

Sha256 = Annotated[str, Field(pattern=r"^[0-9a-f]{64}$")]
FileName = Annotated[str, Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9._+-]*$", max_length=200)]

EMPTY_PYDANTIC_CORE = "pydantic_core-0.0.1-py3-none-any.whl"
"""What every platform tag but Pyodide's resolves pydantic-core to: an empty wheel."""


class AppBuildError(PrefcalcError):
    """An input of the app that is missing, unreachable or not the one the lock pins."""


class Pinned(BaseModel):
    """One file of the lock: where it comes from and what it must be."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)

    name: str = Field(min_length=1, max_length=100)
    version: str = Field(pattern=r"^[0-9][0-9A-Za-z.+-]*$")
    file: FileName
    url: str = Field(pattern=r"^https://[^\s]+$")
    size: int = Field(gt=0)
    sha256: Sha256


class Runtime(Pinned):
    """The npm package ``pyodide``: the browser's Python."""

    python: str = Field(pattern=r"^3\.[0-9]+$")
    abi: str = Field(pattern=r"^[0-9]{4}_[0-9]+$")

    @model_validator(mode="after")
    def _named(self) -> Runtime:
        expected = f"{self.name}-{self.version}.tgz"
        if self.file != expected:
            raise ValueError(f"file: the npm tarball of {self.name} {self.version} is {expected}")
        return self


class Wheel(Pinned):
    """A wheel from PyPI, as Pyodide's package loader installs it."""

    imports: list[str] = Field(default_factory=list)
    depends: list[str] = Field(default_factory=list)
    drop: list[str] = Field(default_factory=list)
    keep: list[str] = Field(default_factory=list)
    later: bool = False
    """Installed into the browser's Python once the engine is ready, not at its start (the
    phone downloads it with the rest, when the app is installed): a package that only some
    operations import."""

    @model_validator(mode="after")
    def _named(self) -> Wheel:
        head = self.file.split("-")
        if len(head) < 5 or not self.file.endswith(".whl"):
            raise ValueError(f"file: {self.file} is not a wheel's file name")
        if norm(head[0]) != norm(self.name) or head[1] != self.version:
            raise ValueError(f"file: {self.file} is not {self.name} {self.version}")
        return self

    def tag(self) -> str:
        """The wheel's ``python-abi-platform`` tag."""
        return "-".join(self.file[: -len(".whl")].split("-")[-3:])


class Lock(BaseModel):
    """The whole lock file."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)

    pyodide: Runtime
    wheels: list[Wheel] = Field(min_length=1)

    @model_validator(mode="after")
    def _whole(self) -> Lock:
        names = [norm(w.name) for w in self.wheels]
        if len(set(names)) != len(names):
            raise ValueError("wheels: a package is pinned twice")
        later = {norm(w.name) for w in self.wheels if w.later}
        for w in self.wheels:
            for dep in w.depends:
                if norm(dep) not in names:
                    raise ValueError(f"wheels: {w.name} depends on {dep}, which is not pinned")
                if not w.later and norm(dep) in later:
                    raise ValueError(
                        f"wheels: {w.name} is installed at the start and depends on {dep},"
                        " which is installed later"
                    )
        return self

    def allowed_tags(self) -> tuple[str, ...]:
        """The wheel tags Pyodide's Python can load."""
        cp = "cp" + self.pyodide.python.replace(".", "")
        return ("py3-none-any", f"{cp}-{cp}-pyemscripten_{self.pyodide.abi}_wasm32")


def norm(name: str) -> str:
    """A package name as the index spells it (PEP 503)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def read_lock(path: Path = LOCK) -> Lock:
    """The lock file, or one line saying what is wrong with it."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise AppBuildError(
            _("cannot read the app's lock file: {reason}").format(reason=exc), str(path)
        ) from None
    try:
        lock = Lock.model_validate(data)
    except ValidationError as exc:
        err = exc.errors(include_url=False)[0]
        where = ".".join(str(p) for p in err["loc"])
        raise AppBuildError(
            _("the app's lock file: {where}: {problem}").format(where=where, problem=err["msg"]),
            str(path),
        ) from None
    for wheel in lock.wheels:
        if wheel.file == EMPTY_PYDANTIC_CORE:
            raise AppBuildError(
                _(
                    "the app's lock file pins {file}, an empty wheel: pin pydantic-core's"
                    " build for {tag}"
                ).format(file=EMPTY_PYDANTIC_CORE, tag=lock.allowed_tags()[1]),
                str(path),
            )
        if wheel.tag() not in lock.allowed_tags():
            raise AppBuildError(
                _(
                    "the app's lock file: {file} is built for {tag}; the browser's Python"
                    " loads {allowed}"
                ).format(file=wheel.file, tag=wheel.tag(), allowed=" | ".join(lock.allowed_tags())),
                str(path),
            )
    return lock


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def check(pin: Pinned, data: bytes, where: str) -> None:
    """Refuse ``data`` (read from ``where``) unless it is exactly the pinned file."""
    if len(data) != pin.size:
        raise AppBuildError(
            _("{file} is {size} bytes, the lock says {pinned}: nothing was written").format(
                file=pin.file, size=len(data), pinned=pin.size
            ),
            where,
        )
    found = digest(data)
    if found != pin.sha256:
        raise AppBuildError(
            _("{file} has sha256 {found}, the lock says {pinned}: nothing was written").format(
                file=pin.file, found=found, pinned=pin.sha256
            ),
            where,
        )


def pins(lock: Lock) -> Iterable[Pinned]:
    yield lock.pyodide
    yield from lock.wheels
