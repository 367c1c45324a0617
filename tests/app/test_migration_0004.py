"""Revision 0004 converts real data: a database at 0003 holding what the old app wrote (a waiting
match with its invite, an active match against the computer with stored actions, a finished match
with an accepted rematch half claimed) is upgraded to head; the rows are converted (a game per
match, a row per seat, invites pointing at a seat, rematch claims as seat rows) and the app serves
and continues every one of those matches. On SQLite and on PostgreSQL."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from fastapi.testclient import TestClient
from sqlalchemy.pool import NullPool

from app.auth import token_hash
from app.persistence.db import driver_url
from engine.core.game import replay
from engine.registry import get_game
from tests.app.conftest import ADMIN_TOKEN
from tests.app.test_migrations import alembic_config, empty_url, inspected

__all__ = ["empty_url"]  # the fixture, used by name below

GAME = get_game("watergate")
OLD_RULES = "1"  # what the old app stored: SplitMix64 deals from a 53-bit seed
T0 = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)

# the 0003 tables, as the old app wrote them
META = sa.MetaData()
MATCHES = sa.Table(
    "matches", META,
    *(sa.Column(n, sa.String) for n in ("id", "rules_version", "status", "editor_kind",
                                         "nixon_kind", "winner", "win_reason", "ended_by",
                                         "spectator_key")),
    sa.Column("seed", sa.BigInteger), sa.Column("version", sa.Integer),
    sa.Column("round", sa.Integer), sa.Column("options", sa.JSON),
    *(sa.Column(n, sa.DateTime(timezone=True)) for n in ("activated_at", "created_at",
                                                          "updated_at")),
)  # fmt: skip
SEATS = sa.Table(
    "seats", META, sa.Column("match_id", sa.String), sa.Column("role", sa.String),
    sa.Column("token_hash", sa.String), sa.Column("created_at", sa.DateTime(timezone=True)),
    sa.Column("last_seen_at", sa.DateTime(timezone=True)),
)  # fmt: skip
INVITES = sa.Table(
    "invites", META, sa.Column("code", sa.String), sa.Column("match_id", sa.String),
    sa.Column("role", sa.String), sa.Column("created_at", sa.DateTime(timezone=True)),
    sa.Column("claimed_at", sa.DateTime(timezone=True)),
)  # fmt: skip
ACTIONS = sa.Table(
    "match_actions", META, sa.Column("match_id", sa.String), sa.Column("seq", sa.Integer),
    sa.Column("role", sa.String), sa.Column("action", sa.JSON),
    sa.Column("created_at", sa.DateTime(timezone=True)),
)  # fmt: skip
REMATCHES = sa.Table(
    "rematches", META, sa.Column("old_match_id", sa.String), sa.Column("offered_by", sa.String),
    sa.Column("offered_at", sa.DateTime(timezone=True)), sa.Column("new_match_id", sa.String),
    sa.Column("claimed_editor", sa.Boolean), sa.Column("claimed_nixon", sa.Boolean),
)  # fmt: skip
TOKENS = {
    name: f"old-token-{name}-" + "x" * 20 for name in ("w_ed", "b_ed", "f_ed", "f_nx", "r_nx")
}


def match(match_id: str, status: str, editor: str, nixon: str, **extra: Any) -> dict[str, Any]:
    row = {
        "id": match_id, "rules_version": OLD_RULES, "status": status,
        "editor_kind": editor, "nixon_kind": nixon, "winner": None, "win_reason": None,
        "ended_by": None, "spectator_key": f"key-{match_id}", "seed": 4242, "version": 0,
        "round": 1, "options": {"opponent": "bot" if "bot" in (editor, nixon) else "human"},
        "activated_at": None if status == "waiting" else T0, "created_at": T0, "updated_at": T0,
    }  # fmt: skip
    return row | extra


def seat(match_id: str, role: str, token: str) -> dict[str, Any]:
    hashed = token_hash(TOKENS[token])
    return {"match_id": match_id, "role": role, "token_hash": hashed, "created_at": T0}


def bot_match_actions() -> list[tuple[str, dict[str, Any]]]:
    """Real moves from seed 4242 until the person (the Editor) is to move again, after the
    computer (Nixon) has moved at least twice."""
    state = GAME.start(4242, OLD_RULES).state
    moves: list[tuple[str, dict[str, Any]]] = []
    while True:
        (who,) = GAME.to_move(state)
        if who == "editor" and sum(1 for w, _ in moves if w == "nixon") >= 2:
            return moves
        action = GAME.action_to_json(GAME.legal_actions(state, who)[0])
        moves.append((who, action))
        state = GAME.apply(state, who, action).state


def at_0003(url: str) -> Config:
    """The database migrated to revision 0003 (the schema before seats became rows)."""
    if url.startswith("sqlite:///"):
        Path(url.removeprefix("sqlite:///")).parent.mkdir(parents=True, exist_ok=True)
    config = alembic_config(url)
    command.upgrade(config, "0003")
    return config


def populate_0003(url: str) -> list[tuple[str, dict[str, Any]]]:
    moves = bot_match_actions()
    engine = sa.create_engine(driver_url(url), poolclass=NullPool)
    with engine.begin() as conn:
        conn.execute(
            MATCHES.insert(),
            [
                match("waiting1", "waiting", "human", "human"),
                match("botgame1", "active", "human", "bot", version=len(moves)),
                match(
                    "finished1",
                    "finished",
                    "human",
                    "human",
                    winner="nixon",
                    win_reason="resigned",
                    ended_by="editor",
                ),
                match("rematch1", "waiting", "human", "human"),
            ],
        )
        conn.execute(
            SEATS.insert(),
            [
                seat("waiting1", "editor", "w_ed"),
                seat("botgame1", "editor", "b_ed"),
                seat("finished1", "editor", "f_ed"),
                seat("finished1", "nixon", "f_nx"),
                seat("rematch1", "nixon", "r_nx"),  # the old Editor took its swapped seat
            ],
        )
        conn.execute(
            INVITES.insert(),
            [
                {"code": "invite1", "match_id": "waiting1", "role": "nixon", "created_at": T0},
                {
                    "code": "invite2",
                    "match_id": "finished1",
                    "role": "nixon",
                    "created_at": T0,
                    "claimed_at": T0,
                },
            ],
        )
        conn.execute(
            ACTIONS.insert(),
            [
                {
                    "match_id": "botgame1",
                    "seq": i,
                    "role": who,
                    "action": action,
                    "created_at": T0 + timedelta(seconds=i),
                }
                for i, (who, action) in enumerate(moves, start=1)
            ],
        )
        conn.execute(
            REMATCHES.insert(),
            [{"old_match_id": "finished1", "offered_by": "editor", "offered_at": T0,
              "new_match_id": "rematch1", "claimed_editor": True, "claimed_nixon": False}],
        )  # fmt: skip
    engine.dispose()
    return moves


def rows(url: str, query: str) -> set[tuple[Any, ...]]:
    engine = sa.create_engine(driver_url(url), poolclass=NullPool)
    with engine.connect() as conn:
        found = {tuple(r) for r in conn.execute(sa.text(query)).all()}
    engine.dispose()
    return found


def bearer(name: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {TOKENS[name]}"}


def test_upgrading_from_0003_converts_the_rows_and_the_app_serves_them(
    empty_url: str, make_client: Callable[..., TestClient]
) -> None:
    config = at_0003(empty_url)
    moves = populate_0003(empty_url)
    command.upgrade(config, "head")
    assert inspected(empty_url)["diff"] == []

    assert rows(empty_url, "select id, game from matches") == {
        (m, "watergate") for m in ("waiting1", "botgame1", "finished1", "rematch1")
    }
    claimed = {(m, s): n for n, (m, s) in {
        "w_ed": ("waiting1", "editor"), "b_ed": ("botgame1", "editor"),
        "f_ed": ("finished1", "editor"), "f_nx": ("finished1", "nixon"),
        "r_nx": ("rematch1", "nixon"),
    }.items()}  # fmt: skip
    expected_seats = {
        (m, s, "bot" if (m, s) == ("botgame1", "nixon") else "human",
         token_hash(TOKENS[claimed[m, s]]) if (m, s) in claimed else None)
        for m in ("waiting1", "botgame1", "finished1", "rematch1") for s in ("editor", "nixon")
    }  # fmt: skip
    assert rows(empty_url, "select match_id, name, kind, token_hash from seats") == expected_seats
    assert rows(empty_url, "select code, match_id, seat from invites") == {
        ("invite1", "waiting1", "nixon"),
        ("invite2", "finished1", "nixon"),
    }

    client = make_client(empty_url, bot_delay_ms=0)
    waiting = client.get("/api/matches/waiting1", headers=bearer("w_ed")).json()
    assert (waiting["status"], waiting["role"], waiting["opponent"]) == (
        "waiting",
        "editor",
        "human",
    )
    joined = client.post("/api/invites/invite1/claim")
    assert joined.status_code == 200 and joined.json()["role"] == "nixon"
    assert client.post("/api/invites/invite1/claim").status_code == 409
    now = client.get("/api/matches/waiting1", headers=bearer("w_ed")).json()
    assert now["status"] == "active" and now["legal_actions"]

    bot = client.get("/api/matches/botgame1", headers=bearer("b_ed")).json()
    assert (bot["status"], bot["version"], bot["opponent"]) == ("active", len(moves), "bot")
    state = replay(GAME, 4242, moves, OLD_RULES)  # the old deal, replayed exactly
    assert bot["state"] == GAME.view_for(state, "editor")
    move = {"action": bot["legal_actions"][0], "expected_version": len(moves)}
    played = client.post("/api/matches/botgame1/actions", headers=bearer("b_ed"), json=move)
    assert played.status_code == 200 and played.json()["version"] == len(moves) + 1

    done = client.get("/api/matches/finished1", headers=bearer("f_nx")).json()
    assert (done["status"], done["winner"], done["ended_by"]) == ("finished", "nixon", "editor")
    assert done["rematch"] == {
        "offered_by": "editor",
        "match_id": "rematch1",
        "claimed": {"editor": True, "nixon": False},
        # v1.2's answers: a row from before them knows only that its maker accepted
        "accepted": ["editor"],
        "declined": [],
        "expired": False,
    }
    again = client.post("/api/matches/finished1/rematch/claim", headers=bearer("f_nx"))
    assert again.status_code == 200 and again.json()["role"] == "editor"
    assert (
        client.post("/api/matches/finished1/rematch/claim", headers=bearer("f_nx")).status_code
        == 409
    )
    new = client.get("/api/matches/rematch1", headers=bearer("r_nx")).json()
    assert (new["status"], new["role"]) == ("active", "nixon")
    admin = client.get(
        "/api/admin/matches?opponent=bot", headers={"Authorization": "Bearer " + ADMIN_TOKEN}
    ).json()
    assert [(r["match_id"], r["editor_kind"], r["nixon_kind"]) for r in admin] == [
        ("botgame1", "human", "bot")
    ]


def test_downgrading_0004_restores_the_0003_rows(empty_url: str) -> None:
    config = at_0003(empty_url)
    populate_0003(empty_url)
    before = {
        q: rows(empty_url, q)
        for q in (
            "select id, editor_kind, nixon_kind from matches",
            "select match_id, role, token_hash from seats",
            "select code, match_id, role from invites",
            "select old_match_id, claimed_editor, claimed_nixon from rematches",
        )
    }
    command.upgrade(config, "head")
    command.downgrade(config, "0003")
    assert {q: rows(empty_url, q) for q in before} == before
