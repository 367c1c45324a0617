"""Replays of stored matches: the state after any prefix of the actions (admin step-through and
players' replays of finished matches), exports with a fingerprint per action, and verifying one."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from engine.core.errors import EngineError
from engine.registry import DEFAULT_GAME, AnyGame, game_ids, get_game

from ..errors import ApiError, checked_id, not_found
from ..games import configured, start_match
from ..persistence import repository as repo
from ..persistence.db import Database
from ..persistence.records import Ending, SeatInfo, seat_info

ENDED = ("finished", "abandoned")  # row statuses of an ended match (views say "finished" for both)


@dataclass(frozen=True)
class Stored:
    """A match as stored: what replays it."""

    match_id: str
    game: str
    seed: int
    rules_version: str
    options: dict[str, Any]
    actions: tuple[tuple[int, str, Any, str], ...]  # (seq, seat, action JSON, created_at ISO)
    commitment: str
    status: str  # waiting | active | finished | abandoned
    version: int
    ending: Ending  # as the row records it (winner, reason, who ended it outside the rules)
    seats: tuple[SeatInfo, ...] = ()  # who played, with the players' names as they are now

    @property
    def ended(self) -> bool:
        return self.status in ENDED


def stored(database: Database, match_id: str, *, ended: bool = False) -> Stored:
    """The match as stored; with `ended`, a match that has not ended is not found either, told
    before its actions are read (a live match takes no longer to refuse than a missing one)."""
    with database.reader() as db:
        match = repo.get_match(db, checked_id(match_id))
        if match is None or (ended and match.status not in ENDED):
            raise not_found()
        rows = repo.actions_between(db, match.id, 0, None)
        seats = repo.seats_of(db, match.id)
        return Stored(
            match.id,
            match.game,
            match.seed,
            match.rules_version,
            dict(match.options or {}),
            tuple((a.seq, a.role, a.action, a.created_at.isoformat()) for a in rows),
            match.commitment,
            match.status,
            match.version,
            Ending(match.status, match.winner, match.win_reason, match.ended_by),
            tuple(seat_info(s, match.options) for s in seats),
        )


def full_log(game: AnyGame, events: Any) -> list[Any]:
    """Every event, nothing hidden (the admin's log), as the game writes it for the admin."""
    return game.events_to_json(tuple(events))


def step(match: Stored, k: int) -> dict[str, Any]:
    """The match after its first k actions, everything shown (built by replay)."""
    game = get_game(match.game)
    k = max(0, min(k, len(match.actions)))
    done = start_match(match.game, match.seed, match.rules_version, match.options)
    state, events = done.state, done.events
    for _, seat, action, _ in match.actions[:k]:
        state, events = game.apply(state, seat, action)
    outcome = game.outcome(state)
    last = match.actions[k - 1] if k else None
    return {
        "match_id": match.match_id,
        "rules_version": match.rules_version,  # the browser words its cards as this version
        "step": k,
        "steps": len(match.actions),
        "action": {"seq": last[0], "role": last[1], "action": last[2]} if last else None,
        "view": game.open_view(state),
        "events": full_log(game, events),  # everything is shown in a step-through
        "winner": outcome.winners[0] if outcome and outcome.winners else None,
        "win_reason": outcome.reason if outcome else None,
        "players": {s.name: s.wire_player() for s in match.seats},
    }


def digest(game: AnyGame, state: Any) -> str:
    """A short fingerprint of a whole state (for export/verify)."""
    return hashlib.sha256(game.describe(state).encode()).hexdigest()[:16]


def export(match: Stored) -> dict[str, Any]:
    """Everything needed to rebuild the match, with a fingerprint after every action."""
    game = get_game(match.game)
    state = start_match(match.game, match.seed, match.rules_version, match.options).state
    steps = []
    for seq, seat, action, _ in match.actions:
        state = game.apply(state, seat, action).state
        steps.append({"seq": seq, "role": seat, "action": action, "digest": digest(game, state)})
    return {
        "format": "watergate-match/1",
        "game": match.game,
        "match_id": match.match_id,
        "seed": match.seed,
        "rules_version": match.rules_version,
        "options": match.options,
        "length": len(steps),  # so a shortened export is caught
        "actions": steps,
    }


def verify(data: dict[str, Any]) -> dict[str, Any]:
    """Replay an export: 'replays identically', or the first action where it diverges and why."""
    game_id = data.get("game", DEFAULT_GAME)  # exports before v1.1 name no game: Watergate's
    if not isinstance(game_id, str) or game_id not in game_ids():
        raise ApiError(422, "invalid_export", "An export's game must be one this site plays.")
    game = get_game(game_id)
    seed, actions = data.get("seed"), data.get("actions")
    if type(seed) is not int or not isinstance(actions, list) or "rules_version" not in data:
        raise ApiError(
            422, "invalid_export", "An export needs rules_version, an integer seed and actions."
        )
    try:  # every rules version the game still knows replays under its own rules and generator
        given = data.get("options")
        options: dict[str, Any] = given if isinstance(given, dict) else {}
        state = start_match(game_id, seed, str(data["rules_version"]), options).state
        seats = configured(game_id, options).seats
    except ValueError as err:  # an unknown rules version, or a seed its generator cannot take
        return {"ok": False, "seq": 0, "reason": str(err)}
    for i, record in enumerate(actions, start=1):
        if not isinstance(record, dict) or record.get("role") not in seats:
            return {"ok": False, "seq": i, "reason": "not an action record"}
        try:
            state = game.apply(state, record["role"], record.get("action")).state
        except EngineError as err:
            return {"ok": False, "seq": i, "reason": f"{err.code}: {err.message}"}
        if "digest" in record and record["digest"] != digest(game, state):
            return {"ok": False, "seq": i, "reason": "the state after this action differs"}
    # every action replayed: a shortened export is caught by the count it names
    length = data.get("length")
    if length is not None and length != len(actions):
        return {
            "ok": False,
            "seq": min(len(actions), int(length)) if type(length) is int else 0,
            "reason": f"the export names {length} actions but holds {len(actions)}",
        }
    outcome = game.outcome(state)
    return {
        "ok": True,
        "seq": len(actions),
        "reason": "replays identically",
        "winner": outcome.winners[0] if outcome and outcome.winners else None,
        "version": game.version(state),
    }
