"""The games of the platform by id: the only place that names a game's package."""

from __future__ import annotations

from typing import Any, Final

from .core.game import Game
from .nations import GAME as _NATIONS
from .watergate import GAME as _WATERGATE

AnyGame = Game[Any, Any, Any]

_GAMES: Final[dict[str, AnyGame]] = {_WATERGATE.id: _WATERGATE, _NATIONS.id: _NATIONS}
DEFAULT_GAME: Final = _WATERGATE.id


def get_game(game_id: str) -> AnyGame:
    """The game registered under `game_id`; KeyError when there is none."""
    return _GAMES[game_id]


def game_ids() -> tuple[str, ...]:
    """Every registered game id, in registration order."""
    return tuple(_GAMES)
