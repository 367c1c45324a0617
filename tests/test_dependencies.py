"""pyproject.toml names every third-party package the code imports, and the locks in requirements/
pin every package pyproject names at a version it allows: a dependency added without `make lock`
fails here, offline, before it fails on a fresh clone."""

from __future__ import annotations

import ast
import sys
import tomllib
from functools import cache
from importlib.metadata import packages_distributions
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ("engine", "app", "bench", "clients", "tests", "migrations")
FIRST_PARTY = {*SOURCES, "conftest"}


def _pyproject() -> dict[str, list[Requirement]]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    groups = {"core": project["dependencies"], **project["optional-dependencies"]}
    return {name: [Requirement(line) for line in lines] for name, lines in groups.items()}


def _lock(name: str) -> dict[str, Version]:
    """`name==version` lines of a lock; a package pinned twice under markers keeps its first."""
    pins: dict[str, Version] = {}
    for line in (ROOT / "requirements" / name).read_text().splitlines():
        if line and not line[0].isspace() and not line.startswith(("#", "-")):
            requirement = Requirement(line.rstrip(" \\"))
            (spec,) = requirement.specifier
            assert spec.operator == "==", line
            pins.setdefault(canonicalize_name(requirement.name), Version(spec.version))
    return pins


@cache
def _imported() -> dict[str, str]:
    """Top-level module -> one file importing it, over every source file of the project."""
    found: dict[str, str] = {}
    for folder in SOURCES:
        for path in sorted((ROOT / folder).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(), str(path))):
                if isinstance(node, ast.Import):
                    names = [alias.name for alias in node.names]
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    names = [node.module]
                else:
                    continue
                for name in names:
                    found.setdefault(name.partition(".")[0], str(path.relative_to(ROOT)))
    return found


def test_every_imported_third_party_package_is_declared() -> None:
    declared = {canonicalize_name(r.name) for group in _pyproject().values() for r in group}
    owners = packages_distributions()
    third_party = {
        module: where
        for module, where in _imported().items()
        if module not in sys.stdlib_module_names and module not in FIRST_PARTY
    }
    assert third_party, "the scan found no third-party import at all"
    missing = {
        module: where
        for module, where in third_party.items()
        if not declared & {canonicalize_name(d) for d in owners.get(module, [module])}
    }
    assert not missing, f"imported but not declared in pyproject.toml: {missing}"


@pytest.mark.parametrize(("lock", "groups"), [("dev.txt", None), ("app.txt", ("core",))])
def test_the_lock_pins_what_pyproject_asks_for(lock: str, groups: tuple[str, ...] | None) -> None:
    pins = _lock(lock)
    wanted = [
        requirement
        for name, group in _pyproject().items()
        if groups is None or name in groups
        for requirement in group
    ]
    build = (ROOT / "requirements" / "build.in").read_text().splitlines()
    wanted += [Requirement(line) for line in build if line and not line.startswith("#")]
    for requirement in wanted:
        name = canonicalize_name(requirement.name)
        assert name in pins, f"{name} is not in requirements/{lock}: run `make lock`"
        assert requirement.specifier.contains(pins[name], prereleases=True), (
            f"requirements/{lock} pins {name}=={pins[name]}, pyproject asks for {requirement}: "
            "run `make lock`"
        )


def test_the_image_runs_the_versions_the_tests_ran() -> None:
    dev, app = _lock("dev.txt"), _lock("app.txt")
    assert set(app) <= set(dev)
    assert {name: version for name, version in app.items() if dev[name] != version} == {}
