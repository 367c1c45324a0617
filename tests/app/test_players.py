"""Players (contract v1.1, "Players, lobby, ratings"; the first slice: identity and names):
creating an anonymous player, renaming it, its public profile, the name rule (every class of bad
name is `422 invalid_name` with its reason), X-Player-Token recording the player on the seat a
create or a claim takes (`401 unknown_player` for a token naming nobody, `409 own_invite` for the
creator's own link, `403 wrong_player` for a seat of another player), rematches keeping their
players, and a guest's calls exactly as in v1."""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text
from sqlalchemy.pool import NullPool

from app.persistence.db import driver_url

from .conftest import ADMIN_TOKEN
from .test_api import assert_error, bearer, invite_code

URL_SAFE_TOKEN = re.compile(r"^[A-Za-z0-9_-]{43,}$")
Player = dict[str, str]


def new_player(client: TestClient, name: str = "Ana") -> Player:
    response = client.post("/api/players", json={"name": name})
    assert response.status_code == 201, response.text
    made: Player = response.json()
    return made


def as_player(player: Player) -> dict[str, str]:
    return {"X-Player-Token": player["player_token"]}


def create(client: TestClient, player: Player | None, **body: str) -> dict[str, Any]:
    headers = as_player(player) if player else {}
    response = client.post("/api/matches", json={"role": "editor", **body}, headers=headers)
    assert response.status_code == 201, response.text
    made: dict[str, Any] = response.json()
    return made


def claim(client: TestClient, made: dict[str, Any], player: Player | None) -> Any:
    headers = as_player(player) if player else {}
    return client.post(f"/api/invites/{invite_code(made)}/claim", headers=headers)


def players_in_view(client: TestClient, match_id: str, token: str) -> dict[str, Any]:
    response = client.get(f"/api/matches/{match_id}", headers=bearer(token))
    assert response.status_code == 200, response.text
    found: dict[str, Any] = response.json()["players"]
    return found


# ---- creating, renaming, reading a player ----------------------------------------------------


def test_a_new_player_gets_an_id_its_name_and_a_secret_token(client: TestClient) -> None:
    made = new_player(client, "  Ana Lúcia  ")
    assert set(made) == {"player_id", "name", "player_token"}
    assert made["name"] == "Ana Lúcia", "trimmed"
    assert URL_SAFE_TOKEN.match(made["player_token"])
    assert made["player_token"] != new_player(client, "Ana Lúcia")["player_token"]


def test_only_the_hash_of_a_player_token_is_stored(sqlite_url: str, make_client: Any) -> None:
    client = make_client(sqlite_url)
    made = new_player(client)
    engine = create_engine(driver_url(sqlite_url), poolclass=NullPool)
    with engine.connect() as conn:
        stored = conn.execute(text("select * from players")).mappings().one()
        session = conn.execute(text("select * from player_sessions")).mappings().one()
    engine.dispose()
    for row in (stored, session):
        assert made["player_token"] not in json.dumps({k: str(v) for k, v in row.items()})
    # the token is kept as its device's session (revocable on its own), by its hash only
    assert session["token_hash"] == hashlib.sha256(made["player_token"].encode()).hexdigest()
    assert session["player_id"] == made["player_id"]


@pytest.mark.parametrize(
    ("given", "kept"),
    [
        ("Jose\u0301", "José"),  # NFC: one code point for é
        ("Ana   Maria", "Ana Maria"),
        ("x" * 24, "x" * 24),
        ("🦊 Raposa", "🦊 Raposa"),
        ("山田 花子", "山田 花子"),
        ("Tom & Jerry's", "Tom & Jerry's"),
        ("Computer Bob", "Computer Bob"),  # only the reserved words themselves are refused
        ("Gäst", "Gäst"),  # an accent is not a look-alike: a name of its own
        ("Olga", "Olga"),
        ("Nguyễn Văn A", "Nguyễn Văn A"),
    ],
)
def test_good_names_are_kept_normalised(client: TestClient, given: str, kept: str) -> None:
    assert new_player(client, given)["name"] == kept


