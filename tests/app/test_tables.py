"""Tables of N seats (contract v1.2): creating a Nations table of two to five with people (one
invite link a seat) and the computer, the lobby's open seats, views keyed by every seat, playing
a four-seat table to the end over HTTP and websockets, a leaver replaced by the computer, the
final ranking, and Watergate kept to two."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from tests.app.conftest import ADMIN_TOKEN
from tests.app.nations_play import act, bearer, view
from tests.app.test_players import as_player, new_player
from tests.app.test_ws import receive

View = dict[str, Any]
MAX_PUSHES = 400  # pushes read while the computer plays its turns, before giving up


def pick(offered: list[dict[str, Any]], rnd: random.Random) -> dict[str, Any]:
    """An offered action, passing half the time when passing is offered: these tests are about
    the table (seats, pushes, leavers, ranking), and a quick match tells as much of it."""
    passes = [a for a in offered if a["type"] == "pass"]
    return passes[0] if passes and rnd.random() < 0.5 else rnd.choice(offered)


def create(client: TestClient, headers: dict[str, str] | None = None, **body: Any) -> View:
    response = client.post("/api/matches", json={"game": "nations", **body}, headers=headers)
    assert response.status_code == 201, response.text
    made: View = response.json()
    return made


def claim_link(client: TestClient, url: str, headers: dict[str, str] | None = None) -> View:
    response = client.post(f"/api/invites/{url.rsplit('/invite/', 1)[1]}/claim", headers=headers)
    assert response.status_code == 200, response.text
    claimed: View = response.json()
    return claimed


def next_push(ws: WebSocketTestSession, after: int) -> View:
    """The first pushed view past version `after` (the computer's move, or anyone's)."""
    for _ in range(MAX_PUSHES):
        message = receive(ws)
        if message.get("type") == "view" and (
            message["version"] > after or message["status"] != "active"
        ):
            return message
    pytest.fail(f"no view past version {after} within {MAX_PUSHES} pushes")


def play_out(
    client: TestClient,
    match_id: str,
    tokens: dict[str, str],
    ws: WebSocketTestSession,
    seed: int,
    by_socket: str | None = None,
) -> View:
    """Play every person's seat with offered actions until the end; the computer's seats move
    by themselves (their moves arrive on `ws`). `by_socket`'s moves go over the socket."""
    rnd = random.Random(seed)
    seen = view(client, match_id, next(iter(tokens.values())))
    while seen["status"] == "active":
        decider = seen["state"]["decision"]["seat"]
        if decider not in tokens or seen["players"][decider]["kind"] == "bot":
            seen = next_push(ws, seen["version"])
            continue
        mine = view(client, match_id, tokens[decider])
        if mine["version"] != seen["version"]:
            seen = mine  # the computer moved meanwhile
            continue
        choice = pick(mine["legal_actions"], rnd)
        if decider == by_socket:
            ws.send_json({"type": "action", "action": choice, "expected_version": mine["version"]})
            seen = next_push(ws, mine["version"])
            continue
        response = act(client, match_id, tokens[decider], choice, mine["version"])
        assert response.status_code == 200, response.text
        seen = response.json()
    return view(client, match_id, next(iter(tokens.values())))


# ---- creating a table -----------------------------------------------------------------------


def test_a_table_of_four_has_an_invite_per_open_seat_and_starts_when_the_last_person_sits(
    client: TestClient,
) -> None:
    made = create(client, role="p1", players=4, seats={"p3": "bot"}, levels={"p3": "easy"})
    assert made["role"] == "p1"
    assert sorted(made["invites"]) == ["p2", "p4"]
    assert made["invite_url"] == made["invites"]["p2"]  # v1's field: the first open seat's
    first = view(client, made["match_id"], made["seat_token"])
    assert first["status"] == "waiting"
    assert sorted(first["players"]) == sorted(first["presence"]) == ["p1", "p2", "p3", "p4"]
    assert first["players"]["p3"] == {"kind": "bot", "name": "Computer", "level": "easy",
                                      "rating": 1000}  # fmt: skip
    assert len(first["state"]["nations"]) == 4  # the engine dealt a table of four

    claim_link(client, made["invites"]["p2"])
    assert view(client, made["match_id"], made["seat_token"])["status"] == "waiting"
    claim_link(client, made["invites"]["p4"])
    assert view(client, made["match_id"], made["seat_token"])["status"] == "active"
    again = client.post(f"/api/invites/{made['invites']['p4'].rsplit('/', 1)[1]}/claim")
    assert again.status_code == 409 and again.json()["code"] == "invite_claimed"


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"game": "watergate", "players": 3}, "invalid_players"),
        ({"game": "nations", "players": 6}, "invalid_players"),
        ({"game": "nations", "players": 1}, "invalid_players"),
        ({"game": "nations", "players": 3, "role": "p4"}, "invalid_role"),
        (
            {"game": "nations", "players": 3, "role": "p1", "seats": {"p4": "bot"}},
            "invalid_request",
        ),
        (
            {"game": "nations", "players": 3, "role": "p1", "seats": {"p1": "bot"}},
            "invalid_request",
        ),
        ({"game": "nations", "players": 3, "handicaps": {"p2": "god"}}, "invalid_request"),
        ({"game": "nations", "players": 2, "handicaps": {"p3": "king"}}, "invalid_request"),
        ({"game": "watergate", "handicaps": {"editor": "king"}}, "invalid_request"),
    ],
)
def test_a_table_that_cannot_be_set_is_refused_with_a_stable_code(
    client: TestClient, body: dict[str, Any], code: str
) -> None:
    response = client.post("/api/matches", json=body)
    assert response.status_code == 422, response.text
    assert response.json()["code"] == code


