"""The wire shape of a seat's view (product.md): built as JSON text with the seat's log entries
spliced in from per-event strings cached in the store, so a push costs no re-serialisation."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from engine.watergate import Role, legal_actions
from engine.watergate.views import view_for

from .models import Match
from .store import Entry


@dataclass(frozen=True)
class MatchInfo:
    """What the views need from the match row."""

    match_id: str
    status: str  # waiting | active | finished
    editor_kind: str
    nixon_kind: str
    ended_by: str | None = None  # host (aborted) | the seat that resigned or ran out of time
    winner: str | None = None  # set when the match ended outside the rules (resign, time)
    win_reason: str | None = None
    options: dict[str, Any] = field(default_factory=dict)
    activated_at: float | None = None
    spectator_key: str | None = None
    rematch: dict[str, Any] | None = None  # {"offered_by", "match_id"} once offered

    @staticmethod
    def of(match: Match, rematch: dict[str, Any] | None = None) -> MatchInfo:
        return MatchInfo(
            match.id,
            match.status,
            match.editor_kind,
            match.nixon_kind,
            match.ended_by,
            match.winner,
            match.win_reason,
            dict(match.options or {}),
            match.activated_at.timestamp() if match.activated_at else None,
            match.spectator_key,
            rematch,
        )

    def kind(self, role: Role) -> str:
        return self.editor_kind if role == "editor" else self.nixon_kind


def view_dict(info: MatchInfo, entry: Entry, role: Role | None) -> dict[str, object]:
    """The view without its log; `role` None is a spectator (public information only)."""
    s = entry.state
    status = "finished" if s.winner is not None else info.status
    if status == "abandoned":
        status = "finished"
    return {
        "match_id": info.match_id,
        "role": role,
        "status": status,
        "version": entry.version,
        "state": view_for(s, role),
        "legal_actions": legal_actions(s, role) if status == "active" and role else [],
        "winner": s.winner or info.winner,
        "win_reason": s.win_reason or info.win_reason,
        "opponent": info.kind("nixon" if role == "editor" else "editor") if role else None,
        "ended_by": info.ended_by,
        "clock": info.options.get("clock"),
    }


def view_json(
    info: MatchInfo,
    entry: Entry,
    role: Role | None,
    message_type: str | None = None,
    extras: dict[str, object] | None = None,
) -> str:
    """The whole view as JSON text; `message_type` adds {"type": …} for websocket messages and
    `extras` adds live facts (presence, clocks, rematch) that are not part of the match state."""
    body = view_dict(info, entry, role)
    if extras:
        body.update(extras)
    if message_type is not None:
        body = {"type": message_type, **body}
    head = json.dumps(body, separators=(",", ":"))
    log = entry.log_json[role]
    if info.ended_by and not entry.state.winner:  # resigned, out of time, aborted, abandoned
        ended = {
            "type": "match_ended",
            "reason": info.win_reason or info.ended_by,
            "role": info.ended_by,
            "winner": info.winner,
        }
        log = (*log, json.dumps(ended, separators=(",", ":")))
    return head[:-1] + ',"log":[' + ",".join(log) + "]}"
