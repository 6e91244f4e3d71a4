"""A convention in words: ``prefcalc rules`` shows every option with its value and its meaning."""

from __future__ import annotations

from prefcalc.i18n import _
from prefcalc.rules.conventions import OPTIONS, Convention, to_toml_value
from prefcalc.views.text_kit import table


def rules_text(conv: Convention) -> str:
    from prefcalc.rules.conventions import preset_words

    description = preset_words(conv.description)
    lines = [preset_words(conv.name) + (f": {description}" if description else "")]
    rows = [[_("option"), _("value"), _("meaning")]]
    for option in OPTIONS:
        rows.append([option.key, to_toml_value(conv.value(option.key)), _(option.doc)])
    lines += table(rows, right=[False, False, False])
    return "\n".join(lines)
