"""The server plays the compiled engine only while it was built from the engine's files beside
it (issue 44): a copy left from before an edit — of a rule or of a card's wording in its data —
would play the old rules under the new code's name, so the server refuses to start on it; and
bench.match and bench.ladder leave such a copy out."""

from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

from app.engine_build import Running, copy_current, running, stale_copy


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


def test_a_card_reworded_in_the_data_makes_the_copy_stale(tmp_path: Path) -> None:
    files = {"watergate/flow.py": "B = 2\n", "watergate/data/cards.json": '{"E07": "look"}'}
    _tree(tmp_path / "engine", files)
    _tree(tmp_path / "build" / "engine", files)
    _tree(tmp_path / "engine" / "watergate" / "__pycache__", {"flow.pyc": "bytes"})  # not a source
    assert copy_current(tmp_path / "engine", tmp_path / "build")
    _tree(tmp_path / "engine", {"watergate/data/cards.json": '{"E07": "look, then move"}'})
    assert not copy_current(tmp_path / "engine", tmp_path / "build")


def test_the_server_refuses_a_stale_compiled_copy_and_says_which_engine_it_plays(
    tmp_path: Path,
) -> None:
    _tree(tmp_path / "engine", {"watergate/flow.py": "B = 3\n"})
    _tree(tmp_path / "build" / "engine", {"watergate/flow.py": "B = 2\n"})
    suffix = EXTENSION_SUFFIXES[0]
    compiled = running(str(tmp_path / "build" / "engine" / "watergate" / f"flow{suffix}"))
    assert compiled == Running("mypyc", tmp_path / "build" / "engine")
    problem = stale_copy(compiled, tmp_path / "engine")
    assert problem is not None and "make mypyc" in problem
    _tree(tmp_path / "build" / "engine", {"watergate/flow.py": "B = 3\n"})  # compiled anew
    assert stale_copy(compiled, tmp_path / "engine") is None
    assert "mypyc" in compiled.line()
    pure = running(str(tmp_path / "engine" / "watergate" / "flow.py"))
    assert pure.kind == "pure" and stale_copy(pure, tmp_path / "engine") is None
    assert "pure Python" in pure.line()
