"""What the site knows of each game beyond the Game protocol: how a seat is chosen, which page
and address its table has, and what a finished match's outcome shows. The one place that
names games in the app, so the lobby and invites carry a game id and nothing else."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from typing import Any, Final

from engine.core.game import JSON, Forcing, JSONObject, Outcome, Step
from engine.nations.catalog import DIFFICULTIES
from engine.nations.game import NationsGame
from engine.nations.state import MatchState as NationsState
from engine.nations.state import seat_of
from engine.registry import DEFAULT_GAME, AnyGame, game_ids, get_game

from .errors import ApiError
from .persistence.records import Ending


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


def player_count(game_id: str, options: Mapping[str, Any]) -> int:
    """How many seats a match has: its options' `players` (contract v1.2), else the game's
    default object's (two: every match before tables of N)."""
    players = options.get("players")
    return players if isinstance(players, int) else len(get_game(game_id).seats)


def seats_of(game_id: str, players: int) -> tuple[str, ...]:
    """The seat names of a match of `players` (422 invalid_players for a count the game lacks)."""
    game = get_game(game_id)
    if players not in game.player_counts:
        counts = ", ".join(map(str, game.player_counts))
        raise ApiError(422, "invalid_players", f"A {game_id} match takes {counts} players.")
    return game.with_players(players).seats


def configured(game_id: str, options: Mapping[str, Any]) -> AnyGame:
    """The game object that starts this match: its player count and, for Nations, each seat's
    difficulty (NR6 handicaps, Prince where none was chosen). Every other call of the protocol
    reads the count from the state, so only starting a match needs this object."""
    game = get_game(game_id).with_players(player_count(game_id, options))
    handicaps = options.get("handicaps")
    if isinstance(game, NationsGame) and isinstance(handicaps, dict) and handicaps:
        return game.with_levels([handicaps.get(seat, "prince") for seat in game.seats])
    return game


def start_match(
    game_id: str, seed: int, rules_version: str | None, options: Mapping[str, Any]
) -> Step[Any, Any]:
    """A match's first state and events, from what its row stores (seed, rules, options)."""
    return configured(game_id, options).start(seed, rules_version)


def forced(game: AnyGame, state: Any) -> tuple[str, Any] | None:
    """The seat to move and its only action, when the game says that is forced and public
    (core.game.Forcing; Watergate's forced.py): taken at once, without a click."""
    return game.forced(state) if isinstance(game, Forcing) else None


def played(game: AnyGame, state: Any, seat: str, action: Any) -> Step[Any, Any]:
    """`game.apply`, its log led by the game's "the only choice" line when the decision was
    forced: the same log whether the server took it at once or the match is rebuilt from its
    stored actions (every forced decision is taken at once since issue 42)."""
    only = forced(game, state)
    step = game.apply(state, seat, action)
    if only is None:
        return step
    assert isinstance(game, Forcing)  # forced() said so
    return Step(step.state, (game.only_choice(only[0]), *step.events))


def check_handicaps(game_id: str, seats: tuple[str, ...], handicaps: Mapping[str, str]) -> None:
    """NR6's difficulty per seat: Nations only, a seat of the match, a known level (422)."""
    if not handicaps:
        return
    if game_id != "nations":
        raise ApiError(422, "invalid_request", "Only Nations seats take a difficulty (handicaps).")
    for seat, level in handicaps.items():
        if seat not in seats or level not in DIFFICULTIES:
            allowed = ", ".join(DIFFICULTIES)
            raise ApiError(422, "invalid_request", f"handicaps: a seat of the match -> {allowed}.")


def choose_seat(
    game_id: str, role: str, players: int | None = None, computer: Collection[str] = ()
) -> str:
    """The seat a creator asked for: one of the match's seats, or a random one of those the
    computer will not play (`computer`: the seats a table of N gives it, v1.2); anything else
    is a 422 naming the seats the match has."""
    seats = get_game(game_id).seats if players is None else seats_of(game_id, players)
    if role == "random":
        return secrets.choice([s for s in seats if s not in computer] or seats)
    if role not in seats:
        allowed = ", ".join((*seats, "random"))
        raise ApiError(422, "invalid_role", f"A {game_id} match has the roles {allowed}.")
    return role


def outcome_json(game_id: str, state: Any, outcome: Outcome, ended: Ending) -> JSONObject:
    """A finished match's "outcome" (contract v1.1 Games): the winner and the scores by seat,
    or the win reason for a game without scores; and (v1.2) every seat's place, best first,
    any leaver of a table at the bottom (`ended`: the rules' ending as the match saw it)."""
    winner = ended.winner
    scores = site(game_id).scores(state)
    places: list[JSON] = [list(group) for group in ended.ranking]
    if scores is None:
        return {"winner": winner, "reason": outcome.reason, "ranking": places}
    return {"winner": winner, "scores": scores, "ranking": places}
