"""Typed records of what the app knows about a match outside its game state: the row's facts,
its seats and the rematch offer. Built from rows here; rows never leave the persistence layer."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any, Protocol

from engine.core.game import Outcome

from .models import Rematch


class MatchFacts(Protocol):
    """The columns of a match row, as an ORM row or a MatchRow carries them."""

    @property
    def id(self) -> str: ...
    @property
    def game(self) -> str: ...
    @property
    def seed(self) -> int: ...
    @property
    def rules_version(self) -> str: ...
    @property
    def commitment(self) -> str: ...
    @property
    def status(self) -> str: ...
    @property
    def version(self) -> int: ...
    @property
    def winner(self) -> str | None: ...
    @property
    def win_reason(self) -> str | None: ...
    @property
    def ended_by(self) -> str | None: ...
    @property
    def options(self) -> dict[str, Any]: ...
    @property
    def spectator_key(self) -> str | None: ...
    @property
    def activated_at(self) -> datetime | None: ...
    @property
    def seats_version(self) -> int: ...


@dataclass(frozen=True, slots=True)
class MatchRow:
    """A match row read without the ORM (the move path reads and writes it in plain SQL)."""

    id: str
    game: str
    seed: int
    rules_version: str
    commitment: str
    status: str
    version: int
    winner: str | None
    win_reason: str | None
    ended_by: str | None
    options: dict[str, Any]
    spectator_key: str | None
    activated_at: datetime | None
    seats_version: int


@dataclass(frozen=True, slots=True)
class SeatRow:
    """A seat row's columns, with the name of the player on it (read by a join)."""

    name: str
    kind: str
    token_hash: str | None
    last_seen_at: datetime | None
    left_at: datetime | None = None
    left_reason: str | None = None
    left_log: int | None = None
    player: str | None = None
    player_name: str | None = None
    player_deleted: bool = False
    player_rating: float | None = None
    player_bot: bool = False


@dataclass(frozen=True, slots=True)
class PlayerRow:
    """A player as the app may show it: never its token or password hash."""

    id: str
    name: str
    has_account: bool = False
    bot: bool = False  # a bot account (contract v1.2 "Bots"): public, marked BOT wherever shown


GUEST_NAME = "Guest"  # the wire's names for seats without a player; the browser translates them
COMPUTER_NAME = "Computer"
DELETED_NAME = "Deleted player"
# The computer's levels on the rating scale: fixed, shown next to its name, never changed by a
# match (no rated match is played against it). Chosen from its results against people, roughly:
# the easy bot loses to anyone who has read the rules, the hard one beats most club players.
BOT_RATINGS = {"easy": 1000, "normal": 1400, "hard": 1800}
# how well the computer plays (contract v1.1); a match from before levels was played at normal
DEFAULT_LEVEL = "normal"


@dataclass(frozen=True, slots=True)
class InviteRow:
    code: str
    match_id: str
    seat: str
    claimed_at: datetime | None


Ranking = tuple[tuple[str, ...], ...]  # groups of seats, best first; a tie shares a group


@dataclass(frozen=True, slots=True)
class Ending:
    """How a match ended outside the rules' own outcome (on time), or by the rules; `ranking`
    is every seat's place (empty: nobody is ranked, as in an abort or an abandonment)."""

    status: str  # finished | abandoned
    winner: str | None
    win_reason: str | None
    ended_by: str | None = None
    ranking: Ranking = ()
    points: tuple[tuple[str, int], ...] = ()  # the game's final score per seat, if it keeps one


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """One seat of a match: who plays it (a person or the computer), and when it was last seen."""

    name: str
    kind: str  # human | bot
    claimed: bool = False  # a person holds its token (bots never do)
    last_seen: float | None = None  # epoch seconds the seat's last socket closed
    player_id: str | None = None  # who took it with a player token (else a guest)
    player_name: str | None = None  # that player's name when the match was read
    player_deleted: bool = False  # the player deleted itself: shown as "Deleted player"
    rating: float | None = None  # the player's rating in the match's game when it was read
    left: str | None = None  # why its person left a table of 3+: resigned | timeout | abandoned
    left_at: float | None = None  # when (epoch seconds): a later leaver ranks above an earlier
    left_log: int = 0  # how many log entries the match had then: where the log says so
    level: str = DEFAULT_LEVEL  # the computer's level at this seat (seat_info's `options`)
    player_bot: bool = False  # the player is a bot account (public: marked BOT wherever named)

    def wire_player(self, level: str | None = None) -> dict[str, object]:
        """The seat's entry in a view's "players": public facts only (contract v1.1). A seat
        nobody has taken yet has no name; a deleted player's seat shows neither its name nor
        its id; the computer shows its level and that level's fixed rating; a seat the
        computer took over from a leaver says so, and who left (v1.2)."""
        if self.kind == "bot":
            level = level or self.level
            rating = BOT_RATINGS.get(level, BOT_RATINGS[DEFAULT_LEVEL])
            bot: dict[str, object] = {
                "kind": "bot", "name": COMPUTER_NAME, "level": level, "rating": rating
            }  # fmt: skip
            if self.left is not None:
                person = replace(self, kind="human", left=None).wire_player()
                bot |= {"replaced": True, "left": self.left, "left_by": person.get("name")}
            return bot
        if self.player_deleted:
            return {"kind": "human", "name": DELETED_NAME}
        if self.player_id is not None:
            named: dict[str, object] = {
                "kind": "human",
                "name": self.player_name,
                "player_id": self.player_id,
            }
            if self.player_bot:  # a bot account's seat (v1.2): being a bot is public
                named["bot"] = True
            if self.rating is not None:
                named["rating"] = round(self.rating)
            return named
        return {"kind": "human", "name": GUEST_NAME if self.claimed else None}


