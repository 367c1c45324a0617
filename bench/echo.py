"""The floor for bench.load: a bare FastAPI websocket relay (one player's message forwarded to the
other's socket), driven like bench.load — pairs of sockets, a think time, the same latency probe.

    python -m bench.echo --pairs 200 --seconds 30 [--think-ms 1000] [--port 8099]

Starts the relay in a subprocess on 127.0.0.1, prints `p50_ms`, `p99_ms`, `messages_per_second`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import subprocess
import sys
import time
from dataclasses import dataclass

import httpx
import websockets

RELAY = """
from fastapi import FastAPI, WebSocket, WebSocketDisconnect
app = FastAPI()
rooms: dict[str, list[WebSocket]] = {}

@app.get("/healthz")
async def health() -> dict[str, str]:
    return {"status": "ok"}

@app.websocket("/ws/{room}")
async def relay(ws: WebSocket, room: str) -> None:
    await ws.accept()
    peers = rooms.setdefault(room, [])
    peers.append(ws)
    try:
        while True:
            text = await ws.receive_text()
            for peer in list(peers):
                if peer is not ws:
                    await peer.send_text(text)
    except WebSocketDisconnect:
        peers.remove(ws)
"""


async def _pair(base: str, room: int, think: float, deadline: float, lat: list[float]) -> None:
    rng = random.Random(room)
    url = f"{base}/ws/{room}"
    async with websockets.connect(url) as a, websockets.connect(url) as b:
        sockets = [a, b]
        turn = 0
        while time.perf_counter() < deadline:
            if think:
                await asyncio.sleep(think * rng.uniform(0.5, 1.5))
            sender, receiver = sockets[turn % 2], sockets[(turn + 1) % 2]
            started = time.perf_counter()
            await sender.send(json.dumps({"type": "action", "n": turn, "pad": "x" * 200}))
            await receiver.recv()
            lat.append(time.perf_counter() - started)
            turn += 1


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000 if ordered else float("nan")


@dataclass(frozen=True)
class EchoResult:
    messages_per_second: float
    p50_ms: float
    p99_ms: float


def measure(pairs: int, seconds: float, think_ms: int, port: int) -> EchoResult:
    """Start the relay in a subprocess, drive `pairs` socket pairs for `seconds`, stop it."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    server = subprocess.Popen(
        [
            sys.executable,
            "-c",
            RELAY + "\nimport uvicorn\nuvicorn.run(app, host='127.0.0.1', "
            f"port={port}, log_level='warning', ws_per_message_deflate=False)",
        ],
        env=env,
    )
    try:
        for _ in range(100):
            try:
                httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1)
                break
            except httpx.HTTPError:
                time.sleep(0.1)
        latencies: list[float] = []
        deadline = time.perf_counter() + seconds
        started = time.perf_counter()

        async def run() -> None:
            base = f"ws://127.0.0.1:{port}"
            await asyncio.gather(
                *(_pair(base, i, think_ms / 1000, deadline, latencies) for i in range(pairs))
            )

        asyncio.run(run())
        elapsed = time.perf_counter() - started
        return EchoResult(len(latencies) / elapsed, _pct(latencies, 0.5), _pct(latencies, 0.99))
    finally:
        server.terminate()
        server.wait(timeout=10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pairs", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--think-ms", type=int, default=1000)
    parser.add_argument("--port", type=int, default=8099)
    args = parser.parse_args()
    result = measure(args.pairs, args.seconds, args.think_ms, args.port)
    print(f"pairs {args.pairs}")
    print(f"think_ms {args.think_ms}")
    print(f"messages_per_second {result.messages_per_second:.1f}")
    print(f"p50_ms {result.p50_ms:.1f}")
    print(f"p99_ms {result.p99_ms:.1f}")


if __name__ == "__main__":
    main()
