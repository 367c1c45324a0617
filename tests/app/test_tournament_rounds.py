"""Round formats through the API (issue 46): a Swiss of 7 players over 3 rounds (a bye each
round, to a different player, worth a win; no pairing repeated; standings by points, then
Buchholz and Sonneborn-Berger), and a Nations table round of 9 players at tables of 3 (points by
place, 3/1/0, ties shared); a round starts only when the last one has ended, and a round format
with too few players at its start is canceled, on record. A table round's player who leaves a
table that goes on (out of time, or gone) is withdrawn at once (the page's watchers told at
once) and not seated again; two players
who block each other do not share a table when another seating allows it. A correspondence
round with a round length starts the next round once its time is up: a late game goes on,
counts for its round, and its players sit the next round out (or the round waits for it, when
the others cannot make a round); the length is only for a correspondence round format."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select, update

from app.persistence.models import Match, Seat
from app.persistence.records import Ending
from app.push.changes import Change, TournamentChanged
from app.services.changes import Changed, MatchChanges
from tests.app.accounts_helpers import Account, as_player, resign, sign_up
from tests.app.test_challenges import client, fake
from tests.app.test_clocks import FakeClock
from tests.app.test_lifecycle import sweep
from tests.app.test_tournaments import ADMIN, create, page, seat_token, tick

__all__ = ["client", "fake"]  # the fixtures, used by name below


def field(c: TestClient, tid: str, n: int, prefix: str) -> list[Account]:
    players = [sign_up(c, f"{prefix}{i}") for i in range(n)]
    for p in players:
        assert c.post(f"/api/tournaments/{tid}/join", headers=as_player(p)).status_code == 204
    return players


def nations_tables(c: TestClient, fake: FakeClock, **extra: Any) -> str:
    """A Nations table-round tournament at tables of three, by correspondence unless told."""
    wanted = {"rounds": 2, "clock": "turn-3", **extra}
    made = create(
        c, fake, format="tables", game="nations", table_size=3, minutes=None, max_players=20,
        **wanted,
    )  # fmt: skip
    assert made.status_code == 201, made.text
    return str(made.json()["tournament_id"])


def end_with(
    c: TestClient, match_id: str, ranking: tuple[tuple[str, ...], ...],
    points: tuple[tuple[str, int], ...] = (),
) -> None:  # fmt: skip
    """End a match by the rules with this finishing order, through the one transaction that
    ends every match (what the last move of a Nations game does)."""
    ctx = c.app.state.ctx  # type: ignore[attr-defined]

    def change(tx: Any, row: Any, info: Any, entry: Any) -> Changed:
        winner = ranking[0][0] if len(ranking[0]) == 1 else None
        ending = Ending("finished", winner, "points", ranking=ranking, points=points)
        return Changed(info, ending=ending)

    MatchChanges(ctx.core).run(match_id, change, ctx.core.stamp())


def test_a_swiss_of_seven_over_three_rounds(client: TestClient, fake: FakeClock) -> None:
    c = client
    made = create(c, fake, format="swiss", rounds=3, clock="turn-3", minutes=None)
    assert made.status_code == 201, made.text
    tid = made.json()["tournament_id"]
    players = field(c, tid, 7, "sw")
    by_id = {p["player_id"]: p for p in players}
    fake.advance(5 * 60)
    met: set[frozenset[str]] = set()
    byes: list[str] = []
    for number in (1, 2, 3):
        tick(c)  # starts (round 1) or starts the next round
        games = page(c, tid)["games"]
        assert len(games) == 3, number  # 7 players: three games and a bye
        seated = set()
        for g in games:
            pair = frozenset(s["player_id"] for s in g["seats"])
            assert pair not in met  # never the same pairing twice
            met.add(pair)
            seated |= pair
        (bye,) = set(by_id) - seated
        assert bye not in byes  # a bye at most once each
        byes.append(bye)
        tick(c)  # nothing new while the round's games go on
        assert len(page(c, tid)["games"]) == 3
        for g in games:  # the second seat wins each
            first = by_id[g["seats"][0]["player_id"]]
            _, token = seat_token(c, g["match_id"], first)
            assert resign(c, g["match_id"], token).status_code == 200
    tick(c)
    final = page(c, tid)
    assert final["status"] == "finished" and final["round"] == 3
    standings = final["standings"]
    assert sum(s["score"] for s in standings) == 3 * 3 + 3  # a point a game, a point a bye
    # points first, then Buchholz, then Sonneborn-Berger
    keys = [(-s["score"], -s["buchholz"], -s["sonneborn_berger"]) for s in standings]
    assert keys == sorted(keys)
    export = c.get(f"/api/tournaments/{tid}/export").json()
    assert len([g for g in export["games"] if g["match_id"] is None]) == 3  # the byes


def test_a_nations_table_round_of_nine_at_tables_of_three(
    client: TestClient, fake: FakeClock
) -> None:
    c = client
    tid = nations_tables(c, fake)
    players = field(c, tid, 9, "nt")
    fake.advance(5 * 60)
    tick(c)
    tables = page(c, tid)["games"]
    assert sorted(len(g["seats"]) for g in tables) == [3, 3, 3]
    assert len({s["player_id"] for g in tables for s in g["seats"]}) == 9
    # table 1: a clear order; table 2: two share first place; table 3: everyone level
    orders = [
        lambda seats: ((seats[0],), (seats[1],), (seats[2],)),
        lambda seats: ((seats[0], seats[1]), (seats[2],)),
        lambda seats: (tuple(seats),),
    ]
    expected: dict[str, float] = {}
    shares = [[3, 1, 0], [2, 2, 0], [4 / 3, 4 / 3, 4 / 3]]  # 3/1/0, ties share
    vps = {}
    for g, order, points in zip(tables, orders, shares, strict=True):
        seats = [s["seat"] for s in sorted(g["seats"], key=lambda s: s["seat"])]
        vp = tuple((seat, 10 + i) for i, seat in enumerate(seats))  # the last seat most VP
        end_with(c, g["match_id"], order(seats), vp)
        vps.update({s["player_id"]: dict(vp)[s["seat"]] for s in g["seats"]})
        for s, p in zip(sorted(g["seats"], key=lambda s: s["seat"]), points, strict=True):
            expected[s["player_id"]] = p
    standings = page(c, tid)["standings"]
    got = {s["player_id"]: s["score"] for s in standings}
    assert got == {k: round(v, 2) if v != int(v) else int(v) for k, v in expected.items()}
    # level on points, the one with more victory points ranks higher (NR: VP tie-break)
    order = [(-s["score"], -vps[s["player_id"]]) for s in standings]
    assert order == sorted(order)
    tick(c)  # round 2: seated by score, no table of round 1 again
    second = page(c, tid)["games"]
    assert page(c, tid)["round"] == 2 and len(second) == 3
    first_round = {frozenset(s["player_id"] for s in g["seats"]) for g in tables}
    assert not first_round & {frozenset(s["player_id"] for s in g["seats"]) for g in second}
    assert players


def test_a_round_format_with_too_few_players_is_canceled_on_record(
    client: TestClient, fake: FakeClock
) -> None:
    c = client
    tid = create(c, fake, format="swiss", rounds=1, clock="turn-1").json()["tournament_id"]
    field(c, tid, 1, "lone")
    fake.advance(5 * 60)
    tick(c)
    assert page(c, tid)["status"] == "canceled"
    history = c.get(f"/api/tournaments/{tid}/history", headers=ADMIN).json()
    assert history["events"][0]["detail"]["reason"] == "too few players"


def leavers(c: TestClient) -> dict[str, str]:
    """Who left a table that went on, and why (the seats the computer took over)."""
    with c.app.state.ctx.db.reader() as db:  # type: ignore[attr-defined]
        rows = db.execute(select(Seat.player, Seat.left_reason).where(Seat.left_at.is_not(None)))
        return {str(p): str(r) for p, r in rows}


@pytest.mark.parametrize("way", ["timeout", "abandoned"])
def test_a_table_rounds_player_who_leaves_a_table_that_goes_on_is_withdrawn(
    client: TestClient, fake: FakeClock, way: str
) -> None:
    c = client
    tid = nations_tables(c, fake, clock="realtime-15" if way == "timeout" else "turn-3")
    everyone = {p["player_id"] for p in field(c, tid, 10, "lv")}
    fake.advance(5 * 60)
    tick(c)
    tables = page(c, tid)["games"]
    assert sorted(len(g["seats"]) for g in tables) == [3, 3, 4]
    # the tables were last touched now (as the fake clock counts: rows are stamped by the wall's)
    idle = next(g["match_id"] for g in tables if len(g["seats"]) == 3)
    touched = datetime.fromtimestamp(fake.now(), UTC)
    with c.app.state.ctx.db.writer.begin() as db:  # type: ignore[attr-defined]
        db.execute(update(Match).values(updated_at=touched))
        if way == "abandoned":  # one table of three untouched for 31 days: its decider is gone
            long_ago = touched - timedelta(days=31)
            db.execute(update(Match).where(Match.id == idle).values(updated_at=long_ago))
    if way == "timeout":  # every table's deciding seat lets its live clock run out
        fake.advance(15 * 60 + 1)
    told = threading.Event()  # the tournament's page told of a change (its sockets push it)

    def heard(change: Change) -> None:
        if isinstance(change, TournamentChanged) and change.tournament_id == tid:
            told.set()

    c.app.state.ctx.core.listeners.append(heard)  # type: ignore[attr-defined]
    assert sweep(c)
    left = leavers(c)
    assert told.wait(20)  # at once, not at the tournament's next change (a game's end)
    assert set(left.values()) == {way}
    assert len(left) == (3 if way == "timeout" else 1)  # one a table, or the idle table's
    shown = page(c, tid)
    assert len(shown["games"]) == 3  # every table goes on, the computer in the leaver's seat
    withdrawn = {s["player_id"] for s in shown["standings"] if s["withdrawn"]}
    assert withdrawn == set(left)  # withdrawn as they leave, their game not yet over
    for g in tables:  # each table ends, its leaver last (the game still scores them)
        seats = [s["seat"] for s in g["seats"] if s["player_id"] not in left]
        gone = tuple(s["seat"] for s in g["seats"] if s["player_id"] in left)
        end_with(c, g["match_id"], tuple((s,) for s in seats) + ((gone,) if gone else ()))
    standings = {s["player_id"]: s for s in page(c, tid)["standings"]}
    assert all(standings[p]["games"] == 1 and standings[p]["withdrawn"] for p in left)
    tick(c)  # round 2: the leavers are not seated
    second = page(c, tid)["games"]
    assert page(c, tid)["round"] == 2
    assert {s["player_id"] for g in second for s in g["seats"]} == everyone - set(left)


def test_a_table_round_keeps_two_players_who_block_each_other_at_different_tables(
    client: TestClient, fake: FakeClock
) -> None:
    c = client
    tid = nations_tables(c, fake, rounds=1)
    accounts = {p["player_id"]: p for p in field(c, tid, 6, "bk")}
    ids = sorted(accounts)
    # everyone at the rating of a newcomer: the standing is by id, so the first two would
    # lead the top table; the second blocked the first
    blocked = c.put(f"/api/players/me/blocks/{ids[0]}", headers=as_player(accounts[ids[1]]))
    assert blocked.status_code == 204
    fake.advance(5 * 60)
    tick(c)
    tables = [{s["player_id"] for s in g["seats"]} for g in page(c, tid)["games"]]
    assert len(tables) == 2 and all(not {ids[0], ids[1]} <= t for t in tables)


def play_out(c: TestClient, game: dict[str, Any], by_id: dict[str, Account]) -> None:
    """The game's first seat resigns: the second wins."""
    first = by_id[game["seats"][0]["player_id"]]
    _, token = seat_token(c, game["match_id"], first)
    assert resign(c, game["match_id"], token).status_code == 200


