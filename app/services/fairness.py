"""Checking an ended match's deal: its revealed seed against the commitment published from its
first view, and its public action list replayed through the engine from that seed to its end."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from engine.core.errors import EngineError
from engine.core.fairness import commitment, commits_to
from engine.registry import get_game

from ..games import start_match
from ..push.frames import fairness
from .exports import Stored


@dataclass(frozen=True, slots=True)
class Check:
    """One check's verdict: a stable `code` (the browser words it in its language) and a message
    in English; `seq` names the action where a replay went wrong."""

    ok: bool
    code: str
    message: str
    seq: int | None = None

    def wire(self) -> dict[str, Any]:
        return {k: v for k, v in asdict(self).items() if v is not None}


def published(match: Stored) -> dict[str, object]:
    """The ended match's fairness facts, its seed included, as its views show them."""
    return fairness(match.game, match.rules_version, match.commitment, match.seed, match.ended)


def check_commitment(match: Stored) -> Check:
    """SHA-256 over the scheme's bytes with the revealed seed is the published commitment."""
    if commits_to(match.commitment, match.match_id, match.seed):
        return Check(True, "commitment_matches", "The revealed seed is the one committed to.")
    return Check(
        False,
        "commitment_differs",
        f"The revealed seed hashes to {commitment(match.match_id, match.seed)}, "
        f"not to the published {match.commitment}.",
    )


def check_replay(match: Stored) -> Check:
    """From the seed, every action is legal in turn and the match ends as it is recorded."""
    game = get_game(match.game)
    try:
        state = start_match(match.game, match.seed, match.rules_version, match.options).state
    except ValueError as err:  # an unknown rules version, or a seed its generator cannot take
        return Check(False, "cannot_deal", str(err), 0)
    for i, (seq, seat, action, _) in enumerate(match.actions, start=1):
        if seq != i:
            return Check(False, "actions_missing", f"Action {i} is missing.", i)
        try:
            state = game.apply(state, seat, action).state
        except EngineError as err:
            return Check(False, "illegal_action", f"{err.code}: {err.message}", i)
    n = len(match.actions)
    if n != match.version:
        return Check(False, "length_differs", f"{n} actions, but the match made {match.version}.")
    outcome, end = game.outcome(state), match.ending
    if end.ended_by is not None:  # resigned, out of time, aborted, abandoned: the rules had not
        if outcome is not None:
            return Check(False, "outcome_differs", "The rules ended this match earlier.", n)
        return Check(True, "replays", f"All {n} actions are legal from this deal.", n)
    won = outcome.winners[0] if outcome and outcome.winners else None
    if outcome is None or (won, outcome.reason) != (end.winner, end.win_reason):
        return Check(False, "outcome_differs", "The replay does not end as the match did.", n)
    return Check(True, "replays", f"All {n} actions are legal and end as the match did.", n)


def verdict(match: Stored) -> dict[str, Any]:
    """Both checks, and the facts a browser needs to repeat the first one."""
    checks = {"commitment": check_commitment(match), "replay": check_replay(match)}
    return {
        "match_id": match.match_id,
        "ok": all(c.ok for c in checks.values()),
        "rules_version": match.rules_version,
        "fairness": published(match),
        "checks": {name: c.wire() for name, c in checks.items()},
    }
