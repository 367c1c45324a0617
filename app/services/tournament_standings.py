"""A tournament's standings as its pages and export show them (issue 46): every entrant ranked
by the format's order, and the score in points (stored in the format's whole units).

Arena and table rounds: points, then total VP (Nations), then the rating at joining, then the
id — the order the database reads them in. Swiss: points, then Buchholz, then Sonneborn-Berger
(app/tournaments/swiss_standings, computed from the stored games, byes included), then rating
and id. A tournament holds at most 500 entrants, so each read ranks them all: one order for the
page, your place and the podium."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session

from ..persistence import tournament_games as games_repo
from ..persistence import tournaments as repo
from ..persistence.tournaments import Standing, TournamentRow
from ..tournaments.swiss_standings import Played, Result, standings
from .tournament_results import UNITS

EVERY_GAME = 20_000  # a 500-player Swiss of 50 rounds


@dataclass(frozen=True, slots=True)
class Ranked:
    line: Standing
    rank: int
    points: float
    buchholz: float | None = None
    sonneborn_berger: float | None = None


def shown(units: int, score: float) -> float | int:
    points = score / units
    return int(points) if points == int(points) else round(points, 2)


def ranked(db: Session, t: TournamentRow) -> list[Ranked]:
    lines = repo.standings(db, t.id, t.max_players, 0)
    units = UNITS.get(t.format, 1)
    if t.format != "swiss":
        return [Ranked(s, i + 1, s.score / units) for i, s in enumerate(lines)]
    by_round: dict[int, list[games_repo.GameRow]] = {}
    for game in games_repo.games(db, t.id, running=False, limit=EVERY_GAME):
        by_round.setdefault(game.round, []).append(game)
    played = [_played(by_round[r]) for r in sorted(by_round)]
    table = {s.id: s for s in standings({s.player_id: s.rating for s in lines}, played)}
    line_of = {s.player_id: s for s in lines}
    order = sorted(
        lines,
        key=lambda s: (
            table[s.player_id].rank if s.player_id in table else len(lines),
            s.player_id,
        ),
    )
    out = []
    for i, s in enumerate(order):
        found = table.get(s.player_id)
        out.append(
            Ranked(
                line_of[s.player_id], i + 1, s.score / units,
                found.buchholz if found else 0.0, found.sonneborn_berger if found else 0.0,
            )
        )  # fmt: skip
    return out


def _played(games: list[games_repo.GameRow]) -> Played:
    """A round's ended games as the tie-breaks read them (1, ½, 0 for the first seat)."""
    results, bye = [], None
    for g in games:
        if g.match_id is None and g.seats:
            bye = g.seats[0].player_id
            continue
        if g.ended_at is None or len(g.seats) != 2 or g.seats[0].outcome is None:
            continue  # under way, or it did not count
        first, second = _in_seat_order(g)
        points = {"win": 1.0, "draw": 0.5, "loss": 0.0}[first.outcome or "loss"]
        results.append(Result(first.player_id, second.player_id, points))
    return Played(tuple(results), bye)


def _in_seat_order(g: games_repo.GameRow) -> tuple[games_repo.SeatResult, games_repo.SeatResult]:
    """The first seat (the game's first: Editor, p1) and the second; a game row lists its
    seats by name, and "editor" < "nixon", "p1" < "p2"."""
    return g.seats[0], g.seats[1]


# the standings' other orders (a page's sortable columns); the rank stays the tournament's
SORTS: dict[str, Any] = {
    "rank": lambda r: r.rank,
    "name": lambda r: (r.line.name.casefold(), r.rank),
    "games": lambda r: (-r.line.games, r.rank),
    "rating": lambda r: (-r.line.rating, r.rank),
}


def sorted_by(every: list[Ranked], sort: str) -> list[Ranked]:
    return every if sort == "rank" else sorted(every, key=SORTS[sort])


def standing_json(r: Ranked, units: int) -> dict[str, Any]:
    s = r.line
    line: dict[str, Any] = {
        "rank": r.rank, "player_id": s.player_id, "name": s.name,
        "score": shown(units, s.score), "games": s.games, "wins": s.wins,
        "rating": round(s.rating), "playing": s.playing, "withdrawn": s.withdrawn,
    }  # fmt: skip
    if s.streak >= 2:
        line["streak"] = s.streak  # on fire: the flame
    if r.buchholz is not None:
        line["buchholz"] = r.buchholz
        line["sonneborn_berger"] = r.sonneborn_berger
    return line
