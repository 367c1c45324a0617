"""Hints on the wire (issue "Learn to play"; contract v1.1 `hints`): a seat of an unrated
match is told why a card of its hand is offered only for its value, and the claim agrees with its
legal actions; a rated match's views, a spectator's and a finished match's never carry hints.
What would do nothing now (R14, issue 42) is no hint: the view's `state.idle` says it in rated
matches too."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from engine.watergate.bots import RandomBot

from .accounts_helpers import rated_match, sign_up
from .test_api import act, bearer, started, view
from .test_lifecycle import spectate_key


def card_actions(seen: dict[str, Any]) -> set[str]:
    return {a["card"] for a in seen["legal_actions"] if a["type"] == "play_action"}


def test_an_unrated_seat_is_told_why_a_card_is_offered_only_for_its_value(
    client: TestClient,
) -> None:
    match_id, tokens = started(client)
    bot, hinted, plays = RandomBot(7), 0, 0
    seen = view(client, match_id, tokens["editor"])
    while seen["status"] == "active" and (hinted < 3 or plays < 20):
        decider = seen["state"]["decision"]["role"]
        seen = view(client, match_id, tokens[decider])
        hints = seen["hints"]["actions"]
        decision = seen["state"]["decision"]
        hand = {card["id"] for card in seen["state"]["hands"][decider]}
        if decision["kind"] == "play":
            # the cards it may play now (Howard Hunt's drawn one alone, R19) are hinted exactly
            # when their action is not among the legal actions
            playable = {decision["card"]} if decision.get("from_deck") else hand
            assert set(hints) & playable == playable - card_actions(seen)
            plays += 1
            hinted += len(hints)
        assert set(hints) <= hand | {decision.get("card")}
        choice = bot.choose(seen["state"], seen["legal_actions"])
        body = {"action": choice, "expected_version": seen["version"]}
        seen = act(client, match_id, tokens[decider], body).json()
    assert hinted >= 3, "some card of a random deal is always offered only for its value"

    key = spectate_key(client, match_id, tokens["editor"])
    watched = client.get(f"/api/matches/{match_id}/spectate", params={"key": key}).json()
    assert "hints" not in watched, "a spectator has no hand to explain"


def test_a_rated_match_never_carries_hints(client: TestClient) -> None:
    ana, bob = sign_up(client, "Ana_hints"), sign_up(client, "Bob_hints")
    match_id, tokens = rated_match(client, ana, bob)
    for seat, token in tokens.items():
        seen = view(client, match_id, token)
        assert seen["status"] == "active"
        assert "hints" not in seen, seat
        # asking for them changes nothing: the server decides, not the browser
        asked = client.get(f"/api/matches/{match_id}?hints=on", headers=bearer(token)).json()
        assert "hints" not in asked, seat

    unrated_id, unrated = rated_match(client, ana, bob, rated=False)
    assert "hints" in view(client, unrated_id, unrated["editor"])


def test_a_rated_seat_is_told_what_would_do_nothing_without_hints(client: TestClient) -> None:
    ana, bob = sign_up(client, "Ana_idle"), sign_up(client, "Bob_idle")
    match_id, tokens = rated_match(client, ana, bob)
    bot, told, plays = RandomBot(11), 0, 0
    seen = view(client, match_id, tokens["editor"])
    while seen["status"] == "active" and told < 2 and plays < 200:
        decider = seen["state"]["decision"]["role"]
        seen = view(client, match_id, tokens[decider])
        assert "hints" not in seen
        idle = seen["state"]["idle"]
        if seen["state"]["decision"]["kind"] == "play" and idle:
            # only cards whose action it may play now, each part said with its reason
            assert set(idle) <= card_actions(seen), (idle, seen["legal_actions"])
            assert all(part["reason"] for entry in idle.values() for part in entry["parts"])
            told += 1
        else:
            assert idle == {}, "nothing is foretold outside a choice of a card"
        waiting = next(seat for seat in tokens if seat != decider)
        assert view(client, match_id, tokens[waiting])["state"]["idle"] == {}
        choice = bot.choose(seen["state"], seen["legal_actions"])
        body = {"action": choice, "expected_version": seen["version"]}
        seen = act(client, match_id, tokens[decider], body).json()
        plays += 1
    assert told == 2, "a random match soon has a card whose action would partly do nothing"


def test_a_finished_match_carries_no_hints(client: TestClient) -> None:
    match_id, tokens = started(client)
    resigned = client.post(f"/api/matches/{match_id}/resign", headers=bearer(tokens["nixon"]))
    assert resigned.status_code == 200, resigned.text
    for token in tokens.values():
        assert "hints" not in view(client, match_id, token)
