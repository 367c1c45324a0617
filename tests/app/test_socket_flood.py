"""Hostile clients on the sockets (contract v1.1): live sockets are capped per seat, per spectator
link and per match (a socket over a cap gets `too_many_sockets` and is closed with 4429).

Synchronisation is by blocking receives only (tests.app.test_ws.receive has a deadline)."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import ExitStack
from typing import Any

from fastapi.testclient import TestClient

from .test_lifecycle import wait_for
from .test_ws import receive_view, socket, started
from .test_ws_auth import refusal

MakeClient = Callable[..., TestClient]


def spectator_socket(client: TestClient, match_id: str, token: str) -> Callable[[], Any]:
    """A function that opens a spectator socket on the match's spectator link."""
    view = client.get(f"/api/matches/{match_id}", headers={"Authorization": f"Bearer {token}"})
    path = view.json()["spectate_path"].replace("/watch/", "/ws/watch/")
    return lambda: client.websocket_connect(path)


def gone(role: str) -> Callable[[dict[str, Any]], bool]:
    """The view shows `role` away, with when it left."""
    return lambda v: not v["presence"][role]["online"] and v["presence"][role]["last_seen"]


# ---- caps -------------------------------------------------------------------------------------


def test_a_seat_s_sockets_over_its_cap_are_refused_and_closing_makes_room(
    sqlite_url: str, make_client: MakeClient
) -> None:
    client = make_client(sqlite_url, max_sockets_per_seat=2)
    match_id, tokens = started(client)
    with ExitStack() as stack:
        nx = stack.enter_context(socket(client, match_id, tokens["nixon"]))
        receive_view(nx)
        with (
            socket(client, match_id, tokens["editor"]) as a,
            socket(client, match_id, tokens["editor"]) as b,
        ):
            receive_view(a)
            receive_view(b)
            with socket(client, match_id, tokens["editor"]) as third:
                assert refusal(third) == ("too_many_sockets", 4429)
            with socket(client, match_id, tokens["nixon"]) as other_seat:  # its own allowance
                assert receive_view(other_seat)["role"] == "nixon"
            a.close()
            b.close()
            # once the Editor's sockets are gone (Nixon is told), the Editor may open two again
            wait_for(nx, gone("editor"), "the Editor left")
        with (
            socket(client, match_id, tokens["editor"]) as a,
            socket(client, match_id, tokens["editor"]) as b,
        ):
            assert receive_view(a)["role"] == receive_view(b)["role"] == "editor"


def test_spectators_over_the_link_s_cap_and_sockets_over_the_match_s_cap_are_refused(
    sqlite_url: str, make_client: MakeClient
) -> None:
    client = make_client(sqlite_url, max_sockets_per_spectator_key=2, max_sockets_per_match=4)
    match_id, tokens = started(client)
    watch = spectator_socket(client, match_id, tokens["editor"])
    with ExitStack() as stack:
        for _ in range(2):
            receive_view(stack.enter_context(watch()))
        with watch() as one_too_many:
            assert refusal(one_too_many) == ("too_many_sockets", 4429)
        for role in ("editor", "nixon"):  # seats are not spectators: 4 sockets in the match
            assert receive_view(stack.enter_context(socket(client, match_id, tokens[role])))
        with socket(client, match_id, tokens["editor"]) as fifth:
            assert refusal(fifth) == ("too_many_sockets", 4429)