@dataclass(frozen=True, slots=True)
class RematchInfo:
    offered_by: str
    match_id: str | None  # the new match, once accepted
    claimed: tuple[tuple[str, bool], ...]  # (old seat, took its new seat), in seat order
    answers: tuple[tuple[str, str], ...] = ()  # a table's: (seat, accepted | declined)
    offered_at: float = 0.0  # epoch seconds
    expires: bool = False  # a table's offer lapses (a duel's waits, as in v1)

    def answered(self, answer: str) -> list[str]:
        return [seat for seat, said in self.answers if said == answer]

    def expired(self, now: float) -> bool:
        """A table's offer nobody finished answering in time (contract v1.2)."""
        return self.expires and self.match_id is None and now > self.offered_at + REMATCH_SECONDS

    def wire(self, now: float) -> dict[str, object]:
        return {
            "offered_by": self.offered_by,
            "match_id": self.match_id,
            "claimed": dict(self.claimed),
            "accepted": self.answered("accepted"),
            "declined": self.answered("declined"),
            "expired": self.expired(now),
        }


REMATCH_SECONDS = 300  # how long a table's rematch offer waits for every person's answer


def rematch_seat(names: list[str], name: str) -> str:
    """The seat an old seat takes in the rematch: the other one in a duel (roles swap), the
    same one at a table (contract v1.2: the same seats for everyone)."""
    if len(names) != 2:
        return name
    return next((n for n in names if n != name), name)


@dataclass(frozen=True, slots=True)
class MatchInfo:
    """The match row's facts, as last read or written by this process."""

    match_id: str
    game: str
    seed: int  # secret: bots' seeding and the admin only
    status: str  # waiting | active | finished | abandoned
    seats: tuple[SeatInfo, ...]
    ended_by: str | None = None  # host (aborted) | the seat that resigned or ran out of time
    winner: str | None = None  # set when the match ended outside the rules (resign, time)
    win_reason: str | None = None
    options: dict[str, Any] = field(default_factory=dict)
    activated_at: float | None = None
    spectator_key: str | None = None
    rematch: RematchInfo | None = None
    rules_version: str = ""  # names the generator that dealt it (the fairness "algorithm")
    commitment: str = ""  # public from the first view (engine.core.fairness)
    seats_version: int = 0  # the row's count of seat changes these seats are as of

    def seat(self, name: str) -> SeatInfo:
        return next(s for s in self.seats if s.name == name)

    def kind(self, name: str) -> str:
        return self.seat(name).kind

    def has_bot(self) -> bool:
        return any(s.kind == "bot" for s in self.seats)

    @property
    def people(self) -> tuple[str, ...]:
        """The seats people play now (not the computer's, nor a leaver's)."""
        return tuple(s.name for s in self.seats if s.kind == "human")

    @property
    def seat_names(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.seats)

    def others(self, name: str) -> tuple[str, ...]:
        """Every seat but `name`, in seat order."""
        return tuple(s.name for s in self.seats if s.name != name)

    @property
    def table(self) -> bool:
        """A table of three or more: a person who leaves it is replaced, the match goes on."""
        return len(self.seats) >= 3

    def ranked(self, places: Ranking) -> Ranking:
        """The final ranking: the rules' places of the seats that stayed, then the leavers,
        the last to leave first (whoever left earliest ranks last), as contract v1.2 says."""
        leavers = sorted(
            (s for s in self.seats if s.left is not None),
            key=lambda s: s.left_at or 0.0,
            reverse=True,
        )
        gone = {s.name for s in leavers}
        stayed = tuple(kept for g in places if (kept := tuple(x for x in g if x not in gone)))
        return stayed + tuple((s.name,) for s in leavers)

    def ending(self, outcome: Outcome) -> Ending:
        """How the rules ended the match, with the leavers moved to the bottom: the winner is
        whoever ranks first alone (a leaver never wins a table it left)."""
        ranking = self.ranked(outcome.places(self.seat_names))
        first = ranking[0] if ranking else outcome.winners
        winner = first[0] if len(first) == 1 else (outcome.winners or (None,))[0]
        return Ending("finished", winner, outcome.reason, ranking=ranking, points=outcome.points)

    @property
    def rated(self) -> bool:
        """Whether the match moves ratings (both seats accounts, asked at creation)."""
        return self.options.get("rated") is True

    def bot_level(self, seat: str | None = None) -> str:
        """The level the computer plays `seat` at (contract v1.2 `levels`, else the match's
        `level`); a seat it took over from a leaver, at normal."""
        if seat is not None:
            return seat_level(self.options, seat, self.seat(seat).left is not None)
        return str(self.options.get("level", DEFAULT_LEVEL))

    def players(self) -> dict[str, dict[str, object]]:
        """Who sits where, as every view shows it (the computer with its level)."""
        return {s.name: s.wire_player(self.bot_level(s.name)) for s in self.seats}

    def seen(self, name: str, when: float) -> MatchInfo:
        """The same facts with the seat's last-seen moment moved on."""
        seats = tuple(replace(s, last_seen=when) if s.name == name else s for s in self.seats)
        return replace(self, seats=seats)


