"""The first `make run` builds .venv and installs every locked package, quietly, for a minute or
two: issue 42 found it silent for ~90 s. Each long step must first say what it is doing."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_the_first_make_run_says_what_it_is_doing(tmp_path: Path) -> None:
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    fresh = tmp_path / "venv"  # never made: the dry run lists every step of a first run
    planned = subprocess.run(
        ["make", "-n", "run", f"VENV={fresh}"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.splitlines()
    quiet_steps = {
        "-m venv": "creating",
        "--require-hashes": "installing the locked packages",
        "--no-deps": "installing the project",
        "command -v cc": "compiling the engine",  # issue 44: the server plays the compiled copy
        "-m app": "migrating the database",
    }
    for step, said in quiet_steps.items():
        at = next(i for i, line in enumerate(planned) if step in line)
        assert planned[at - 1].startswith("echo ") and said in planned[at - 1], (step, planned)