def test_nr6_each_seat_plays_at_the_difficulty_asked_for(client: TestClient) -> None:
    made = create(
        client, role="p1", players=3, opponent="bot", handicaps={"p1": "chieftain", "p3": "emperor"}
    )
    nations = view(client, made["match_id"], made["seat_token"])["state"]["nations"]
    levels = {seat: nation["level"] for seat, nation in nations.items()}
    assert levels == {"p1": "chieftain", "p2": "prince", "p3": "emperor"}


# ---- the lobby ----------------------------------------------------------------------------------


def test_a_table_in_the_lobby_lists_its_open_seats_and_leaves_it_when_full(
    client: TestClient,
) -> None:
    ana, bob, cy = (new_player(client, n) for n in ("Ana", "Bob", "Cy"))
    made = create(client, as_player(ana), role="p2", players=3, visibility="public")
    (listed,) = client.get("/api/lobby").json()["challenges"]
    assert (listed["players"], listed["open_seats"]) == (3, ["p1", "p3"])

    joined = client.post(
        f"/api/lobby/{made['match_id']}/join", json={"seat": "p3"}, headers=as_player(bob)
    )
    assert joined.status_code == 200 and joined.json()["role"] == "p3"
    (listed,) = client.get("/api/lobby").json()["challenges"]
    assert listed["open_seats"] == ["p1"]  # still listed, one seat left
    assert view(client, made["match_id"], made["seat_token"])["status"] == "waiting"

    taken = client.post(f"/api/lobby/{made['match_id']}/join", headers=as_player(cy))
    assert taken.status_code == 200 and taken.json()["role"] == "p1"
    assert client.get("/api/lobby").json()["challenges"] == []
    assert view(client, made["match_id"], made["seat_token"])["status"] == "active"


def test_quick_pairing_matches_the_table_size(client: TestClient) -> None:
    ana, bob, cy = (new_player(client, n) for n in ("Ana", "Bob", "Cy"))
    three = {"game": "nations", "players": 3}
    opened = client.post("/api/lobby/quick", json=three, headers=as_player(ana)).json()
    assert opened["created"] is True
    duel = client.post(
        "/api/lobby/quick", json={"game": "nations", "players": 2}, headers=as_player(bob)
    ).json()
    assert duel["created"] is True and duel["match_id"] != opened["match_id"]  # not a duel
    joined = client.post("/api/lobby/quick", json=three, headers=as_player(cy)).json()
    assert (joined["created"], joined["match_id"]) == (False, opened["match_id"])


# ---- playing a table ------------------------------------------------------------------------


def test_a_four_seat_table_is_played_to_the_end_with_two_links_a_computer_and_a_lobby_joiner(
    client: TestClient,
) -> None:
    ana, bob, dee = (new_player(client, n) for n in ("Ana", "Bob", "Dee"))
    made = create(
        client, as_player(ana), role="p1", players=4, seats={"p3": "bot"}, visibility="public"
    )
    match_id = made["match_id"]
    tokens = {"p1": made["seat_token"]}
    tokens["p2"] = claim_link(client, made["invites"]["p2"], as_player(bob))["seat_token"]
    joined = client.post(f"/api/lobby/{match_id}/join", headers=as_player(dee))
    assert joined.status_code == 200 and joined.json()["role"] == "p4"
    tokens["p4"] = joined.json()["seat_token"]

    with client.websocket_connect(f"/ws/matches/{match_id}?token={tokens['p4']}") as ws:
        final = play_out(client, match_id, tokens, ws, seed=4, by_socket="p4")

    assert final["status"] == "finished"
    outcome = final["outcome"]
    ranked = [seat for group in outcome["ranking"] for seat in group]
    assert sorted(ranked) == ["p1", "p2", "p3", "p4"]
    scores = outcome["scores"]
    assert [scores[s] for s in ranked] == sorted(scores.values(), reverse=True)
    assert outcome["winner"] == final["winner"] == ranked[0]
    names = {s: final["players"][s]["name"] for s in tokens}
    assert names == {"p1": "Ana", "p2": "Bob", "p4": "Dee"}


