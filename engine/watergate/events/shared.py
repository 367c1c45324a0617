"""What every event record shares: the visibility vocabulary and the token payload they carry."""

from __future__ import annotations

from typing import Literal, NamedTuple, assert_never

from ...core.game import Viewer

Fields = tuple[str, ...]  # names of a record's fields, in the order the log writes them
Face = Literal["up", "down"]

# Who may read the colours of a face-down token an event carries (a face-up one is read by all):
# "everyone"; "nixon" alone; "seats" (both players, not a spectator); "peeked" (Nixon, and the
# Editor when it had peeked at that token).
Sight = Literal["everyone", "nixon", "seats", "peeked"]


class TokenPayload(NamedTuple):
    """A token as an event records it. The data id and, for face-down tokens, the colours are for
    the admin; a seat reads them only as its event's `face_down` sight allows."""

    handle: int
    id: str
    colors: tuple[str, ...]
    momentum_symbol: bool
    face: Face


def sees_face_down(sight: Sight, viewer: Viewer, peeked: bool) -> bool:
    """Whether `viewer` may read a face-down token's colours under `sight`."""
    if viewer == "nixon":
        return True  # Nixon draws and places every track token (R1)
    match sight:
        case "everyone":
            return True
        case "nixon":
            return False
        case "seats":
            return viewer is not None
        case "peeked":
            return peeked and viewer == "editor"
        case _:
            assert_never(sight)
