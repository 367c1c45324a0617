"""Wire shapes of requests and responses (pydantic); never ORM rows."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

ClockChoice = Literal["none", "realtime-15", "realtime-30", "turn-1", "turn-3"]


class CreateMatch(BaseModel):
    model_config = ConfigDict(extra="forbid")

    game: Literal["watergate", "nations"] = "watergate"
    # a seat of the chosen game or "random", checked against the game (422 invalid_role)
    role: str = Field(default="random", max_length=16)
    opponent: Literal["human", "bot"] = "human"
    clock: ClockChoice = "none"
    # how well the computer plays (docs/levels.md); kept only for a match against it
    level: Literal["easy", "normal", "hard"] = "normal"
    rated: bool = Field(
        default=False, description="Rated (Glicko-2): both seats must be accounts; not vs bot."
    )
    # public: listed in the lobby as a challenge (needs X-Player-Token); private: by invite only
    visibility: Literal["private", "public"] = "private"
    # contract v1.2, tables of N: the seat count (Nations 2-5, Watergate 2: 422 invalid_players),
    # who plays each other seat (a person by invite, or the computer at its level) and Nations'
    # difficulty per seat (NR6); seat names are checked against the match (422 invalid_request)
    players: int | None = Field(default=None, ge=1, le=8)
    seats: dict[str, Literal["human", "bot"]] = Field(default_factory=dict, max_length=8)
    levels: dict[str, Literal["easy", "normal", "hard"]] = Field(default_factory=dict, max_length=8)
    handicaps: dict[str, Literal["chieftain", "prince", "king", "emperor"]] = Field(
        default_factory=dict, max_length=8
    )
    # contract v1.2, rules editions: an unrated match may be played under any published rules
    # version of its game (422 invalid_rules_version for an unknown one, or a rated match asking
    # for other than the current); none: the current
    rules_version: str | None = Field(default=None, max_length=16)

    def clock_choice(self) -> tuple[str | None, int | None]:
        """("realtime", 15) etc., or (None, None) for a correspondence match without clocks."""
        if self.clock == "none":
            return None, None
        kind, amount = self.clock.split("-")
        return kind, int(amount)


class Created(BaseModel):
    match_id: str
    role: str  # a seat name of the match's game
    seat_token: str
    invite_url: str | None  # the first open seat's link (v1)
    invites: dict[str, str] = Field(
        default_factory=dict, description="v1.2: seat -> invite link, for every open human seat."
    )


class Claimed(BaseModel):
    match_id: str
    role: str  # a seat name of the match's game
    seat_token: str


class NameBody(BaseModel):
    """A player's name; checked by the players service (422 invalid_name), not here, so that
    every bad name is told apart by the same code."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(description="1-24 visible characters after trimming; no < or >.")


class PlayerCreated(BaseModel):
    player_id: str
    name: str
    player_token: str = Field(description="The player's secret: send it as X-Player-Token.")


class PlayerName(BaseModel):
    player_id: str
    name: str


class SeatPlayer(BaseModel):
    """A seat as views show it under "players"."""

    kind: Literal["human", "bot"]
    name: str | None
    player_id: str | None = None
    level: Literal["easy", "normal", "hard"] | None = None  # the computer's
    rating: int | None = None  # an account's in the match's game; the computer level's fixed one
    # v1.2: the computer took this seat of a table over from a person who left it
    replaced: bool | None = None
    left: Literal["resigned", "timeout", "abandoned"] | None = None
    left_by: str | None = None  # the leaver's name, as the seat showed it
    bot: bool | None = None  # v1.2: the player is a bot account (marked BOT)


class PlayedOut(BaseModel):
    match_id: str
    role: str
    result: Literal["win", "loss"]
    opponent: SeatPlayer  # v1: the other seat (at a table, the first other one)
    opponents: list[SeatPlayer] = []  # v1.2: every other seat, in seat order
    game: str = "watergate"  # issue 42: which game, and when it ended (ISO 8601 UTC)
    ended_at: str | None = None


class SubmitAction(BaseModel):
    model_config = ConfigDict(extra="forbid")

    action: Any = Field(description="One object taken from legal_actions, as given.")
    expected_version: int | None = Field(default=None, ge=0, le=1_000_000)


class ErrorBody(BaseModel):
    code: str
    message: str


class MatchView(BaseModel):
    """A seat's view (documentation only: the server writes it as JSON text)."""

    match_id: str
    role: str | None
    status: Literal["waiting", "active", "finished"]
    version: int
    state: dict[str, Any]
    legal_actions: list[dict[str, Any]]
    log: list[dict[str, Any]]
    winner: str | None


class AdminMatchRow(BaseModel):
    match_id: str
    status: str
    version: int
    round: int
    winner: str | None
    win_reason: str | None
    editor_kind: str
    nixon_kind: str
    game: str = Field("watergate", description="The match's game (v1.1 Games).")
    kinds: dict[str, str] = Field(
        default_factory=dict, description="Seat name -> human | bot, for every game's seats."
    )
    created_at: str
    updated_at: str
    players: dict[str, dict[str, Any]] = Field(
        default_factory=dict, description="Who sits where: kind, name, player_id (v1.1)."
    )


class Health(BaseModel):
    status: str
