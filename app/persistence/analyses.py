"""Post-game analyses' storage: the SQL of a finished match's judged decisions."""

from __future__ import annotations

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from engine.core.game import Judged

from .models import MatchAnalysis


def wire(j: Judged) -> dict[str, object]:
    """A judged decision as stored and as answered (contract v1.1: the seat is "role")."""
    return {"seq": j.seq, "role": j.seat, "before": j.before, "after": j.after, "best": j.best}


def get_analysis(db: Session, match_id: str) -> list[Judged] | None:
    moves = db.scalar(select(MatchAnalysis.moves).where(MatchAnalysis.match_id == match_id))
    if moves is None:
        return None
    return [Judged(m["seq"], m["role"], m["before"], m["after"], m["best"]) for m in moves]


def put_analysis(db: Session, match_id: str, moves: list[Judged]) -> None:
    """Store (or store again: a retried job writes the same numbers) the match's analysis; a
    deleted match's goes with it (repository.delete_match)."""
    db.execute(delete(MatchAnalysis).where(MatchAnalysis.match_id == match_id))
    db.add(MatchAnalysis(match_id=match_id, moves=[wire(m) for m in moves]))
