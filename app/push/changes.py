"""The typed changes services publish after a commit. Each names a match and what kind of thing
changed; none carries game data, so they may cross Redis. The push layer turns each into frames."""

from __future__ import annotations

import json
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Moved:
    """An action was accepted: the match is now at `version`."""

    match_id: str
    version: int


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


Change = Moved | MatchChanged | PresenceChanged | Deleted


def encode(change: Change, origin: str) -> str:
    """The change as a Redis message, tagged with the publishing process."""
    match change:
        case Moved(match_id, version):
            body: dict[str, object] = {"kind": "moved", "match_id": match_id, "version": version}
        case MatchChanged(match_id):
            body = {"kind": "changed", "match_id": match_id}
        case PresenceChanged(match_id, seat, left_at):
            body = {"kind": "presence", "match_id": match_id, "seat": seat, "left_at": left_at}
        case Deleted(match_id):
            body = {"kind": "deleted", "match_id": match_id}
    return json.dumps({"origin": origin, **body}, separators=(",", ":"))


def decode(text: str | bytes) -> tuple[Change, str]:
    """(change, origin) from a Redis message; ValueError/KeyError/TypeError when malformed."""
    data = json.loads(text)
    kind, match_id, origin = data["kind"], str(data["match_id"]), str(data["origin"])
    change: Change
    if kind == "moved":
        change = Moved(match_id, int(data["version"]))
    elif kind == "changed":
        change = MatchChanged(match_id)
    elif kind == "presence":
        left = data.get("left_at")
        change = PresenceChanged(match_id, str(data["seat"]), None if left is None else float(left))
    elif kind == "deleted":
        change = Deleted(match_id)
    else:
        raise ValueError(f"unknown change {kind!r}")
    return change, origin
