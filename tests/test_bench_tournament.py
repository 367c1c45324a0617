"""bench.tournament runs end to end at a tiny size: its own server, six players, both phases
(matches made directly, then the arena), and prints every figure the issue asks for as a
`name number` line. The values are the machine's, so only the names and their form are checked."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

from bench.tournament import _you

ROOT = Path(__file__).resolve().parent.parent
PHASE = (
    "actions", "finished_matches", "p50_ms", "p99_ms", "all_started_s", "errors",
    "server_cpu_pct", "client_cpu_pct", "steal_pct", "server_push_p99_le_ms",
    "server_loop_lag_p99_le_ms",
)  # fmt: skip
NAMES = {
    "cores", "load1", "load1_end", "players", "matches", "think_ms", "resign_after", "seconds",
    *(f"{phase}_{name}" for phase in ("baseline", "arena") for name in PHASE),
    "arena_over_baseline", "arena_never_played", "pairings", "pairings_pending",
    "tournament_frames", "tournament_frame_kib_mean", "watchers", "watcher_frames",
    "watcher_frame_kib_mean",
    *(f"pairing_{group}{q}_ms" for group in ("", "first_", "again_", "push_")
      for q in ("p50", "p99", "max")),
}  # fmt: skip


def test_a_tiny_run_prints_every_figure_by_name() -> None:
    argv = [
        "--players",
        "6",
        "--seconds",
        "4",
        "--ramp-s",
        "1",
        "--think-ms",
        "200",
        "--watchers",
        "2",
    ]
    done = subprocess.run(
        [sys.executable, "-m", "bench.tournament", *argv, "--resign-after", "2"],
        cwd=ROOT, capture_output=True, text=True, timeout=180,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    figures = dict(line.split(" ", 1) for line in done.stdout.splitlines())
    # error counts by code come on lines of their own, only when there were any
    assert set(figures) - NAMES <= {n for n in figures if "_error_" in n}, done.stdout
    assert set(figures) >= NAMES, NAMES - set(figures)
    for name, value in figures.items():
        assert math.isnan(float(value)) or float(value) >= 0, (name, value)


def test_a_frames_own_line_is_read_from_its_end_whatever_the_page_holds() -> None:
    page = {"type": "tournament", "name": 'say "you": no', "standings": [{"you": 1}]}
    mine = {"player_id": "p1", "playing": "m1"}
    for separators in ((",", ":"), (", ", ": ")):
        assert _you(json.dumps({**page, "you": mine}, separators=separators)) == mine
        assert _you(json.dumps({**page, "you": None}, separators=separators)) is None
