"""Persistence (product.md): a match is its seed plus its ordered accepted actions, stored before
anyone is told; a new process over the same database continues every match exactly where it was.

Every test runs on SQLite and on PostgreSQL (`any_db_url`). `Duel` is also used by the process
tests (test_crash.py, test_multiprocess.py): it plays a human-vs-human match over any httpx client
(a TestClient or a real server), one client per seat if wanted."""

from __future__ import annotations

import asyncio
import shutil
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, select, text
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session
from sqlalchemy.pool import NullPool

import engine.watergate as engine
from app.persistence.db import Database, driver_url
from app.persistence.models import Invite, Match, MatchAction
from engine.watergate.bots import RandomBot
from engine.watergate.serialize import dumps, state_to_json
from engine.watergate.views import view_for
from tests.app.conftest import ADMIN_TOKEN

ROLES = ("editor", "nixon")
ADMIN = {"Authorization": f"Bearer {ADMIN_TOKEN}"}


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def only_choices(log: list[dict[str, Any]]) -> int:
    """How many actions of a log the server took as a seat's only choice (issue 42)."""
    return sum(1 for entry in log if entry["type"] == "only_choice")


@dataclass
class Duel:
    """A match between two people, the Editor as creator and Nixon as the invited friend."""

    match_id: str
    tokens: dict[str, str]
    clients: dict[str, httpx.Client]  # the server each seat talks to

    @classmethod
    def start(cls, creator: httpx.Client, friend: httpx.Client | None = None) -> Duel:
        made = creator.post("/api/matches", json={"role": "editor", "opponent": "human"})
        assert made.status_code == 201, made.text
        code = made.json()["invite_url"].rsplit("/invite/", 1)[1]
        friend = friend or creator
        claimed = friend.post(f"/api/invites/{code}/claim")
        assert claimed.status_code == 200, claimed.text
        assert claimed.json()["match_id"] == made.json()["match_id"]
        assert claimed.json()["role"] == "nixon"
        tokens = {"editor": made.json()["seat_token"], "nixon": claimed.json()["seat_token"]}
        return cls(made.json()["match_id"], tokens, {"editor": creator, "nixon": friend})

    def view(self, role: str, via: httpx.Client | None = None) -> dict[str, Any]:
        client = via or self.clients[role]
        r = client.get(f"/api/matches/{self.match_id}", headers=bearer(self.tokens[role]))
        assert r.status_code == 200, r.text
        return dict(r.json())

    def views(self, via: httpx.Client | None = None) -> dict[str, dict[str, Any]]:
        return {role: self.view(role, via) for role in ROLES}

    def submit(
        self, role: str, action: Any, expected: int | None, via: httpx.Client | None = None
    ) -> httpx.Response:
        body: dict[str, Any] = {"action": action}
        if expected is not None:
            body["expected_version"] = expected
        client = via or self.clients[role]
        url = f"/api/matches/{self.match_id}/actions"
        return client.post(url, json=body, headers=bearer(self.tokens[role]))

    def decision(self, via: httpx.Client | None = None) -> tuple[str, dict[str, Any]] | None:
        """(role, view) of the seat that must decide now, or None once the match is over."""
        views = self.views(via)
        deciding = [role for role in ROLES if views[role]["legal_actions"]]
        if views["editor"]["status"] == "finished":
            assert not deciding
            return None
        assert len(deciding) == 1, "exactly one seat decides at a time"
        return deciding[0], views[deciding[0]]

    def step(self, bot: RandomBot, via: httpx.Client | None = None) -> dict[str, Any] | None:
        """Play one random legal action with expected_version; the new view, or None if over."""
        found = self.decision(via)
        return None if found is None else self._act(bot, *found, via)

    def _act(
        self, bot: RandomBot, role: str, view: dict[str, Any], via: httpx.Client | None
    ) -> dict[str, Any]:
        action = bot.choose(view["state"], view["legal_actions"])
        r = self.submit(role, action, view["version"], via)
        assert r.status_code == 200, r.text
        # one version for this action, and one for each only choice the server took after it
        taken = only_choices(r.json()["log"]) - only_choices(view["log"])
        assert r.json()["version"] == view["version"] + 1 + taken
        return dict(r.json())

    def play(self, bot: RandomBot, n: int, via: httpx.Client | None = None) -> int:
        """Up to n steps (fewer if the match ends); the number played."""
        found = None
        for played in range(n):
            found = found or self.decision(via)
            if found is None:
                return played
            new = self._act(bot, *found, via)
            found = (found[0], new) if new["legal_actions"] else None  # the same seat goes on
        return n

    def finish(self, bot: RandomBot, via: httpx.Client | None = None, limit: int = 1000) -> None:
        if self.play(bot, limit, via) == limit and self.decision(via) is not None:
            pytest.fail(f"match {self.match_id} did not end within {limit} actions")


