"""A bot account at the table's chat (contract v1.2 "Bots", issue 45): it says only the preset
phrases — through the bot API (`POST /api/bot/matches/{id}/chat {"phrase"}`) or its seat's
socket alike — and its free text is `403 bot_chat_phrases_only`, stored nowhere; the person
across the table still chats freely."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from fastapi.testclient import TestClient

from .accounts_helpers import as_player, rated_match, sign_up
from .test_api import assert_error, bearer
from .test_bot_challenges import bot
from .test_chat import next_chat, say
from .test_lifecycle import seat_socket, wait_for

MakeClient = Callable[..., TestClient]


@pytest.fixture
def db_client(any_db_url: str, make_client: MakeClient) -> TestClient:
    return make_client(any_db_url)


def test_a_bot_says_phrases_only(db_client: TestClient) -> None:
    ana = sign_up(db_client, "ana_talks")
    robo, api = bot(db_client, "robo_quiet")
    match_id, seats = rated_match(db_client, ana, robo, rated=False)
    url = f"/api/bot/matches/{match_id}/chat"

    said = db_client.post(url, json={"phrase": "good_luck"}, headers=bearer(api))
    assert said.status_code == 204, said.text
    free = db_client.post(url, json={"text": "you will lose, human"}, headers=bearer(api))
    assert_error(free, 403, "bot_chat_phrases_only")
    assert_error(db_client.post(url, json={"phrase": "gloat"}, headers=bearer(api)), 422)
    reader = sign_up(db_client, "ana_reader")  # an account that is not at the table
    theirs = db_client.post(url, json={"phrase": "thanks"}, headers=as_player(reader))
    assert_error(theirs, 401, "unauthorized")  # the bot API wants an API token

    with seat_socket(db_client, match_id, seats["nixon"]) as ws:  # the bot's own seat socket
        wait_for(ws, lambda v: v["status"] == "active", "the match is on")
        say(ws, "free text through the socket")
        refused = next_chat(ws)
        assert (refused["type"], refused["code"]) == ("error", "bot_chat_phrases_only")
        ws.send_json({"type": "chat", "phrase": "thinking"})
        assert next_chat(ws)["phrase"] == "thinking"
    with seat_socket(db_client, match_id, seats["editor"]) as ws:
        wait_for(ws, lambda v: v["status"] == "active", "the match is on")
        say(ws, "gl, robot")  # the person is not restricted
        assert next_chat(ws)["text"] == "gl, robot"

    kept = db_client.get(f"/api/matches/{match_id}", headers=bearer(seats["editor"])).json()
    assert [(c["role"], c["text"], c.get("phrase")) for c in kept["chat"]] == [
        ("nixon", "Good luck", "good_luck"),
        ("nixon", "Thinking…", "thinking"),
        ("editor", "gl, robot", None),
    ]
