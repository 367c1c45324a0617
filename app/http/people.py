"""People endpoints (contract v1.2 "People"): follows and followers, blocks, who may challenge
me, direct challenges (create, list, accept, decline with a reason, cancel), and the people
page. Every call names its player by X-Player-Token (a guest's too); none reveals who blocked
whom: a block is answered as any other refusal."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Request, Response
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, ConfigDict, Field

from ..clocks import clock_option
from ..persistence.challenges import ChallengeRow
from ..persistence.people_tables import CHALLENGES_FROM
from ..services.challenges import REASONS, Wanted
from ..services.players import PlayerRef
from ..services.social import Listed
from . import ratelimit
from .deps import CtxDep, PlayerTokenDep, TokenDep
from .links import link_base
from .pages import _page
from .schemas import ClockChoice, CreateMatch, ErrorBody

router = APIRouter()
ERRORS: dict[int | str, dict[str, Any]] = {
    401: {"model": ErrorBody, "description": "player_required, unknown_player, unauthorized"},
    403: {
        "model": ErrorBody,
        "description": "blocked, challenge_refused, not_your_challenge, missing_scope",
    },
    404: {"model": ErrorBody, "description": "No such player or challenge"},
    409: {"model": ErrorBody, "description": "too_many_follows, challenge_open, challenge_closed"},
    422: {"model": ErrorBody, "description": "invalid_request, invalid_reason"},
    429: {"model": ErrorBody, "description": "rate_limited, too_many_challenges"},
}
ChallengesFrom = Literal["everyone", "registered", "friends", "nobody"]
assert set(CHALLENGES_FROM) == {"everyone", "registered", "friends", "nobody"}


class PersonOut(BaseModel):
    player_id: str
    name: str
    online: bool
    playing: bool
    friend: bool  # a follow each way
    bot: bool = False  # a bot account (contract v1.2 "Bots")


class FollowsOut(BaseModel):
    following: list[PersonOut]
    followers: list[PersonOut]


class BlockedOut(BaseModel):
    player_id: str
    name: str
    since: str


class BlocksOut(BaseModel):
    blocked: list[BlockedOut]


class SettingsBody(BaseModel):
    model_config = ConfigDict(extra="forbid")

    challenges: ChallengesFrom


class SettingsOut(BaseModel):
    challenges: ChallengesFrom


class ChallengeBody(BaseModel):
    """A direct challenge: whom, which game and table, the challenger's seat, clock, rated."""

    model_config = ConfigDict(extra="forbid")

    to: str = Field(max_length=64)
    game: Literal["watergate", "nations"] = "watergate"
    players: int | None = Field(default=None, ge=1, le=8)
    role: str = Field(default="random", max_length=16)
    clock: ClockChoice = "none"
    rated: bool = False
    # Nations: the seats other than the two players' (open to invitees, or the computer)
    seats: dict[str, Literal["human", "bot"]] = Field(default_factory=dict, max_length=8)


class ChallengeMade(BaseModel):
    challenge_id: str
    match_id: str
    role: str
    seat_token: str
    invites: dict[str, str] = {}  # a table of more: the other open seats' links


class Who(BaseModel):
    player_id: str
    name: str


class ChallengeOut(BaseModel):
    challenge_id: str
    match_id: str
    challenger: Who
    target: Who
    game: str
    players: int
    clock: str
    rated: bool
    seat: str  # the target's seat
    status: str  # open | accepted | declined | canceled | expired
    reason: str | None
    created_at: str
    expires_at: str


class ChallengesOut(BaseModel):
    incoming: list[ChallengeOut]
    outgoing: list[ChallengeOut]


class Accepted(BaseModel):
    match_id: str
    role: str
    seat_token: str


class DeclineBody(BaseModel):
    model_config = ConfigDict(extra="forbid")

    reason: str = Field(default="generic", max_length=16, description=", ".join(REASONS))


def person(p: Listed) -> PersonOut:
    return PersonOut(
        player_id=p.player_id, name=p.name, online=p.online, playing=p.playing, friend=p.friend,
        bot=p.bot,
    )  # fmt: skip


def wire(row: ChallengeRow) -> ChallengeOut:
    return ChallengeOut(
        challenge_id=row.id, match_id=row.match_id,
        challenger=Who(player_id=row.challenger, name=row.challenger_name),
        target=Who(player_id=row.target, name=row.target_name),
        game=row.game, players=row.players, clock=row.clock, rated=row.rated,
        seat=row.target_seat, status=row.status, reason=row.reason,
        created_at=row.created_at.isoformat(), expires_at=row.expires_at.isoformat(),
    )  # fmt: skip


@router.get("/api/players/me/follows", response_model=FollowsOut, responses=ERRORS)
async def my_follows(ctx: CtxDep, player: PlayerTokenDep) -> FollowsOut:
    """Whom I follow and who follows me (at most 400 each), with status; friends marked."""
    found = await ctx.social.people(player)
    return FollowsOut(
        following=[person(p) for p in found.following],
        followers=[person(p) for p in found.followers],
    )


@router.put("/api/players/me/follows/{player_id}", status_code=204, responses=ERRORS)
async def follow(player_id: str, ctx: CtxDep, player: PlayerTokenDep) -> Response:
    """Follow a player (at most 400); following twice is once."""
    await ctx.social.follow(player, player_id[:65])
    return Response(status_code=204)


@router.delete("/api/players/me/follows/{player_id}", status_code=204, responses=ERRORS)
async def unfollow(player_id: str, ctx: CtxDep, player: PlayerTokenDep) -> Response:
    await ctx.social.unfollow(player, player_id[:65])
    return Response(status_code=204)