def test_every_seat_of_a_table_sees_the_same_state_and_none_sees_a_deck(
    client: TestClient,
) -> None:
    """NR1: only the decks are hidden, from everyone alike."""
    made = create(client, role="p1", players=3)
    tokens = {"p1": made["seat_token"]}
    for seat, url in made["invites"].items():
        tokens[seat] = claim_link(client, url)["seat_token"]
    views = {seat: view(client, made["match_id"], token) for seat, token in tokens.items()}
    spectator = client.get(
        f"/api/matches/{made['match_id']}/spectate?key="
        + views["p1"]["spectate_path"].rsplit("key=", 1)[1]
    ).json()
    states = [v["state"] for v in views.values()] + [spectator["state"]]
    assert [s.pop("viewer") for s in states] == ["p1", "p2", "p3", None]
    assert all(state == states[0] for state in states)
    assert all(v["log"] == views["p1"]["log"] for v in views.values())
    decks = states[0]["decks"]  # how many cards are left in each, never which or in what order
    assert all(type(left) is int for left in decks["progress"] + decks["events"])


def test_a_leaver_at_a_table_is_replaced_by_the_computer_and_ranks_last(
    client: TestClient,
) -> None:
    made = create(client, role="p1", players=3)
    match_id, tokens = made["match_id"], {"p1": made["seat_token"]}
    for seat, url in made["invites"].items():
        tokens[seat] = claim_link(client, url)["seat_token"]
    gone = client.post(f"/api/matches/{match_id}/resign", headers=bearer(tokens["p2"]))
    assert gone.status_code == 200, gone.text

    seen = view(client, match_id, tokens["p1"])
    assert seen["status"] == "active"  # the others play on
    assert seen["players"]["p2"]["kind"] == "bot" and seen["players"]["p2"]["replaced"] is True
    assert seen["players"]["p2"]["left"] == "resigned"
    assert {"type": "seat_replaced", "role": "p2", "reason": "resigned", "by": "bot"} in seen["log"]
    own = view(client, match_id, tokens["p2"])  # the leaver still watches, but plays no more
    assert own["legal_actions"] == []
    refused = client.post(f"/api/matches/{match_id}/resign", headers=bearer(tokens["p2"]))
    assert refused.status_code == 409 and refused.json()["code"] == "seat_left"

    people = {s: t for s, t in tokens.items() if s != "p2"}
    with client.websocket_connect(f"/ws/matches/{match_id}?token={tokens['p1']}") as ws:
        final = play_out(client, match_id, people, ws, seed=7)
    assert final["status"] == "finished"
    assert final["outcome"]["ranking"][-1] == ["p2"]
    assert final["winner"] != "p2"


def test_a_duel_still_ends_when_one_resigns(client: TestClient) -> None:
    made = create(client, role="p1", players=2)
    token = claim_link(client, made["invites"]["p2"])["seat_token"]
    client.post(f"/api/matches/{made['match_id']}/resign", headers=bearer(token))
    final = view(client, made["match_id"], made["seat_token"])
    assert (final["status"], final["winner"]) == ("finished", "p1")
    assert final["outcome"]["ranking"] == [["p1"], ["p2"]]


# ---- rematch of a table -------------------------------------------------------------------------


def end_now(client: TestClient, match_id: str) -> None:
    """The host ends the match (an admin abort): a rematch may then be offered."""
    ended = client.post(f"/api/admin/matches/{match_id}/abort", headers=bearer(ADMIN_TOKEN))
    assert ended.status_code == 200, ended.text


