"""The optional compiled engine (`make mypyc` builds it in build/mypyc): whether it is built, which
engine a run is playing, and running a bench module again on the copy.

The pure engine stays the reference (the server runs the copy when `make run` could build it:
app/engine_build.py); the copy is the same source compiled, and
`make test-mypyc` runs the engine's tests against it. A bench program runs a second process whose
path puts the copy first, so `import engine` there finds the compiled modules.
"""

from __future__ import annotations

import subprocess
import sys
from importlib.machinery import EXTENSION_SUFFIXES

from app.engine_build import COMPILED_COPY, copy_current

COMPILED_GAMES = ("watergate",)  # the games whose rules and bots `make mypyc` compiles


def copy_plays(game_id: str) -> bool:
    """Whether the compiled copy is built, current, and compiles this game; a stale copy is told
    on stderr and left out."""
    if game_id not in COMPILED_GAMES or not (COMPILED_COPY / "engine").is_dir():
        return False
    if not copy_current():
        print(
            "build/mypyc is older than engine/: run `make mypyc`; playing the pure engine",
            file=sys.stderr,
        )
        return False
    return True


def engine_kind(game_id: str) -> str:
    """`mypyc` when a module of this game's engine imported so far is a compiled extension, else
    `pure`."""
    prefix = f"engine.{game_id}."
    for name, module in list(sys.modules.items()):
        if name.startswith(prefix) and str(getattr(module, "__file__", "")).endswith(
            tuple(EXTENSION_SUFFIXES)
        ):
            return "mypyc"
    return "pure"


def on_copy(module: str, argv: list[str], capture: bool) -> subprocess.CompletedProcess[str]:
    """Run `module.main()` with `argv --no-compiled` in a process whose path puts the copy first
    (imported, not run as __main__, so its process pool's workers can find its functions); its
    output is captured (`capture`) or goes straight to this process's."""
    run = (
        f"import sys; sys.path.insert(0, {str(COMPILED_COPY)!r}); "
        f"import importlib; importlib.import_module({module!r}).main()"
    )
    return subprocess.run(
        [sys.executable, "-c", run, *argv, "--no-compiled"],
        capture_output=capture,
        text=True,
        check=True,
    )