def admin_detail(client: httpx.Client, match_id: str) -> dict[str, Any]:
    r = client.get(f"/api/admin/matches/{match_id}", headers=ADMIN)
    assert r.status_code == 200, r.text
    return dict(r.json())


def replayed(detail: dict[str, Any]) -> engine.MatchState:
    """The contract: the state is the seed's new match with the stored actions applied in order."""
    return engine.replay(
        detail["seed"],
        [(a["role"], a["action"]) for a in detail["actions"]],
        detail["rules_version"],
    )


def canonical(state: engine.MatchState) -> str:
    return dumps(state_to_json(state))


def cached_state(client: TestClient, match_id: str) -> str:
    entry = client.app.state.ctx.cache.entry(match_id)  # type: ignore[attr-defined]
    assert entry is not None
    return canonical(entry.state)


def settle(client: TestClient) -> None:
    """Wait for the background bot checks that each action starts (BotRunner.poke) to end.

    The server's shutdown cancels them without waiting for the database thread they run in, so
    that thread later hands its connection back to an already disposed pool, where it stays open
    (test_shutdown_right_after_an_action_leaves_no_connection_open). Waiting here keeps the other
    tests about what they test."""
    if client.portal is None:  # already closed
        return
    tasks = list(client.app.state.ctx.bots._tasks.values())  # type: ignore[attr-defined]

    async def finished() -> None:
        await asyncio.gather(*tasks, return_exceptions=True)

    client.portal.call(finished)


def close(client: TestClient) -> None:
    """Shut the app down as a process exit would (its lifespan ends, its pools close)."""
    settle(client)
    client.__exit__(None, None, None)


MakeClient = Callable[..., TestClient]


@pytest.fixture
def make_client(make_client: MakeClient) -> Iterator[MakeClient]:
    """conftest's factory; every app it made is settled before conftest closes it."""
    made: list[TestClient] = []

    def make(url: str, **settings: object) -> TestClient:
        made.append(make_client(url, **settings))
        return made[-1]

    yield make
    for client in made:
        settle(client)


def test_match_continues_in_a_new_app(any_db_url: str, make_client: MakeClient) -> None:
    first = make_client(any_db_url)
    duel = Duel.start(first)
    bot = RandomBot(11)
    played = duel.play(bot, 12)
    assert played == 12
    before = duel.views()
    close(first)

    second = make_client(any_db_url)
    duel.clients = {"editor": second, "nixon": second}
    after = duel.views()
    assert after == before  # same version, same state, legal actions and log for both seats
    # 12 actions sent, and any only choice the server took after one (issue 42: stored too)
    assert after["editor"]["version"] >= 12
    assert after["editor"]["status"] == "active"

    role, view = duel.decision() or pytest.fail("the match should still be on")
    r = duel.submit(role, view["legal_actions"][0], view["version"])
    assert r.status_code == 200, r.text
    assert r.json()["version"] > view["version"]
    stale = duel.submit(role, view["legal_actions"][0], view["version"])
    assert stale.status_code == 409  # the new process knows the match moved on


