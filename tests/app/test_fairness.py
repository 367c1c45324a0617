"""Provably fair deals and public replays (contract v1.1): the commitment is in every view from
the first, is stored and never changes (across restarts and processes); an ended match's public
replay is the spectator's view (or a seat's own) at every step with the log in step, its export
and the server's check carry the seed, and the check passes for real matches and fails when the
seed or the action list was tampered with."""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from app.persistence.models import Match, MatchAction
from app.services import exports, fairness
from engine.core.fairness import commitment, seed_hex
from engine.watergate.bots import RandomBot
from tests.app.test_crash import Spawn, servers
from tests.app.test_persistence import ADMIN, Duel, MakeClient, admin_detail, bearer

View = dict[str, Any]


@pytest.fixture
def spawn(tmp_path: Path) -> Iterator[Spawn]:
    with servers(tmp_path) as make:
        yield make


def spectator(client: Any, view: View) -> View:
    """The spectator's view, through the spectator link a seat's view names."""
    match_id, key = view["match_id"], view["spectate_path"].rsplit("key=", 1)[1]
    path = f"/api/matches/{match_id}/spectate?key={key}"
    answer = client.get(path)
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def fairness_of(client: Any, match_id: str) -> dict[str, str]:
    return dict(client.get(f"/api/admin/matches/{match_id}", headers=ADMIN).json()["fairness"])


def ended_duel(client: TestClient, seed: int = 5) -> tuple[Duel, dict[int, dict[str, View]]]:
    """A match played to its end with random legal moves through the API, and every viewer's
    view at every version ("spectator" for the spectator link)."""
    duel = Duel.start(client)
    bot = RandomBot(seed)
    seen: dict[int, dict[str, View]] = {}
    while True:
        views = duel.views()
        views["spectator"] = spectator(client, views["editor"])
        seen[views["editor"]["version"]] = views
        if views["editor"]["status"] == "finished":
            return duel, seen
        assert duel.step(bot) is not None


def test_every_view_publishes_the_commitment_from_the_first(
    any_db_url: str, make_client: MakeClient
) -> None:
    client = make_client(any_db_url)
    made = client.post("/api/matches", json={"role": "editor", "opponent": "human"}).json()
    waiting = client.get(f"/api/matches/{made['match_id']}", headers=bearer(made["seat_token"]))
    assert waiting.json()["status"] == "waiting"
    published = waiting.json()["fairness"]
    seed = admin_detail(client, made["match_id"])["seed"]
    assert published == {
        "commitment": commitment(made["match_id"], seed),
        "algorithm": "sha256-ctr/v1",
    }
    duel, seen = ended_duel(client)
    stored = fairness_of(client, duel.match_id)  # as the admin sees it: with the seed
    live = {k: v for k, v in stored.items() if k != "seed"}
    for version, views in seen.items():
        for who, view in views.items():  # the seed exactly once the match is over
            expected = stored if view["status"] == "finished" else live
            assert view["fairness"] == expected, (who, version)
    vs_bot = client.post("/api/matches", json={"opponent": "bot", "role": "nixon"}).json()
    match_id = vs_bot["match_id"]
    shown = client.get(f"/api/matches/{match_id}", headers=bearer(vs_bot["seat_token"])).json()
    assert shown["fairness"] == {
        k: v for k, v in fairness_of(client, match_id).items() if k != "seed"
    }


def test_the_commitment_is_stable_across_restarts_and_processes(
    postgres_url: str, spawn: Spawn
) -> None:
    """Made by one server process, read by the next after it was killed, and by two processes
    at once: always the commitment stored with the match, as the engine computes it."""
    first = spawn(postgres_url)
    duel = Duel.start(first.http)
    duel.play(RandomBot(3), 6)
    before = duel.view("editor")["fairness"]
    version = duel.view("editor")["version"]  # 6, and any only choice the server took (issue 42)
    first.kill()
    second, third = spawn(postgres_url, ready=False), spawn(postgres_url, ready=False)
    second.wait_ready()
    third.wait_ready()
    for server in (second, third):
        for role in ("editor", "nixon"):
            assert duel.view(role, via=server.http)["fairness"] == before
    seed = admin_detail(third.http, duel.match_id)["seed"]
    assert before["commitment"] == commitment(duel.match_id, seed)
    assert duel.view("editor", via=second.http)["version"] == version >= 6
    duel.clients = {"editor": second.http, "nixon": third.http}
    duel.finish(RandomBot(4))
    ended = duel.view("nixon", via=second.http)["fairness"]
    assert ended == {**before, "seed": seed_hex(seed)}
    assert third.http.get(f"/api/replays/{duel.match_id}/verify").json()["ok"] is True