BAD_NAMES = [
    ("", "empty"),
    ("   ", "empty"),
    ("\u0301\u0301", "empty"),  # marks alone draw nothing
    ("\u3164", "empty"),  # a Hangul filler: a letter that renders blank
    ("x" * 25, "too_long"),
    ("  " + "y" * 25 + "  ", "too_long"),
    ("Ana\x00", "control"),
    ("Ana\nBob", "control"),
    ("\x1b[31mAna", "control"),
    ("Ana\u200b", "control"),  # zero-width space (format)
    ("\u202eanA", "control"),  # right-to-left override
    ("Ana\u2028Bob", "control"),  # line separator
    ("x\u0301\u0302\u0303\u0304", "control"),  # a stack of accents
    ("<b>Ana</b>", "markup"),
    ("<script>", "markup"),
    ("Ana>", "markup"),
    ("Computer", "reserved"),
    ("computer", "reserved"),
    ("COMPUTADOR", "reserved"),
    (" guest ", "reserved"),
    ("Convidado", "reserved"),
    ("GAST", "reserved"),
    ("Deleted  player", "reserved"),
    ("Jogador excluído", "reserved"),
    ("Gelöschter Spieler", "reserved"),
    ("ｃｏｍｐｕｔｅｒ", "reserved"),  # full-width letters read the same
    # look-alikes from other scripts read the same too (UTS 39 skeletons; issue 40, finding 18)
    ("C\u043emputer", "reserved"),  # a Cyrillic о
    ("Com\u0440uter", "reserved"),  # a Cyrillic р
    ("\u0421\u03bfmputer", "reserved"),  # a Cyrillic С and a Greek ο
    ("G\u057dest", "reserved"),  # an Armenian ս
    ("C0MPUTER", "reserved"),  # a zero for the O
    ("Dе1eted player", "reserved"),  # a Cyrillic е and a one for the l
    ("Jogador exclu\u0131\u0301do", "reserved"),  # a dotless ı under the accent
]


@pytest.mark.parametrize(("name", "reason"), BAD_NAMES)
def test_bad_names_are_refused_with_their_reason(
    client: TestClient, name: str, reason: str
) -> None:
    body = assert_error(client.post("/api/players", json={"name": name}), 422, "invalid_name")
    assert body["reason"] == reason


def test_a_lone_surrogate_is_a_bad_name_not_a_crash(client: TestClient) -> None:
    raw = b'{"name": "Ana\\ud800"}'
    response = client.post(
        "/api/players", content=raw, headers={"content-type": "application/json"}
    )
    assert assert_error(response, 422, "invalid_name")["reason"] == "control"


@pytest.mark.parametrize("body", [{}, {"name": 7}, {"name": None}, {"name": "A", "admin": True}])
def test_a_body_without_a_name_string_is_an_invalid_request(
    client: TestClient, body: dict[str, Any]
) -> None:
    assert_error(client.post("/api/players", json=body), 422, "invalid_request")


def test_a_player_renames_itself_with_its_token(client: TestClient) -> None:
    ana = new_player(client)
    renamed = client.patch("/api/players/me", json={"name": " Ana B. "}, headers=as_player(ana))
    assert renamed.status_code == 200, renamed.text
    assert renamed.json() == {"player_id": ana["player_id"], "name": "Ana B."}
    assert client.get(f"/api/players/{ana['player_id']}").json()["name"] == "Ana B."
    bad = client.patch("/api/players/me", json={"name": "<i>"}, headers=as_player(ana))
    assert assert_error(bad, 422, "invalid_name")["reason"] == "markup"
    assert client.get(f"/api/players/{ana['player_id']}").json()["name"] == "Ana B."


@pytest.mark.parametrize("token", [None, "", "x" * 43, "short", "a" * 5000, "bad token!" * 5])
def test_renaming_needs_a_known_player_token(client: TestClient, token: str | None) -> None:
    headers = {} if token is None else {"X-Player-Token": token}
    response = client.patch("/api/players/me", json={"name": "Eve"}, headers=headers)
    assert_error(response, 401, "unknown_player")


def test_a_profile_shows_only_public_facts(client: TestClient) -> None:
    ana = new_player(client)
    profile = client.get(f"/api/players/{ana['player_id']}")
    assert profile.status_code == 200
    assert profile.json() == {
        "player_id": ana["player_id"],
        "name": "Ana",
        "games": 0,
        "wins": 0,
        "recent": [],
        "roles": {},  # the record per role; no "rating": an anonymous player has none
    }
    assert ana["player_token"] not in profile.text


@pytest.mark.parametrize("player_id", ["0" * 24, "no-such-player", "x" * 65, "%00"])
def test_an_unknown_profile_is_not_found(client: TestClient, player_id: str) -> None:
    assert_error(client.get(f"/api/players/{player_id}"), 404, "not_found")


# ---- players on seats ------------------------------------------------------------------------


