"""The director's arena pass (issue 46, "Scale"): it seats its games a batch a write transaction,
each game in a savepoint of its own, and tells each batch's players once that batch is committed.
A game whose player left between the pairing and the seating stores nothing, and the other games
of its batch are kept; the first batch's players hear of their games before the last batch is
seated. On SQLite and on PostgreSQL (the `client` fixture runs each test on both)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.persistence.models import Match
from app.persistence.tournaments import TournamentRow
from app.push.changes import Change, MatchChanged
from app.services import tournament_director
from app.services.tournament_director import Director
from app.services.tournament_seating import Seated, seat_game
from app.tournaments.arena import Pairing
from tests.app.accounts_helpers import as_player
from tests.app.test_challenges import client, fake
from tests.app.test_clocks import FakeClock
from tests.app.test_tournament_rounds import field
from tests.app.test_tournaments import create, on_the_page, page, tick

__all__ = ["client", "fake"]  # the fixtures, used by name below


def pairs(games: list[dict[str, Any]]) -> set[frozenset[str]]:
    return {frozenset(s["player_id"] for s in g["seats"]) for g in games}


def test_a_game_whose_player_left_meanwhile_stores_nothing_and_its_batch_keeps_the_others(
    client: TestClient, fake: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    c = client
    tid = create(c, fake).json()["tournament_id"]  # starts in five minutes
    players = field(c, tid, 6, "stale")
    ids = [p["player_id"] for p in players]
    # paired while all six were free; the middle game's first player leaves before the seating
    stale = [Pairing(ids[0], ids[1]), Pairing(ids[2], ids[3]), Pairing(ids[4], ids[5])]

    def pairings(self: Director, t: TournamentRow, now: datetime) -> list[Pairing]:
        return stale

    monkeypatch.setattr(Director, "_pairings", pairings)
    monkeypatch.setattr(tournament_director, "BATCH", 3)  # the three games: one transaction
    with on_the_page(c, tid, players):
        left = c.post(f"/api/tournaments/{tid}/withdraw", headers=as_player(players[2]))
        assert left.status_code == 204
        fake.advance(5 * 60)
        tick(c)  # starts it and pairs it, in one pass
        games = page(c, tid)["games"]
    assert pairs(games) == {frozenset(ids[:2]), frozenset(ids[4:])}
    # the left-behind partner is free, was never told of a game, and no match of theirs exists
    assert page(c, tid, players[3])["me"]["playing"] is None
    bell = c.get("/api/notifications", headers=as_player(players[3])).json()["items"]
    assert [n for n in bell if n["kind"] == "tournament_paired"] == []
    session: Session
    with c.app.state.ctx.core.db.reader() as session:  # type: ignore[attr-defined]
        assert session.scalar(select(func.count()).select_from(Match)) == 2
    # the game seated after the dropped one, in the same transaction, was told as usual
    (after,) = [g["match_id"] for g in games if ids[4] in pairs([g]).pop()]
    told = c.get("/api/notifications", headers=as_player(players[4])).json()["items"]
    assert [n["data"]["match_id"] for n in told if n["kind"] == "tournament_paired"] == [after]


def test_a_pass_tells_its_first_batch_before_it_seats_its_last(
    client: TestClient, fake: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A 500-player start seats 250 games in one pass: its first players must not wait for the
    last game. Three games here, in batches of two and one."""
    c = client
    tid = create(c, fake).json()["tournament_id"]
    players = field(c, tid, 6, "early")
    monkeypatch.setattr(tournament_director, "BATCH", 2)
    events: list[tuple[str, str]] = []  # ("seated" | "told", match id), as they happened

    def seat(*args: Any) -> None:
        seat_game(*args)
        made: Seated = args[-1]
        events.append(("seated", made.matches[-1]))

    def heard(change: Change) -> None:
        if isinstance(change, MatchChanged):
            events.append(("told", change.match_id))

    monkeypatch.setattr(tournament_director, "seat_game", seat)
    c.app.state.ctx.core.listeners.append(heard)  # type: ignore[attr-defined]
    with on_the_page(c, tid, players):  # all waiting before the start: one pass pairs them
        fake.advance(5 * 60)
        tick(c)
        games = page(c, tid)["games"]
    seated = [m for what, m in events if what == "seated"]
    assert sorted(seated) == sorted(g["match_id"] for g in games) and len(seated) == 3
    assert ("told", seated[0]) in events, events
    assert events.index(("told", seated[0])) < events.index(("seated", seated[-1])), events
