"""Every line of every bot stream checked against the other seats' secrets (issue 45): whole
matches — a Watergate duel and a Nations table of three — played by bot accounts through the bot
API only (challenged and accepted by token, every action sent by `POST /api/bot/matches/{id}/
actions`), with every seat's match stream and every bot's event stream open from before the first
move to the end. Every NDJSON line they carry is kept and, once the match is over, compared with
the engine's true state of the version it names — a state the test deals and plays itself from
the fixed seed, not one read back from the server:

* Watergate: a seat's lines never name the other seat's hand, a card of either deck or the bag's
  tokens (the bag is a count), the colours of a face-down track token it has not peeked at, a
  token's data id, or the seed while the match lives (tests/app/test_wire_hidden_info.py's checks);
* Nations: no line names a card still in a progress or event deck, nor the seed while the match
  lives (tests/app/test_nations_hidden_info.py's checks);
* event lines (challenges, a match starting and ending) name no card, no token and no seed at all.

The reader threads only collect; the checks run on the test's thread after the end."""

from __future__ import annotations

import json
import random
import threading
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from fastapi.testclient import TestClient

from engine.core.fairness import seed_hex
from engine.nations import GAME as NATIONS
from engine.watergate import GAME as WATERGATE
from engine.watergate import Role, apply, current_role, legal_actions, new_match, other
from engine.watergate.bots import RandomBot
from engine.watergate.views import view_for

from . import test_nations_hidden_info as nations_wire
from . import test_wire_hidden_info as watergate_wire
from .accounts_helpers import as_player
from .nations_play import pick
from .test_api import bearer
from .test_bot_challenges import bot
from .test_wire_hidden_info import TOKEN_IDS, card_ids, seeds

__all__ = ["seeds"]  # the fixture that fixes the deals, shared with the wire checks

WATERGATE_SEED = random.Random("bot-streams-watergate").getrandbits(53)
NATIONS_SEED = random.Random("bot-streams-nations").getrandbits(53)
OPEN_S = 20.0  # a stream's first line, or a reader's end after the match's, at most this late
MAX_VERSION = 3000  # a guard against a match that never ends
CHAT_AT = 6  # the version at which both bots say a phrase


@dataclass
class Reader:
    """One stream read on a thread of its own up to the line `last` accepts: every line kept."""

    client: TestClient
    path: str
    token: str
    last: Callable[[dict[str, Any]], bool]
    lines: list[str] = field(default_factory=list)
    opened: threading.Event = field(default_factory=threading.Event)
    error: list[BaseException] = field(default_factory=list)
    thread: threading.Thread | None = None

    def start(self) -> Reader:
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()
        return self

    def _run(self) -> None:
        try:
            with self.client.stream("GET", self.path, headers=bearer(self.token)) as response:
                assert response.status_code == 200, response.read()
                self.opened.set()
                for line in response.iter_lines():
                    self.lines.append(line)
                    if line.strip() and self.last(json.loads(line)):
                        return
        except BaseException as err:  # reported on the test's thread
            self.error.append(err)
        finally:
            self.opened.set()

    def finish(self) -> list[str]:
        assert self.thread is not None
        self.thread.join(OPEN_S)
        assert not self.thread.is_alive(), (f"{self.path} did not end after the match", self.lines)
        assert not self.error, self.error
        return [line for line in self.lines if line.strip()]


def seat_reader(client: TestClient, match_id: str, token: str) -> Reader:
    return Reader(
        client,
        f"/api/bot/matches/{match_id}/stream",
        token,
        lambda m: m.get("type") == "view" and m.get("status") == "finished",
    ).start()


def event_reader(client: TestClient, token: str, match_id: list[str]) -> Reader:
    """A bot's event stream, read up to the end of the match whose id `match_id` will hold."""
    return Reader(
        client,
        "/api/stream/events",
        token,
        lambda e: e["type"] == "match_finish" and e["match"]["match_id"] in match_id,
    ).start()


def opened(*readers: Reader) -> None:
    for reader in readers:
        assert reader.opened.wait(OPEN_S) and not reader.error, (reader.path, reader.error)


