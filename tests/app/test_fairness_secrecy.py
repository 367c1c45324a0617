"""The seed of a live match never leaves the server; once the match has ended it is revealed and
checks out (contract v1.1, "Provably fair deals").

For each way a match can end (a win played out with random legal moves through the API, a
resignation, a clock running out on the app's injected clock, an admin abort, 30 days of
abandonment) one match is walked through every path a player or a spectator can reach while it
is live: both seats' and the spectator's HTTP views, every websocket push to the three of them,
the replay, verify and export endpoints, the pages, and the error answers of bad moves and bad
messages, over HTTP and on the sockets. None may hold the seed in decimal, hex (any case, padded
or not) or base64, and no log line may either. Then the match ends, and the seats' and the
spectator's views, their last pushes, the replay and the export carry the seed, and the server's
check of the deal passes."""

from __future__ import annotations

import base64
import json
import logging
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from engine.core.fairness import commitment, seed_bytes, seed_hex

from .conftest import ADMIN_TOKEN
from .test_clocks import FakeClock
from .test_lifecycle import bearer, claim, create, serve, sweep
from .test_wire_hidden_info import receive_text

ENDINGS = ("win", "resign", "timeout", "abort", "abandoned")
MOVES_BEFORE_ENDING = 7  # a few moves into the match before it is ended some other way
WALK_EVERY = 25  # moves between two walks of every path while a match is played out
MAX_MESSAGES = 40  # pushes read while waiting for one (a guard, never a way to wait)
MAX_MOVES = 2000
ADMIN = bearer(ADMIN_TOKEN)


@dataclass
class Secret:
    """The seed in every spelling it could leak in, and how many texts were searched for it."""

    seed: int
    searched: int = 0
    forms: tuple[str, ...] = field(init=False)
    cased: tuple[str, ...] = field(init=False)  # base64 is case-sensitive

    def __post_init__(self) -> None:
        raw = seed_bytes(self.seed)
        self.forms = (str(self.seed), f"{self.seed:x}", seed_hex(self.seed))
        self.cased = (
            base64.b64encode(raw).decode().rstrip("="),
            base64.urlsafe_b64encode(raw).decode().rstrip("="),
        )

    def absent(self, text: str, where: str) -> None:
        low = text.lower()
        assert not [f for f in self.forms if f in low], f"the seed leaked in {where}"
        assert not [f for f in self.cased if f in text], f"the seed leaked (base64) in {where}"
        self.searched += 1


