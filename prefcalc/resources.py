"""Where the bundled presets (``templates/``) and example evenings (``examples/``) live.

An installed wheel carries them inside the package (``prefcalc/templates``); a source
checkout or an editable install keeps them at the repository root.
"""

from pathlib import Path

_HERE = Path(__file__).resolve().parent


def bundled(folder: str) -> Path:
    """The directory of a bundled data folder, ``templates`` or ``examples``."""
    inside = _HERE / folder
    if inside.is_dir():
        return inside
    return _HERE.parent / folder
