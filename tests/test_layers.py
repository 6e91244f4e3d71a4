"""The layers of the tree (docs/development.md, "How the tree is laid out"): no import circle
anywhere, the base modules import nothing above them, and the phone's sheet draws without the
PDF's library.

The layering itself is checked by import-linter's contracts (``pyproject.toml``, run by
``lint-imports`` in CI); these tests pin what a contract cannot say (what a fresh process
loads, a cycle inside a package) and that the development page draws the layers the contract
checks.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parent.parent
DRAWING = ("reportlab", "openpyxl", "pypdfium2")


def _loaded_after(code: str) -> list[str]:
    """The modules a fresh interpreter holds after running ``code``."""
    done = subprocess.run(
        [sys.executable, "-c", f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    loaded: list[str] = json.loads(done.stdout.splitlines()[-1])
    return loaded


def test_the_phone_sheet_is_drawn_without_the_pdf_library() -> None:
    # the whole drawing of a sheet, not only the import: a lazy import would show here too
    loaded = _loaded_after(
        "import prefcalc\n"
        "from prefcalc.views.sheet_svg import sheet_svg\n"
        "g = prefcalc.new_game(['Anna', 'Boris', 'Vera'], convention='sochi', target=10)\n"
        "g = prefcalc.record(g, 'game Anna 7h 7 Boris:w Vera:p')\n"
        "assert sheet_svg(prefcalc.sheet(g), g).startswith('<svg')"
    )
    drawing = [m for m in loaded if m.split(".")[0] in DRAWING]
    exports = [m for m in loaded if m.startswith("prefcalc.export")]
    assert (drawing, exports) == ([], [])
    assert "prefcalc.views.sheet_layout" in loaded


def test_errors_and_i18n_are_the_base() -> None:
    for module, below in (
        ("prefcalc.errors", {"prefcalc", "prefcalc.errors"}),
        (
            "prefcalc.cases",
            {"prefcalc", "prefcalc.errors", "prefcalc.cases"},
        ),  # the package: errors
        ("prefcalc.i18n", {"prefcalc", "prefcalc.errors", "prefcalc.cases", "prefcalc.i18n"}),
    ):
        loaded = _loaded_after(f"import {module}")
        assert {m for m in loaded if m.split(".")[0] == "prefcalc"} == below, module


def _cycles(graph: grimp.ImportGraph) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph.modules):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.find_modules_directly_imported_by(root))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append(
                        (child, iter(sorted(graph.find_modules_directly_imported_by(child))))
                    )
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    found.append(sorted(group))
    return found


def test_no_module_imports_itself_through_others() -> None:
    # every import counts: at the top, inside a function, under TYPE_CHECKING
    graph = grimp.build_graph("prefcalc", cache_dir=None)
    assert _cycles(graph) == []


def test_the_cycle_finder_finds_a_cycle() -> None:
    graph = grimp.ImportGraph()
    for importer, imported in (("p.a", "p.b"), ("p.b", "p.c"), ("p.c", "p.a"), ("p.c", "p.d")):
        graph.add_import(importer=importer, imported=imported)
    assert _cycles(graph) == [["p.a", "p.b", "p.c"]]


def test_the_docs_draw_the_layers_the_contract_checks() -> None:
    page = (ROOT / "docs" / "development.md").read_text(encoding="utf-8")
    section = page.split("## How the tree is laid out", 1)[1]
    drawn = section.split("```", 2)[1].strip().splitlines()
    with (ROOT / "pyproject.toml").open("rb") as handle:
        contracts = tomllib.load(handle)["tool"]["importlinter"]["contracts"]
    (layers,) = [c for c in contracts if c["type"] == "layers"]
    assert drawn == layers["layers"]