def seated(games: list[dict[str, Any]]) -> set[str]:
    return {s["player_id"] for g in games for s in g["seats"]}


def test_a_correspondence_swiss_round_ends_at_its_time_and_a_late_game_sits_the_next_out(
    client: TestClient, fake: FakeClock
) -> None:
    c = client
    made = create(c, fake, format="swiss", rounds=3, clock="turn-3", minutes=None, round_days=1)
    assert made.status_code == 201, made.text
    tid = made.json()["tournament_id"]
    by_id = {p["player_id"]: p for p in field(c, tid, 6, "cr")}
    fake.advance(5 * 60)
    tick(c)
    shown = page(c, tid)
    first = shown["games"]
    assert shown["round"] == 1 and shown["round_days"] == 1 and len(first) == 3
    started = datetime.fromisoformat(first[0]["started_at"])
    assert datetime.fromisoformat(shown["round_ends_at"]) == started + timedelta(days=1)
    late, *done = first
    for g in done:
        play_out(c, g, by_id)
    tick(c)  # the round's time is not up: it waits for its last game
    assert page(c, tid)["round"] == 1

    fake.advance(24 * 60 * 60)
    tick(c)  # time is up: round 2 for the four who are free; the late game goes on
    shown = page(c, tid)
    assert shown["round"] == 2
    second = [g for g in shown["games"] if g["round"] == 2]
    assert len(second) == 2 and seated(second) == set(by_id) - seated([late])
    assert [g["match_id"] for g in shown["games"] if g["round"] == 1] == [late["match_id"]]
    assert datetime.fromisoformat(shown["round_ends_at"]) == datetime.fromisoformat(
        second[0]["started_at"]
    ) + timedelta(days=1)
    play_out(c, late, by_id)  # it ends in round 2's time and counts for round 1
    for g in second:
        play_out(c, g, by_id)
    export = c.get(f"/api/tournaments/{tid}/export").json()
    assert [g["round"] for g in export["games"] if g["match_id"] == late["match_id"]] == [1]
    assert all(g["match_id"] is not None for g in export["games"])  # sitting out: no bye
    games = {s["player_id"]: s["games"] for s in export["standings"]}
    assert {p: games[p] for p in seated([late])} == dict.fromkeys(seated([late]), 1)

    tick(c)  # round 3: everyone again, the late pair not twice
    third = page(c, tid)["games"]
    assert page(c, tid)["round"] == 3 and seated(third) == set(by_id)
    pairs = {frozenset(s["player_id"] for s in g["seats"]) for g in third}
    assert frozenset(seated([late])) not in pairs


