"""Shared pytest options (--update-golden rewrites golden playthrough files) and the run's
start: the browser tests' screenshot folder is emptied once, by the process that runs the
session (with `-n`, xdist's controller, before any worker takes a screenshot)."""

from __future__ import annotations

from pathlib import Path

import pytest

SCREENSHOTS = Path(__file__).resolve().parent / "e2e" / "output"


def _runs_browser_tests(config: pytest.Config) -> bool:
    e2e = SCREENSHOTS.parent
    for arg in config.args:
        path = Path(config.invocation_params.dir, arg.split("::")[0]).resolve()
        if path.is_relative_to(e2e) or e2e.is_relative_to(path):
            return True
    return False


def pytest_configure(config: pytest.Config) -> None:
    # an xdist worker leaves it to the controller; a run without the browser tests (the
    # compiled engine's) keeps the last run's screenshots
    if hasattr(config, "workerinput") or not _runs_browser_tests(config):
        return
    SCREENSHOTS.mkdir(exist_ok=True)
    for old in SCREENSHOTS.glob("*.png"):  # the folder shows this run only
        old.unlink()


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-golden",
        action="store_true",
        default=False,
        help="rewrite tests/engine/<game>/golden/* from the current engine instead of comparing",
    )


@pytest.fixture
def update_golden(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--update-golden"))