def test_create_and_claim_record_the_players_every_view_names(client: TestClient) -> None:
    ana, bob = new_player(client, "Ana"), new_player(client, "Bob")
    made = create(client, ana)
    assert set(made) == {"match_id", "role", "seat_token", "invite_url", "invites"}, "v1 + v1.2"
    assert made["invites"] == {"nixon": made["invite_url"]}
    waiting = players_in_view(client, made["match_id"], made["seat_token"])
    assert waiting == {
        "editor": {"kind": "human", "name": "Ana", "player_id": ana["player_id"]},
        "nixon": {"kind": "human", "name": None},  # nobody has taken the seat yet
    }
    claimed = claim(client, made, bob)
    assert claimed.status_code == 200, claimed.text
    both = {
        "editor": {"kind": "human", "name": "Ana", "player_id": ana["player_id"]},
        "nixon": {"kind": "human", "name": "Bob", "player_id": bob["player_id"]},
    }
    assert players_in_view(client, made["match_id"], made["seat_token"]) == both
    assert players_in_view(client, made["match_id"], claimed.json()["seat_token"]) == both


def test_without_a_player_token_a_seat_is_a_guest_as_in_v1(client: TestClient) -> None:
    made = create(client, None)
    claimed = claim(client, made, None)
    assert claimed.status_code == 200 and set(claimed.json()) == {"match_id", "role", "seat_token"}
    guests = {"kind": "human", "name": "Guest"}
    assert players_in_view(client, made["match_id"], made["seat_token"]) == {
        "editor": guests,
        "nixon": guests,
    }
    ana = new_player(client)
    mixed = create(client, ana, role="nixon")
    claim(client, mixed, None)
    seen = players_in_view(client, mixed["match_id"], mixed["seat_token"])
    assert seen["editor"] == guests and seen["nixon"]["name"] == "Ana"


def test_the_computer_is_named_by_its_kind(client: TestClient) -> None:
    ana = new_player(client)
    made = create(client, ana, opponent="bot")
    assert players_in_view(client, made["match_id"], made["seat_token"]) == {
        "editor": {"kind": "human", "name": "Ana", "player_id": ana["player_id"]},
        "nixon": {"kind": "bot", "name": "Computer", "level": "normal", "rating": 1400},
    }


@pytest.mark.parametrize("token", ["x" * 43, "not-a-token", "a" * 5000, " "])
def test_a_player_token_naming_nobody_is_refused_on_create_and_claim(
    client: TestClient, token: str
) -> None:
    headers = {"X-Player-Token": token}
    if token.strip():
        create_response = client.post("/api/matches", json={}, headers=headers)
        assert_error(create_response, 401, "unknown_player")
    made = create(client, None)
    response = client.post(f"/api/invites/{invite_code(made)}/claim", headers=headers)
    if token.strip():
        assert_error(response, 401, "unknown_player")
        assert claim(client, made, None).status_code == 200, "the refused claim used nothing up"
    else:  # an empty header is no player: a guest
        assert response.status_code == 200


def test_the_creator_cannot_claim_their_own_invite(client: TestClient) -> None:
    ana = new_player(client)
    made = create(client, ana)
    assert_error(claim(client, made, ana), 409, "own_invite")
    assert claim(client, made, new_player(client, "Bob")).status_code == 200


def test_a_player_token_on_another_players_seat_is_forbidden(client: TestClient) -> None:
    ana, bob, eve = (new_player(client, n) for n in ("Ana", "Bob", "Eve"))
    made = create(client, ana)
    bobs_seat = claim(client, made, bob).json()["seat_token"]
    match_id = made["match_id"]
    seat_calls = [
        ("GET", f"/api/matches/{match_id}"),
        ("POST", f"/api/matches/{match_id}/actions"),
        ("POST", f"/api/matches/{match_id}/resign"),
    ]
    for method, path in seat_calls:
        headers = {**bearer(bobs_seat), **as_player(eve)}
        body = {"action": {"type": "pass"}} if path.endswith("actions") else None
        response = client.request(method, path, headers=headers, json=body)
        assert_error(response, 403, "wrong_player")
    own = client.get(f"/api/matches/{match_id}", headers={**bearer(bobs_seat), **as_player(bob)})
    assert own.status_code == 200
    unknown = {**bearer(bobs_seat), "X-Player-Token": "y" * 43}
    assert_error(client.get(f"/api/matches/{match_id}", headers=unknown), 401, "unknown_player")
    spectate = client.get(f"/api/matches/{match_id}", headers=bearer(bobs_seat)).json()
    key = spectate["spectate_path"].rsplit("key=", 1)[1]
    spectator = client.get(f"/api/matches/{match_id}/spectate?key={key}", headers=as_player(eve))
    assert spectator.status_code == 200, "a spectator's call names no seat: nothing to check"
    guest = create(client, None)  # a guest's seat belongs to no player
    headers = {**bearer(guest["seat_token"]), **as_player(eve)}
    assert client.get(f"/api/matches/{guest['match_id']}", headers=headers).status_code == 200


