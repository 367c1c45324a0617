"""Where the browser's files live: `templates/` and `static/` at the project's top level."""

from __future__ import annotations

from pathlib import Path
from typing import Final


def _project_root() -> Path:
    # A source checkout (or editable install) has them beside the package; an installed package
    # (the Docker image) is run from the folder they were copied into.
    beside = Path(__file__).resolve().parent.parent.parent
    return beside if (beside / "templates").is_dir() else Path.cwd()


ROOT: Final = _project_root()
TEMPLATES: Final = ROOT / "templates"
STATIC: Final = ROOT / "static"
