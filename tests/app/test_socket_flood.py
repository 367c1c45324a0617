"""Hostile clients on the sockets (contract v1.1): live sockets are capped per seat, per spectator
link and per match (a socket over a cap gets `too_many_sockets` and is closed with 4429), and a
crowd of sockets opening and closing costs a bounded number of renders, not one per socket.

Renders are counted by wrapping the hub's renderer before any room exists. Synchronisation is by
blocking receives only (tests.app.test_ws.receive has a deadline)."""

from __future__ import annotations

import time
from collections.abc import Callable
from contextlib import ExitStack
from typing import Any

from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from app.main import create_app
from app.push.changes import Change, PresenceChanged
from app.push.hub import FRAME_REUSE_S, Hub
from app.services.announce import PRESENCE_WINDOW_S
from engine.core.game import Viewer

from .conftest import make_settings
from .test_lifecycle import wait_for
from .test_ws import receive_view, socket, started, view_at
from .test_ws_auth import refusal

MakeClient = Callable[..., TestClient]


class Renders:
    """Every call of the hub's renderer: the viewers whose frames it built."""

    def __init__(self, hub: Hub) -> None:
        self.calls: list[set[Viewer]] = []
        inner = hub.render
        assert inner is not None

        async def counting(match_id: str, viewers: set[Viewer], version: int) -> Any:
            self.calls.append(set(viewers))
            return await inner(match_id, viewers, version)

        hub.render = counting

    def of(self, viewer: Viewer) -> int:
        """How many frames were built for `viewer`."""
        return sum(viewer in call for call in self.calls)


def counted(client: TestClient) -> tuple[Renders, list[Change]]:
    """The renders and the published changes of this app from now on."""
    ctx = client.app.state.ctx  # type: ignore[attr-defined]
    published: list[Change] = []
    ctx.core.listeners.append(published.append)
    return Renders(ctx.hub), published


def spectator_socket(client: TestClient, match_id: str, token: str) -> Callable[..., Any]:
    """A function that opens a spectator socket on the match's spectator link (with the
    request headers it is given, if any)."""
    view = client.get(f"/api/matches/{match_id}", headers={"Authorization": f"Bearer {token}"})
    path = view.json()["spectate_path"].replace("/watch/", "/ws/watch/")
    return lambda headers=None: client.websocket_connect(
        path, **({"headers": headers} if headers else {})
    )


def both_online(
    client: TestClient, match_id: str, tokens: dict[str, str], stack: ExitStack
) -> tuple[WebSocketTestSession, WebSocketTestSession, dict[str, Any]]:
    """Both seats' sockets and the Editor's latest view, once the Editor has seen Nixon online:
    both seats' presence has been announced then, so no change is pending."""
    ed = stack.enter_context(socket(client, match_id, tokens["editor"]))
    receive_view(ed)
    nx = stack.enter_context(socket(client, match_id, tokens["nixon"]))
    latest = wait_for(ed, lambda v: v["presence"]["nixon"]["online"], "Nixon online")
    return ed, nx, latest


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


# ---- work per socket --------------------------------------------------------------------------


def test_fifty_spectators_coming_and_going_render_no_seat_and_share_their_frame(
    sqlite_url: str, make_client: MakeClient
) -> None:
    """Bound: spectators are not in presence, so they never re-render a seat's frame; a socket
    that opens is handed its viewer's frame when it is at most FRAME_REUSE_S old, so the crowd
    costs at most one spectator frame per FRAME_REUSE_S (one in all when it comes quickly)."""
    # from one test client, so its address's share is the link's whole cap
    client = make_client(
        sqlite_url, max_sockets_per_spectator_key=50, max_spectators_per_address=50
    )
    match_id, tokens = started(client)
    watch = spectator_socket(client, match_id, tokens["editor"])
    renders, published = counted(client)
    with ExitStack() as seats:
        ed, nx, latest = both_online(client, match_id, tokens, seats)
        renders.calls.clear()
        published.clear()
        began = time.monotonic()
        with ExitStack() as crowd:
            watchers: list[WebSocketTestSession] = []
            for _ in range(50):
                watchers.append(crowd.enter_context(watch()))
                assert receive_view(watchers[-1])["role"] is None
            spent = time.monotonic() - began
            spectator_frames = renders.of(None)
            for ws in watchers:
                ws.close()
        assert renders.of("editor") == renders.of("nixon") == 0, renders.calls
        assert 1 <= spectator_frames <= 1 + spent / FRAME_REUSE_S, (spectator_frames, spent)
        assert not [c for c in published if isinstance(c, PresenceChanged)]
        action = latest["legal_actions"][0]
        ed.send_json({"type": "action", "action": action, "expected_version": 0})
        assert view_at(ed, 1)["version"] == view_at(nx, 1)["version"] == 1  # seats still served


