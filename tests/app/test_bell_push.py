"""Web Push of the bell's notifications (issue 43): a stored line of a kind the player chose is
sent, encrypted and signed like a turn notice, to every browser the player subscribed, worded
in that browser's language; a kind the player keeps to the bell is not sent; turn notices
follow the `your_turn` choice. A fake push service on 127.0.0.1 (tests.app.test_turn_notices)
receives them; each test waits on what it receives (with a deadline), never on time."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from app.push.changes import Notified
from app.services.context import AppContext

from .test_players import Player, as_player, new_player
from .test_turn_notices import Browser, FakePushService, client, service, subscribe

__all__ = ["client", "service"]  # fixtures, used by name


def notify(c: TestClient, player: Player, kind: str, **data: Any) -> int:
    ctx: AppContext = c.app.state.ctx  # type: ignore[attr-defined]
    made: int = c.portal.call(ctx.notices.notify, player["player_id"], kind, data)  # type: ignore[union-attr]
    return made


def test_a_chosen_kind_is_pushed_in_the_browser_s_language(
    client: TestClient, service: FakePushService
) -> None:
    bea = new_player(client, "Bea")
    browser = Browser(f"{service.origin}/bea")
    subscribe(client, bea, browser, "pt-BR")
    made = notify(client, bea, "rematch", name="Ana", match_id="m1", game="watergate")
    got = service.next()
    assert got.path == "/bea" and got.headers["content-encoding"] == "aes128gcm"
    assert browser.decrypt(got.body) == {
        "type": "notification",
        "id": made,
        "kind": "rematch",
        "url": "/match/m1",
        "title": "Watergate Online",
        "body": "Ana oferece uma revanche",
    }


def test_a_kind_kept_to_the_bell_is_not_pushed(
    client: TestClient, service: FakePushService
) -> None:
    bea = new_player(client, "Bea")
    browser = Browser(f"{service.origin}/bea")
    subscribe(client, bea, browser)
    chosen = client.put(
        "/api/notifications/push", json={"push": ["rematch"]}, headers=as_player(bea)
    )
    assert chosen.json() == {"push": ["rematch"]}
    notify(client, bea, "challenge", name="Ana")  # the bell only
    made = notify(client, bea, "rematch", name="Ana")
    got = browser.decrypt(service.next().body)
    assert (got["kind"], got["id"]) == ("rematch", made)  # the first push is the chosen kind's
    assert service.received.empty()


def test_turn_notices_follow_the_your_turn_choice(
    client: TestClient, service: FakePushService
) -> None:
    ana = new_player(client, "Ana")
    subscribe(client, ana, Browser(f"{service.origin}/ana"))
    ctx: AppContext = client.app.state.ctx  # type: ignore[attr-defined]
    assert len(ctx.turns._subscriptions(ana["player_id"])) == 1
    client.put("/api/notifications/push", json={"push": ["challenge"]}, headers=as_player(ana))
    assert ctx.turns._subscriptions(ana["player_id"]) == []  # bell only for turns


def test_lines_announced_together_are_each_pushed(
    client: TestClient, service: FakePushService
) -> None:
    """An arena's pass announces a batch of pairings at once (read together): each is sent."""
    ana, bea = new_player(client, "Ana"), new_player(client, "Bea")
    browsers = {p["player_id"]: Browser(f"{service.origin}/{p['name']}") for p in (ana, bea)}
    for p in (ana, bea):
        subscribe(client, p, browsers[p["player_id"]])
    ctx: AppContext = client.app.state.ctx  # type: ignore[attr-defined]
    made = {
        p["player_id"]: ctx.notices._add(p["player_id"], "rematch", {"name": "Cid"})
        for p in (ana, bea)
    }
    told = [Notified(player, line) for player, line in made.items()]
    client.portal.call(ctx.core.publish, *told)  # type: ignore[union-attr]
    got = [service.next() for _ in made]
    assert sorted(g.path for g in got) == ["/Ana", "/Bea"]
    for g in got:
        player = ana if g.path == "/Ana" else bea
        assert browsers[player["player_id"]].decrypt(g.body)["id"] == made[player["player_id"]]
