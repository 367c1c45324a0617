"""Wire shapes of accounts, ratings, the leaderboard and "my games" (pydantic)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from .schemas import PlayedOut, SeatPlayer


class SignUpBody(BaseModel):
    """Checked by the accounts service (422 invalid_username / password_too_short / _long)."""

    model_config = ConfigDict(extra="forbid")

    username: str = Field(max_length=64, description="3-20 of A-Z a-z 0-9 _ -; unique (any case)")
    password: str = Field(max_length=1024, description="At least 10 characters.")
    name: str | None = Field(
        default=None, max_length=256, description="A new player's shown name (the username)."
    )


class SignInBody(BaseModel):
    model_config = ConfigDict(extra="forbid")

    username: str = Field(max_length=64)
    password: str = Field(max_length=1024)


class PasswordBody(BaseModel):
    model_config = ConfigDict(extra="forbid")

    old_password: str = Field(max_length=1024)
    new_password: str = Field(max_length=1024)


class DeleteBody(BaseModel):
    model_config = ConfigDict(extra="forbid")

    password: str | None = Field(default=None, max_length=1024, description="With an account.")


class SignedInOut(BaseModel):
    player_id: str
    name: str
    username: str
    player_token: str = Field(description="This device's secret: send it as X-Player-Token.")


class SessionOut(BaseModel):
    session_id: str
    created_at: str
    current: bool


class AccountOut(BaseModel):
    player_id: str
    name: str
    username: str | None
    sessions: list[SessionOut]


class RatingOut(BaseModel):
    rating: float
    rd: float
    provisional: bool
    games: int


class RoleOut(BaseModel):
    games: int
    wins: int


class ProfileOut(BaseModel):
    """GET /api/players/{id} (contract v1.1), with ratings per game and the record per role."""

    player_id: str
    name: str
    games: int
    wins: int
    recent: list[PlayedOut]
    rating: dict[str, RatingOut] | None = Field(
        default=None, description="Per game (matches.game); accounts only."
    )
    roles: dict[str, RoleOut] = Field(default_factory=dict)
    reliability: int | None = Field(
        default=None,
        description="Issue 43: the finished share (0-100) of the player's last 50 ended games "
        "(not let run out of time in a live game, nor abandoned); absent below 5 games.",
    )
    bot: bool | None = Field(default=None, description="v1.2: a bot account (marked BOT).")


class PointOut(BaseModel):
    match_id: str
    rating: float
    rd: float
    at: str


class HistoryOut(BaseModel):
    game: str
    points: list[PointOut]


class RankedOut(BaseModel):
    rank: int
    player_id: str
    name: str
    rating: float
    rd: float
    provisional: bool
    games: int
    bot: bool = False  # a bot account (contract v1.2 "Bots"): on the bots' board only


class LeaderboardOut(BaseModel):
    game: str
    board: Literal["humans", "bots"] = "humans"
    total: int
    offset: int
    players: list[RankedOut]


class MyMatchOut(BaseModel):
    match_id: str
    game: str
    role: str
    status: Literal["waiting", "active"]
    your_turn: bool
    rated: bool
    opponent: SeatPlayer | None  # v1: the other seat (at a table, the first other one)
    opponents: list[SeatPlayer] = []  # v1.2: every other seat, in seat order
    updated_at: str | None = None  # issue 42: its last move (ISO 8601 UTC)


class MyGamesOut(BaseModel):
    ongoing: list[MyMatchOut]
    recent: list[PlayedOut]