@router.get("/api/players/me/blocks", response_model=BlocksOut, responses=ERRORS)
async def my_blocks(ctx: CtxDep, player: PlayerTokenDep) -> BlocksOut:
    """The players I blocked, the newest first (only I see this list)."""
    found = await ctx.social.blocked(player)
    return BlocksOut(
        blocked=[BlockedOut(player_id=b.player_id, name=b.name, since=b.since) for b in found]
    )


@router.put("/api/players/me/blocks/{player_id}", status_code=204, responses=ERRORS)
async def block(player_id: str, ctx: CtxDep, player: PlayerTokenDep) -> Response:
    """Block a player: no challenges, joins, pairing, follows or chat between us; follows and
    open challenges between us end. Matches under way go on."""
    await ctx.social.block(player, player_id[:65])
    return Response(status_code=204)


@router.delete("/api/players/me/blocks/{player_id}", status_code=204, responses=ERRORS)
async def unblock(player_id: str, ctx: CtxDep, player: PlayerTokenDep) -> Response:
    await ctx.social.unblock(player, player_id[:65])
    return Response(status_code=204)


@router.get("/api/players/me/settings", response_model=SettingsOut, responses=ERRORS)
async def my_settings(ctx: CtxDep, player: PlayerTokenDep) -> SettingsOut:
    return SettingsOut(challenges=await ctx.social.settings(player))  # type: ignore[arg-type]


@router.patch("/api/players/me/settings", response_model=SettingsOut, responses=ERRORS)
async def settings(body: SettingsBody, ctx: CtxDep, player: PlayerTokenDep) -> SettingsOut:
    """Who may send me a direct challenge: everyone, registered players, friends, nobody."""
    await ctx.social.set_challenges(player, body.challenges)
    return SettingsOut(challenges=body.challenges)


async def actor(ctx: CtxDep, player: PlayerTokenDep, bearer: TokenDep) -> str | PlayerRef | None:
    """Who makes or answers a challenge: a player token's player, else a bot's API token's
    account (scope challenge:write; contract v1.2 "Bots")."""
    if player or not bearer:
        return player
    return await ctx.bot_play.account(bearer, "challenge:write")


ActorDep = Annotated[str | PlayerRef | None, Depends(actor)]


@router.post("/api/challenges", status_code=201, response_model=ChallengeMade, responses=ERRORS)
async def challenge(
    body: ChallengeBody, request: Request, ctx: CtxDep, player: ActorDep
) -> ChallengeMade:
    """Challenge a player (with a player token, or an API token of scope challenge:write): a
    waiting match with my seat taken and theirs kept for them; they are notified at once. 403
    challenge_refused by their setting (or a block); a bot account challenging another bot is
    also counted per bot (RATE_LIMIT_BOT_CHALLENGE, 429 rate_limited)."""
    await ratelimit.check(request, "challenge")  # beside "create": it reaches another person
    if (bot := await ctx.challenges.between_bots(player, body.to)) is not None:
        await ratelimit.check_key(request, "bot_challenge", bot)
    clock = clock_option(*CreateMatch(clock=body.clock).clock_choice())
    wanted = Wanted(
        body.to, body.game, body.players, body.role, body.clock, clock, body.rated, dict(body.seats)
    )
    made = await ctx.challenges.create(player, wanted)
    base = link_base(request, ctx.settings) + "/invite/"
    return ChallengeMade(
        challenge_id=made.challenge_id, match_id=made.taken.match_id, role=made.taken.seat,
        seat_token=made.taken.seat_token,
        invites={seat: base + code for seat, code in made.taken.invites.items()},
    )  # fmt: skip


@router.get("/api/challenges", response_model=ChallengesOut, responses=ERRORS)
async def challenges(ctx: CtxDep, player: PlayerTokenDep) -> ChallengesOut:
    """My open incoming challenges, and my outgoing ones (open, or answered in the last day);
    at most 50 each, the newest first."""
    incoming, outgoing = await ctx.challenges.listed(player)
    return ChallengesOut(incoming=[wire(r) for r in incoming], outgoing=[wire(r) for r in outgoing])


@router.post("/api/challenges/{challenge_id}/accept", response_model=Accepted, responses=ERRORS)
async def accept(challenge_id: str, ctx: CtxDep, player: ActorDep) -> Accepted:
    """Take my seat of the challenge's match (with a player token, or a bot's API token)."""
    taken = await ctx.challenges.accept(player, challenge_id[:65])
    return Accepted(match_id=taken.match_id, role=taken.seat, seat_token=taken.seat_token)


@router.post("/api/challenges/{challenge_id}/decline", status_code=204, responses=ERRORS)
async def decline(
    challenge_id: str, ctx: CtxDep, player: ActorDep, body: DeclineBody | None = None
) -> Response:
    """Decline with a reason (generic, later, too_fast, too_slow, rated, casual, game)."""
    await ctx.challenges.decline(player, challenge_id[:65], body.reason if body else "generic")
    return Response(status_code=204)


@router.post("/api/challenges/{challenge_id}/cancel", status_code=204, responses=ERRORS)
async def cancel(challenge_id: str, ctx: CtxDep, player: ActorDep) -> Response:
    """The challenger takes the challenge back (with a player token, or a bot's API token)."""
    await ctx.challenges.cancel(player, challenge_id[:65])
    return Response(status_code=204)


@router.get("/people", response_class=HTMLResponse, include_in_schema=False)
async def people_page(request: Request) -> HTMLResponse:
    """Who I follow (with status), my followers, whom I blocked, who may challenge me, and my
    challenges."""
    return _page(request, "people.html", page="people")
