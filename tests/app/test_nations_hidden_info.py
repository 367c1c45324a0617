"""Hidden information of Nations over the wire (NR1: of the whole table, only the order and content
of the progress and event decks are hidden, from everyone). In whole matches played through the
API, every JSON text the server sends — each seat's and the spectator's HTTP view and every
websocket push to the three — is compared with the engine's true state at that moment:

* no text names a card that is still in a progress or event deck, nor the seed while it lives;
* refusals read the same whether the named card is in a deck, out of the game or nowhere;
* non-interference at the wire: from the server's cached state we build variants whose decks are in
  another order, and `app.push.frames.frame` must give every viewer the very same text.

The seeds are fixed (app.services.matches.new_seed is replaced), so the matches are the same on
every run; the actions are chosen by a seeded generator among the offered ones."""

from __future__ import annotations

import dataclasses
import json
import random
from collections import Counter

from fastapi.testclient import TestClient

from app.push.frames import Live, frame
from app.services.access import current
from engine.core.fairness import seed_hex
from engine.nations import GAME
from engine.nations.state import MatchState

from .nations_play import bearer, pick
from .test_wire_hidden_info import receive_text, seeds

__all__ = ["seeds"]  # the fixture that fixes the deals, shared with the Watergate check

MATCH_SEEDS = [random.Random(f"nations-wire-{k}").getrandbits(53) for k in (1, 2)]
Viewer = str | None
VIEWERS: tuple[Viewer, ...] = ("p1", "p2", None)
CARD_IDS = frozenset(GAME.ruleset.cards) | frozenset(GAME.ruleset.events)  # every card of the data


def strings_in(value: object) -> set[str]:
    """Every string inside a JSON value, keys included."""
    if isinstance(value, dict):
        return {s for k, v in value.items() for s in ({k} | strings_in(v))}
    if isinstance(value, list):
        return {s for v in value for s in strings_in(v)}
    return {value} if isinstance(value, str) else set()


def in_decks(s: MatchState) -> set[str]:
    return {c for deck in (*s.decks, *s.event_decks) for c in deck}


def check_sent(text: str, s: MatchState, seed: int, viewer: Viewer, tally: Counter[str]) -> None:
    sent = json.loads(text)
    named = strings_in(sent) & CARD_IDS
    hidden = in_decks(s)
    assert not named & hidden, f"{viewer} was sent deck cards {named & hidden} at v{s.version}"
    tally["deck cards kept"] += len(hidden)
    if sent["status"] != "finished":
        assert str(seed) not in text and seed_hex(seed) not in text.lower(), viewer
        assert "deck_cards" not in sent["state"]


def reshuffled(s: MatchState, rnd: random.Random) -> MatchState:
    """The same table with every deck in another order (NR1: what nobody can tell apart)."""
    t = s.clone()
    t.decks = tuple(tuple(rnd.sample(d, len(d))) for d in s.decks)
    t.event_decks = tuple(tuple(rnd.sample(d, len(d))) for d in s.event_decks)
    return t


def check_non_interference(
    client: TestClient, match_id: str, s: MatchState, rnd: random.Random, tally: Counter[str]
) -> None:
    found = current(client.app.state.ctx.core, match_id)  # type: ignore[attr-defined]
    assert found is not None
    info, entry = found
    assert GAME.describe(entry.state) == GAME.describe(s), "the server holds the true state"
    live = Live(frozenset(), None)
    for viewer in VIEWERS:
        sent = frame(info, entry, viewer, live)
        variant = reshuffled(entry.state, rnd)
        tally["variants"] += 1
        tally["variants differing"] += variant.decks != entry.state.decks
        again = frame(info, dataclasses.replace(entry, state=variant), viewer, live)
        assert again == sent, f"{viewer} can tell the decks' order apart at v{s.version}"


def probe_refusals(client: TestClient, url: str, token: str, s: MatchState) -> None:
    """Buying a card that is not on the board answers alike wherever that card is."""
    out_of_game = sorted(CARD_IDS - in_decks(s) - set(s.board) - {s.event})
    named = [next(iter(d)) for d in s.decks if d][:1] + out_of_game[:1] + ["no_such_card"]
    answers = set()
    for card in named:
        response = client.post(
            url, headers=bearer(token), json={"action": {"type": "buy", "card": card}}
        )
        assert response.status_code == 422, response.text
        answers.add(json.dumps([response.json()["code"], response.json()["message"]]))
    assert len(answers) == 1, answers


def play_and_check(client: TestClient, seeds: list[int], seed: int, tally: Counter[str]) -> None:
    seeds.append(seed)
    made = client.post("/api/matches", json={"game": "nations", "role": "p1"}).json()
    code = made["invite_url"].rsplit("/invite/", 1)[1]
    tokens = {
        "p1": made["seat_token"],
        "p2": client.post(f"/api/invites/{code}/claim").json()["seat_token"],
    }
    match_id = made["match_id"]
    url = f"/api/matches/{match_id}"
    key = client.get(url, headers=bearer(tokens["p1"])).json()["spectate_path"].rsplit("key=", 1)[1]
    paths = {
        "p1": (url, f"/ws/matches/{match_id}?token={tokens['p1']}"),
        "p2": (url, f"/ws/matches/{match_id}?token={tokens['p2']}"),
        None: (f"{url}/spectate?key={key}", f"/ws/watch/{match_id}?key={key}"),
    }
    s = GAME.start(seed).state  # the true state, dealt as the server deals
    states = {0: s}
    rnd = random.Random(seed)
    with (
        client.websocket_connect(paths["p1"][1]) as p1,
        client.websocket_connect(paths["p2"][1]) as p2,
        client.websocket_connect(paths[None][1]) as sp,
    ):
        sockets = {"p1": p1, "p2": p2, None: sp}

        def read(viewer: Viewer) -> None:
            token = tokens[viewer] if viewer is not None else ""
            got = client.get(paths[viewer][0], headers=bearer(token))
            assert got.status_code == 200, got.text
            check_sent(got.text, s, seed, viewer, tally)
            version = -1
            while version < s.version:
                text = receive_text(sockets[viewer])
                version = json.loads(text)["version"]
                check_sent(text, states[version], seed, viewer, tally)

        for viewer in VIEWERS:
            read(viewer)
        while seats := GAME.to_move(s):
            seat = seats[0]
            offered = [GAME.action_to_json(a) for a in GAME.legal_actions(s, seat)]
            if s.version % 7 == 0 and any(a["type"] == "buy" for a in offered):
                probe_refusals(client, f"{url}/actions", tokens[seat], s)
            action = pick(offered, rnd)
            response = client.post(
                f"{url}/actions", headers=bearer(tokens[seat]), json={"action": action}
            )
            assert response.status_code == 200, response.text
            s = GAME.apply(s, seat, action).state
            states[s.version] = s
            for viewer in VIEWERS:
                read(viewer)
            if s.version % 5 == 0:
                check_non_interference(client, match_id, s, rnd, tally)
    assert GAME.outcome(s) is not None


def test_nr1_what_each_viewer_of_a_nations_match_is_sent_hides_the_decks(
    client: TestClient, seeds: list[int]
) -> None:
    tally = Counter[str]()
    for seed in MATCH_SEEDS:
        play_and_check(client, seeds, seed, tally)
    assert min(tally.values()) > 0, tally
    assert tally["variants differing"] > tally["variants"] * 0.8, tally