def test_a_rematch_keeps_its_players_with_the_roles_swapped(client: TestClient) -> None:
    ana, bob = new_player(client, "Ana"), new_player(client, "Bob")
    made = create(client, ana)
    bobs_seat = claim(client, made, bob).json()["seat_token"]
    old = made["match_id"]
    assert client.post(f"/api/matches/{old}/resign", headers=bearer(bobs_seat)).status_code == 200
    assert client.post(f"/api/matches/{old}/rematch", headers=bearer(bobs_seat)).status_code == 200
    new = client.post(f"/api/matches/{old}/rematch/accept", headers=bearer(made["seat_token"]))
    assert new.status_code == 200 and new.json()["role"] == "nixon"
    seen = players_in_view(client, new.json()["match_id"], new.json()["seat_token"])
    assert seen["nixon"]["player_id"] == ana["player_id"]
    assert seen["editor"] == {"kind": "human", "name": "Bob", "player_id": bob["player_id"]}


def test_the_profile_lists_decided_matches_with_their_opponent(client: TestClient) -> None:
    ana, bob = new_player(client, "Ana"), new_player(client, "Bob")
    first = create(client, ana)
    claim(client, first, bob)
    client.post(f"/api/matches/{first['match_id']}/resign", headers=bearer(first["seat_token"]))
    versus_bot = create(client, bob, opponent="bot", role="nixon")
    client.post(
        f"/api/matches/{versus_bot['match_id']}/resign", headers=bearer(versus_bot["seat_token"])
    )
    aborted = create(client, bob)  # aborted by the host: no winner, so no game
    admin = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
    abort = client.post(f"/api/admin/matches/{aborted['match_id']}/abort", headers=admin)
    assert abort.status_code == 200
    create(client, bob)  # still waiting: not history yet

    profile = client.get(f"/api/players/{bob['player_id']}").json()
    assert (profile["games"], profile["wins"]) == (2, 1)
    computer = {"kind": "bot", "name": "Computer", "level": "normal", "rating": 1400}
    person = {"kind": "human", "name": "Ana", "player_id": ana["player_id"]}
    for shown in profile["recent"]:  # issue 42: each says its game and when it ended
        assert shown.pop("game") == "watergate" and shown.pop("ended_at").startswith("20")
    assert profile["recent"] == [
        {
            "match_id": versus_bot["match_id"],
            "role": "nixon",
            "result": "loss",
            "opponent": computer,
            "opponents": [computer],  # v1.2: every other seat (one, in a duel)
        },
        {
            "match_id": first["match_id"],
            "role": "nixon",
            "result": "win",
            "opponent": person,
            "opponents": [person],
        },
    ]
    ana_profile = client.get(f"/api/players/{ana['player_id']}").json()
    assert (ana_profile["games"], ana_profile["wins"]) == (1, 0)
    for secret in (ana["player_token"], bob["player_token"], first["seat_token"]):
        assert secret not in json.dumps([profile, ana_profile])


def test_the_admin_list_and_replays_name_the_players(client: TestClient) -> None:
    ana, bob = new_player(client, "Ana"), new_player(client, "Bob")
    made = create(client, ana)
    claim(client, made, bob)
    client.post(f"/api/matches/{made['match_id']}/resign", headers=bearer(made["seat_token"]))
    admin = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
    row = client.get("/api/admin/matches", headers=admin).json()[0]
    assert row["players"]["editor"]["name"] == "Ana" and row["players"]["nixon"]["name"] == "Bob"
    detail = client.get(f"/api/admin/matches/{made['match_id']}", headers=admin).json()
    assert detail["match"]["players"] == row["players"]
    step = client.get(f"/api/admin/matches/{made['match_id']}/steps/0", headers=admin).json()
    replay = client.get(
        f"/api/matches/{made['match_id']}/replay/0", headers=bearer(made["seat_token"])
    ).json()
    assert step["players"] == replay["players"] == row["players"]
