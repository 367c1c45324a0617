"""The ES modules a page's entry script imports, followed to the end, so the page can announce
them all at once (`<link rel="modulepreload">`): without a build step the browser otherwise finds
each level of imports only after fetching the one above it, a round trip per level."""

from __future__ import annotations

import re
from functools import cache
from pathlib import PurePosixPath

from .paths import STATIC, TEMPLATES

# `import … from "./x.js"`, `export … from "./x.js"`, `import "./x.js"` (static imports only)
_IMPORT = re.compile(
    r"(?:import|export)[^\"';]*?from\s*[\"'](\.{1,2}/[^\"']+)[\"']"
    r"|import\s*[\"'](\.{1,2}/[^\"']+)[\"']"
)


@cache  # the static files do not change while the server runs
def module_graph(entry: str) -> tuple[str, ...]:
    """Every module `entry` (a path under /static, e.g. "js/match.js") imports, directly or not,
    as /static URLs in a stable order; the entry itself excluded."""
    seen: dict[str, None] = {}
    todo = [PurePosixPath(entry)]
    while todo:
        rel = todo.pop(0)
        text = (STATIC / rel).read_text(encoding="utf-8")
        for found in _IMPORT.findall(text):
            target = PurePosixPath(*_resolve(rel.parent, found[0] or found[1]))
            key = str(target)
            if key not in seen and key != entry:
                seen[key] = None
                todo.append(target)
    return tuple(f"/static/{k}" for k in seen)


_ENTRY = re.compile(r'<script[^>]*type="module"[^>]*src="/static/([^"]+\.js)"')


@cache
def page_modules(template: str) -> tuple[str, ...]:
    """The modules to announce in the head of a page made from `template`: its module scripts
    and everything they import (an empty tuple for a page without one)."""
    entries = _ENTRY.findall((TEMPLATES / template).read_text(encoding="utf-8"))
    urls = [f"/static/{e}" for e in entries]
    for entry in entries:
        urls += [u for u in module_graph(entry) if u not in urls]
    return tuple(urls)


def _resolve(base: PurePosixPath, relative: str) -> list[str]:
    parts = list(base.parts)
    for part in PurePosixPath(relative).parts:
        if part == "..":
            parts.pop()
        elif part != ".":
            parts.append(part)
    return parts