def check_event(text: str, seed: int) -> None:
    """An event line names no card, no token and no seed: it says who, what game, which match."""
    event = json.loads(text)
    assert event["type"] in {
        "challenge", "challenge_canceled", "challenge_declined", "challenge_accepted",
        "match_start", "match_finish",
    }, event  # fmt: skip
    assert not card_ids(event) and not nations_wire.strings_in(event) & nations_wire.CARD_IDS
    assert not nations_wire.strings_in(event) & TOKEN_IDS, event
    assert str(seed) not in text and seed_hex(seed) not in text.lower(), event


def act(client: TestClient, match_id: str, api: str, action: object, version: int) -> str:
    response = client.post(
        f"/api/bot/matches/{match_id}/actions",
        json={"action": action, "expected_version": version},
        headers=bearer(api),
    )
    assert response.status_code == 200, response.text
    return str(response.text)


def test_a_watergate_duel_of_bots_streams_no_line_of_the_other_seats_secrets(
    client: TestClient, seeds: list[int]
) -> None:
    (_, ann_api), (bob, bob_api) = bot(client, "robo_ann_w"), bot(client, "robo_bob_w")
    match: list[str] = []  # filled once the challenge has made the match
    events = [event_reader(client, api, match) for api in (ann_api, bob_api)]
    opened(*events)
    seeds.append(WATERGATE_SEED)
    made = client.post(
        "/api/challenges",
        json={"to": bob["player_id"], "game": "watergate", "role": "editor"},
        headers=bearer(ann_api),
    )
    assert made.status_code == 201, made.text
    match.append(made.json()["match_id"])
    accepted = client.post(
        f"/api/challenges/{made.json()['challenge_id']}/accept", headers=bearer(bob_api)
    )
    assert accepted.status_code == 200 and accepted.json()["role"] == "nixon", accepted.text
    m = match[0]
    api: dict[Role, str] = {"editor": ann_api, "nixon": bob_api}
    streams = {role: seat_reader(client, m, key) for role, key in api.items()}
    opened(*streams.values())

    s = new_match(WATERGATE_SEED, WATERGATE.rules_version)  # the true state, dealt as the server
    states = {0: s}
    answers: list[tuple[Role, str]] = []
    chooser = {"editor": RandomBot(1), "nixon": RandomBot(2)}
    while (role := current_role(s)) is not None:
        assert s.version < MAX_VERSION, "the match does not end"
        if s.version == CHAT_AT:  # chat lines in every seat's stream, to be checked too
            for key in api.values():
                said = client.post(
                    f"/api/bot/matches/{m}/chat", json={"phrase": "good_luck"}, headers=bearer(key)
                )
                assert said.status_code == 204, said.text
        action = chooser[role].choose(view_for(s, role), legal_actions(s, role))
        answers.append((role, act(client, m, api[role], action, s.version)))
        s = apply(s, role, action).state
        states[s.version] = s
        while s.winner is None and (only := WATERGATE.forced(s)) is not None:
            s = apply(s, *only).state  # the server took an only choice too (issue 42)
            states[s.version] = s

    tally = Counter[str]()
    for role, text in answers:  # each action's answer: its seat's new view
        watergate_wire.check_sent(text, states[json.loads(text)["version"]], role)
    for role, reader in streams.items():
        held = {c for state in states.values() for c in state.hands[other(role)]}
        for text in reader.finish():
            message = json.loads(text)
            if message.get("type") != "view":
                check_other(text, s.seed, held)  # a chat line, say: never the other's hand
                tally["other lines"] += 1
                continue
            truth = states[message["version"]]
            watergate_wire.check_sent(text, truth, role)
            assert not watergate_wire.log_leaks(0, text, truth, role), (role, message["version"])
            tally[f"{role} views"] += 1
            tally["face-down track"] += any(not t.up for t in truth.track)
        assert json.loads(reader.lines[-1])["status"] == "finished"
    # the challenger hears the answer, the challenged the challenge; both the start and the end
    for reader, told in zip(events, ("challenge_accepted", "challenge"), strict=True):
        got = reader.finish()
        for text in got:
            check_event(text, s.seed)
        kinds = {json.loads(text)["type"] for text in got}
        assert {told, "match_start", "match_finish"} <= kinds, kinds
        tally["event lines"] += len(got)
    assert s.winner in ("editor", "nixon")
    # many views of the live match, on both seats, with face-down tokens to keep
    assert tally["editor views"] > 10 and tally["nixon views"] > 10, tally
    assert tally["face-down track"] > 0 and tally["event lines"] >= 3, tally
    assert tally["other lines"] >= 4, tally  # both phrases, in both seats' streams


