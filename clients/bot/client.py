"""The reference bot client: connects with a bot account's API token, listens to its event
stream, answers challenges (accepting the games it plays, declining the others with the reason
`game`), and plays every match it starts in, from that match's stream: each view that offers
the bot a decision is answered with one of its legal actions, sent unchanged with the view's
version. It keeps going through dropped connections (backing off, honouring Retry-After) and
stops when told to. It sends one request at a time (the server allows one in flight per token,
and pauses a token that sends more for a minute); only its streams run side by side.

It depends on httpx only: it knows the wire contract, not the server or the engine. So it plays
a random legal action — the site's own computer levels think on the engine's full state, which
a client only has as the seat's view; a program of yours puts its own engine in `choose`."""

from __future__ import annotations

import json
import random
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx

Choose = Callable[[dict[str, Any]], dict[str, Any]]
BACKOFF_S = (1.0, 2.0, 4.0, 8.0, 15.0, 30.0)  # waits after failures in a row, the last repeated


@dataclass
class Played:
    """What the client did: matches finished (id -> winner) and actions sent."""

    finished: dict[str, str | None] = field(default_factory=dict)
    actions: int = 0
    accepted: list[str] = field(default_factory=list)
    declined: list[str] = field(default_factory=list)
    challenged: dict[str, str] = field(default_factory=dict)  # challenge id -> its match's id


class BotClient:
    def __init__(
        self,
        http: httpx.Client,
        token: str,
        *,
        games: tuple[str, ...] = ("watergate", "nations"),
        choose: Choose | None = None,
        seed: int | None = None,
        say: Callable[[str], None] = print,
    ) -> None:
        self.http, self.games, self.say = http, games, say
        self.headers = {"Authorization": f"Bearer {token}"}
        rnd = random.Random(seed)
        self.choose: Choose = choose or (lambda view: rnd.choice(view["legal_actions"]))
        self.played = Played()
        self.stop = threading.Event()
        self._matches: dict[str, threading.Thread] = {}
        self._lock = threading.Lock()
        self._one = threading.Lock()  # one request in flight: the server's rule per token

    # ---- the event stream -----------------------------------------------------------------

    def run(self, challenge: str | None = None, game: str = "watergate") -> None:
        """Listen to the account's events until `stop` is set, reconnecting after failures;
        with `challenge` (a player id), first challenge that player to `game` (the match is
        played once it starts, from its `match_start` event)."""
        if challenge is not None:
            self.challenge(challenge, game)
        self._keep_going("events", self._events)
        for thread in list(self._matches.values()):
            thread.join(timeout=5)

    def _events(self) -> None:
        for event in self._lines("/api/stream/events"):
            kind = event.get("type")
            if kind == "challenge":
                self._answer(event["challenge"])
            elif kind == "match_start":
                self._play_soon(event["match"]["match_id"])
            elif kind == "match_finish":
                self.say(f"match {event['match']['match_id']} finished")

    def challenge(self, player_id: str, game: str = "watergate") -> str | None:
        """Challenge a player (a person or another bot: bots challenging bots are limited to a
        few an hour); the challenge's id, or None when it was refused (said why)."""
        made = self._post("/api/challenges", {"to": player_id, "game": game})
        if made.status_code != 201:
            self.say(f"challenge to {player_id}: {made.status_code} {made.json().get('code')}")
            return None
        challenge_id: str = made.json()["challenge_id"]
        self.played.challenged[challenge_id] = made.json()["match_id"]
        self.say(f"challenged {player_id} to {game}: {challenge_id}")
        return challenge_id

    def _answer(self, challenge: dict[str, Any]) -> None:
        challenge_id = challenge["challenge_id"]
        if challenge.get("game") in self.games:
            answer = self._post(f"/api/challenges/{challenge_id}/accept")
            if answer.status_code == 200:
                self.played.accepted.append(challenge_id)
                self.say(f"accepted challenge {challenge_id}")
                self._play_soon(answer.json()["match_id"])
            else:  # cancelled or expired meanwhile: nothing to do
                self.say(f"challenge {challenge_id}: {answer.json().get('code')}")
            return
        self._post(f"/api/challenges/{challenge_id}/decline", {"reason": "game"})
        self.played.declined.append(challenge_id)

    def _play_soon(self, match_id: str) -> None:
        with self._lock:
            if match_id in self._matches or match_id in self.played.finished:
                return
            thread = threading.Thread(target=self.play, args=(match_id,), daemon=True)
            self._matches[match_id] = thread
        thread.start()

    # ---- one match ----------------------------------------------------------------------------

    def play(self, match_id: str) -> None:
        """Play the bot's seat of one match to its end (or until `stop`)."""
        self._keep_going(f"match {match_id}", lambda: self._match(match_id))

    def _match(self, match_id: str) -> None:
        for view in self._lines(f"/api/bot/matches/{match_id}/stream"):
            if view.get("type") != "view":
                continue  # a chat line
            if view["status"] == "finished":
                self.played.finished[match_id] = view.get("winner")
                self.say(f"match {match_id} over: {view.get('winner')} won")
                raise StopIteration
            if view["status"] == "active" and view["legal_actions"]:
                body = {"action": self.choose(view), "expected_version": view["version"]}
                sent = self._post(f"/api/bot/matches/{match_id}/actions", body)
                if sent.status_code == 200:
                    self.played.actions += 1
                elif sent.status_code != 409:  # stale: the next view says what is new
                    sent.raise_for_status()

    # ---- requests, streams and failures -------------------------------------------------------

    def _post(self, path: str, body: dict[str, Any] | None = None) -> httpx.Response:
        """A POST sent when no other request of this client is in flight."""
        with self._one:
            return self.http.post(path, json=body, headers=self.headers)

    def _lines(self, path: str) -> Iterator[dict[str, Any]]:
        """The stream's JSON lines (keep-alive blank lines skipped) until it ends or `stop`."""
        timeout = httpx.Timeout(10.0, read=30.0)  # the server writes at least every 5 s
        with self.http.stream("GET", path, headers=self.headers, timeout=timeout) as answer:
            answer.raise_for_status()
            for line in answer.iter_lines():
                if self.stop.is_set():
                    return
                if line.strip():
                    yield json.loads(line)

    def _keep_going(self, what: str, step: Callable[[], None]) -> None:
        """Run `step` again after it ends or fails, backing off after failures, until `stop`
        (or until the step raises StopIteration: its work is done)."""
        failures = 0
        while not self.stop.is_set():
            try:
                step()
                failures = 0
            except StopIteration:
                return
            except httpx.HTTPStatusError as err:
                failures += 1
                if err.response.status_code in (401, 403, 404):
                    self.say(f"{what}: {err.response.status_code}, giving up")
                    return
                wait = _retry_after(err.response) or BACKOFF_S[min(failures, len(BACKOFF_S)) - 1]
                self.say(f"{what}: {err.response.status_code}, again in {wait:.0f} s")
                self.stop.wait(wait)
            except httpx.HTTPError as err:
                failures += 1
                wait = BACKOFF_S[min(failures, len(BACKOFF_S)) - 1]
                self.say(f"{what}: {type(err).__name__}, again in {wait:.0f} s")
                self.stop.wait(wait)


def _retry_after(response: httpx.Response) -> float | None:
    try:
        return float(response.headers.get("Retry-After", ""))
    except ValueError:
        return None