def test_the_public_replay_is_what_each_viewer_saw_at_every_step(
    sqlite_url: str, make_client: MakeClient
) -> None:
    client = make_client(sqlite_url)
    duel, seen = ended_duel(client, seed=11)
    last = max(seen)
    public = client.get(f"/api/replays/{duel.match_id}")
    assert public.status_code == 200, public.text
    replay = public.json()
    final = seen[last]["spectator"]
    assert replay["role"] is None and replay["winner"] == final["winner"]
    assert replay["win_reason"] == final["win_reason"]
    assert replay["fairness"] == final["fairness"] and "seed" in replay["fairness"]
    assert [s["step"] for s in replay["steps"]] == list(range(last + 1))
    assert replay["log"] == final["log"]
    # the versions after an only choice the server took (issue 42) were never shown as views
    unseen = [s["step"] for s in replay["steps"] if s["step"] not in seen]
    assert len(unseen) == sum(e["type"] == "only_choice" for e in final["log"])
    for step in replay["steps"]:
        if step["step"] in unseen:
            continue
        then = seen[step["step"]]["spectator"]
        assert step["state"] == then["state"], step["step"]
        assert step["log_length"] == len(then["log"]), step["step"]
    actions = [s["action"] for s in replay["steps"][1:]]
    assert actions == [
        {"seq": a["seq"], "role": a["role"], "action": a["action"]}
        for a in admin_detail(client, duel.match_id)["actions"]
    ]
    # a seat's own replay shows what that seat saw, its hand included
    own = client.get(f"/api/replays/{duel.match_id}", headers=bearer(duel.tokens["nixon"])).json()
    assert own["role"] == "nixon"
    for step in own["steps"]:
        if step["step"] not in unseen:
            assert step["state"] == seen[step["step"]]["nixon"]["state"], step["step"]
    assert own["log"] == seen[last]["nixon"]["log"]
    page = client.get(f"/replay/{duel.match_id}")
    assert page.status_code == 200 and "/static/js/replay.js" in page.text
    # the export replays identically where an admin checks it, and carries the seed
    exported = client.get(f"/api/replays/{duel.match_id}/export").json()
    assert exported["fairness"] == final["fairness"] and exported["length"] == last
    checked = client.post("/api/admin/verify", headers=ADMIN, json=exported).json()
    assert checked["ok"] is True and checked["reason"] == "replays identically"


def test_an_ended_match_that_is_deleted_has_no_replay(client: TestClient) -> None:
    duel = Duel.start(client)
    assert (
        client.post(
            f"/api/matches/{duel.match_id}/resign", headers=bearer(duel.tokens["editor"])
        ).status_code
        == 200
    )
    assert client.get(f"/api/replays/{duel.match_id}").status_code == 200
    assert client.delete(f"/api/admin/matches/{duel.match_id}", headers=ADMIN).status_code == 200
    for tail in ("", "/verify", "/export"):
        assert client.get(f"/api/replays/{duel.match_id}{tail}").status_code == 404


# ---- the check of a deal ---------------------------------------------------------------------


def tamper(client: TestClient, statement: Any) -> None:
    with client.app.state.ctx.db.writer.begin() as db:  # type: ignore[attr-defined]
        db.execute(statement)


def finished(client: TestClient, seed: int) -> tuple[Duel, View]:
    """A match played to its end with random legal moves, and its final view."""
    duel = Duel.start(client)
    duel.finish(RandomBot(seed))
    return duel, duel.view("editor")


def verdict(client: TestClient, match_id: str) -> View:
    answer = client.get(f"/api/replays/{match_id}/verify")
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def test_the_check_passes_for_real_matches_however_they_ended(client: TestClient) -> None:
    duel, final = finished(client, seed=21)
    won = verdict(client, duel.match_id)
    commitment_check, replay_check = won["checks"]["commitment"], won["checks"]["replay"]
    assert won["ok"] and (commitment_check["ok"], commitment_check["code"]) == (
        True, "commitment_matches"
    )  # fmt: skip
    assert (replay_check["code"], replay_check["seq"]) == ("replays", final["version"])
    resigned = Duel.start(client)
    resigned.play(RandomBot(2), 5)
    client.post(
        f"/api/matches/{resigned.match_id}/resign", headers=bearer(resigned.tokens["nixon"])
    )
    assert verdict(client, resigned.match_id)["ok"] is True
    aborted = Duel.start(client)
    client.post(f"/api/admin/matches/{aborted.match_id}/abort", headers=ADMIN)
    checked = verdict(client, aborted.match_id)
    assert checked["ok"] and checked["checks"]["replay"]["seq"] == 0