def check_other(text: str, seed: int, secret: set[str]) -> None:
    """A line that is not a view (a chat line, a presence change): nothing secret in it."""
    message = json.loads(text)
    assert not card_ids(message) & secret, message
    assert not nations_wire.strings_in(message) & TOKEN_IDS, message
    assert str(seed) not in text and seed_hex(seed) not in text.lower(), message


def test_a_nations_table_of_three_bots_streams_no_deck_card_nor_the_seed(
    client: TestClient, seeds: list[int]
) -> None:
    bots = {seat: bot(client, f"robo_{seat}_n") for seat in ("p1", "p2", "p3")}
    api = {seat: key for seat, (_, key) in bots.items()}
    match: list[str] = []
    events = [event_reader(client, key, match) for key in api.values()]
    opened(*events)
    seeds.append(NATIONS_SEED)
    made = client.post(
        "/api/challenges",
        json={
            "to": bots["p2"][0]["player_id"], "game": "nations", "players": 3, "role": "p1",
            "seats": {"p3": "human"},
        },
        headers=bearer(api["p1"]),
    )  # fmt: skip
    assert made.status_code == 201, made.text
    match.append(made.json()["match_id"])
    code = made.json()["invites"]["p3"].rsplit("/invite/", 1)[1]
    third = client.post(f"/api/invites/{code}/claim", headers=as_player(bots["p3"][0]))
    assert third.status_code == 200 and third.json()["role"] == "p3", third.text
    accepted = client.post(
        f"/api/challenges/{made.json()['challenge_id']}/accept", headers=bearer(api["p2"])
    )
    assert accepted.status_code == 200 and accepted.json()["role"] == "p2", accepted.text
    m = match[0]
    streams = {seat: seat_reader(client, m, key) for seat, key in api.items()}
    opened(*streams.values())

    game = NATIONS.with_players(3)
    s = game.start(NATIONS_SEED).state  # the true state, dealt as the server deals
    states, answers = {0: s}, []
    rnd = random.Random(NATIONS_SEED)
    while seats := game.to_move(s):
        assert s.version < MAX_VERSION, "the match does not end"
        seat = seats[0]
        action = pick([game.action_to_json(a) for a in game.legal_actions(s, seat)], rnd)
        answers.append((seat, act(client, m, api[seat], action, s.version)))
        s = game.apply(s, seat, action).state
        states[s.version] = s

    tally = Counter[str]()
    for seat, text in answers:
        truth = states[json.loads(text)["version"]]
        nations_wire.check_sent(text, truth, NATIONS_SEED, seat, tally)
    for seat, reader in streams.items():
        for text in reader.finish():
            message = json.loads(text)
            if message.get("type") != "view":
                check_other(text, NATIONS_SEED, set())
                assert not nations_wire.strings_in(message) & nations_wire.in_decks(s), message
                continue
            assert message["role"] == seat
            truth = states[message["version"]]
            nations_wire.check_sent(text, truth, NATIONS_SEED, seat, tally)
            tally[f"{seat} views"] += 1
        assert json.loads(reader.lines[-1])["status"] == "finished"
    for reader in events:  # every bot hears its match start and end (the third by its invite)
        got = reader.finish()
        for text in got:
            check_event(text, NATIONS_SEED)
        assert {"match_start", "match_finish"} <= {json.loads(text)["type"] for text in got}
        tally["event lines"] += len(got)
    assert game.outcome(s) is not None
    assert min(tally[f"{seat} views"] for seat in api) > 10, tally
    assert tally["deck cards kept"] > 0 and tally["event lines"] >= 6, tally
