"""Every ruling of docs/rulings.md that the engine plays is held by at least one test that names it
(`pytest.mark.ruling("R…")`), and no test names a ruling the doc does not have."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def test_every_ruling_is_named_by_a_test() -> None:
    doc = (ROOT / "docs" / "rulings.md").read_text(encoding="utf-8")
    rulings = set(re.findall(r"^\*\*(R\d+) —", doc, re.M))
    named = {
        ruling
        for path in (ROOT / "tests").rglob("test_*.py")
        for ruling in re.findall(r'ruling\("(R\d+)"\)', path.read_text(encoding="utf-8"))
    }
    assert len(rulings) == 35
    assert rulings - named == set(), "rulings no test names"
    assert named - rulings == set(), "tests name rulings the doc does not have"
