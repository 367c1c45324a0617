"""Shared pytest options (--update-golden rewrites golden playthrough files), the run's start
(the browser tests' screenshot folder is emptied once, by the process that runs the session:
with `-n`, xdist's controller, before any worker takes a screenshot) and the order of the files:
the longest first, then the other browser tests, then the rest as collected."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCREENSHOTS = Path(__file__).resolve().parent / "e2e" / "output"
# The files that take longest, longest first (seconds of one test process on a loaded 2-core
# machine, 2026-12-07). `make test` gives whole files to two workers in this order (pytest
# collects tests/e2e among tests/ alphabetically whatever testpaths says, and pytest_configure
# keeps xdist from ordering files by their number of tests): a long file handed out last would
# leave the other worker idle at the end, short files last let the two finish together.
SLOWEST = (
    "tests/e2e/test_nations_table.py",  # 218
    "tests/e2e/test_nations_browser.py",  # 146
    "tests/e2e/test_table.py",  # 127
    "tests/e2e/test_table_cards.py",  # 120
    "tests/e2e/test_replay_fair.py",  # 97
    "tests/e2e/test_pages42.py",  # 87
    "tests/e2e/test_lessons_browser.py",  # 84
)
# long files that the collection would hand out among the last, after the browser tests
SLOW_AFTER_BROWSERS = (
    "tests/engine/nations/test_playouts.py",  # 121
    "tests/engine/watergate/test_properties.py",  # 26
    "tests/engine/watergate/test_noninterference.py",  # 22
    "tests/test_bench_tournament.py",  # 19
    "tests/clients/test_bot.py",  # 15
)


def _runs_browser_tests(config: pytest.Config) -> bool:
    e2e = SCREENSHOTS.parent
    for arg in config.args:
        path = Path(config.invocation_params.dir, arg.split("::")[0]).resolve()
        if path.is_relative_to(e2e) or e2e.is_relative_to(path):
            return True
    return False


def pytest_configure(config: pytest.Config) -> None:
    # xdist's --dist loadfile hands out files by their number of tests unless told otherwise,
    # which put two-test browser files of a minute and more at the end; this order instead
    if hasattr(config.option, "loadscopereorder"):
        config.option.loadscopereorder = False
    # an xdist worker leaves it to the controller; a run without the browser tests (the
    # compiled engine's) keeps the last run's screenshots
    if hasattr(config, "workerinput") or not _runs_browser_tests(config):
        return
    SCREENSHOTS.mkdir(exist_ok=True)
    for old in SCREENSHOTS.glob("*.png"):  # the folder shows this run only
        old.unlink()


def _rank(item: pytest.Item) -> tuple[int, int]:
    path = item.path.resolve()
    where = path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else ""
    if where in SLOWEST:
        return 0, SLOWEST.index(where)
    # the browser tests together: each test process launches its browser once for all of them
    if where.startswith("tests/e2e/"):
        return 1, 0
    if where in SLOW_AFTER_BROWSERS:
        return 2, SLOW_AFTER_BROWSERS.index(where)
    return 3, 0


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=_rank)  # stable: each file's tests, and files of one rank, keep their order


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