def test_a_seat_s_extra_sockets_announce_nothing_and_only_its_last_close_is_rendered(
    sqlite_url: str, make_client: MakeClient
) -> None:
    """Bound: presence changes when a seat's first socket opens or its last one closes, so the
    opponent's frame is rendered once for all of Nixon's sockets leaving, and never for the
    extra sockets (each gets its own seat's frame, rendered for it alone if not fresh)."""
    client = make_client(sqlite_url)
    match_id, tokens = started(client)
    renders, published = counted(client)
    notices = client.app.state.ctx.lifecycle.notices  # type: ignore[attr-defined]
    announced: list[tuple[str, float | None]] = []
    announce = notices.announce

    def recording(match: str, seat: str, left_at: float | None) -> None:
        announced.append((seat, left_at))
        announce(match, seat, left_at)

    notices.announce = recording
    with ExitStack() as seats:
        ed, nx, _ = both_online(client, match_id, tokens, seats)
        renders.calls.clear()
        published.clear()
        announced.clear()
        with ExitStack() as tabs:
            for _ in range(3):  # the seat's cap is 4: Nixon's other tabs
                tab = tabs.enter_context(socket(client, match_id, tokens["nixon"]))
                assert receive_view(tab)["role"] == "nixon"
                tab.close()
            nx.close()
            off = wait_for(ed, gone("nixon"), "Nixon left")
        left_at = off["presence"]["nixon"]["last_seen"]
        assert announced == [("nixon", left_at)]  # not one per socket: the seat left once
        assert published == [PresenceChanged(match_id, "nixon", left_at)]
        assert renders.of("editor") == 1, renders.calls  # the one change: Nixon went away


def test_a_flapping_seat_costs_at_most_one_announcement_per_window(
    sqlite_url: str, make_client: MakeClient
) -> None:
    """Bound: a seat's presence is published at most once per PRESENCE_WINDOW_S, so 20 quick
    reconnects (40 changes) re-render the opponent at most once per window."""
    client = make_client(sqlite_url)
    match_id, tokens = started(client)
    renders, published = counted(client)
    with socket(client, match_id, tokens["editor"]) as ed:
        receive_view(ed)
        renders.calls.clear()
        began = time.monotonic()
        for _ in range(20):
            with socket(client, match_id, tokens["nixon"]) as nx:
                receive_view(nx)
                nx.close()
        spent = time.monotonic() - began
        announced = [c for c in published if isinstance(c, PresenceChanged) and c.seat == "nixon"]
        windows = 1 + spent / PRESENCE_WINDOW_S
        assert len(announced) <= windows < 40, (len(announced), spent)
        assert renders.of("editor") <= windows, (renders.calls, spent)


def test_one_address_holds_only_its_share_of_a_spectator_link(sqlite_url: str) -> None:
    """Issue 40, finding 6: one address could take every socket of a match's spectator link. A
    trusted proxy's X-Forwarded-For tells the clients behind it apart."""
    settings = make_settings(sqlite_url, max_spectators_per_address=2)
    here, there = ({"X-Forwarded-For": a} for a in ("198.51.100.1", "198.51.100.2"))
    with TestClient(create_app(settings), client=("127.0.0.1", 50000)) as client:
        match_id, tokens = started(client)
        watch = spectator_socket(client, match_id, tokens["editor"])
        with ExitStack() as stack:
            for _ in range(2):
                assert receive_view(stack.enter_context(watch(here)))["role"] is None
            with watch(here) as third:
                assert refusal(third) == ("too_many_sockets", 4429)
            with watch(there) as elsewhere:  # everyone else still watches
                assert receive_view(elsewhere)["role"] is None
