"""Watergate (the Editor against the Nixon Administration) as a game of the platform."""

from __future__ import annotations

from .game import GAME, WatergateGame

__all__ = ["GAME", "WatergateGame"]