@dataclass
class Table:
    """One match being watched: its seats' tokens and every socket open on it."""

    client: TestClient
    match_id: str
    tokens: dict[str, str]
    key: str
    secret: Secret
    sockets: dict[str, WebSocketTestSession] = field(default_factory=dict)

    def get(self, path: str, where: str, headers: dict[str, str] | None = None) -> Any:
        response = self.client.get(path, headers=headers or {})
        self.secret.absent(response.text, where)
        return response

    def read(self, who: str, holds: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        """Read `who`'s socket up to the first message that `holds`, searching every message
        of the live match (the one that ends it may, and must, carry the seed)."""
        for _ in range(MAX_MESSAGES):
            text = receive_text(self.sockets[who])
            message: dict[str, Any] = json.loads(text)
            if message.get("status") != "finished":
                self.secret.absent(text, f"a message to {who}: {text[:80]}")
            if holds(message):
                return message
        pytest.fail(f"{who}'s socket never got the message awaited")

    def drain(self, holds: Callable[[dict[str, Any]], bool]) -> dict[str, dict[str, Any]]:
        """Every socket read up to its first message that `holds`."""
        return {who: self.read(who, holds) for who in self.sockets}

    def deciding(self) -> tuple[str, dict[str, Any]] | None:
        """(seat, its view) of whoever must decide, from both seats' views; None when nobody."""
        views = {
            r: self.get(f"/api/matches/{self.match_id}", f"{r}'s view", bearer(t)).json()
            for r, t in self.tokens.items()
        }
        for role, view in views.items():
            if view["legal_actions"]:
                return role, view
        return None


def walk(t: Table) -> None:
    """Every path a player or spectator can reach about the live match, and its errors."""
    m = t.match_id
    for role, token in t.tokens.items():
        seat = bearer(token)
        t.get(f"/api/matches/{m}", f"{role}'s view", seat)
        assert t.get(f"/api/matches/{m}/replay/0", f"{role}'s replay", seat).status_code == 409
        assert t.client.post(f"/api/matches/{m}/rematch", headers=seat).status_code == 409
        assert t.get(f"/api/replays/{m}", f"{role}'s public replay", seat).status_code == 404
    assert t.get(f"/api/matches/{m}/spectate?key={t.key}", "the spectator view").status_code == 200
    assert t.get(f"/api/matches/{m}/spectate?key=nope", "a wrong key").status_code == 403
    # a live match is told apart from no match at all by nothing
    missing = t.client.get("/api/replays/000000000000000000000000")
    for tail in ("", "/verify", "/export"):
        answer = t.get(f"/api/replays/{m}{tail}", f"/api/replays/…{tail}")
        assert (answer.status_code, answer.json()) == (404, missing.json())
    for page in (f"/match/{m}", f"/watch/{m}?key={t.key}", f"/replay/{m}", f"/match/{m}/replay"):
        assert t.get(page, page).status_code == 200


def probe_errors(t: Table, role: str, view: dict[str, Any]) -> None:
    """Bad moves over HTTP and bad messages on the sockets: each answer is searched too."""
    m, token = t.match_id, t.tokens[role]
    other = next(r for r in t.tokens if r != role)
    url = f"/api/matches/{m}/actions"
    bodies = [
        (t.tokens[other], {"action": view["legal_actions"][0]}),  # not your decision
        (token, {"action": view["legal_actions"][0], "expected_version": view["version"] + 5}),
        (token, {"action": {"type": "play_action", "card": "N99"}}),
        (token, {"action": {"type": "no_such_action"}}),
    ]
    for who, body in bodies:
        answer = t.client.post(url, headers=bearer(who), json=body)
        assert answer.status_code in (409, 422), answer.text
        t.secret.absent(answer.text, f"the error {answer.json()['code']}")
    for who, text in (
        (role, json.dumps({"type": "action", "action": {"type": "no_such_action"}})),
        (role, "{not json"),
        ("spectator", json.dumps({"type": "action", "action": view["legal_actions"][0]})),
    ):
        t.sockets[who].send_text(text)
        t.read(who, lambda message: message.get("type") == "error")


def move(t: Table, rnd: random.Random) -> bool:
    """One random legal move by whoever decides; False once nobody does (the match is over)."""
    found = t.deciding()
    if found is None:
        return False
    role, view = found
    action = rnd.choice(view["legal_actions"])
    body = {"action": action, "expected_version": view["version"]}
    answer = t.client.post(
        f"/api/matches/{t.match_id}/actions", headers=bearer(t.tokens[role]), json=body
    )
    assert answer.status_code == 200, answer.text
    after = answer.json()
    if after["status"] != "finished":
        t.secret.absent(answer.text, f"{role}'s move to v{after['version']}")
        t.drain(lambda m, v=after["version"]: m.get("type") == "view" and m["version"] >= v)
    return after["status"] != "finished"


def end(t: Table, ending: str, fake: FakeClock, rnd: random.Random) -> None:
    c, m = t.client, t.match_id
    if ending == "win":
        for moves in range(MAX_MOVES):
            if not move(t, rnd):
                return
            if moves % WALK_EVERY == 0:
                walk(t)
        pytest.fail("the match never ended")
    elif ending == "resign":
        assert (
            c.post(f"/api/matches/{m}/resign", headers=bearer(t.tokens["nixon"])).status_code == 200
        )
    elif ending == "timeout":
        fake.advance(2 * 3600)  # far past the bank and every increment earned
        assert sweep(c) == [m]
    elif ending == "abort":
        assert c.post(f"/api/admin/matches/{m}/abort", headers=ADMIN).status_code == 200
    else:
        fake.advance(31 * 86400)
        assert sweep(c) == [m]


def revealed(t: Table, pushed: dict[str, dict[str, Any]]) -> None:
    """After the end: every view, the last push to each socket, the replay and the export carry
    the seed, it is the one committed to, and the server's check passes."""
    m, seed = t.match_id, t.secret.seed
    fair = {"commitment": commitment(m, seed), "algorithm": "sha256-ctr/v1", "seed": seed_hex(seed)}
    views = [t.client.get(f"/api/matches/{m}", headers=bearer(k)).json() for k in t.tokens.values()]
    views.append(t.client.get(f"/api/matches/{m}/spectate?key={t.key}").json())
    for view in [*views, *pushed.values()]:
        assert (view["status"], view["fairness"]) == ("finished", fair)
    replay = t.client.get(f"/api/replays/{m}").json()
    assert replay["fairness"] == fair and len(replay["steps"]) == views[0]["version"] + 1
    exported = t.client.get(f"/api/replays/{m}/export").json()
    assert (exported["seed"], exported["seed_text"], exported["fairness"]) == (
        seed,
        str(seed),
        fair,
    )
    verdict = t.client.get(f"/api/replays/{m}/verify").json()
    assert (
        verdict["ok"]
        and verdict["checks"]["commitment"]["ok"]
        and verdict["checks"]["replay"]["ok"]
    )


@pytest.mark.parametrize("ending", ENDINGS)
def test_the_seed_is_secret_while_the_match_lives_and_revealed_when_it_ends(
    sqlite_url: str, ending: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    fake, rnd = FakeClock(), random.Random(f"fair-{ending}")
    with serve(sqlite_url, fake) as c:
        made = create(c, "editor", clock="realtime-15" if ending == "timeout" else "none")
        m = made["match_id"]
        seed = c.get(f"/api/admin/matches/{m}", headers=ADMIN).json()["seed"]
        secret = Secret(seed)
        secret.absent(json.dumps(made), "the creation answer")
        code = made["invite_url"].rsplit("/invite/", 1)[1]
        waiting = c.get(f"/api/matches/{m}", headers=bearer(made["seat_token"])).json()
        key = waiting["spectate_path"].rsplit("key=", 1)[1]
        t = Table(c, m, {"editor": made["seat_token"]}, key, secret)
        walk(t)  # waiting for the friend
        secret.absent(c.get(f"/invite/{code}").text, "the invite page")
        joined = claim(c, made)
        secret.absent(json.dumps(joined), "the claim answer")
        t.tokens["nixon"] = joined["seat_token"]
        with (
            c.websocket_connect(f"/ws/matches/{m}?token={t.tokens['editor']}") as ed,
            c.websocket_connect(f"/ws/matches/{m}?token={t.tokens['nixon']}") as nx,
            c.websocket_connect(f"/ws/watch/{m}?key={key}") as sp,
        ):
            t.sockets = {"editor": ed, "nixon": nx, "spectator": sp}
            t.drain(lambda message: message.get("type") == "view")
            walk(t)
            for _ in range(MOVES_BEFORE_ENDING):
                assert move(t, rnd)
            found = t.deciding()
            assert found is not None
            probe_errors(t, *found)
            walk(t)
            end(t, ending, fake, rnd)
            pushed = t.drain(lambda message: message.get("status") == "finished")
        revealed(t, pushed)
    lines = [record.getMessage() for record in caplog.records]
    for line in lines:
        secret.absent(line, "a log line")
    assert secret.searched > 50, secret.searched
