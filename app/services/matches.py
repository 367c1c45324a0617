"""Use cases: create a match (against a friend or the computer) and claim an invite, each with
the player (X-Player-Token) recorded on the seat taken, or as a guest without one."""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from typing import Any

from starlette.concurrency import run_in_threadpool

from engine.core.fairness import commitment
from engine.registry import get_game

from ..auth import new_invite_code, new_match_id, new_seed, new_token, token_hash
from ..errors import ApiError, checked_id, not_found
from ..games import choose_seat
from ..logs import fields
from ..persistence import repository as repo
from ..persistence.cache import fresh_entry, read_info
from ..persistence.models import Match
from ..push.changes import MatchChanged
from .core import Core
from .players import player_of

log = logging.getLogger("watergate.matches")


@dataclass(frozen=True)
class SeatTaken:
    """A seat just taken: its match, its name and its secret token (and an invite to share)."""

    match_id: str
    seat: str
    seat_token: str
    invite_code: str | None = None


def new_row(core: Core, game_id: str, options: dict[str, Any], kinds: dict[str, str]) -> Match:
    """A fresh match row: new id, seed (with its commitment) and spectator key; active at once
    against a bot, waiting for the second person otherwise."""
    vs_bot = "bot" in kinds.values()
    game = get_game(game_id)
    match_id, seed = new_match_id(), new_seed()
    return Match(
        id=match_id,
        game=game.id,
        seed=seed,
        commitment=commitment(match_id, seed),  # published from the first view, never changed
        rules_version=game.rules_version,
        options=options,
        spectator_key=new_invite_code(),
        activated_at=core.stamp() if vs_bot else None,
        status="active" if vs_bot else "waiting",
        version=0,
        round=1,
    )


class Matches:
    def __init__(self, core: Core) -> None:
        self.core = core

    async def create(
        self,
        game_id: str,
        role: str,
        opponent: str,
        clock: dict[str, Any] | None,
        player: str | None = None,
    ) -> SeatTaken:
        """Create a match of `game_id` and take a seat in it (as the player whose token is
        `player`)."""
        mine = choose_seat(game_id, role)  # before any write: a bad role costs nothing
        made = await run_in_threadpool(self._create, game_id, mine, opponent, clock, player)
        await self.core.publish(MatchChanged(made.match_id))  # wakes a bot that moves first
        log.info(
            "match created",
            extra=fields(match_id=made.match_id, game=game_id, seat=made.seat, opponent=opponent),
        )
        return made

    def _create(
        self,
        game_id: str,
        mine: str,
        opponent: str,
        clock: dict[str, Any] | None,
        player: str | None,
    ) -> SeatTaken:
        game = get_game(game_id)
        theirs = next(s for s in game.seats if s != mine)
        kinds = {s: "human" if s == mine or opponent == "human" else "bot" for s in game.seats}
        token, code = new_token(), new_invite_code() if opponent == "human" else None
        options = {"opponent": opponent, **({"clock": clock} if clock else {})}
        match = new_row(self.core, game.id, options, kinds)
        with self.core.db.write() as db:
            me = player_of(db, player)
            repo.add_match(db, match)
            repo.add_seats(
                db, match.id, kinds, {mine: token_hash(token)}, {mine: me.id if me else None}
            )
            if code is not None:
                repo.add_invite(db, code, match.id, theirs)
            info = read_info(db, match)
        self.core.cache.put_info(info)
        self.core.cache.put_entry(
            fresh_entry(match.id, match.game, match.seed, match.rules_version).warm()
        )
        self.core.cache.put_token(match.id, token_hash(token), mine)
        return SeatTaken(match.id, mine, token, code)

    async def claim(self, code: str, player: str | None = None) -> SeatTaken:
        """Seat the invited person (as the player whose token is `player`); exactly one claim
        of a code succeeds."""
        made = await run_in_threadpool(self._claim, code, player)
        await self.core.publish(MatchChanged(made.match_id))  # the creator learns it is on
        return made

    def _claim(self, code: str, player: str | None) -> SeatTaken:
        token = new_token()
        with self.core.db.write() as db:
            me = player_of(db, player)
            invite = repo.get_invite(db, checked_id(code, "invite"))
            if invite is None:
                raise not_found("invite")
            mine = me.id if me else None
            if mine and any(s.player == mine for s in repo.seats_of(db, invite.match_id)):
                # the creator opened their own link: claiming would hand them both seats
                raise ApiError(409, "own_invite", "This is your own invite: send it to a friend.")
            if not repo.claim_invite(db, code, self.core.stamp()):
                raise ApiError(409, "invite_claimed", "This invite link has already been used.")
            if not repo.claim_seat(db, invite.match_id, invite.seat, token_hash(token), mine):
                raise ApiError(409, "invite_claimed", "This invite link has already been used.")
            match = repo.match_row(db, invite.match_id, lock=True)
            assert match is not None
            if match.status == "waiting":
                now = self.core.stamp()
                repo.activate(db, match.id, now)
                match = replace(match, status="active", activated_at=now)
            seat, info = invite.seat, read_info(db, match)
        self.core.cache.put_info(info)
        self.core.cache.put_token(info.match_id, token_hash(token), seat)
        return SeatTaken(info.match_id, seat, token)
