"""The engine is a pure library (architecture.md §1, §3.8): no web, DB, clock, OS, logging, I/O,
threads or global RNG, found by reading every engine module's imports (engine/core, every game,
the registry) with `ast`; no module past the size budget; and only the registry names a game's
package (architecture.md §6: the platform reaches a game through its protocol)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "engine"
MODULES = sorted(ENGINE.rglob("*.py"))
GAMES = ("watergate", "nations")
FORBIDDEN = frozenset(
    {
        "app",
        "fastapi",
        "starlette",
        "sqlalchemy",
        "random",
        "time",
        "datetime",
        "os",
        "sys",
        "logging",
        "socket",
        "subprocess",
        "threading",
        "asyncio",
        "secrets",
        "io",
        "pathlib",
        "shutil",
        "tempfile",
        "sqlite3",
        "http",
        "urllib",
        "httpx",
        "requests",
        "redis",
        "psycopg",
        "uvicorn",
        "multiprocessing",
        "concurrent",
    }
)
MAX_LINES = 500


def imported_modules(tree: ast.AST) -> list[tuple[int, str]]:
    """(line, absolute module name) of every import anywhere in the tree, nested ones included;
    relative imports (inside the engine) are skipped, dynamic `__import__("x")` /
    `importlib.import_module("x")` with a literal name are included."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module))
        elif isinstance(node, ast.Call) and node.args:
            func, arg = node.func, node.args[0]
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
            if name in ("__import__", "import_module") and isinstance(arg, ast.Constant):
                found.append((node.lineno, str(arg.value)))
    return found


def forbidden_imports(source: str) -> list[str]:
    tree = ast.parse(source)
    return [
        f"line {line}: {name}"
        for line, name in imported_modules(tree)
        if name.split(".")[0] in FORBIDDEN
    ]


def test_the_engine_has_modules_to_check() -> None:
    names = {p.relative_to(ENGINE).as_posix() for p in MODULES}
    assert {
        "__init__.py",
        "registry.py",
        "core/game.py",
        "core/rng.py",
        "core/errors.py",
        "watergate/flow.py",
        "watergate/views.py",
        "watergate/bots/random_bot.py",
    } <= names


def absolute_imports(path: Path) -> list[tuple[int, str]]:
    """(line, absolute module) of every import in a module of the repository, relative ones
    resolved against the module's own package."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    package = parts[:-1]  # a module and a package's __init__ both live in parts[:-1]
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            found += [(node.lineno, f"{module}.{alias.name}") for alias in node.names]
    return found


def outside_game(path: Path) -> bool:
    rel = path.relative_to(ROOT).as_posix()
    return rel != "engine/registry.py" and not any(
        rel.startswith(f"engine/{game}/") for game in GAMES
    )


@pytest.mark.parametrize(
    "path",
    [p for p in [*MODULES, *sorted((ROOT / "bench").rglob("*.py"))] if outside_game(p)],
    ids=lambda p: p.relative_to(ROOT).as_posix(),
)
def test_only_the_registry_names_a_game_package(path: Path) -> None:
    named = [
        f"line {line}: {name}"
        for line, name in absolute_imports(path)
        if any(name == f"engine.{g}" or name.startswith(f"engine.{g}.") for g in GAMES)
    ]
    assert named == []


def test_the_game_package_check_resolves_relative_imports() -> None:
    assert "engine.watergate.GAME" in {n for _, n in absolute_imports(ENGINE / "registry.py")}


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.relative_to(ENGINE).as_posix())
def test_engine_module_imports_nothing_impure(path: Path) -> None:
    assert forbidden_imports(path.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.relative_to(ENGINE).as_posix())
def test_engine_module_stays_within_the_size_budget(path: Path) -> None:
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LINES, f"{path.name} has {lines} lines; split it (architecture.md §3.7)"


@pytest.mark.parametrize(
    "source",
    [
        "import random",
        "import os.path",
        "from datetime import datetime",
        "from app.models import Match",
        "import logging as log",
        "def f():\n    import time\n    return time.time()",
        "class C:\n    def m(self):\n        from secrets import token_hex",
        "if True:\n    import sys",
        "import importlib\nmod = importlib.import_module('sqlalchemy')",
        "asyncio = __import__('asyncio')",
        "try:\n    import threading\nexcept ImportError:\n    pass",
    ],
)
def test_the_checker_finds_impure_imports(source: str) -> None:
    assert forbidden_imports(source), source


@pytest.mark.parametrize(
    "source",
    [
        "from . import rng",
        "from .state import MatchState",
        "import json",
        "from importlib import resources",
        "from typing import Final",
        "import randomness_free_module",
    ],
)
def test_the_checker_allows_pure_imports(source: str) -> None:
    assert forbidden_imports(source) == []
