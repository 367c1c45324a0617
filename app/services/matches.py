"""Use cases: create a match (against a friend or the computer; public ones are listed in the
lobby) and take the invited seat, by its link or from the lobby, each with the player
(X-Player-Token) recorded on the seat taken, or as a guest without one."""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.orm import Session
from starlette.concurrency import run_in_threadpool

from engine.core.fairness import commitment
from engine.core.lessons import Lesson
from engine.registry import get_game

from ..auth import new_invite_code, new_match_id, new_seed, new_token, token_hash
from ..errors import ApiError, checked_id, not_found
from ..games import check_handicaps, choose_seat, seats_of
from ..logs import fields
from ..persistence import blocks
from ..persistence import lobby as lobby_repo
from ..persistence import repository as repo
from ..persistence.cache import fresh_entry, read_info
from ..persistence.models import Match
from ..persistence.records import DEFAULT_LEVEL, PlayerRow
from ..push.changes import LobbyChanged, MatchChanged
from .core import Core
from .players import PlayerRef, player_of, whose
from .ratings import check_may_sit
from .reliability import rated_scope, refuse_banned
from .seating import BY_LINK, FROM_LOBBY, Seating, take_seat

log = logging.getLogger("watergate.matches")
# Written in a new match's own transaction (a direct challenge's row and its notification):
# (session, the creator, the match id, the creator's seat, the open seats' invite codes).
AlsoWrite = Callable[[Session, PlayerRow | None, str, str, dict[str, str]], None]


@dataclass(frozen=True)
class SeatTaken:
    """A seat just taken: its match, its name and its secret token (and the invites to share:
    one per open human seat, seat -> code, the first also as `invite_code`)."""

    match_id: str
    seat: str
    seat_token: str
    invite_code: str | None = None
    listed: bool = False  # the match opened or left the lobby with it, or its open seats changed
    invites: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Table:
    """Who sits where in a new match (contract v1.2): the seats in order, each seat's kind, the
    computer's level per computer seat and, for Nations, each seat's difficulty (NR6)."""

    seats: tuple[str, ...]
    kinds: dict[str, str]
    levels: dict[str, str]
    handicaps: dict[str, str]

    @property
    def open(self) -> tuple[str, ...]:
        """The seats people still have to take (the creator's is taken as it is made)."""
        return tuple(s for s in self.seats if self.kinds[s] == "human")


def plan_table(
    game_id: str,
    mine: str,
    seats: tuple[str, ...],
    opponent: str,
    asked: dict[str, str],
    levels: dict[str, str],
    level: str,
    handicaps: dict[str, str],
) -> Table:
    """The table a creation asks for: every other seat a person unless `asked` (or v1's
    `opponent: bot`, for every other seat) makes it the computer; 422 for a seat the match does
    not have or the creator's own."""
    others = tuple(s for s in seats if s != mine)
    for seat in (*asked, *levels):
        if seat not in others:
            raise ApiError(
                422,
                "invalid_request",
                f"seats and levels name the other seats: {', '.join(others)}.",
            )
    check_handicaps(game_id, seats, handicaps)
    kinds = {s: "human" if s == mine else asked.get(s, opponent) for s in seats}
    bots = {s: levels.get(s, level) for s in seats if kinds[s] == "bot"}
    return Table(seats, kinds, bots, dict(handicaps))


def blocked() -> ApiError:
    """A block between two players (either way): the answer never says who blocked whom."""
    return ApiError(403, "blocked", "You cannot play with this player.")


def chosen_edition(
    game_id: str, asked: str | None, rated: bool, lesson: Lesson | None
) -> str | None:
    """The rules version a new match asked for, if any: a published one of its game (the game
    knows the generator of each), and for a rated match only the current one, so a rating is
    always earned under today's rules. A lesson plays the rules it was written for."""
    if asked is None or lesson is not None:
        return None
    game = get_game(game_id)
    try:
        if not asked:  # the engine reads "" as "the current version"; the wire means nothing
            raise ValueError(asked)
        game.deal_algorithm(asked)
    except ValueError:
        raise ApiError(
            422, "invalid_rules_version", f"{game_id} has no rules version {asked!r}."
        ) from None
    if rated and asked != game.rules_version:
        raise ApiError(
            422,
            "invalid_rules_version",
            f"A rated match is played by the current rules (version {game.rules_version}).",
        )
    return asked


def bot_not_allowed() -> ApiError:
    """A bot account in the lobby (contract v1.2 "Bots"): it plays by direct challenges and
    invite links, never where people look for a person to play."""
    return ApiError(403, "bot_not_allowed", "A bot account does not use the lobby.")


def player_required() -> ApiError:
    return ApiError(401, "player_required", "This needs a player (X-Player-Token): a name.")


