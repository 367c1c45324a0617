"""Seating a tournament game (issue 46): an ordinary match, both (or every) seat taken by its
players, active at once, public to spectators, marked as the tournament's; its tournament rows;
and each player's `tournament_paired` notice. Written in the caller's transaction (an arena
seats one pair a transaction, a round every game of it), only for players still free."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from engine.registry import get_game

from ..auth import new_token, token_hash
from ..clocks import clock_option
from ..games import seats_of
from ..persistence import notifications
from ..persistence import repository as match_repo
from ..persistence import tournament_games as games_repo
from ..persistence.cache import fresh_entry, read_info
from ..persistence.sql import OnSession
from ..persistence.tournaments import TournamentRow
from .core import Core
from .farming import unrate_twins
from .matches import new_row


class Taken(Exception):
    """A game that lost one of its players to another transaction: nothing of it is kept."""


@dataclass
class Seated:
    """What the transactions wrote, for the caller to tell once committed."""

    matches: list[str] = field(default_factory=list)
    notified: list[tuple[str, int]] = field(default_factory=list)
    cached: list[tuple[Any, Any]] = field(default_factory=list)  # (info, entry) per match

    def remember(self, core: Core) -> None:
        """Once committed: this process's cache knows the new matches."""
        for info, entry in self.cached:
            core.cache.put_info(info)
            core.cache.put_entry(entry)
        self.cached.clear()


def match_options(t: TournamentRow, seats: tuple[str, ...]) -> dict[str, Any]:
    options: dict[str, Any] = {"opponent": "human", "visibility": "public", "tournament": t.id}
    kind, amount = t.clock.split("-")
    clock = clock_option(kind, int(amount))
    if clock:
        options["clock"] = clock
    if len(seats) != len(get_game(t.game).seats):
        options["players"] = len(seats)
    if t.rated:
        options["rated"] = True
    return options


def seat_game(
    core: Core, db: Session, t: TournamentRow, players: list[str], round_: int, now: datetime,
    seated: Seated,
) -> None:  # fmt: skip
    """One game of `players` in seat order (the first takes the first seat)."""
    seats = seats_of(t.game, len(players))
    options = match_options(t, seats)
    match = new_row(core, t.game, options, dict.fromkeys(seats, "human"))
    match.status, match.activated_at = "active", now
    if not games_repo.claim(db, t.id, players, match.id):
        raise Taken
    by_seat = dict(zip(seats, players, strict=True))
    held = {seat: token_hash(new_token()) for seat in seats}  # each player's keys come later
    match_repo.add_match(db, match)
    match_repo.add_seats(db, match.id, dict.fromkeys(seats, "human"), held, dict(by_seat))
    if t.rated:  # two accounts made together do not rate each other here either (#40, 22)
        unrated = unrate_twins(OnSession(db), match, dict(by_seat), now)
        if unrated is not None:
            match.options = options = unrated
    games_repo.add_game(db, t.id, match.id, round_, {p: s for s, p in by_seat.items()}, now)
    for seat, player in by_seat.items():
        data = {
            "tournament_id": t.id, "name": t.name, "game": t.game, "match_id": match.id,
            "seat": seat,
        }  # fmt: skip
        seated.notified.append(
            (player, notifications.add(db, player, "tournament_paired", data, now))
        )
    entry = fresh_entry(match.id, match.game, match.seed, match.rules_version, options).warm()
    seated.cached.append((read_info(db, match), entry))
    seated.matches.append(match.id)
