"""`python -m clients.bot --base https://… --token …`: run the reference bot client."""

from __future__ import annotations

import argparse
import os
import signal

import httpx

from .client import BotClient


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--base", default="http://127.0.0.1:8000", help="the site's address")
    parser.add_argument("--token", default=os.environ.get("BOT_TOKEN"), help="or BOT_TOKEN")
    parser.add_argument("--games", default="watergate,nations", help="the games it accepts")
    parser.add_argument("--seed", type=int, default=None, help="for reproducible play")
    parser.add_argument(
        "--challenge", metavar="PLAYER_ID", default=None, help="first challenge this player"
    )
    parser.add_argument("--game", default="watergate", help="the game of --challenge")
    args = parser.parse_args()
    if not args.token:
        parser.error("an API token is needed (--token or BOT_TOKEN)")
    with httpx.Client(base_url=args.base, timeout=10.0) as http:
        bot = BotClient(http, args.token, games=tuple(args.games.split(",")), seed=args.seed)
        signal.signal(signal.SIGINT, lambda *_: bot.stop.set())
        signal.signal(signal.SIGTERM, lambda *_: bot.stop.set())
        bot.run(challenge=args.challenge, game=args.game)
    print(f"finished {len(bot.played.finished)} matches, {bot.played.actions} actions")


if __name__ == "__main__":
    main()
