"""What the site knows of each game beyond the Game protocol: how a seat is chosen, which page
and address its table has, and what a finished match's outcome shows. The one place that
names games in the app, so the lobby and invites carry a game id and nothing else."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from engine.core.game import JSON, JSONObject, Outcome
from engine.nations.state import MatchState as NationsState
from engine.nations.state import seat_of
from engine.registry import DEFAULT_GAME, game_ids, get_game

from .errors import ApiError


def _no_scores(_: Any) -> dict[str, JSON] | None:
    return None


def _nations_scores(state: Any) -> dict[str, JSON] | None:
    assert isinstance(state, NationsState)
    return {seat_of(p): v for p, v in enumerate(state.scores)} if state.scores else None


@dataclass(frozen=True, slots=True)
class Site:
    """A game as the site shows it: its table's template and address, and how its final scores
    are read (None: the game ends by a reason, not by points)."""

    game_id: str
    template: str
    prefix: str  # before /match/{id}, /watch/{id} and /replay/{id}: the URL says the game
    scores: Callable[[Any], dict[str, JSON] | None]


SITES: Final[dict[str, Site]] = {
    "watergate": Site("watergate", "match.html", "", _no_scores),
    "nations": Site("nations", "nations.html", "/nations", _nations_scores),
}
assert set(SITES) == set(game_ids()), "every registered game needs a page"


def site(game_id: str) -> Site:
    """The site facts of a registered game (the default game's for an unknown id)."""
    return SITES.get(game_id, SITES[DEFAULT_GAME])


def choose_seat(game_id: str, role: str) -> str:
    """The seat a creator asked for: one of the game's seats, or a random one; anything else is
    a 422 naming the seats the game has."""
    seats = get_game(game_id).seats
    if role == "random":
        return secrets.choice(seats)
    if role not in seats:
        allowed = ", ".join((*seats, "random"))
        raise ApiError(422, "invalid_role", f"A {game_id} match has the roles {allowed}.")
    return role


def outcome_json(game_id: str, state: Any, outcome: Outcome | None) -> JSONObject | None:
    """A finished match's "outcome" (contract v1.1 Games): the winner and the scores by seat,
    or the win reason for a game without scores."""
    if outcome is None:
        return None
    winner = outcome.winners[0] if outcome.winners else None
    scores = site(game_id).scores(state)
    if scores is None:
        return {"winner": winner, "reason": outcome.reason}
    return {"winner": winner, "scores": scores}
