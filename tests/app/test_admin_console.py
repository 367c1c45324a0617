"""The admin console and players' replays (issue 6): sign-in with the admin token once (an
HttpOnly, SameSite=Strict, expiring cookie after that) and every admin endpoint and page refused
without it; step-through equal to a direct replay of every prefix; export → verify round trips and
tamper detection; players' replays of their finished matches. The match list, the statistics and
the audited actions (abort, delete) are in test_admin_stats.py.

Match seeds are fixed (app.services.matches.new_seed is replaced) and moves are chosen by seeded
RandomBots, so every run plays the same matches."""

from __future__ import annotations

import copy
import itertools
import json
import logging
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from http.cookies import SimpleCookie
from typing import Any, cast

import pytest
from fastapi.testclient import TestClient

import app.services.matches
import engine.watergate as engine
from app.__main__ import migrate
from app.auth import new_session_id, session_digest
from app.main import create_app
from app.persistence import sessions as session_store
from engine.watergate import Role
from engine.watergate.bots import RandomBot

from .conftest import ADMIN_TOKEN, make_settings

ROLES: tuple[Role, Role] = ("editor", "nixon")
ADMIN = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
PAGES = ("/admin", "/admin/stats", "/admin/matches/{id}")


@pytest.fixture(autouse=True)
def fixed_seeds(monkeypatch: pytest.MonkeyPatch) -> None:
    seeds = itertools.count(7001)
    monkeypatch.setattr(app.services.matches, "new_seed", lambda: next(seeds))


# ---- helpers ---------------------------------------------------------------------------------


