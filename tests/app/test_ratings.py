"""Ratings (issue 12): Glicko-2 as the reference paper computes it; a rated match between two
accounts moves both ratings in its game, with a history row each, in the same transaction that
ends it (a failure after the end undoes the end too), whichever way it ends (resigned, won by a
move, out of time); nothing moves in an unrated match, an aborted one, or against the computer
(which cannot be rated and shows its level's fixed rating); a rated seat needs an account; the
leaderboard orders rated players by rating, a page at a time."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app import glicko2
from app.glicko2 import Game, Rating, updated
from app.persistence import ratings as rating_rows

from .accounts_helpers import (
    Account,
    as_player,
    profile,
    rated_match,
    resign,
    rows,
    sign_up,
)
from .test_api import assert_error, invite_code, play_to_the_end, view
from .test_clocks import FakeClock, fake
from .test_lifecycle import serve, sweep

__all__ = ["fake"]  # the fixture, used by name below


@pytest.fixture
def db_client(any_db_url: str, make_client: Callable[..., TestClient]) -> TestClient:
    return make_client(any_db_url)


# ---- Glicko-2 itself -----------------------------------------------------------------------------


def test_glickmans_worked_example() -> None:
    """Glickman, "Example of the Glicko-2 system" (2013), section 'Example calculation': a
    1500/200/0.06 player beats 1400/30, loses to 1550/100 and 1700/300 (tau 0.5). The paper
    prints 1464.06, 151.52 and 0.05999 (it rounds its intermediate steps)."""
    after = updated(
        Rating(1500, 200, 0.06),
        [Game(Rating(1400, 30), 1), Game(Rating(1550, 100), 0), Game(Rating(1700, 300), 0)],
        tau=0.5,
    )
    assert after.rating == pytest.approx(1464.06, abs=0.02)
    assert after.rd == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_a_period_without_games_only_widens_the_deviation() -> None:
    after = updated(Rating(1600, 100, 0.06), [])
    assert after.rating == 1600 and after.volatility == 0.06
    assert 100 < after.rd < 101  # sqrt(phi^2 + sigma^2) on the Glicko-2 scale
    assert updated(Rating(1600, 349.9, 0.06), []).rd == glicko2.MAX_RD


# ---- a rated match end to end ----------------------------------------------------------------


def two_accounts(client: TestClient) -> tuple[Account, Account]:
    return sign_up(client, "alice"), sign_up(client, "bruno")


def rating_of(client: TestClient, account: Account) -> dict[str, Any]:
    found: dict[str, Any] = profile(client, account["player_id"])["rating"]["watergate"]
    return found


def expected_after_one_game(won: bool) -> Rating:
    """A newcomer's rating after one game against another newcomer (Glicko-2 above)."""
    return updated(Rating(), [Game(Rating(), 1.0 if won else 0.0)])


def test_a_rated_resignation_moves_both_ratings_and_writes_history(
    any_db_url: str, db_client: TestClient
) -> None:
    alice, bruno = two_accounts(db_client)
    match_id, tokens = rated_match(db_client, alice, bruno)
    assert resign(db_client, match_id, tokens["nixon"]).status_code == 200  # Bruno gives up
    won, lost = rating_of(db_client, alice), rating_of(db_client, bruno)
    assert won["rating"] == pytest.approx(expected_after_one_game(True).rating)
    assert lost["rating"] == pytest.approx(expected_after_one_game(False).rating)
    assert won["rating"] > 1500 > lost["rating"]
    assert won["rating"] - 1500 == pytest.approx(1500 - lost["rating"])  # equals: symmetric
    assert won["games"] == lost["games"] == 1 and won["provisional"] and lost["provisional"]
    history = rows(
        any_db_url, "select player_id, match_id, rating from rating_history order by rating"
    )
    assert [(p, m) for p, m, _ in history] == [
        (bruno["player_id"], match_id),
        (alice["player_id"], match_id),
    ]
    seen = view(db_client, match_id, tokens["nixon"])["players"]
    assert (seen["editor"]["rating"], seen["nixon"]["rating"]) == (
        round(won["rating"]),
        round(lost["rating"]),
    ), "views show each account's rating in the match's game"
    chart = db_client.get(f"/api/players/{alice['player_id']}/ratings").json()
    assert [(p["match_id"], p["rating"]) for p in chart["points"]] == [(match_id, won["rating"])]


