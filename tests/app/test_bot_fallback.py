"""A crashed or confused computer seat never stalls a match: the search bot falls back to the
heuristic, then to random, with a log line each time (issue 5)."""

from __future__ import annotations

import logging

import pytest

from app.services import thinking
from engine.registry import get_game
from engine.watergate import new_match
from engine.watergate.bots import HeuristicBot
from engine.watergate.bots.search import SearchBot


def test_a_crashing_search_bot_falls_back_to_the_heuristic(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def crash(*_: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(SearchBot, "decide", crash)
    s = new_match(3)
    with caplog.at_level(logging.ERROR, logger="watergate.bots"):
        action = thinking.choose_move(get_game("watergate"), s, "editor", s.seed, "search", 50)
    assert action in get_game("watergate").legal_actions(s, "editor")
    assert any("search bot failed" in r.getMessage() for r in caplog.records)


def test_when_every_clever_bot_fails_the_random_one_still_moves(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def crash(*_: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(SearchBot, "decide", crash)
    monkeypatch.setattr(HeuristicBot, "decide", lambda *_: {"type": "not-an-action"})
    s = new_match(4)
    with caplog.at_level(logging.ERROR, logger="watergate.bots"):
        action = thinking.choose_move(get_game("watergate"), s, "editor", s.seed, "search", 50)
    assert action in get_game("watergate").legal_actions(s, "editor")
    messages = [r.getMessage() for r in caplog.records]
    assert any("search bot failed" in m for m in messages)
    assert any("heuristic bot chose an action that is not legal" in m for m in messages)