def test_the_check_fails_for_a_tampered_seed(client: TestClient) -> None:
    duel, _ = finished(client, seed=31)
    seed = admin_detail(client, duel.match_id)["seed"]
    tamper(client, sa.update(Match).where(Match.id == duel.match_id).values(seed=seed ^ 1))
    checked = verdict(client, duel.match_id)
    assert checked["ok"] is False
    assert checked["fairness"]["seed"] == seed_hex(seed ^ 1)
    check = checked["checks"]["commitment"]
    assert (check["ok"], check["code"]) == (False, "commitment_differs")


@pytest.mark.parametrize("how", ["edited", "removed", "outcome"])
def test_the_check_fails_for_a_tampered_action_list(client: TestClient, how: str) -> None:
    duel, final = finished(client, seed=41)
    actions = admin_detail(client, duel.match_id)["actions"]
    at = MatchAction.match_id == duel.match_id
    if how == "edited":  # a card that was never in anyone's hand
        edited = {**actions[2]["action"], "card": "N99"}
        tamper(client, sa.update(MatchAction).where(at, MatchAction.seq == 3).values(action=edited))
    elif how == "removed":
        tamper(client, sa.delete(MatchAction).where(at, MatchAction.seq == 3))
    else:  # the stored result says the other seat won
        loser = next(r for r in ("editor", "nixon") if r != final["winner"])
        tamper(client, sa.update(Match).where(Match.id == duel.match_id).values(winner=loser))
    checked = verdict(client, duel.match_id)
    assert checked["ok"] is False and checked["checks"]["commitment"]["ok"] is True
    replay = checked["checks"]["replay"]
    expected = {
        "edited": ("illegal_action", 3),
        "removed": ("actions_missing", 3),
        "outcome": ("outcome_differs", final["version"]),
    }
    assert (replay["ok"], replay["code"], replay.get("seq")) == (False, *expected[how])


def test_each_check_on_its_own(sqlite_url: str, make_client: MakeClient) -> None:
    """The checks as functions over a stored match: each tampering is caught by its own check."""
    client = make_client(sqlite_url)
    duel, _ = finished(client, seed=51)
    match = exports.stored(client.app.state.ctx.db, duel.match_id)  # type: ignore[attr-defined]
    assert fairness.check_commitment(match).ok and fairness.check_replay(match).ok
    other_seed = dataclasses.replace(match, seed=match.seed + 1)
    assert not fairness.check_commitment(other_seed).ok
    moved = dataclasses.replace(match, match_id="another")
    assert not fairness.check_commitment(moved).ok, "a seed moved to another match"
    swapped = list(match.actions)
    swapped[0], swapped[1] = swapped[1], swapped[0]
    assert not fairness.check_replay(dataclasses.replace(match, actions=tuple(swapped))).ok
    short = dataclasses.replace(match, actions=match.actions[:-1])
    assert fairness.check_replay(short).code in ("length_differs", "outcome_differs")


def test_an_ended_matchs_export_is_built_once_however_many_ask_at_once(
    sqlite_url: str, make_client: MakeClient
) -> None:
    """Exports were rebuilt for every caller, and 24 at once slowed every player (issue 40,
    finding 4): one caller builds, the others wait for it or take what it kept."""
    client = make_client(sqlite_url)
    duel = Duel.start(client)
    resign = client.post(
        f"/api/matches/{duel.match_id}/resign", headers=bearer(duel.tokens["nixon"])
    )
    assert resign.status_code == 200
    replays = client.app.state.ctx.replays  # type: ignore[attr-defined]
    stored = exports.stored(client.app.state.ctx.db, duel.match_id, ended=True)  # type: ignore[attr-defined]
    started, release, builds = threading.Event(), threading.Event(), []

    def slow_build() -> str:
        builds.append("first")
        started.set()
        release.wait(timeout=30)
        return "built once"

    def second_build() -> str:
        builds.append("second")
        return "built twice"

    first = threading.Thread(target=lambda: replays._keep("probe", stored, None, slow_build))
    first.start()
    assert started.wait(timeout=30)  # the first caller is building
    answers: list[str] = []
    second = threading.Thread(
        target=lambda: answers.append(replays._keep("probe", stored, None, second_build))
    )
    second.start()
    release.set()
    first.join(timeout=30)
    second.join(timeout=30)
    assert builds == ["first"] and answers == ["built once"]
    exported = client.get(f"/api/replays/{duel.match_id}/export").json()
    again = client.get(f"/api/replays/{duel.match_id}/export").json()
    assert exported == again and exported["match_id"] == duel.match_id
    assert [key[:2] for key in replays._kept.order() if key[0] == "export"] == [
        ("export", duel.match_id)
    ]