def test_a_failure_after_the_end_undoes_the_end_and_the_ratings(
    any_db_url: str, db_client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    alice, bruno = two_accounts(db_client)
    match_id, tokens = rated_match(db_client, alice, bruno)

    def broken(*args: object) -> None:
        raise RuntimeError("injected: the disk filled up after the ratings were written")

    monkeypatch.setattr(rating_rows, "add_history", broken)
    with pytest.raises(RuntimeError, match="injected"):
        resign(db_client, match_id, tokens["nixon"])
    assert rows(any_db_url, "select status from matches") == [("active",)]
    assert rows(any_db_url, "select count(*) from ratings") == [(0,)]
    assert rows(any_db_url, "select count(*) from rating_history") == [(0,)]
    monkeypatch.undo()
    assert resign(db_client, match_id, tokens["nixon"]).status_code == 200
    assert rows(any_db_url, "select count(*) from rating_history") == [(2,)]


def test_a_rated_match_won_by_a_move_rates_in_the_moves_transaction(
    any_db_url: str, db_client: TestClient
) -> None:
    client = db_client
    alice, bruno = two_accounts(client)
    match_id, tokens = rated_match(client, alice, bruno)
    play_to_the_end(client, match_id, tokens, seed=3)
    winner = view(client, match_id, tokens["editor"])["winner"]
    by_seat = {"editor": alice, "nixon": bruno}
    for seat, account in by_seat.items():
        expected = expected_after_one_game(won=seat == winner)
        assert rating_of(client, account)["rating"] == pytest.approx(expected.rating)
    ended = rows(any_db_url, "select m.updated_at, h.created_at from matches m, rating_history h")
    assert all(end == written for end, written in ended), "written with the end, at its instant"


@pytest.fixture
def timed(sqlite_url: str, fake: FakeClock) -> Iterator[TestClient]:
    with serve(sqlite_url, fake) as c:
        yield c


def test_a_rated_match_lost_on_time_rates_in_the_sweep(timed: TestClient, fake: FakeClock) -> None:
    alice, bruno = two_accounts(timed)
    match_id, _ = rated_match(timed, alice, bruno, clock="realtime-15")
    fake.advance(15 * 60)  # the Editor (Alice, to move first) runs out
    assert sweep(timed) == [match_id]
    assert rating_of(timed, alice)["rating"] < 1500 < rating_of(timed, bruno)["rating"]


# ---- what does not rate ---------------------------------------------------------------------


def test_an_unrated_match_between_accounts_changes_nothing(
    any_db_url: str, db_client: TestClient
) -> None:
    alice, bruno = two_accounts(db_client)
    match_id, tokens = rated_match(db_client, alice, bruno, rated=False)
    assert resign(db_client, match_id, tokens["nixon"]).status_code == 200
    assert rows(any_db_url, "select count(*) from ratings") == [(0,)]
    assert rating_of(db_client, alice) == {
        "rating": 1500.0,
        "rd": 350.0,
        "provisional": True,
        "games": 0,
    }
    assert profile(db_client, alice["player_id"])["wins"] == 1, "it still counts as a win"


def test_the_computer_cannot_be_rated_and_shows_its_levels_fixed_rating(
    any_db_url: str, db_client: TestClient
) -> None:
    alice = sign_up(db_client, "alice")
    body = {"role": "editor", "opponent": "bot", "rated": True}
    refused = db_client.post("/api/matches", json=body, headers=as_player(alice))
    assert_error(refused, 422, "rated_vs_computer")
    body["rated"] = False
    made = db_client.post("/api/matches", json=body, headers=as_player(alice)).json()
    seat = {"Authorization": f"Bearer {made['seat_token']}"}
    bot = db_client.get(f"/api/matches/{made['match_id']}", headers=seat).json()["players"]
    assert bot["nixon"] == {"kind": "bot", "name": "Computer", "level": "normal", "rating": 1400}
    assert resign(db_client, made["match_id"], made["seat_token"]).status_code == 200
    assert rows(any_db_url, "select count(*) from rating_history") == [(0,)]
    assert rating_of(db_client, alice)["games"] == 0


def test_a_rated_seat_needs_an_account(db_client: TestClient) -> None:
    anon = db_client.post("/api/players", json={"name": "Zé"}).json()
    body = {"role": "editor", "opponent": "human", "rated": True}
    for headers in ({}, as_player(anon)):
        refused = db_client.post("/api/matches", json=body, headers=headers)
        assert_error(refused, 403, "account_required")
    alice = sign_up(db_client, "alice")
    made = db_client.post("/api/matches", json=body, headers=as_player(alice)).json()
    claim = f"/api/invites/{invite_code(made)}/claim"
    for headers in ({}, as_player(anon)):
        assert_error(db_client.post(claim, headers=headers), 403, "account_required")
    bruno = sign_up(db_client, "bruno")
    assert db_client.post(claim, headers=as_player(bruno)).status_code == 200, "still open"


# ---- the leaderboard ------------------------------------------------------------------------


def test_the_leaderboard_orders_rated_players_by_rating_a_page_at_a_time(
    db_client: TestClient,
) -> None:
    ana, bea, cid = sign_up(db_client, "ana"), sign_up(db_client, "bea"), sign_up(db_client, "cid")
    sign_up(db_client, "dan")  # an account that never played rated: not listed
    for winner, loser in ((ana, bea), (ana, cid), (bea, cid)):
        match_id, tokens = rated_match(db_client, winner, loser)
        assert resign(db_client, match_id, tokens["nixon"]).status_code == 200
    board = db_client.get("/api/leaderboard").json()
    assert board["total"] == 3 and board["game"] == "watergate"
    assert [(p["rank"], p["name"]) for p in board["players"]] == [
        (1, "ana"),
        (2, "bea"),
        (3, "cid"),
    ]
    ratings = [p["rating"] for p in board["players"]]
    assert ratings == sorted(ratings, reverse=True)
    assert ratings[0] == rating_of(db_client, ana)["rating"]
    page = db_client.get("/api/leaderboard", params={"limit": 1, "offset": 1}).json()
    assert [(p["rank"], p["name"]) for p in page["players"]] == [(2, "bea")]
    assert_error(db_client.get("/api/leaderboard", params={"limit": 101}), 422)
    assert_error(db_client.get("/api/leaderboard", params={"game": "chess"}), 422, "unknown_game")
    assert db_client.get("/api/leaderboard", params={"game": "nations"}).json()["players"] == []
