"""Post-game analysis (contract v1.1): only a seat of a finished match gets it, its own decisions
only; 202 while the one worker computes (a second analysis waits), then 200 with chances in
[0, 1] and a `best` that was legal at that decision; it goes with a deleted match."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import sqlalchemy as sa
from fastapi.testclient import TestClient

from app.persistence.models import MatchAnalysis
from engine.registry import get_game
from engine.watergate import GAME
from engine.watergate.bots import RandomBot
from tests.app.test_persistence import ADMIN, Duel, bearer

URL = "/api/matches/{}/analysis"


def resigned(client: TestClient, seed: int, moves: int = 16) -> Duel:
    """A short finished match (a few random moves, then the Editor resigns): analysed as a whole
    match is, at a fraction of the time (the analysis judges every real decision)."""
    duel = Duel.start(client)
    duel.play(RandomBot(seed), moves)
    url = f"/api/matches/{duel.match_id}/resign"
    assert client.post(url, headers=bearer(duel.tokens["editor"])).status_code == 200
    return duel


def analysed(client: TestClient, duel: Duel, role: str, seen: list[str]) -> dict[str, Any]:
    """Poll politely until 200; every 202 body's status is kept in `seen`."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        r = client.get(URL.format(duel.match_id), headers=bearer(duel.tokens[role]))
        if r.status_code == 200:
            return dict(r.json())
        assert r.status_code == 202, r.text
        seen.append(r.json()["status"])
        time.sleep(0.2)
    raise AssertionError("the analysis never came")


def test_only_a_seat_of_a_finished_match_gets_its_own_decisions(client: TestClient) -> None:
    live = Duel.start(client)
    live.play(RandomBot(1), 3)
    r = client.get(URL.format(live.match_id), headers=bearer(live.tokens["editor"]))
    assert (r.status_code, r.json()["code"]) == (404, "not_found")
    duel = resigned(client, seed=3, moves=40)
    assert client.get(URL.format(duel.match_id)).status_code == 401  # stranger, spectator
    key = duel.view("editor")["spectate_path"].rsplit("key=", 1)[1]
    assert client.get(URL.format(duel.match_id) + f"?key={key}").status_code == 401
    assert client.get(URL.format(duel.match_id), headers=bearer("nope")).status_code == 401
    other = client.get(URL.format(duel.match_id), headers=bearer(live.tokens["editor"]))
    assert other.status_code == 403
    unknown = client.get(URL.format("nosuchmatch"), headers=bearer(live.tokens["editor"]))
    assert unknown.status_code == 403  # a token for another match, as every seat endpoint says
    export = client.get(f"/api/replays/{duel.match_id}/export").json()
    legal_at: dict[int, list[Any]] = {}
    state = GAME.start(int(export["seed_text"]), export["rules_version"]).state
    for step in export["actions"]:
        legal_at[step["seq"]] = [
            GAME.action_to_json(a) for a in GAME.legal_actions(state, step["role"])
        ]
        state = GAME.apply(state, step["role"], step["action"]).state
    for role in ("editor", "nixon"):
        body = analysed(client, duel, role, [])
        assert body["role"] == role and body["information"] == "observation"
        assert body["moves"], "40 random moves hold real decisions for both seats"
        for move in body["moves"]:
            assert move["role"] == role
            assert 0.0 <= move["before"] <= 1.0 and 0.0 <= move["after"] <= 1.0
            assert move["best"] in legal_at[move["seq"]]
            assert len(legal_at[move["seq"]]) > 1  # a lone choice is not judged
    with client.app.state.ctx.db.writer.begin() as db:  # type: ignore[attr-defined]
        count = db.execute(sa.select(sa.func.count()).select_from(MatchAnalysis)).scalar()
    assert count == 1
    r = client.delete(f"/api/admin/matches/{duel.match_id}", headers=ADMIN)
    assert r.status_code in (200, 204), r.text
    with client.app.state.ctx.db.writer.begin() as db:  # type: ignore[attr-defined]
        count = db.execute(sa.select(sa.func.count()).select_from(MatchAnalysis)).scalar()
    assert count == 0


def test_one_analysis_at_a_time_the_second_waits(
    sqlite_url: str, make_client: Callable[..., TestClient]
) -> None:
    first = make_client(sqlite_url)
    duels = [resigned(first, seed=s) for s in (5, 6)]
    first.__exit__(None, None, None)  # its worker stops; the analyses are made afresh below
    with first.app.state.ctx.db.writer.begin() as db:  # type: ignore[attr-defined]
        db.execute(sa.delete(MatchAnalysis))
    # an older finished match: analysed on its first request, by a new server
    client = make_client(sqlite_url)
    answers = [client.get(URL.format(d.match_id), headers=bearer(d.tokens["nixon"])) for d in duels]
    assert [a.status_code for a in answers] == [202, 202]
    assert answers[1].json()["status"] == "queued"
    analyses = client.app.state.ctx.analyses
    seen: list[str] = []
    while analyses.running is not None or analyses.status(duels[1].match_id) is not None:
        # never both at once: the second waits while the first runs
        assert [analyses.status(d.match_id) for d in duels].count("running") <= 1
        time.sleep(0.05)
    for duel in duels:
        assert analysed(client, duel, "nixon", seen)["moves"]


def test_a_nations_table_is_analysed_for_every_seat_of_a_person(client: TestClient) -> None:
    """Issue 39: a finished Nations table has its analysis too (it answered 409 before), each
    person's own decisions only, judged by the match's own seat count (a table of three)."""
    from tests.app.test_tables import claim_link, create, play_out

    made = create(client, role="p1", players=3, seats={"p3": "bot"})
    match_id, tokens = made["match_id"], {"p1": made["seat_token"]}
    tokens["p2"] = claim_link(client, made["invites"]["p2"])["seat_token"]
    with client.websocket_connect(f"/ws/matches/{match_id}?token={tokens['p1']}") as ws:
        assert play_out(client, match_id, tokens, ws, seed=2)["status"] == "finished"
    export = client.get(f"/api/replays/{match_id}/export").json()
    game = get_game("nations").with_players(3)
    legal_at: dict[int, list[Any]] = {}
    state = game.start(int(export["seed_text"]), export["rules_version"]).state
    for step in export["actions"]:
        seat = step["role"]
        legal_at[step["seq"]] = [game.action_to_json(a) for a in game.legal_actions(state, seat)]
        state = game.apply(state, seat, step["action"]).state
    for seat in ("p1", "p2"):
        body = analysed(client, Duel(match_id, tokens, {}), seat, [])
        assert body["role"] == seat and body["moves"]
        for move in body["moves"]:
            assert move["role"] == seat and len(legal_at[move["seq"]]) > 1
            assert 0.0 <= move["after"] <= move["before"] + 1e-9 <= 1.0 + 1e-9
            assert move["best"] in legal_at[move["seq"]]
