"""The options table of docs/rules.md section 6, generated from the convention model.

Every option is a field of ``prefcalc.rules.options.ConventionFile``: its key, its meaning
(the field's description), whether it is a section-8 option, and the values it accepts (its
JSON Schema) all come from there (through ``prefcalc.rules.conventions.OPTIONS``); the
defaults come from the four bundled presets.

``python docs/options_table.py`` prints the table; ``--write`` puts it between the
``options-table`` markers of docs/rules.md; ``--check`` exits 1 when those lines differ
(tests/test_conventions.py fails then too).
"""

import sys
from pathlib import Path
from typing import Any

from prefcalc.rules.conventions import OPTIONS, PRESETS, to_toml_value
from prefcalc.store.conventions import load_preset
from prefcalc.store.schemas import json_schema


def _values(prop: dict[str, Any]) -> str:
    """The values a JSON Schema property accepts, in words (``null`` left out)."""
    parts = []
    for alt in prop.get("anyOf", [prop]):
        if alt.get("type") == "null":
            continue
        if "const" in alt:
            parts.append(f'"{alt["const"]}"')
        elif "enum" in alt:
            parts.append(", ".join(f'"{v}"' for v in alt["enum"]))
        elif alt.get("type") == "number":  # an exact number, or its text ("1/2")
            low, high = alt["minimum"], alt["maximum"]
            parts.append(f"exact number {low} to {high}" if high <= 10 else f"exact number ≥ {low}")
        elif alt.get("type") == "boolean":
            parts.append("true, false")
        elif alt.get("type") == "integer":
            low, high = alt.get("minimum"), alt.get("maximum")
            parts.append(f"{low}–{high}" if high is not None and high <= 10 else f"whole ≥ {low}")
        elif alt.get("type") == "array":
            items = alt["items"]
            low, high = items["minimum"], items["maximum"]
            kind = f"{low}–{high}" if high <= 10 else f"whole ≥ {low}"
            fixed = alt.get("minItems") == alt.get("maxItems")
            size = str(alt["minItems"]) if fixed else f"length {alt.get('minItems', 0)}+"
            parts.append(f"list ({size}) of {kind}")
    return "; or ".join(parts)


def table() -> str:
    """The Markdown table: option, meaning, values, default in each preset."""
    schema = json_schema("convention")
    presets = [load_preset(name) for name in PRESETS]
    lines = [
        "| option | meaning | values | " + " | ".join(p.name for p in presets) + " |",
        "|---|---|---|" + "---|" * len(presets),
    ]
    for option in OPTIONS:
        section, dot, name = option.key.partition(".")
        if dot:
            holder = schema["$defs"][section.capitalize() + "Options"]["properties"][name]
        else:
            holder = schema["properties"][option.key]
        values = _values(holder)
        if option.section_8:
            values += " (section 8: off if unset)"
        cells = [f"`{option.key}`", option.doc.replace("|", "/"), values]
        cells += [f"`{to_toml_value(p.value(option.key))}`" for p in presets]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


RULES = Path(__file__).resolve().parent / "rules.md"
START, END = "<!-- options-table:start -->", "<!-- options-table:end -->"


def with_table(text: str) -> str:
    """The text of docs/rules.md with the generated table between its markers."""
    head, start, rest = text.partition(START)
    _, end, tail = rest.partition(END)
    if not start or not end:
        raise ValueError(f"docs/rules.md lacks the {START} ... {END} markers")
    return f"{head}{START}\n{table()}\n{END}{tail}"


def main(argv: list[str]) -> int:
    if not argv:
        print(table())
        return 0
    text = RULES.read_text(encoding="utf-8")
    fresh = with_table(text)
    if argv == ["--check"]:
        if fresh != text:
            print(
                "docs/rules.md: the options table is stale (python docs/options_table.py --write)"
            )
            return 1
        return 0
    if argv == ["--write"]:
        if fresh != text:
            RULES.write_text(fresh, encoding="utf-8")
        return 0
    print("usage: python docs/options_table.py [--write | --check]", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
