"""Print the options table of docs/rules.md section 6 from the code's own definitions.

The key and meaning of every option come from ``prefcalc.rules.conventions.OPTIONS``, the values
it accepts from the field types of ``prefcalc.store.schemas.ConventionFile`` (its JSON Schema),
and the defaults from the four bundled presets. Run ``python docs/options_table.py`` and
paste the output between the ``options-table`` markers of docs/rules.md; a test can run
:func:`table` and compare it with those lines.
"""

from typing import Any

from prefcalc.rules.conventions import OPTIONS, PRESETS, SECTION_8, load_preset, to_toml_value
from prefcalc.store.schemas import json_schema

# Ranges a validator checks but the JSON Schema cannot express.
_CHECKED = {
    "liability": "exact number 0 to 1",
    "liability_after_close": '"none", or exact number 0 to 1',
    "pool_to_mountain": "exact number ≥ 0",
}


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
        values = _CHECKED.get(option.key) or _values(holder)
        if option.key in SECTION_8:
            values += " (section 8: off if unset)"
        cells = [f"`{option.key}`", option.doc.replace("|", "/"), values]
        cells += [f"`{to_toml_value(p.value(option.key))}`" for p in presets]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


if __name__ == "__main__":
    print(table())
