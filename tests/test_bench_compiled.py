"""bench.match and bench.ladder play the compiled copy only while it was built from today's
engine sources: a copy left from before an edit would measure the old rules under the new name."""

from pathlib import Path

from bench.compiled import copy_current


def _tree(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def test_a_copy_of_todays_sources_is_current(tmp_path: Path) -> None:
    files = {"core/rng.py": "A = 1\n", "watergate/flow.py": "B = 2\n"}
    _tree(tmp_path / "engine", files)
    _tree(tmp_path / "build" / "engine", files)
    assert copy_current(tmp_path / "engine", tmp_path / "build")


def test_an_edited_or_new_source_makes_the_copy_stale(tmp_path: Path) -> None:
    _tree(tmp_path / "build" / "engine", {"core/rng.py": "A = 1\n"})
    _tree(tmp_path / "engine", {"core/rng.py": "A = 2\n"})
    assert not copy_current(tmp_path / "engine", tmp_path / "build")
    _tree(tmp_path / "engine", {"core/rng.py": "A = 1\n", "watergate/bots/new.py": "C = 3\n"})
    assert not copy_current(tmp_path / "engine", tmp_path / "build")
