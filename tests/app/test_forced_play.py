"""A forced choice taken without a click (issue 42; engine/watergate/forced.py): when the seat to
move has one option only and everyone could count it, the server applies it in the same
transaction as that seat's stored action, with "the only choice" in the log; a single option
whose count is hidden (Nixon's face-down token, R11; a reaction window, R18) waits for the seat.
The seed is fixed (app.services.matches.new_seed is replaced) and the moves are a seeded
RandomBot's, so the match is the same on every run."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

import app.services.matches
from engine.watergate.bots import RandomBot
from tests.app.test_persistence import ADMIN, Duel, admin_detail, canonical, replayed

SEED = 20261207


def test_forced_choices_are_taken_by_the_server_and_hidden_single_ones_are_not(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(app.services.matches, "new_seed", lambda: SEED)
    duel, bot = Duel.start(client), RandomBot(7)
    served: list[dict[str, Any]] = []  # every view of the seat to move, as it was shown
    while (found := duel.decision()) is not None:
        _, view = found
        served.append(view)
        # a seat is never left to click a choice the server should have taken
        assert "forced" not in view["state"], view["state"]["decision"]
        assert duel.step(bot) is not None
    detail = admin_detail(client, duel.match_id)
    final = duel.view("editor")
    taken = [e for e in final["log"] if e["type"] == "only_choice"]
    assert len(taken) >= 2, "the seed must meet forced choices for the test to say anything"
    # each taken choice is a stored action of its seat: the clicks plus the server's
    assert len(detail["actions"]) == len(served) + len(taken) == final["version"]
    assert {e["role"] for e in taken} <= {"editor", "nixon"}
    # the stored actions replay to the match as played, forced ones included
    assert canonical(replayed(detail)) == canonical(
        client.app.state.ctx.cache.entry(duel.match_id).state  # type: ignore[attr-defined]
    )
    # single options whose count is hidden were shown and clicked: Nixon's face-down token
    # (R11, R29) and reaction windows (R18)
    single = [v["state"]["decision"]["kind"] for v in served if len(v["legal_actions"]) == 1]
    assert "choose_face_down" in single and "react" in single, single
    # the log reads the same when the match is rebuilt from its stored actions
    client.app.state.ctx.cache.forget(duel.match_id)  # type: ignore[attr-defined]
    assert duel.view("editor")["log"] == final["log"]
    exported = client.get(f"/api/replays/{duel.match_id}/export").json()
    checked = client.post("/api/admin/verify", headers=ADMIN, json=exported).json()
    assert checked["ok"] is True, checked
