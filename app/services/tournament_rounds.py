"""Round formats (issue 46): a Swiss (duels paired by the Dutch system, a bye worth a win) and
Nations table rounds (tables seated by score). A round starts when the previous one has ended
(every game of it), or, in a correspondence tournament with a round length, once the round's
time is up: a game still going on then goes on and counts for its own round, and its players sit
the new round out (no bye, no points) and are paired again once it has ended; if the others
cannot make a round by themselves, the round waits for its games instead. Blocked pairs are kept
apart when some pairing or seating allows it; its games are made together, in one transaction
that also moves the round number on only from where it was, so two directors cannot both start
it. A field that cannot be paired or seated any more (a Swiss whose players have all met, or too
few left) ends the tournament early, and says so in its record."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from fractions import Fraction

from sqlalchemy.orm import Session

from ..persistence import blocks, sanctions
from ..persistence import tournament_games as games_repo
from ..persistence import tournaments as repo
from ..persistence.tournaments import TournamentRow
from ..tournaments import swiss, tables
from .core import Core
from .tournament_results import UNITS
from .tournament_seating import Seated, seat_game

log = logging.getLogger("watergate.tournaments")
Plan = tuple[list[list[str]], str | None]  # the games' players in seat order, and a bye


def plan_round(db: Session, t: TournamentRow, now: datetime) -> Plan:
    """The next round's games of the players still in and free (NoPairing / Unseatable when
    none); a player banned from tournaments since joining sits the round out (no bye)."""
    # a player whose game of an earlier round still goes on (past that round's time) sits
    # this round out: no game, no bye, no points
    field = [e for e in repo.playing_entrants(db, t.id) if e.match_id is None]
    banned = sanctions.sanctioned(db, [e.player for e in field], "tournaments", now)
    field = [e for e in field if e.player not in banned]
    by_round: dict[int, list[games_repo.GameRow]] = {}
    for game in games_repo.games(db, t.id, running=False, limit=20_000):
        by_round.setdefault(game.round, []).append(game)
    past = [by_round[r] for r in sorted(by_round)]
    ids = [e.player for e in field]
    apart = {frozenset(p) for p in blocks.apart_among(db, ids, ids)}  # kept apart when avoidable
    if t.format == "tables":
        contenders = [
            tables.Contender(e.player, e.rating, Fraction(e.score, UNITS["tables"]), e.vp)
            for e in field
        ]
        history = [
            tuple(tuple(s.player_id for s in _seat_order(g)) for g in games if g.match_id)
            for games in past
        ]
        seated = tables.seat_round(contenders, t.players_per_game, history, apart)
        return [list(table) for table in seated], None
    entrants = [swiss.Entrant(e.player, e.rating, e.score / UNITS["swiss"]) for e in field]
    rounds = [_swiss_round(games) for games in past]
    paired = swiss.pair_round(entrants, rounds, apart)
    return [[p.first, p.second] for p in paired.pairs], paired.bye


def _seat_order(g: games_repo.GameRow) -> list[games_repo.SeatResult]:
    """A game's players in seat order (seat names sort as the game orders them: p1 < p2 …,
    editor < nixon)."""
    return sorted(g.seats, key=lambda s: s.seat)


def _swiss_round(games: list[games_repo.GameRow]) -> swiss.Round:
    pairs, bye = [], None
    for g in games:
        if g.match_id is None:
            bye = g.seats[0].player_id if g.seats else None
            continue
        first, second = _seat_order(g)
        pairs.append(swiss.Pair(first.player_id, second.player_id))
    return swiss.Round(tuple(pairs), bye)


def start_round(core: Core, t: TournamentRow, now: datetime) -> tuple[Seated, str | None]:
    """Make the next round's games; (what was made, why the tournament ends instead)."""
    made = Seated()
    with core.db.write() as db:
        try:
            games, bye = plan_round(db, t, now)
            why = None if games else "no game to play"
        except (swiss.NoPairing, tables.Unseatable) as err:
            games, bye, why = [], None, str(err)
        if why is not None:
            if games_repo.unended(db, t.id):
                # the round's time is up, but those not playing cannot make a round: it waits
                # for the games going on (their players may make one), not for its time
                repo.wait_for_games(db, t.id, t.round)
                return made, None
            return made, why
        number = t.round + 1
        # the last round has no time of its own: the tournament ends once its games have
        timed = t.round_days and number < (t.rounds or 0)
        ends = now + timedelta(days=t.round_days) if timed and t.round_days else None
        if not games_repo.advance_round(db, t.id, t.round, ends):
            return made, None  # another process started it
        for players in games:
            seat_game(core, db, t, players, number, now, made)
        if bye is not None:
            games_repo.add_bye(db, t.id, number, bye, UNITS["swiss"], now)
    made.remember(core)
    log.info("tournament round started", extra={"tournament_id": t.id, "round": number})
    return made, None