def new_row(
    core: Core,
    game_id: str,
    options: dict[str, Any],
    kinds: dict[str, str],
    lesson: Lesson | None = None,
    edition: str | None = None,
) -> Match:
    """A fresh match row: new id, seed (with its commitment) and spectator key; active at once
    when the only person is the creator, waiting for the others otherwise. A tutorial's deal is
    its lesson's (public anyway: the lesson is in the source), under the rules the lesson was
    written for; any other match is played by `edition` (checked by `chosen_edition`), else by
    the current rules."""
    vs_bot = list(kinds.values()).count("human") <= 1
    game = get_game(game_id)
    match_id = new_match_id()
    seed = new_seed() if lesson is None else lesson.seed
    return Match(
        id=match_id,
        game=game.id,
        seed=seed,
        commitment=commitment(match_id, seed),  # published from the first view, never changed
        rules_version=lesson.rules_version if lesson else edition or game.rules_version,
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
        player: str | PlayerRef | None = None,
        *,
        level: str = DEFAULT_LEVEL,
        rated: bool = False,
        public: str | None = None,
        address: str | None = None,
        lesson: Lesson | None = None,
        players: int | None = None,
        seats: Mapping[str, str] | None = None,
        levels: Mapping[str, str] | None = None,
        handicaps: Mapping[str, str] | None = None,
        rules_version: str | None = None,
        also: AlsoWrite | None = None,
    ) -> SeatTaken:
        """Create a match of `game_id` and take a seat in it (as the player whose token is
        `player`, or a `PlayerRef`'s); against the computer, `level` says how well it plays; a
        rated one only between accounts (422 against the computer, 403 without an account). With
        `public` (the clock's name, as the lobby shows it) it is a challenge in the lobby, within
        its creator's and its creator's address's caps (429 too_many_challenges). With `lesson`,
        a tutorial: its deal, its seat, against the computer (which plays the lesson's path).
        A table of N (contract v1.2): `players` seats, `seats` saying which others the computer
        plays (at `levels`), Nations' `handicaps` per seat; every person's seat has its invite.
        `rules_version`: an earlier published edition, for an unrated match only."""
        edition = chosen_edition(game_id, rules_version, rated, lesson)
        count = len(get_game(game_id).seats) if players is None else players
        names = seats_of(game_id, count)  # before any write: a bad count or role costs nothing
        # a random seat is one the computer does not play: a seat named bot, or given a level
        computer = [seat for seat, kind in (seats or {}).items() if kind == "bot"] + [
            *(levels or {})
        ]
        mine = choose_seat(game_id, role, count, computer)
        table = plan_table(
            game_id,
            mine,
            names,
            opponent,
            dict(seats or {}),
            dict(levels or {}),
            level,
            dict(handicaps or {}),
        )
        if rated and table.levels:
            raise ApiError(422, "rated_vs_computer", "Matches against the computer are unrated.")
        made = await run_in_threadpool(
            self._create,
            game_id, mine, table, clock, player, level, rated, public, lesson, address, edition,
            also,
        )  # fmt: skip
        await self.core.publish(MatchChanged(made.match_id))  # wakes a bot that moves first
        if made.listed:
            await self.core.publish(LobbyChanged(made.match_id))
        log.info(
            "match created",
            extra=fields(match_id=made.match_id, game=game_id, seat=made.seat, opponent=opponent),
        )
        return made

    def _create(
        self,
        game_id: str,
        mine: str,
        table: Table,
        clock: dict[str, Any] | None,
        player: str | PlayerRef | None,
        level: str,
        rated: bool,
        public: str | None,
        lesson: Lesson | None,
        address: str | None = None,
        edition: str | None = None,
        also: AlsoWrite | None = None,
    ) -> SeatTaken:
        game = get_game(game_id)
        kinds = table.kinds
        invited = [s for s in table.open if s != mine]
        codes = {seat: new_invite_code() for seat in invited}
        token, code = new_token(), codes[invited[0]] if invited else None
        opponent = "human" if invited else "bot"  # v1's word for the other seat(s)
        options: dict[str, Any] = {"opponent": opponent, **({"clock": clock} if clock else {})}
        if len(table.seats) != len(game.seats):
            options["players"] = len(table.seats)
        if table.levels:
            options["level"] = level
            if len(table.seats) > 2 or set(table.levels.values()) != {level}:
                options["levels"] = table.levels
        if table.handicaps:
            options["handicaps"] = table.handicaps
        if rated:
            options["rated"] = True
        if lesson is not None:
            options["tutorial"] = lesson.id
        if public is not None:
            if not invited:
                raise ApiError(422, "invalid_request", "Only a match against a person is public.")
            options["visibility"] = "public"
        match = new_row(self.core, game.id, options, kinds, lesson, edition)
        with self.core.db.write() as db:
            me = whose(db, player)
            check_may_sit(options, me)
            if public is not None and me is None:
                raise player_required()
            if public is not None and me is not None and me.bot:
                raise bot_not_allowed()
            lobby = ("lobby",) if public is not None else ()
            refuse_banned(
                db, me.id if me else None, self.core.stamp(), *lobby, *rated_scope(options)
            )
            if public is not None and me is not None:
                self._may_open(db, me.id, address)
            repo.add_match(db, match)
            repo.add_seats(
                db, match.id, kinds, {mine: token_hash(token)}, {mine: me.id if me else None}
            )
            for seat, invite in codes.items():
                repo.add_invite(db, invite, match.id, seat)
            if public is not None and me is not None:
                rated = bool(options.get("rated", False))
                now = self.core.stamp()
                lobby_repo.add_challenge(
                    db, match.id, me.id, game.id, invited[0], public, rated, now,
                    len(table.seats), address,
                )  # fmt: skip
            if also is not None:
                also(db, me, match.id, mine, codes)
            info = read_info(db, match)
        self.core.cache.put_info(info)
        self.core.cache.put_entry(
            fresh_entry(match.id, match.game, match.seed, match.rules_version, options).warm()
        )
        self.core.cache.put_token(match.id, token_hash(token), mine)
        return SeatTaken(match.id, mine, token, code, public is not None, codes)

    def _may_open(self, db: Session, creator: str, address: str | None) -> None:
        """Whether `creator` (from `address`) may open one more challenge: each has only so many
        open at once (issue 40, finding 5: one player from eleven addresses filled the lobby's
        100 places in 2.3 s, and quick pairing seated real players against it)."""
        settings = self.core.settings
        lobby_repo.hold_creator(db, creator, address)
        mine = settings.max_challenges_per_player
        if lobby_repo.open_count(db, creator=creator) >= mine:
            message = f"You have {mine} open challenges; cancel one, or wait for a taker."
            raise ApiError(429, "too_many_challenges", message)
        ours = settings.max_challenges_per_address
        if address is not None and lobby_repo.open_count(db, address=address) >= ours:
            message = f"{ours} challenges are open from your address; wait for a taker."
            raise ApiError(429, "too_many_challenges_from_address", message)

    async def claim(self, code: str, player: str | PlayerRef | None = None) -> SeatTaken:
        """Seat the invited person (as the player whose token is `player`); exactly one claim
        of a code succeeds."""
        made = await run_in_threadpool(self._claim, code, player)
        await self._claimed(made)
        return made

    async def join(
        self, match_id: str, player: str | None = None, seat: str | None = None
    ) -> SeatTaken:
        """Take a lobby challenge's open seat (`seat`, else its first open one): the same path
        as its invite link would take."""
        made = await run_in_threadpool(self._join, match_id, player, seat)
        await self._claimed(made)
        return made

    async def _claimed(self, made: SeatTaken) -> None:
        await self.core.publish(MatchChanged(made.match_id))  # the creator learns it is on
        if made.listed:
            await self.core.publish(LobbyChanged(made.match_id))

    def _claim(self, code: str, player: str | PlayerRef | None) -> SeatTaken:
        with self.core.db.reader() as db:
            me = whose(db, player)
            invite = repo.get_invite(db, checked_id(code, "invite"))
            match = repo.match_row(db, invite.match_id) if invite is not None else None
            if match is not None and me is not None:
                refuse_banned(db, me.id, self.core.stamp(), *rated_scope(match.options))
        if invite is None:
            raise not_found("invite")
        return self._take(invite.match_id, Seating(invite.seat, me, BY_LINK, invite.code))

    def _join(self, match_id: str, player: str | None, seat: str | None) -> SeatTaken:
        with self.core.db.reader() as db:
            me = player_of(db, player)
            if me is not None and me.bot:
                raise bot_not_allowed()
            match = repo.match_row(db, checked_id(match_id))
            if match is None:
                raise not_found()
            now = self.core.stamp()
            refuse_banned(db, me.id if me else None, now, "lobby", *rated_scope(match.options))
            code = lobby_repo.invite_of(db, match.id, seat)
            invite = repo.get_invite(db, code) if code is not None else None
            if lobby_repo.challenge(db, match.id) is None or invite is None:
                if match.options.get("visibility") == "public":
                    raise ApiError(409, *FROM_LOBBY.taken)  # joined, cancelled or expired
                raise not_found()
            if me is not None:
                seated = repo.seats_of_many(db, [match.id])[match.id]
                if blocks.kept_apart(db, me.id, [s.player for s in seated if s.player]):
                    raise blocked()
        return self._take(match.id, Seating(invite.seat, me, FROM_LOBBY, invite.code, lobby=True))

    def _take(self, match_id: str, asked: Seating) -> SeatTaken:
        """The one seat-taking path of an invited seat, by its link or from the lobby: its
        checks on who may sit apply to both, in the match transaction."""
        seated = take_seat(self.core, match_id, asked)
        return SeatTaken(match_id, seated.seat, seated.token, listed=seated.listed)
