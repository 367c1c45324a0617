"""The tournament sockets' pushes (issue 46): coalesced into one render for a burst of changes,
the public page serialised once with each entrant's own line added, and a change that arrives
while a push is being rendered followed by one more push (a pairing committed meanwhile must
reach its player without waiting for the next change); the paired players' own lines, read
together for the players notified at once."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from app.push import tournament_room
from app.push.tournament_room import TournamentRoom


class FakeSocket:
    def __init__(self, player_id: str | None) -> None:
        self.tournament_id, self.player_id, self.address = "t1", player_id, "127.0.0.1"
        self.sent: list[dict[str, Any]] = []

    async def send_text(self, text: str) -> None:
        self.sent.append(json.loads(text))


def test_a_change_during_a_render_is_pushed_again_and_each_entrant_gets_its_own_line(
    monkeypatch: Any,
) -> None:
    monkeypatch.setattr(tournament_room, "COALESCE_S", 0)

    async def scenario() -> tuple[list[dict[str, Any]], list[dict[str, Any]], int]:
        room = TournamentRoom(10, 10)
        rendering, release = asyncio.Event(), asyncio.Event()
        renders = 0

        async def render(tid: str) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
            nonlocal renders
            renders += 1
            if renders == 1:
                rendering.set()
                await release.wait()  # a change arrives while this render is under way
            return {"round": renders}, {"ana": {"playing": f"m{renders}"}}

        room.render = render
        ana, watcher = FakeSocket("ana"), FakeSocket(None)
        room.add(ana)  # type: ignore[arg-type]
        room.add(watcher)  # type: ignore[arg-type]
        room.changed("t1")
        room.changed("t1")  # a burst: still one render
        await rendering.wait()
        room.changed("t1")  # committed while the first push renders
        release.set()
        while room._due:  # each push, and the one its done callback starts
            await asyncio.gather(*list(room._due.values()))
        return ana.sent, watcher.sent, renders

    ana, watcher, renders = asyncio.run(scenario())
    assert renders == 2
    assert [f["you"]["playing"] for f in ana] == ["m1", "m2"]
    assert [f["you"] for f in watcher] == [None, None]
    assert ana[-1]["type"] == "tournament" and ana[-1]["round"] == 2


def test_a_pairing_reaches_the_paired_players_sockets_at_once_and_nobody_elses() -> None:
    async def scenario() -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[str]]:
        room = TournamentRoom(10, 10)
        asked: list[str] = []

        async def render_own(tid: str, players: list[str]) -> dict[str, dict[str, Any]]:
            asked.extend(players)
            return {p: {"player_id": p, "playing": "m9"} for p in players}

        room.render_own = render_own
        ana, bea = FakeSocket("ana"), FakeSocket("bea")
        room.add(ana)  # type: ignore[arg-type]
        room.add(bea)  # type: ignore[arg-type]
        room.notified("ana", 41)
        room.notified("cid", 42)  # no tournament socket here: nothing read, nothing sent
        await asyncio.gather(*list(room._tasks))
        return ana.sent, bea.sent, asked

    ana, bea, asked = asyncio.run(scenario())
    assert ana == [{"type": "you", "you": {"player_id": "ana", "playing": "m9"}}]
    assert bea == [] and asked == ["ana"]


def test_the_players_of_a_batch_of_pairings_are_read_together_and_each_told_their_own() -> None:
    """An arena's pass tells a batch of games at once: one read for their players, not one a
    player (each a thread call that slowed the pass's next batch); a player notified while
    that read is under way is read next."""

    async def scenario() -> tuple[list[list[str]], dict[str, list[dict[str, Any]]]]:
        room = TournamentRoom(10, 10)
        asked: list[list[str]] = []

        async def render_own(tid: str, players: list[str]) -> dict[str, dict[str, Any]]:
            asked.append(players)
            if len(asked) == 1:
                room.notified("dee", 44)  # paired while the first read is under way
            await asyncio.sleep(0)
            return {p: {"player_id": p, "playing": f"m-{p}"} for p in players}

        room.render_own = render_own
        sockets = {p: FakeSocket(p) for p in ("ana", "bea", "cid", "dee")}
        for s in sockets.values():
            room.add(s)  # type: ignore[arg-type]
        room.notified("ana", 41)
        room.notified("bea", 42)
        while room._tasks:
            await asyncio.gather(*list(room._tasks))
        return asked, {p: s.sent for p, s in sockets.items()}

    asked, sent = asyncio.run(scenario())
    assert asked == [["ana", "bea"], ["dee"]]
    for p in ("ana", "bea", "dee"):
        assert sent[p] == [{"type": "you", "you": {"player_id": p, "playing": f"m-{p}"}}]
    assert sent["cid"] == []
