"""The typed changes services publish after a commit. Each names a match and what kind of thing
changed; none carries game data, so they may cross Redis. The push layer turns each into frames."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Moved:
    """An action was accepted: the match is now at `version`, by `seat`'s action, which arrived
    on its server at `arrived` (epoch seconds), so every process can time its push."""

    match_id: str
    version: int
    seat: str | None = None
    arrived: float | None = None


@dataclass(frozen=True, slots=True)
class MatchChanged:
    """The match row changed outside the rules (claimed, resigned, timed out, rematch, abort)."""

    match_id: str


@dataclass(frozen=True, slots=True)
class PresenceChanged:
    """A seat's socket came or went; `left_at` (epoch seconds) when its last one closed."""

    match_id: str
    seat: str
    left_at: float | None = None


@dataclass(frozen=True, slots=True)
class Deleted:
    """The match is gone: forget it, its seat tokens stop working, its sockets are closed."""

    match_id: str


@dataclass(frozen=True, slots=True)
class LobbyChanged:
    """A challenge opened or left the lobby (`match_id` is its match): every lobby socket is due
    the list again."""

    match_id: str


@dataclass(frozen=True, slots=True)
class Chatted:
    """A chat line was stored for the match: public to its seats and spectators alike, so the
    line itself may cross Redis."""

    match_id: str
    role: str
    name: str
    text: str
    at: float
    phrase: str | None = None
    line_id: int = 0  # the stored line's id (a process that read it already skips it)
    # issue 43: who wrote it; marked by a word list (only its writer's seat gets it); the seats
    # whose players are kept apart from the writer by a block (they do not get it)
    player: str | None = None
    hidden: bool = False
    apart: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Notified:
    """A notification was stored for a player (its row id): that player's bell sockets, on
    every process, are due it. Not about a match; it carries no content, only the ids."""

    player_id: str
    notification_id: int


@dataclass(frozen=True, slots=True)
class TournamentChanged:
    """A tournament's standings, games or status changed: its page's sockets, on every process,
    are due it again (issue 46). Not about a match; it carries only the id."""

    tournament_id: str


Change = (
    Moved | MatchChanged | PresenceChanged | Deleted | LobbyChanged | Chatted | Notified
    | TournamentChanged
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class Message:
    """A change as it crossed Redis: from which process, published when (epoch seconds)."""

    change: Change
    origin: str
    sent_at: float | None = None  # None from a process that predates it (a rolling restart)


def encode(change: Change, origin: str, sent_at: float | None = None) -> str:
    """The change as a Redis message, tagged with the publishing process and the time."""
    match change:
        case Moved(match_id, version, seat, arrived):
            body: dict[str, object] = {
                "kind": "moved", "match_id": match_id, "version": version, "seat": seat,
                "arrived": arrived,
            }  # fmt: skip
        case MatchChanged(match_id):
            body = {"kind": "changed", "match_id": match_id}
        case PresenceChanged(match_id, seat, left_at):
            body = {"kind": "presence", "match_id": match_id, "seat": seat, "left_at": left_at}
        case Deleted(match_id):
            body = {"kind": "deleted", "match_id": match_id}
        case LobbyChanged(match_id):
            body = {"kind": "lobby", "match_id": match_id}
        case Chatted(match_id, role, name, text, at, phrase, line_id, player, hidden, apart):
            body = {
                "kind": "chat", "match_id": match_id, "role": role, "name": name, "text": text,
                "at": at, "phrase": phrase, "line_id": line_id, "player": player,
                "hidden": hidden, "apart": list(apart),
            }  # fmt: skip
        case Notified(player_id, notification_id):
            body = {"kind": "notified", "player_id": player_id, "id": notification_id}
        case TournamentChanged(tournament_id):
            body = {"kind": "tournament", "tournament_id": tournament_id}
    sent = time.time() if sent_at is None else sent_at
    return json.dumps({"origin": origin, "sent_at": sent, **body}, separators=(",", ":"))


def _number(value: Any) -> float | None:
    return None if value is None else float(value)


def decode(text: str | bytes) -> Message:
    """The message from Redis; ValueError/KeyError/TypeError when malformed."""
    data = json.loads(text)
    kind, origin = data["kind"], str(data["origin"])
    change: Change
    if kind == "notified":
        change = Notified(str(data["player_id"]), int(data["id"]))
        return Message(change, origin, _number(data.get("sent_at")))
    if kind == "tournament":
        change = TournamentChanged(str(data["tournament_id"]))
        return Message(change, origin, _number(data.get("sent_at")))
    match_id = str(data["match_id"])
    if kind == "moved":
        seat = data.get("seat")
        change = Moved(
            match_id, int(data["version"]), None if seat is None else str(seat),
            _number(data.get("arrived")),
        )  # fmt: skip
    elif kind == "changed":
        change = MatchChanged(match_id)
    elif kind == "presence":
        change = PresenceChanged(match_id, str(data["seat"]), _number(data.get("left_at")))
    elif kind == "deleted":
        change = Deleted(match_id)
    elif kind == "lobby":
        change = LobbyChanged(match_id)
    elif kind == "chat":
        phrase = data.get("phrase")
        change = Chatted(
            match_id, str(data["role"]), str(data["name"]), str(data["text"]), float(data["at"]),
            None if phrase is None else str(phrase), int(data.get("line_id") or 0),
            None if data.get("player") is None else str(data["player"]),
            bool(data.get("hidden")), tuple(str(seat) for seat in data.get("apart") or ()),
        )  # fmt: skip
    else:
        raise ValueError(f"unknown change {kind!r}")
    return Message(change, origin, _number(data.get("sent_at")))