def test_correspondence_play_across_restarts(any_db_url: str, make_client: MakeClient) -> None:
    """Create today, the friend claims tomorrow, moves come days apart: each day a new process."""
    day1 = make_client(any_db_url)
    made = day1.post("/api/matches", json={"role": "editor", "opponent": "human"}).json()
    code = made["invite_url"].rsplit("/invite/", 1)[1]
    view = day1.get(f"/api/matches/{made['match_id']}", headers=bearer(made["seat_token"]))
    assert view.json()["status"] == "waiting"
    close(day1)

    day2 = make_client(any_db_url)
    claimed = day2.post(f"/api/invites/{code}/claim")
    assert claimed.status_code == 200, claimed.text
    assert claimed.json()["role"] == "nixon"
    close(day2)

    day3 = make_client(any_db_url)
    assert day3.post(f"/api/invites/{code}/claim").status_code == 409  # still used
    duel = Duel(
        made["match_id"],
        {"editor": made["seat_token"], "nixon": claimed.json()["seat_token"]},
        {"editor": day3, "nixon": day3},
    )
    assert duel.views()["editor"]["status"] == "active"
    bot = RandomBot(3)
    assert duel.play(bot, 3) == 3
    version = duel.views()["nixon"]["version"]  # 3, and any only choice the server took
    close(day3)

    day4 = make_client(any_db_url)
    duel.clients = {"editor": day4, "nixon": day4}
    assert duel.views()["nixon"]["version"] == version >= 3
    duel.finish(bot)
    final = duel.views()
    assert final["editor"]["status"] == final["nixon"]["status"] == "finished"
    assert final["editor"]["winner"] in ROLES
    assert final["editor"]["winner"] == final["nixon"]["winner"]


def test_stored_actions_replay_to_the_served_state(
    any_db_url: str, make_client: MakeClient
) -> None:
    client = make_client(any_db_url)
    duel = Duel.start(client)
    duel.play(RandomBot(5), 20)
    views = duel.views()
    detail = admin_detail(client, duel.match_id)
    last = views["editor"]["version"]  # 20 clicks, and the only choices taken (issue 42)

    assert last >= 20 and [a["seq"] for a in detail["actions"]] == list(range(1, last + 1))
    state = replayed(detail)
    assert state.version == last
    assert canonical(state) == cached_state(client, duel.match_id)
    for role in ROLES:  # what each seat is served is the engine's view of the replayed state
        assert views[role]["state"] == view_for(state, role)
        assert views[role]["legal_actions"] == engine.legal_actions(state, role)

    close(client)  # and a new process, whose cache starts empty, rebuilds that same state
    fresh = make_client(any_db_url)
    duel.clients = {"editor": fresh, "nixon": fresh}
    assert duel.views() == views
    assert cached_state(fresh, duel.match_id) == canonical(state)


def test_cache_miss_rebuilds_the_identical_state(any_db_url: str, make_client: MakeClient) -> None:
    client = make_client(any_db_url)
    store = client.app.state.ctx.cache  # type: ignore[attr-defined]
    duel = Duel.start(client)
    bot = RandomBot(8)
    duel.play(bot, 9)
    views = duel.views()
    state, events = cached_state(client, duel.match_id), store.entry(duel.match_id).events

    store.forget(duel.match_id)
    assert store.entry(duel.match_id) is None
    assert duel.views() == views  # a read after the miss
    assert cached_state(client, duel.match_id) == state
    assert store.entry(duel.match_id).events == events  # the full log too

    store.forget(duel.match_id)  # a submit after the miss
    stepped = duel.step(bot)
    assert stepped is not None
    detail = admin_detail(client, duel.match_id)
    # 10 sent, and any only choice the server took after one (issue 42: stored actions too)
    assert len(detail["actions"]) == stepped["version"] >= 10
    assert cached_state(client, duel.match_id) == canonical(replayed(detail))