def test_a_round_whose_time_is_up_waits_for_its_games_when_the_others_cannot_make_one(
    client: TestClient, fake: FakeClock
) -> None:
    c = client
    made = create(c, fake, format="swiss", rounds=3, clock="turn-1", minutes=None, round_days=2)
    tid = made.json()["tournament_id"]
    by_id = {p["player_id"]: p for p in field(c, tid, 4, "wt")}
    fake.advance(5 * 60)
    tick(c)
    late, early = page(c, tid)["games"]
    play_out(c, early, by_id)
    fake.advance(2 * 24 * 60 * 60 + 1)
    tick(c)  # the two free players met already: no round of their own, no early end either
    shown = page(c, tid)
    assert (shown["status"], shown["round"], shown["round_ends_at"]) == ("running", 1, None)
    play_out(c, late, by_id)
    tick(c)  # the round's games have ended: round 2, everyone
    shown = page(c, tid)
    assert shown["round"] == 2 and seated(shown["games"]) == set(by_id)
    assert shown["round_ends_at"] is not None  # a round of its own time again


def test_a_round_length_only_for_a_correspondence_round_format(
    client: TestClient, fake: FakeClock
) -> None:
    c = client
    mail = {"format": "swiss", "rounds": 3, "minutes": None, "clock": "turn-1"}
    assert page(c, create(c, fake, **mail).json()["tournament_id"])["round_days"] == 3  # default
    live = create(c, fake, **{**mail, "clock": "realtime-15"}).json()["tournament_id"]
    assert (page(c, live)["round_days"], page(c, live)["round_ends_at"]) == (None, None)
    for bad in (
        {**mail, "round_days": 0},
        {**mail, "round_days": 15},
        {**mail, "round_days": -3},
        {**mail, "clock": "realtime-30", "round_days": 3},  # a live round waits for its games
        {"round_days": 3},  # an arena has no rounds
    ):
        refused = create(c, fake, **bad)
        assert (refused.status_code, refused.json()["code"]) == (422, "invalid_round_days"), bad
    nonsense = create(c, fake, **{**mail, "round_days": "soon"})
    assert (nonsense.status_code, nonsense.json()["code"]) == (422, "invalid_request")
    listed = c.get("/api/tournaments").json()["upcoming"]
    assert len(listed) == 2  # the refused ones stored nothing


