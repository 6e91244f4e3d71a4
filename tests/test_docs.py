"""The README, its Russian twin and the docs/ pages (issue 36, item 7): every relative link
and picture points to a file (and a heading) that exists, every page can be reached from the
README, the pictures docs/img/make.py draws are there, small and shown, both READMEs give the
same Quick start, whose prefcalc commands run as written, and the README's test command is
the one .ci/run runs verbatim."""

from __future__ import annotations

import importlib.util
import re
import shlex
import shutil
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType

import pytest

from tests.support import invoke

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
README_RU = ROOT / "README.ru.md"
PAGES = sorted((ROOT / "docs").glob("*.md"))
DOCUMENTS = [README, README_RU, *PAGES]

FENCE = re.compile(r"^```.*?^```", re.S | re.M)
CODE = re.compile(r"`[^`\n]*`")
COMMENT = re.compile(r"<!--.*?-->", re.S)
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
SOURCE = re.compile(r"<img\s[^>]*src=\"([^\"]+)\"")
HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$", re.M)
SCHEME = re.compile(r"^[a-z][a-z0-9+.-]*:", re.I)


def _prose(text: str) -> str:
    """The text without its code blocks, code spans and comments (no link lives there)."""
    return CODE.sub("", FENCE.sub("", COMMENT.sub("", text)))


def _targets(document: Path) -> list[str]:
    prose = _prose(document.read_text(encoding="utf-8"))
    return LINK.findall(prose) + SOURCE.findall(prose)


def _slug(heading: str) -> str:
    """A heading's anchor as GitHub makes it: the text without its markup, lower case, every
    character but a letter, a digit, a space, a hyphen or an underscore dropped, spaces as
    hyphens."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading).replace("`", "")
    text = re.sub(r"[^\w\- ]", "", text.lower())
    return text.replace(" ", "-")


def _anchors(document: Path) -> set[str]:
    text = FENCE.sub("", document.read_text(encoding="utf-8"))
    seen: Counter[str] = Counter()
    anchors = set()
    for heading in HEADING.findall(text):
        slug = _slug(heading)
        anchors.add(slug if not seen[slug] else f"{slug}-{seen[slug]}")
        seen[slug] += 1
    return anchors


def _resolve(document: Path, target: str) -> tuple[Path, str]:
    path, _, anchor = target.partition("#")
    return (document.parent / path).resolve() if path else document, anchor


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_points_to_what_exists(document: Path) -> None:
    broken = []
    for target in _targets(document):
        if SCHEME.match(target):
            continue
        path, anchor = _resolve(document, target)
        inside = path.exists() and ROOT in (path, *path.parents)
        if not inside or (anchor and path.suffix == ".md" and anchor not in _anchors(path)):
            broken.append(target)
    assert broken == []


def test_the_link_checker_finds_a_broken_link(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    (tmp_path / "there.md").write_text("# A title: `with` code\n\n## Again\n## Again\n")
    page.write_text(
        "[ok](there.md#a-title-with-code) [ok](there.md#again-1) [no](there.md#nowhere)\n"
        '[no](gone.md) <img src="gone.png"> `[not a link](x.md)`\n\n```\n[nor](y.md)\n```\n'
    )
    found = _targets(page)
    assert found == [
        "there.md#a-title-with-code",
        "there.md#again-1",
        "there.md#nowhere",
        "gone.md",
        "gone.png",
    ]
    assert _anchors(tmp_path / "there.md") == {"a-title-with-code", "again", "again-1"}
    assert [t for t in found if not _resolve(page, t)[0].exists()] == ["gone.md", "gone.png"]


def test_every_page_is_reached_from_the_readme() -> None:
    reached, queue = {README}, [README]
    while queue:
        document = queue.pop()
        for target in _targets(document):
            path, _ = _resolve(document, target)
            if not SCHEME.match(target) and path.suffix == ".md" and path not in reached:
                reached.add(path)
                queue.append(path)
    assert set(DOCUMENTS) - reached == set()


def _pictures_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_pictures", ROOT / "docs/img/make.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclass looks its module up
    try:
        spec.loader.exec_module(module)  # defines names only: it draws nothing unless run
    finally:
        del sys.modules[spec.name]
    return module


def test_the_pictures_are_there_small_and_shown() -> None:
    names = _pictures_script().pictures()
    folder = ROOT / "docs" / "img"
    assert sorted(p.name for p in folder.glob("*.png")) == sorted(names)  # none stale
    sizes = {}
    for name in names:
        data = (folder / name).read_bytes()
        assert data.startswith(b"\x89PNG\r\n\x1a\n"), name
        sizes[name] = len(data)
    assert max(sizes.values()) < 150_000, sizes
    assert sum(sizes.values()) < 500_000, sizes
    shown = {
        README: {Path(t).name for t in _targets(README)},
        README_RU: {Path(t).name for t in _targets(README_RU)},
    }
    for name in names:
        lang = name.removesuffix(".png").rsplit("-", 1)[1]
        assert name in shown[README_RU if lang == "ru" else README], name


def _blocks(document: Path) -> list[str]:
    return [b.strip("`\n") for b in FENCE.findall(document.read_text(encoding="utf-8"))]


def _quick_start(document: Path) -> list[str]:
    """The code blocks that install prefcalc: from a clone, and without cloning."""
    return [b for b in _blocks(document) if "python3 -m venv" in b or "pipx install" in b]


def test_both_readmes_give_the_same_quick_start() -> None:
    english = _quick_start(README)
    assert len(english) == 2
    assert english == _quick_start(README_RU)
    first = english[0].splitlines()[0]
    assert first.startswith("python3 -m venv .venv && . .venv/bin/activate && pip install . && ")


def test_the_quick_start_commands_run_as_written(tmp_path: Path) -> None:
    """Every ``prefcalc`` command of the Quick start, on a copy of the bundled examples."""
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    commands = []
    for line in _quick_start(README)[0].splitlines():
        commands += [shlex.split(c) for c in line.split(" && ") if c.startswith("prefcalc ")]
    assert [c[:2] for c in commands] == [["prefcalc", "show"], ["prefcalc", "settle"]]
    for command in commands:
        result = invoke(command[1:], tmp_path)
        assert result.returncode == 0, (command, result.stderr)
        assert "Anna" in result.stdout


def _ci_command() -> str:
    """The test command of .ci/run: the line between its two marked lines that is not the
    bookkeeping of its exit status."""
    text = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    block = text.split("# --- the README's test command, verbatim", 1)[1]
    block = block.split("\n", 1)[1].split("\n# ----", 1)[0]
    lines = [line for line in block.splitlines() if line.strip()]
    command = [line for line in lines if line not in ("set +e", "status=$?", "set -e")]
    assert len(command) == 1, lines
    return command[0]


def test_the_readme_test_command_is_the_one_ci_runs() -> None:
    text = README.read_text(encoding="utf-8")
    section = text.split("## Running the tests", 1)[1].split("\n## ", 1)[0]
    (block,) = [b for b in _blocks(README) if b in section]
    assert block == _ci_command() == 'pip install ".[dev]" && python -m pytest'
    assert block in _blocks(README_RU)


def _night(document: Path) -> list[list[str]]:
    """The commands of a page's "A night at the table", without their comments."""
    text = document.read_text(encoding="utf-8")
    section = text.split("## A night at the table", 1)[1]
    block = FENCE.search(section)
    assert block is not None
    lines = block.group(0).strip("`\n").splitlines()
    return [shlex.split(line, comments=True) for line in lines if line.startswith("prefcalc ")]