def seat_level(options: Mapping[str, Any] | None, seat: str, left: bool = False) -> str:
    """The level the computer plays `seat` at, from its match's options (contract v1.2 `levels`,
    else `level`); a seat it took over from a leaver, at normal."""
    options = options or {}
    levels = options.get("levels")
    if left:
        return DEFAULT_LEVEL
    if isinstance(levels, dict) and isinstance(levels.get(seat), str):
        return str(levels[seat])
    return str(options.get("level", DEFAULT_LEVEL))


def seat_info(seat: SeatRow, options: Mapping[str, Any] | None = None) -> SeatInfo:
    """The record of a seat row (its token hash reduced to whether it is taken); with its
    match's `options`, the computer's level at that seat (without them: normal)."""
    return SeatInfo(
        seat.name,
        seat.kind,
        seat.token_hash is not None,
        seat.last_seen_at.timestamp() if seat.last_seen_at is not None else None,
        seat.player,
        seat.player_name,
        seat.player_deleted,
        seat.player_rating,
        seat.left_reason,
        seat.left_at.timestamp() if seat.left_at is not None else None,
        seat.left_log or 0,
        seat_level(options, seat.name, seat.left_reason is not None),
        seat.player_bot,
    )


def refreshed(info: MatchInfo, match: MatchFacts) -> MatchInfo:
    """The facts with the row's own columns read again (seats and rematch kept as known)."""
    return replace(
        info,
        status=match.status,
        ended_by=match.ended_by,
        winner=match.winner,
        win_reason=match.win_reason,
        options=dict(match.options or {}),
        activated_at=match.activated_at.timestamp() if match.activated_at else None,
        spectator_key=match.spectator_key,
    )


def info_of(
    match: MatchFacts, seats: list[SeatRow], rematch: Rematch | None, new_seats: list[SeatRow]
) -> MatchInfo:
    """The record of a match row, its seat rows, and its rematch with the new match's seats (an
    old seat has claimed its new seat once the new match's other seat holds a token)."""
    infos = tuple(seat_info(s, match.options) for s in seats)
    offer = None
    if rematch is not None and match.status == "finished":
        taken = {s.name for s in new_seats if s.token_hash is not None}
        names = [s.name for s in infos]
        offer = RematchInfo(
            rematch.offered_by,
            rematch.new_match_id,
            tuple((name, rematch_seat(names, name) in taken) for name in names),
            tuple(
                (str(k), str(v))
                for k, v in {rematch.offered_by: "accepted", **(rematch.answers or {})}.items()
            ),  # an offer from before answers were kept: its maker's only
            rematch.offered_at.timestamp(),
            len(names) >= 3,
        )
    return MatchInfo(
        match.id,
        match.game,
        match.seed,
        match.status,
        infos,
        match.ended_by,
        match.winner,
        match.win_reason,
        dict(match.options or {}),
        match.activated_at.timestamp() if match.activated_at else None,
        match.spectator_key,
        offer,
        match.rules_version,
        match.commitment,
        match.seats_version or 0,  # (a new row's default is set when it is first written)
    )
