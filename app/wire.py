"""The wire shape of a seat's view (product.md): built as JSON text with the seat's log entries
spliced in from per-event strings cached in the store, so a push costs no re-serialisation."""

from __future__ import annotations

import json
from dataclasses import dataclass

from engine import Role, legal_actions
from engine.views import view_for

from .models import Match
from .store import Entry


@dataclass(frozen=True)
class MatchInfo:
    """What the views need from the match row."""

    match_id: str
    status: str  # waiting | active | finished
    editor_kind: str
    nixon_kind: str
    ended_by: str | None = None

    @staticmethod
    def of(match: Match) -> MatchInfo:
        return MatchInfo(
            match.id, match.status, match.editor_kind, match.nixon_kind, match.ended_by
        )

    def kind(self, role: Role) -> str:
        return self.editor_kind if role == "editor" else self.nixon_kind


def view_dict(info: MatchInfo, entry: Entry, role: Role) -> dict[str, object]:
    """The view without its log."""
    s = entry.state
    status = "finished" if s.winner is not None else info.status
    return {
        "match_id": info.match_id,
        "role": role,
        "status": status,
        "version": entry.version,
        "state": view_for(s, role),
        "legal_actions": legal_actions(s, role) if status == "active" else [],
        "winner": s.winner,
        "win_reason": s.win_reason,
        "opponent": info.kind("nixon" if role == "editor" else "editor"),
        "ended_by": info.ended_by,
    }


def view_json(info: MatchInfo, entry: Entry, role: Role, message_type: str | None = None) -> str:
    """The whole view as JSON text; `message_type` adds {"type": …} for websocket messages."""
    body = view_dict(info, entry, role)
    if message_type is not None:
        body = {"type": message_type, **body}
    head = json.dumps(body, separators=(",", ":"))
    return head[:-1] + ',"log":[' + ",".join(entry.log_json[role]) + "]}"
