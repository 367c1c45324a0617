"""No browser: the three locale files say the same things, and the front end stays light."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any, get_args

import pytest

from engine.watergate.actions import SHAPES, TrackTarget, ValueTarget
from engine.watergate.events import EVENT_TYPES

from .conftest import LOCALES, ROOT

STATIC = ROOT / "static"
ASSET_BUDGET_BYTES = 150_000  # JS + CSS before a table's first view, uncompressed ("under 150 KB")
ON_DEMAND_BYTES = 25_000  # what it fetches on demand, once drawn (the bell, a coach, a replay)


def flatten(node: Any, prefix: str = "") -> Iterator[tuple[str, str]]:
    """("ui.start", "Start the match"), ("rules.sections[0].p[1]", "…"), …"""
    if isinstance(node, dict):
        for key, value in node.items():
            yield from flatten(value, f"{prefix}.{key}" if prefix else str(key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from flatten(value, f"{prefix}[{i}]")
    else:
        yield prefix, str(node)


FLAT = {lang: dict(flatten(data)) for lang, data in LOCALES.items()}


def placeholders(text: str) -> set[str]:
    return set(re.findall(r"\{(\w+)\}", text))


@pytest.mark.parametrize("lang", ["pt-BR", "de"])
def test_locale_has_the_same_keys_as_english(lang: str) -> None:
    english, other = set(FLAT["en"]), set(FLAT[lang])
    assert other == english, (
        f"{lang}.json misses {sorted(english - other)} and has extra {sorted(other - english)}"
    )
    assert LOCALES[lang]["lang"] == lang


@pytest.mark.parametrize("lang", ["pt-BR", "de"])
def test_locale_uses_the_same_placeholders(lang: str) -> None:
    differ = {
        key: (placeholders(text), placeholders(FLAT[lang].get(key, "")))
        for key, text in FLAT["en"].items()
        if placeholders(text) != placeholders(FLAT[lang].get(key, ""))
    }
    assert not differ, f"placeholders differ between en.json and {lang}.json: {differ}"


def test_no_empty_strings() -> None:
    empty = [(lang, key) for lang, flat in FLAT.items() for key, text in flat.items() if not text]
    assert not empty


# `import … from "./x.js"`, `export … from "./x.js"`, `import "./x.js"` and `import("./x.js")`
IMPORT = re.compile(
    r"(?:import|export)[^\"';]*?from\s*[\"'](\.{1,2}/[^\"']+)[\"']"
    r"|import\s*\(?\s*[\"'](\.{1,2}/[^\"']+)[\"']"
)
ASSET = re.compile(r'(?:href|src)="/static/([^"]+\.(?:js|css))"')
STYLESHEET = re.compile(r"[\"'](?:/static/)([^\"']+\.css)[\"']")  # a module's "/static/css/x.css"
DYNAMIC = re.compile(r"import\s*\(\s*[\"'](\.{1,2}/[^\"']+)[\"']")  # `import("./x.js")` alone


def loaded_by(*templates: str, on_demand: bool = True) -> set[Path]:
    """Every JS and CSS file a page made of these templates loads: the files they link, and
    every module those import, followed to the end (no build step: this is what is fetched);
    without `on_demand`, not the modules only a dynamic `import()` fetches when it runs."""
    todo = [
        STATIC / rel
        for name in templates
        for rel in ASSET.findall((ROOT / "templates" / name).read_text(encoding="utf-8"))
    ]
    seen: set[Path] = set()
    while todo:
        path = todo.pop().resolve()
        if path in seen:
            continue
        seen.add(path)
        if path.suffix == ".js":
            text = path.read_text(encoding="utf-8")
            later = set() if on_demand else set(DYNAMIC.findall(text))
            for found in IMPORT.findall(text):
                if (found[0] or found[1]) not in later:
                    todo.append(path.parent / (found[0] or found[1]))
            todo += [STATIC / rel for rel in STYLESHEET.findall(text)]  # one it adds itself
    return seen


@pytest.mark.parametrize("page", ["match.html", "nations.html"])
def test_a_table_page_loads_little_js_and_css(page: str) -> None:
    """A table loads at most the budget of JS and CSS (uncompressed) before its first view, all
    it imports included; what it imports on demand afterwards (the bell once the view is drawn, a
    lesson's coach, a replay's steps) stays within a small second budget."""
    first = loaded_by("base.html", page, on_demand=False)
    files = loaded_by("base.html", page)
    assert {p.suffix for p in files} == {".js", ".css"}, files
    assert all(p.is_file() for p in files), [p for p in files if not p.is_file()]
    weight = sum(p.stat().st_size for p in first)
    assert weight < ASSET_BUDGET_BYTES, f"{page} loads {weight} bytes of JS + CSS"
    later = sum(p.stat().st_size for p in files - first)
    assert later < ON_DEMAND_BYTES, f"{page} loads {later} bytes of JS + CSS on demand"


def test_every_action_and_log_entry_of_the_engine_has_words() -> None:
    """static/js/labels.js names an action by `actions.<type>` (a value play and a target by
    their target too) and a log entry by `log.<type>…`: every type the engine can send, today's
    "done" (R28), "ask" (R29) and "instruction_stopped" included, has its words (and so has every
    language, by the key test above)."""
    actions, log = set(LOCALES["en"]["actions"]), set(LOCALES["en"]["log"])
    wanted = []
    for kind in SHAPES:
        if kind == "play_value":
            wanted += [f"play_value_{target}" for target in get_args(ValueTarget)]
        elif kind == "choose_target":
            wanted += [f"choose_target_{target}" for target in get_args(TrackTarget)]
        else:
            wanted.append(kind)
    assert [k for k in wanted if k not in actions] == []
    assert [e.type for e in EVENT_TYPES if not any(k.startswith(e.type) for k in log)] == []


def test_the_portuguese_lessons_use_the_tables_own_words() -> None:
    """The pt-BR Watergate lessons speak as the table and the rules do ("marcador", "colocar",
    "espaço", "trilha de pesquisa", "quadro"), not of "fichas" to "fixar" on "casas" (issue 42)."""
    lessons = " ".join(t for k, t in FLAT["pt-BR"].items() if k.startswith("lessons.watergate."))
    other = re.findall(r"\b(fichas?|fix\w+|casas?|tabuleiro|investigação)\b", lessons, re.I)
    assert other == []