def race(
    duel: Duel, role: str, picks: list[Any], version: int, vias: list[httpx.Client] | None = None
) -> list[int]:
    """Send each pick (through vias[i], if given) for the same expected_version at the same
    moment; their statuses."""
    barrier = threading.Barrier(len(picks))
    statuses = [0] * len(picks)

    def send(i: int) -> None:
        barrier.wait(timeout=10)
        statuses[i] = duel.submit(role, picks[i], version, vias[i] if vias else None).status_code

    threads = [threading.Thread(target=send, args=(i,)) for i in range(len(picks))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    return statuses


def test_concurrent_submissions_of_one_version_accept_exactly_one(
    any_db_url: str, make_client: MakeClient
) -> None:
    client = make_client(any_db_url)
    duel = Duel.start(client)
    for attempt in range(6):
        role, view = duel.decision() or pytest.fail("the match ended early")
        legal = view["legal_actions"]
        picks = [legal[0], legal[-1]]  # possibly two different moves for the same decision
        statuses = race(duel, role, picks, view["version"])
        assert sorted(statuses) == [200, 409], f"attempt {attempt}: {statuses}"

        # the one accepted is stored at the next seq; the server's only choices may follow it
        detail = admin_detail(client, duel.match_id)
        stored = len(detail["actions"])
        assert stored > view["version"]
        assert [a["seq"] for a in detail["actions"]] == list(range(1, stored + 1))
        assert detail["actions"][view["version"]]["action"] == picks[statuses.index(200)]
        assert duel.view(role)["version"] == stored


def test_the_database_refuses_a_second_action_at_the_same_seq(
    any_db_url: str, make_client: MakeClient
) -> None:
    client = make_client(any_db_url)
    first, second = Duel.start(client), Duel.start(client)
    first.play(RandomBot(1), 1)
    second.play(RandomBot(1), 1)  # seq 1 in another match is fine: (match_id, seq) is unique

    db = create_engine(driver_url(any_db_url))
    try:
        with Session(db) as session:
            rows = session.scalars(select(MatchAction).order_by(MatchAction.match_id)).all()
            assert sorted((r.match_id, r.seq) for r in rows) == sorted(
                [(first.match_id, 1), (second.match_id, 1)]
            )
            session.add(
                MatchAction(match_id=first.match_id, seq=1, role="editor", action={"type": "pass"})
            )
            with pytest.raises(IntegrityError):
                session.flush()
            session.rollback()
    finally:
        db.dispose()
    assert len(admin_detail(client, first.match_id)["actions"]) == 1


def _is_utc(moment: datetime) -> bool:
    return moment.tzinfo is not None and moment.utcoffset() == timedelta(0)


def test_timestamps_are_timezone_aware_utc(any_db_url: str, make_client: MakeClient) -> None:
    started = datetime.now(UTC)
    client = make_client(any_db_url)
    duel = Duel.start(client)
    duel.play(RandomBot(2), 3)
    close(client)

    db = create_engine(driver_url(any_db_url))  # read back by a different engine than the app's
    try:
        with Session(db) as session:
            match = session.get(Match, duel.match_id)
            assert match is not None
            invite = session.scalars(select(Invite).where(Invite.match_id == match.id)).one()
            actions = session.scalars(select(MatchAction)).all()
            moments = [match.created_at, match.updated_at, invite.created_at, invite.claimed_at]
            moments += [a.created_at for a in actions]
    finally:
        db.dispose()
    assert len(actions) >= 3 and len(moments) == 4 + len(actions)  # (+ any only choice: 42)
    for moment in moments:
        assert moment is not None and _is_utc(moment)
        assert started - timedelta(seconds=5) <= moment <= datetime.now(UTC)

    detail = admin_detail(make_client(any_db_url), duel.match_id)
    stamps = [detail["match"]["created_at"], detail["match"]["updated_at"]]
    stamps += [a["created_at"] for a in detail["actions"]]
    assert all(_is_utc(datetime.fromisoformat(s)) for s in stamps)
    created = [datetime.fromisoformat(a["created_at"]) for a in detail["actions"]]
    assert created == sorted(created)


def _other_connections(url: str) -> int:
    probe = create_engine(driver_url(url), poolclass=NullPool)
    try:
        with probe.connect() as conn:
            query = "select count(*) from pg_stat_activity where datname = current_database()"
            return int(conn.scalar(text(query + " and pid <> pg_backend_pid()")) or 0)
    finally:
        probe.dispose()


def test_shutdown_right_after_an_action_leaves_no_connection_open(
    postgres_url: str, make_client: MakeClient
) -> None:
    """A stopped process has closed all its database connections, work in flight included."""
    client = make_client(postgres_url)
    duel = Duel.start(client)
    close(client)
    pools = []
    try:
        for seed in range(3):
            client = make_client(postgres_url)
            pools.append(client.app.state.ctx.db.writer_engine.pool)  # type: ignore[attr-defined]
            duel.clients = {"editor": client, "nixon": client}
            duel.step(RandomBot(seed))
            client.__exit__(None, None, None)  # at once, as a signal would stop the process
            deadline = time.monotonic() + 3  # bounded: a closing backend takes a moment to go
            while (left := _other_connections(postgres_url)) and time.monotonic() < deadline:
                time.sleep(0.05)
            assert left == 0, f"{left} connection(s) still open after the app stopped"
    finally:
        for pool in pools:  # close what a failure left open here, not in a later test's GC
            pool.dispose()


def test_a_connection_handed_back_after_dispose_is_closed_at_once(any_db_url: str) -> None:
    """Work in flight when the process stops hands its connection back after dispose(): it is
    closed then, not left open on the server until the garbage collector finds the old pool."""
    db = Database(any_db_url)
    in_use = [e.raw_connection() for e in {db.writer_engine, db.reader_engine}]
    drivers = [raw.dbapi_connection for raw in in_use]
    db.dispose()
    for raw, driver in zip(in_use, drivers, strict=True):
        raw.close()  # the work ends: back to the pool that dispose() let go
        with pytest.raises(db.writer_engine.dialect.loaded_dbapi.Error):
            driver.cursor().execute("select 1")
    fresh = Database(any_db_url)  # a new process still connects as usual
    try:
        with fresh.reader() as session:
            assert session.execute(text("select 1")).scalar() == 1
    finally:
        fresh.dispose()


def test_a_256_bit_seed_is_stored_exactly_and_deals_the_match(
    any_db_url: str, make_client: MakeClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The secret seed is wider than any database integer: it is stored as text, read back to
    the bit, and a new app (a cache miss) deals the same match from it."""
    import app.services.matches

    widest = (1 << 256) - 1
    monkeypatch.setattr(app.services.matches, "new_seed", lambda: widest)
    first = make_client(any_db_url)
    duel = Duel.start(first)
    duel.play(RandomBot(5), 6)
    detail = admin_detail(first, duel.match_id)
    assert (detail["seed"], detail["seed_text"]) == (widest, str(widest))
    assert detail["rules_version"] == engine.GAME.rules_version
    before = duel.views()
    close(first)
    second = make_client(any_db_url)
    duel.clients = {"editor": second, "nixon": second}
    assert duel.views() == before
    assert before["editor"]["state"] == view_for(replayed(detail), "editor")


def test_a_checkpoint_puts_every_accepted_action_into_the_sqlite_file(
    sqlite_url: str, make_client: MakeClient, tmp_path: Path
) -> None:
    """Commits never checkpoint (a move may commit on the event loop); the app's checkpointer
    copies the write-ahead log into the database file, so the file alone holds every action."""
    client = make_client(sqlite_url)
    duel = Duel.start(client)
    assert duel.play(RandomBot(5), 30) == 30
    last = duel.view("editor")["version"]  # with the only choices taken (issue 42)
    db = client.app.state.ctx.db  # type: ignore[attr-defined]
    frames, copied = db.checkpoint()
    assert frames > 0 and copied == frames
    path = Path(sqlite_url.removeprefix("sqlite:///"))
    alone = tmp_path / "alone.db"
    shutil.copyfile(path, alone)  # the file without its -wal: what a checkpoint wrote
    engine_ = create_engine(f"sqlite:///{alone}", poolclass=NullPool)
    try:
        with Session(engine_) as session:
            stored = session.scalars(
                select(MatchAction.seq).where(MatchAction.match_id == duel.match_id)
            ).all()
    finally:
        engine_.dispose()
    assert sorted(stored) == list(range(1, last + 1))