def seat(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def cookie(value: str) -> dict[str, str]:
    return {"Cookie": f"wg_admin={value}"}


def create(client: TestClient, role: str = "editor", opponent: str = "human") -> dict[str, Any]:
    response = client.post("/api/matches", json={"role": role, "opponent": opponent})
    assert response.status_code == 201, response.text
    return dict(response.json())


def started(client: TestClient) -> tuple[str, dict[str, str]]:
    made = create(client)
    code = made["invite_url"].rsplit("/invite/", 1)[1]
    claimed = client.post(f"/api/invites/{code}/claim").json()
    return made["match_id"], {"editor": made["seat_token"], "nixon": claimed["seat_token"]}


def view(client: TestClient, match_id: str, token: str) -> dict[str, Any]:
    response = client.get(f"/api/matches/{match_id}", headers=seat(token))
    assert response.status_code == 200, response.text
    return dict(response.json())


def play(
    client: TestClient, match_id: str, tokens: dict[str, str], count: int | None, seed: int = 5
) -> list[tuple[str, dict[str, Any]]]:
    """Play `count` offered actions (None: to the end), chosen by a RandomBot for both seats."""
    bot, played = RandomBot(seed), list[tuple[str, dict[str, Any]]]()
    shown = view(client, match_id, tokens["editor"])
    while (count is None or len(played) < count) and shown["status"] == "active":
        role = shown["state"]["decision"]["role"]
        if shown["role"] != role:  # the other seat decides: ask for its view
            shown = view(client, match_id, tokens[role])
        action = bot.choose(shown["state"], shown["legal_actions"])
        path = f"/api/matches/{match_id}/actions"
        response = client.post(path, headers=seat(tokens[role]), json={"action": action})
        assert response.status_code == 200, response.text
        shown = response.json()
        played.append((role, action))
        played.extend(only_choices(client, match_id, len(played), shown["version"]))
    return played


def only_choices(
    client: TestClient, match_id: str, sent: int, version: int
) -> list[tuple[str, dict[str, Any]]]:
    """The actions the server took after the one sent as action `sent`, up to `version`: a
    seat's only choice when everyone could count it (issue 42), stored as that seat's action."""
    if version == sent:
        return []
    stored = client.get(f"/api/admin/matches/{match_id}", headers=ADMIN).json()["actions"]
    return [(a["role"], a["action"]) for a in stored[sent:version]]


def finished(client: TestClient, seed: int = 5) -> tuple[str, dict[str, str], list[Any], str]:
    """A match between two people played to its end; returns its id, tokens, moves and winner."""
    match_id, tokens = started(client)
    played = play(client, match_id, tokens, None, seed)
    shown = view(client, match_id, tokens["editor"])
    assert shown["status"] == "finished" and shown["winner"] in ROLES
    return match_id, tokens, played, shown["winner"]


def sign_in(client: TestClient) -> str:
    response = client.post("/admin/login", data={"token": ADMIN_TOKEN}, follow_redirects=False)
    assert response.status_code == 303, response.text
    return str(client.cookies["wg_admin"])


def normal(data: Any) -> Any:
    """What a value looks like after a JSON round trip (tuples become lists)."""
    return json.loads(json.dumps(data))


def requests(match_id: str, export: dict[str, Any]) -> list[tuple[str, str, Any]]:
    """Every admin endpoint; the ones that change data come last (abort, then delete)."""
    base = f"/api/admin/matches/{match_id}"
    return [
        ("GET", "/api/admin/matches", None),
        ("GET", "/api/admin/matches-page", None),
        ("GET", base, None),
        ("GET", f"{base}/steps/1", None),
        ("GET", f"{base}/export", None),
        ("POST", "/api/admin/verify", export),
        ("GET", "/api/admin/stats", None),
        ("GET", "/api/admin/health", None),
        ("GET", "/api/admin/audit", None),
        ("POST", f"{base}/abort", None),
        ("DELETE", base, None),
    ]


# ---- signing in --------------------------------------------------------------------------------


def stored_session(client: TestClient, secret: str, expires_in: timedelta) -> str:
    """A session row written straight into the app's store, as a sign-in under `secret` would;
    returns the cookie value that names it."""
    session_id, now = new_session_id(), datetime.now(UTC)
    with client.app.state.ctx.db.write() as db:  # type: ignore[attr-defined]
        session_store.add_session(db, session_digest(secret, session_id), now, now + expires_in)
    return session_id


def refused_cookies(client: TestClient) -> dict[str, str]:
    return {
        "expired": stored_session(client, ADMIN_TOKEN, timedelta(seconds=-60)),
        "never issued": new_session_id(),
        "other admin token": stored_session(client, "not-the-admin-token", timedelta(hours=1)),
        "old signed format": f"{2**40}.{'0' * 64}",
        "5,000 digits": "9" * 5000,
        "oversized": "a" * 65,
        "not url-safe": "!" * 43,
        "the token itself": ADMIN_TOKEN,
        "empty": "",
    }


REFUSED = ["no credentials", "wrong bearer", "seat token"]
COOKIES = [
    "expired",
    "never issued",
    "other admin token",
    "old signed format",
    "5,000 digits",
    "oversized",
    "not url-safe",
    "the token itself",
    "empty",
]


@pytest.mark.parametrize("kind", REFUSED + COOKIES)
def test_every_admin_endpoint_and_page_refuses_without_a_session(
    client: TestClient, kind: str
) -> None:
    match_id, tokens = started(client)
    play(client, match_id, tokens, 2)
    export = client.get(f"/api/admin/matches/{match_id}/export", headers=ADMIN).json()
    plain = {"no credentials": {}, "wrong bearer": seat("wrong-" + ADMIN_TOKEN)}
    plain["seat token"] = seat(tokens["editor"])
    headers = plain[kind] if kind in plain else cookie(refused_cookies(client)[kind])
    for method, path, body in requests(match_id, export):
        response = client.request(method, path, headers=headers, json=body)
        assert response.status_code == 401, (method, path, response.text)
        assert response.json()["code"] == "unauthorized" and response.json()["message"]
    for page in PAGES:
        response = client.get(page.format(id=match_id), headers=headers, follow_redirects=False)
        assert (response.status_code, response.headers["location"]) == (303, "/admin/login")
    detail = client.get(f"/api/admin/matches/{match_id}", headers=ADMIN).json()
    assert (detail["match"]["status"], detail["ended_by"]) == ("active", None), "nothing changed"
    assert client.get("/api/admin/audit", headers=ADMIN).json() == []


@pytest.mark.parametrize("how", ["bearer", "cookie"])
def test_every_admin_endpoint_and_page_answers_an_admin(client: TestClient, how: str) -> None:
    match_id, tokens = started(client)
    play(client, match_id, tokens, 2)
    headers = ADMIN if how == "bearer" else {}
    if how == "cookie":
        sign_in(client)
    export = client.get(f"/api/admin/matches/{match_id}/export", headers=headers).json()
    for method, path, body in requests(match_id, export):
        response = client.request(method, path, headers=headers, json=body)
        assert response.status_code == 200, (method, path, response.text)
    other_id, _ = started(client)
    for page in PAGES:
        response = client.get(page.format(id=other_id), headers=headers, follow_redirects=False)
        assert response.status_code == 200, page
        assert response.headers["content-type"].startswith("text/html")
        assert ADMIN_TOKEN not in response.text


def test_sign_in_sets_a_strict_http_only_expiring_cookie_and_logout_clears_it(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    form = client.get("/admin/login")
    assert form.status_code == 200
    assert 'method="post"' in form.text and 'action="/admin/login"' in form.text
    assert 'name="token"' in form.text and 'type="password"' in form.text
    response = client.post("/admin/login", data={"token": ADMIN_TOKEN}, follow_redirects=False)
    assert (response.status_code, response.headers["location"]) == (303, "/admin")
    [header] = response.headers.get_list("set-cookie")
    morsel = SimpleCookie(header)["wg_admin"]
    assert morsel["httponly"] is True
    assert morsel["samesite"].lower() == "strict"
    assert morsel["path"] == "/"
    assert 0 < int(morsel["max-age"]) <= 24 * 3600, "the session expires within a day"
    assert ADMIN_TOKEN not in header, "the cookie is not the token"
    assert 32 <= len(morsel.value) <= 64, "a session id, nothing readable"
    assert client.get("/admin", follow_redirects=False).status_code == 200
    assert client.get("/api/admin/matches").status_code == 200

    out = client.post("/admin/logout", follow_redirects=False)
    assert (out.status_code, out.headers["location"]) == (303, "/admin/login")
    gone = SimpleCookie(out.headers["set-cookie"])["wg_admin"]
    assert gone.value in ("", '""') and gone["max-age"] in ("0", 0)
    assert "wg_admin" not in client.cookies
    assert client.get("/admin", follow_redirects=False).headers["location"] == "/admin/login"
    assert client.get("/api/admin/matches").status_code == 401
    for location in (response.headers["location"], out.headers["location"]):
        assert ADMIN_TOKEN not in location
    assert ADMIN_TOKEN not in caplog.text, "the token never appears in a log line"


@pytest.mark.parametrize(
    "form",
    [
        {"token": "wrong"},
        {"token": ADMIN_TOKEN + "x"},
        {"token": ADMIN_TOKEN[:-1]},
        {"token": ""},
        {},
    ],
    ids=["wrong", "longer", "shorter", "empty", "missing"],
)
def test_a_wrong_token_signs_nobody_in(client: TestClient, form: dict[str, str]) -> None:
    response = client.post("/admin/login", data=form, follow_redirects=False)
    assert response.status_code == 401
    assert "set-cookie" not in response.headers and "wg_admin" not in client.cookies
    assert "location" not in response.headers
    assert 'role="alert"' in response.text
    assert client.get("/admin", follow_redirects=False).status_code == 303


def test_the_token_in_a_url_opens_nothing(client: TestClient) -> None:
    """The form posts; a token in a query string neither signs in nor opens a page or endpoint."""
    for path in ("/admin/login", "/admin", "/admin/stats"):
        response = client.get(f"{path}?token={ADMIN_TOKEN}", follow_redirects=False)
        assert "set-cookie" not in response.headers, path
        assert response.status_code in (200, 303) and "wg_admin" not in client.cookies
        assert ADMIN_TOKEN not in response.headers.get("location", "") + response.text
    assert client.get(f"/api/admin/matches?token={ADMIN_TOKEN}").status_code == 401


@pytest.mark.parametrize("configured", [None, ""])
def test_without_a_configured_token_nobody_signs_in(
    sqlite_url: str, make_client: Callable[..., TestClient], configured: str | None
) -> None:
    client = make_client(sqlite_url, admin_token=configured)
    for token in (ADMIN_TOKEN, "", "None"):
        response = client.post("/admin/login", data={"token": token}, follow_redirects=False)
        assert response.status_code == 401 and "set-cookie" not in response.headers
    assert client.get("/api/admin/stats", headers=cookie(new_session_id())).status_code == 401


# ---- step-through, export and verify -----------------------------------------------------------


@pytest.fixture(scope="module")
def played(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[TestClient, str, dict[str, str], dict[str, Any]]]:
    """A finished match between two people and its admin detail, shared by the tests that only
    read it (its own app and database, made like conftest's)."""
    url = f"sqlite:///{tmp_path_factory.mktemp('admin-console')}/test.db"
    migrate(url)
    with (
        pytest.MonkeyPatch.context() as patch,
        TestClient(create_app(make_settings(url))) as client,
    ):
        patch.setattr(app.services.matches, "new_seed", lambda: 6001)
        match_id, tokens, _, _ = finished(client, seed=3)
        detail = client.get(f"/api/admin/matches/{match_id}", headers=ADMIN).json()
        yield client, match_id, tokens, detail


def commands(detail: dict[str, Any]) -> list[tuple[Role, Any]]:
    return [(cast(Role, a["role"]), a["action"]) for a in detail["actions"]]


def test_every_step_equals_a_direct_replay_of_that_prefix(played: Any) -> None:
    client, match_id, _, detail = played
    moves, seed, rv = commands(detail), detail["seed"], detail["rules_version"]
    n = len(moves)
    assert n > 20 and [a["seq"] for a in detail["actions"]] == list(range(1, n + 1))
    state = engine.start(seed, rv)
    for k in range(n + 1):
        if k:
            state = engine.apply(state.state, *moves[k - 1])
        response = client.get(f"/api/admin/matches/{match_id}/steps/{k}", headers=ADMIN)
        assert response.status_code == 200, response.text
        step = response.json()
        expected = engine.open_view(engine.replay(seed, moves[:k], rv))
        assert step["view"] == normal(expected), f"step {k}"
        assert step["view"] == normal(engine.open_view(state.state))
        full = engine.GAME.events_to_json(state.events)
        assert step["events"] == normal(full), f"the events of step {k}"
        assert (step["step"], step["steps"]) == (k, n)
        assert step["action"] == (
            None if k == 0 else {"seq": k, "role": moves[k - 1][0], "action": moves[k - 1][1]}
        )
    assert step["winner"] == detail["match"]["winner"] and step["view"] == detail["view"]
    for beyond, clamped in ((n + 1, n), (n + 1000, n), (-1, 0)):
        step = client.get(f"/api/admin/matches/{match_id}/steps/{beyond}", headers=ADMIN).json()
        assert step["step"] == clamped
        assert step["view"] == normal(engine.open_view(engine.replay(seed, moves[:clamped], rv)))
    unknown = client.get("/api/admin/matches/nosuchmatch/steps/0", headers=ADMIN)
    assert unknown.status_code == 404


def test_export_then_verify_replays_identically(played: Any) -> None:
    client, match_id, _, detail = played
    export = client.get(f"/api/admin/matches/{match_id}/export", headers=ADMIN).json()
    assert (export["match_id"], export["seed"]) == (match_id, detail["seed"])
    assert export["rules_version"] == engine.RULES_VERSION == detail["rules_version"]
    assert export["options"] == detail["options"]
    assert [(a["role"], a["action"]) for a in export["actions"]] == commands(detail)
    assert [a["seq"] for a in export["actions"]] == list(range(1, len(detail["actions"]) + 1))
    outcome = client.post("/api/admin/verify", headers=ADMIN, json=export).json()
    assert outcome["ok"] is True and outcome["reason"] == "replays identically"
    assert outcome["seq"] == len(detail["actions"])
    assert outcome["winner"] == detail["match"]["winner"]
    bare = copy.deepcopy(export)
    for step in bare["actions"]:
        del step["digest"]
    assert client.post("/api/admin/verify", headers=ADMIN, json=bare).json()["ok"] is True
    assert client.get("/api/admin/matches/nosuchmatch/export", headers=ADMIN).status_code == 404


def tampered(export: dict[str, Any], how: str) -> tuple[dict[str, Any], int]:
    """A changed copy of the export and the first position (1-based) whose replay must differ."""
    data, moves = copy.deepcopy(export), export["actions"]
    middle = len(moves) // 2
    if how == "action":  # another action that was legal at that point
        for i in range(middle, len(moves)):
            state = engine.replay(
                data["seed"],
                [(m["role"], m["action"]) for m in moves[:i]],
                data["rules_version"],
            )
            others = [
                a for a in engine.legal_actions(state, moves[i]["role"]) if a != moves[i]["action"]
            ]
            if others:
                data["actions"][i]["action"] = others[0]
                return data, i + 1
        raise AssertionError("no decision with a choice in the second half")
    if how == "digest":
        data["actions"][middle]["digest"] = "0" * 16
    elif how == "removed":
        del data["actions"][middle]
    elif how == "role":
        data["actions"][middle]["role"] = "nixon" if moves[middle]["role"] == "editor" else "editor"
    elif how == "illegal":
        data["actions"][middle]["action"] = {"type": "play_action", "card": "no-such-card"}
    elif how == "seed":
        data["seed"] += 1
        return data, 1
    elif how == "rules_version":
        data["rules_version"] = engine.RULES_VERSION + "-old"
        return data, 0
    return data, middle + 1


@pytest.mark.parametrize(
    "how", ["action", "digest", "removed", "role", "illegal", "seed", "rules_version"]
)
def test_verify_finds_where_a_tampered_export_diverges(played: Any, how: str) -> None:
    client, match_id, _, _ = played
    export = client.get(f"/api/admin/matches/{match_id}/export", headers=ADMIN).json()
    data, where = tampered(export, how)
    response = client.post("/api/admin/verify", headers=ADMIN, json=data)
    assert response.status_code == 200, response.text
    outcome = response.json()
    assert (outcome["ok"], outcome["seq"]) == (False, where), outcome
    assert outcome["reason"] and outcome["reason"] != "replays identically"


MALFORMED: list[Any] = [
    {},
    {"format": "something else"},
    {"rules_version": engine.RULES_VERSION, "actions": []},
    {"rules_version": engine.RULES_VERSION, "seed": "7", "actions": []},
    {"rules_version": engine.RULES_VERSION, "seed": 7.5, "actions": []},
    {"rules_version": engine.RULES_VERSION, "seed": None, "actions": []},
    {"rules_version": engine.RULES_VERSION, "seed": True, "actions": []},
    {"rules_version": engine.RULES_VERSION, "seed": 7},
    {"rules_version": engine.RULES_VERSION, "seed": 7, "actions": "all of them"},
    {"rules_version": engine.RULES_VERSION, "seed": 7, "actions": {"1": {}}},
]


@pytest.mark.parametrize("body", MALFORMED, ids=range(len(MALFORMED)))
def test_a_malformed_export_is_invalid_export(client: TestClient, body: Any) -> None:
    response = client.post("/api/admin/verify", headers=ADMIN, json=body)
    assert response.status_code == 422, f"not refused as an export: {response.text}"
    assert response.json()["code"] == "invalid_export"


RECORDS: list[Any] = [5, "pass", None, [], {}, {"role": "mallory", "action": {"type": "pass"}},
    {"role": "editor"}, {"role": "editor", "action": 5}, {"role": "editor", "action": [1]},
    {"role": "editor", "action": {"type": "play_value", "card": {"x": [1]}}},
    {"role": "editor", "action": {"type": "pass"}, "digest": 5}]  # fmt: skip


@pytest.mark.parametrize("record", RECORDS, ids=range(len(RECORDS)))
def test_a_bad_action_record_is_reported_not_a_500(client: TestClient, record: Any) -> None:
    body = {"rules_version": engine.RULES_VERSION, "seed": 7, "actions": [record]}
    response = client.post("/api/admin/verify", headers=ADMIN, json=body)
    assert response.status_code == 200, response.text
    assert (response.json()["ok"], response.json()["seq"]) == (False, 1)


@pytest.mark.parametrize("body", [[], "export", 7, None], ids=["list", "string", "number", "null"])
def test_a_body_that_is_no_object_is_a_422_not_a_500(client: TestClient, body: Any) -> None:
    response = client.post("/api/admin/verify", headers=ADMIN, json=body)
    assert response.status_code == 422 and response.json()["code"] in (
        "invalid_export",
        "invalid_request",
    )
    broken = client.post(
        "/api/admin/verify", headers={**ADMIN, "Content-Type": "application/json"}, content=b"{nope"
    )
    assert broken.status_code in (400, 422) and broken.json()["code"] == "invalid_json"


# ---- players' replays --------------------------------------------------------------------------


def test_players_replay_their_finished_match_with_everything_shown(played: Any) -> None:
    client, match_id, tokens, detail = played
    moves, n = commands(detail), len(detail["actions"])
    for role in ROLES:
        for k in (0, n // 2, n):
            response = client.get(f"/api/matches/{match_id}/replay/{k}", headers=seat(tokens[role]))
            assert response.status_code == 200, response.text
            step = response.json()
            assert (step["step"], step["steps"]) == (k, n)
            truth = engine.replay(detail["seed"], moves[:k], detail["rules_version"])
            assert step["view"] == normal(engine.open_view(truth))
            for side in ROLES:  # both hands, card by card, and both deck orders
                assert [c["id"] for c in step["view"]["hands"][side]] == list(truth.hands[side])
                assert step["view"]["deck_cards"][side] == list(truth.decks[side])
        assert step["winner"] == detail["match"]["winner"]
    page = client.get(f"/match/{match_id}/replay", headers={"Accept-Language": "de"})
    assert page.status_code == 200 and 'data-mode="replay"' in page.text
    assert "Wiederholung" in page.text and "/api/admin" not in page.text


def test_a_replay_opens_only_for_that_match_s_seats_and_only_at_the_end(client: TestClient) -> None:
    match_id, tokens = started(client)
    play(client, match_id, tokens, 3)
    waiting = create(client, "nixon")
    for token, where in ((tokens["editor"], match_id), (tokens["nixon"], match_id)):
        response = client.get(f"/api/matches/{where}/replay/0", headers=seat(token))
        assert (response.status_code, response.json()["code"]) == (409, "match_not_finished")
    early = client.get(
        f"/api/matches/{waiting['match_id']}/replay/1", headers=seat(waiting["seat_token"])
    )
    assert (early.status_code, early.json()["code"]) == (409, "match_not_finished")
    done, done_tokens, _, _ = finished(client, seed=4)
    refused = {
        None: 401,
        "not-a-seat-token": 401,
        ADMIN_TOKEN: 401,
        tokens["editor"]: 403,
        waiting["seat_token"]: 403,
    }
    for token, status in refused.items():
        response = client.get(f"/api/matches/{done}/replay/0", headers=seat(token) if token else {})
        assert response.status_code == status, (token, response.text)
        assert "view" not in response.json()
    for token in done_tokens.values():
        assert client.get(f"/api/matches/{done}/replay/0", headers=seat(token)).status_code == 200


def first_edition_export(seed: int, n: int) -> dict[str, Any]:
    """An export as the first edition wrote it: rules version 1, dealt by SplitMix64."""
    game, bot = engine.GAME, RandomBot(seed)
    state, actions = game.start(seed, "1").state, []
    for _ in range(n):
        (who,) = game.to_move(state)
        action = bot.choose({}, game.legal_actions(state, who))
        actions.append({"role": who, "action": game.action_to_json(action)})
        state = game.apply(state, who, action).state
    return {"rules_version": "1", "seed": seed, "actions": actions}


def test_a_first_edition_export_replays_under_its_own_generator(client: TestClient) -> None:
    """A match stored before the secret generator keeps verifying; the same actions read as
    today's rules version are dealt differently and diverge."""
    export = first_edition_export(4242, 30)
    old = client.post("/api/admin/verify", headers=ADMIN, json=export).json()
    assert (old["ok"], old["seq"], old["version"]) == (True, 30, 30)
    as_new = client.post(
        "/api/admin/verify", headers=ADMIN, json={**export, "rules_version": "2"}
    ).json()
    assert as_new["ok"] is False and as_new["seq"] >= 1