def test_a_table_round_whose_time_is_up_seats_the_free_and_the_last_round_waits_for_all(
    client: TestClient, fake: FakeClock
) -> None:
    c = client
    tid = nations_tables(c, fake, round_days=1)
    field(c, tid, 7, "tt")
    fake.advance(5 * 60)
    tick(c)
    four, three = sorted(page(c, tid)["games"], key=lambda g: -len(g["seats"]))
    assert (len(four["seats"]), len(three["seats"])) == (4, 3)
    places = tuple((s["seat"],) for s in four["seats"])
    end_with(c, four["match_id"], places)
    fake.advance(24 * 60 * 60)
    tick(c)  # the table of three plays on; the four free players sit at one table
    shown = page(c, tid)
    (table,) = [g for g in shown["games"] if g["round"] == 2]
    assert seated([table]) == seated([four]) and shown["round"] == 2
    assert shown["round_ends_at"] is None  # the last round: no time of its own
    fake.advance(3 * 24 * 60 * 60)
    end_with(c, table["match_id"], tuple((s["seat"],) for s in table["seats"]))
    tick(c)  # the late table still plays: the tournament waits for it
    assert page(c, tid)["status"] == "running"
    end_with(c, three["match_id"], tuple((s["seat"],) for s in three["seats"]))
    tick(c)
    final = page(c, tid)
    assert final["status"] == "finished"
    games = {s["player_id"]: s["games"] for s in final["standings"]}
    assert games == {p: 1 if p in seated([three]) else 2 for p in games}