def test_a_tables_rematch_starts_when_every_person_accepts_with_the_same_seats(
    client: TestClient,
) -> None:
    made = create(client, role="p1", players=3, seats={"p3": "bot"})
    match_id, tokens = made["match_id"], {"p1": made["seat_token"]}
    tokens["p2"] = claim_link(client, made["invites"]["p2"])["seat_token"]
    end_now(client, match_id)  # (how it ended does not matter to a rematch)

    offered = client.post(f"/api/matches/{match_id}/rematch", headers=bearer(tokens["p1"]))
    assert offered.json() == {"status": "offered"}
    rematch = view(client, match_id, tokens["p2"])["rematch"]
    assert (rematch["accepted"], rematch["declined"], rematch["expired"]) == (["p1"], [], False)
    accepted = client.post(f"/api/matches/{match_id}/rematch/accept", headers=bearer(tokens["p2"]))
    assert accepted.status_code == 200, accepted.text
    new = accepted.json()
    assert (new["status"], new["role"]) == ("started", "p2")  # the same seat
    mine = client.post(f"/api/matches/{match_id}/rematch/claim", headers=bearer(tokens["p1"]))
    assert mine.json()["role"] == "p1" and mine.json()["match_id"] == new["match_id"]
    fresh = view(client, new["match_id"], mine.json()["seat_token"])
    assert fresh["status"] == "active"
    assert fresh["players"]["p3"]["kind"] == "bot" and len(fresh["state"]["nations"]) == 3


def test_a_declined_table_rematch_never_starts(client: TestClient) -> None:
    made = create(client, role="p1", players=3)
    match_id, tokens = made["match_id"], {"p1": made["seat_token"]}
    for seat, url in made["invites"].items():
        tokens[seat] = claim_link(client, url)["seat_token"]
    for seat in ("p2", "p3"):  # two leave: the computer plays their seats
        client.post(f"/api/matches/{match_id}/resign", headers=bearer(tokens[seat]))
    end_now(client, match_id)
    # the leavers' seats are the computer's now: p1 alone starts the rematch at once
    started = client.post(f"/api/matches/{match_id}/rematch", headers=bearer(tokens["p1"]))
    assert started.json()["status"] == "started"
    new_id = started.json()["match_id"]
    fresh = view(client, new_id, started.json()["seat_token"])
    assert [fresh["players"][s]["kind"] for s in ("p1", "p2", "p3")] == ["human", "bot", "bot"]
    assert "replaced" not in fresh["players"]["p2"]  # a plain computer seat in the new match

    other = create(client, role="p1", players=3)
    o_tokens = {"p1": other["seat_token"]}
    for seat, url in other["invites"].items():
        o_tokens[seat] = claim_link(client, url)["seat_token"]
    client.post(f"/api/matches/{other['match_id']}/resign", headers=bearer(o_tokens["p3"]))
    end_now(client, other["match_id"])
    client.post(f"/api/matches/{other['match_id']}/rematch", headers=bearer(o_tokens["p1"]))
    no = client.post(
        f"/api/matches/{other['match_id']}/rematch/decline", headers=bearer(o_tokens["p2"])
    )
    assert no.status_code == 204
    rematch = view(client, other["match_id"], o_tokens["p1"])["rematch"]
    assert (rematch["declined"], rematch["match_id"]) == (["p2"], None)
    late = client.post(
        f"/api/matches/{other['match_id']}/rematch/accept", headers=bearer(o_tokens["p2"])
    )
    assert late.status_code == 409 and late.json()["code"] == "rematch_declined"


# ---- rating a table -----------------------------------------------------------------------------


def test_a_rated_three_seat_table_moves_all_three_ratings_pairwise(client: TestClient) -> None:
    """docs/ratings.md: each player's period holds a game against every other player, won
    against those ranked below and lost against those above (Glicko-2, as Board Game Arena)."""
    from app.glicko2 import Game, Rating, updated
    from tests.app.accounts_helpers import as_player as account_headers
    from tests.app.accounts_helpers import sign_up

    accounts = {seat: sign_up(client, name) for seat, name in
                (("p1", "alma"), ("p2", "bento"), ("p3", "carla"))}  # fmt: skip
    made = create(client, account_headers(accounts["p1"]), role="p1", players=3, rated=True)
    tokens = {"p1": made["seat_token"]}
    for seat, url in made["invites"].items():
        tokens[seat] = claim_link(client, url, account_headers(accounts[seat]))["seat_token"]
    with_bot = {"game": "nations", "players": 3, "rated": True, "seats": {"p2": "bot"}}
    refused = client.post("/api/matches", json=with_bot, headers=account_headers(accounts["p1"]))
    assert refused.status_code == 422 and refused.json()["code"] == "rated_vs_computer"

    with client.websocket_connect(f"/ws/matches/{made['match_id']}?token={tokens['p1']}") as ws:
        final = play_out(client, made["match_id"], tokens, ws, seed=21)
    order = [group[0] for group in final["outcome"]["ranking"]]
    newcomer = Rating()
    for place, seat in enumerate(order):
        results = [Game(newcomer, 1.0 if place < i else 0.0) for i in range(3) if i != place]
        expected = updated(newcomer, results).rating
        shown = client.get(f"/api/players/{accounts[seat]['player_id']}").json()
        assert shown["rating"]["nations"]["rating"] == pytest.approx(expected), seat
        assert shown["rating"]["nations"]["games"] == 1
    first, _, last = (
        client.get(f"/api/players/{accounts[s]['player_id']}").json()["rating"]["nations"]["rating"]
        for s in order
    )
    assert first > 1500 > last


