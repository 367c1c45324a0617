"""The reference bot client (contract v1.2 "Bots", issue 45); `python -m clients.bot --help`."""

from .client import BotClient, Played

__all__ = ["BotClient", "Played"]