@pytest.mark.parametrize("document", [README, ROOT / "docs" / "cli.md"], ids=["README", "cli"])
def test_a_night_at_the_table_runs_as_written(document: Path, tmp_path: Path) -> None:
    commands = _night(document)
    assert commands[0][:2] == ["prefcalc", "new"] and len(commands) >= 5
    for command in commands:
        result = invoke(command[1:], tmp_path)
        assert result.returncode == 0, (command, result.stderr)


# README.ru.md's table of the table's words, in the order a session may take them
RUSSIAN_LINES = [
    "а 7ч 7 б:в в:п",
    "аня 7ч 7 боря:в вера:п",
    "б 6п 5 в:в3 а:в2",
    "а 8бк - б:п в:п",
    "а 8бк 8 б:п в:п",
    "мизер аня 0",
    "м а 0",
    "распасы 2 5 3",
    "рас 2 5 3",
    "р 2 5 3",
    "р а=2 б=5 в=3",
    "штраф вера прикуп",
    "отмена",
    "вернуть",
    "исправить 2 б 6п 6 в:в3 а:в1",
    "удалить 3",
    "вставить 3 мизер вера 1",
    "пуля=30",
    "цена=0,5",
    "лист",
    "журнал",
    "почему 2",
    "расчёт",
    "расчёт средняя целые",
    "помощь",
]


def test_the_russian_readme_s_lines_are_accepted(tmp_path: Path) -> None:
    shown = set(CODE.findall(README_RU.read_text(encoding="utf-8")))
    assert {f"`{line}`" for line in RUSSIAN_LINES} <= shown
    ledger = tmp_path / "g.json"
    new = ["--lang", "ru", "new", "Аня", "Боря", "Вера", "--file", str(ledger)]
    assert invoke(new, tmp_path).returncode == 0
    lines = "\n".join([*RUSSIAN_LINES, "выход"]) + "\n"
    result = invoke(["--lang", "ru", "play", "--file", str(ledger)], tmp_path, input=lines)
    assert result.returncode == 0, result.stderr  # 2 if any line was refused
    assert "ошибка" not in result.stderr
