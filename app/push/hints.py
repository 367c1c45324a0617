"""Hints in a seat's view (issue "Learn to play"; contract v1.1 `hints`): a seat of an active,
unrated match gets them, the browser shows them unless its player turned them off; a rated
match's view never carries them, whatever a browser asks, nor does a spectator's, nor a bot
account's seat's (contract v1.2 "Bots": a bot's moves are never given hints)."""

from __future__ import annotations

from engine.core.game import Hinting, Viewer
from engine.registry import get_game

from ..jsontext import dumps
from ..persistence.cache import Entry
from ..persistence.records import MatchInfo


def hints_json(info: MatchInfo, entry: Entry, viewer: Viewer, status: str) -> str | None:
    """The viewer's hints as JSON text, or None when this viewer may not have them."""
    game = get_game(entry.game)
    if viewer is None or status != "active" or info.rated or info.seat(viewer).player_bot:
        return None
    if not isinstance(game, Hinting):
        return None
    return dumps(game.hints_for(entry.state, viewer))