# ---- leaving by the clock and by absence --------------------------------------------------


def test_a_table_seat_out_of_time_goes_to_the_computer_and_its_late_move_is_refused(
    sqlite_url: str,
) -> None:
    from tests.app.test_clocks import START, FakeClock
    from tests.app.test_lifecycle import serve, sweep

    fake = FakeClock(START)
    with serve(sqlite_url, fake) as c:
        made = create(c, role="p1", players=3, clock="realtime-15")
        tokens = {"p1": made["seat_token"]}
        for seat, url in made["invites"].items():
            tokens[seat] = claim_link(c, url)["seat_token"]
        first = view(c, made["match_id"], tokens["p1"])
        late = first["state"]["decision"]["seat"]  # whoever decides first lets the clock run
        offered = view(c, made["match_id"], tokens[late])["legal_actions"][0]
        fake.advance(15 * 60 + 1)
        refused = act(c, made["match_id"], tokens[late], offered, first["version"])
        assert refused.status_code == 409 and refused.json()["code"] == "seat_left"
        seen = view(c, made["match_id"], tokens["p1" if late != "p1" else "p2"])
        assert seen["status"] == "active"
        assert (seen["players"][late]["replaced"], seen["players"][late]["left"]) == (
            True,
            "timeout",
        )
        assert sweep(c) == []  # the computer's seat never runs out of time


def test_a_table_idle_for_31_days_gives_the_idle_seat_to_the_computer_and_goes_on(
    sqlite_url: str,
) -> None:
    from tests.app.test_lifecycle import age, serve, sweep

    with serve(sqlite_url) as c:
        made = create(c, role="p1", players=3)
        tokens = {"p1": made["seat_token"]}
        for seat, url in made["invites"].items():
            tokens[seat] = claim_link(c, url)["seat_token"]
        idle = view(c, made["match_id"], tokens["p1"])["state"]["decision"]["seat"]
        age(c, made["match_id"], 31)
        assert sweep(c) == [made["match_id"]]
        seen = view(c, made["match_id"], tokens["p1"])
        assert seen["status"] == "active"
        assert seen["players"][idle]["left"] == "abandoned"
        assert {"type": "seat_replaced", "role": idle, "reason": "abandoned", "by": "bot"} in seen[
            "log"
        ]


def test_a_leavers_seat_is_refused_by_every_process_at_once(
    any_db_url: str, make_client: Callable[..., TestClient]
) -> None:
    """Two processes serve one table and nothing tells B that A replaced a leaver (no Redis
    here): B must still refuse the leaver at once, because the seats changed in the row B locks,
    not only in a message that may come late."""
    a, b = make_client(any_db_url), make_client(any_db_url)
    made = create(a, role="p1", players=3)
    match_id, tokens = made["match_id"], {"p1": made["seat_token"]}
    for seat, link in made["invites"].items():
        tokens[seat] = claim_link(a, link)["seat_token"]
    assert view(b, match_id, tokens["p2"])["players"]["p2"]["kind"] == "human"  # B knows the seats

    assert (
        a.post(f"/api/matches/{match_id}/resign", headers=bearer(tokens["p2"])).status_code == 200
    )
    again = b.post(f"/api/matches/{match_id}/resign", headers=bearer(tokens["p2"]))
    assert again.status_code == 409 and again.json()["code"] == "seat_left"
    assert view(b, match_id, tokens["p1"])["players"]["p2"]["kind"] == "bot"


def test_a_table_starts_when_its_last_seat_is_taken_whichever_process_took_the_others(
    any_db_url: str, make_client: Callable[..., TestClient]
) -> None:
    """A and B serve one table of three with no message between them: the seat taken through A
    is counted on the row, so B, taking the last one, starts the match."""
    a, b = make_client(any_db_url), make_client(any_db_url)
    made = create(a, role="p1", players=3)
    match_id, links = made["match_id"], made["invites"]
    assert view(b, match_id, made["seat_token"])["status"] == "waiting"  # B knows the seats
    claim_link(a, links["p2"])
    last = claim_link(b, links["p3"])["seat_token"]
    seen = view(b, match_id, last)
    assert seen["status"] == "active"
    assert all(p["name"] is not None for p in seen["players"].values())  # every seat taken
