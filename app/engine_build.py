"""Which engine the server plays (issue 44): the compiled copy that `make mypyc` builds in
build/mypyc (mypyc, about three times the pure engine's speed: docs/speed.md), or the
pure-Python engine, which stays the reference every test is written against.

`make run` compiles the copy when a C compiler is there and serves with the copy first on
PYTHONPATH, so `import engine` finds the compiled modules in the server and in every process it
spawns (the bots' and the analysis' workers inherit the environment); without a compiler it
serves the pure engine and says so in one line. Nothing here switches engines: by the time the
server starts, `engine` is imported. What it does is tell which one was, and refuse a copy that
was not compiled from the sources beside it (it would play other rules than the code says)."""

from __future__ import annotations

from dataclasses import dataclass
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "engine"
COMPILED_COPY = ROOT / "build" / "mypyc"


def copy_current(sources: Path = SOURCE, copy: Path = COMPILED_COPY) -> bool:
    """Whether the copy was made from the engine's files as they are now: every source and
    data file (a card's wording lives in JSON beside the rules) equal in the copy."""
    copied = copy / "engine"
    for source in sources.rglob("*"):
        if not source.is_file() or "__pycache__" in source.parts:
            continue
        compiled = copied / source.relative_to(sources)
        if not compiled.is_file() or compiled.read_bytes() != source.read_bytes():
            return False
    return True


@dataclass(frozen=True)
class Running:
    """The engine this process imported: `mypyc` or `pure`, and from where."""

    kind: str
    where: Path

    def line(self) -> str:
        if self.kind == "mypyc":
            return f"engine: compiled with mypyc ({self.where})"
        return "engine: pure Python (`make run` compiles it when a C compiler is there)"


def running(module_file: str) -> Running:
    """Which engine a module of it (e.g. engine.watergate.flow's __file__) says was imported."""
    path = Path(module_file)
    compiled = module_file.endswith(tuple(EXTENSION_SUFFIXES))
    package = next((p for p in path.parents if p.name == "engine"), path.parent)
    return Running("mypyc" if compiled else "pure", package)


def stale_copy(found: Running, sources: Path = SOURCE) -> str | None:
    """Why the server must not start on this engine (None: it may): a compiled copy whose
    sources differ from the engine's beside it."""
    if found.kind != "mypyc" or not sources.is_dir():
        return None
    if copy_current(sources, found.where.parent):
        return None
    return (
        f"the compiled engine in {found.where.parent} was built from other sources than "
        f"{sources}: run `make mypyc` (or `make run`), or leave it off PYTHONPATH"
    )
