"""Post-game analyses' storage: the SQL of a finished match's judged decisions."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from .models import MatchAnalysis


@dataclass(frozen=True, slots=True)
class JudgedMove:
    """One judged decision: its mover's chances before and after, and the search's choice."""

    seq: int
    role: str
    before: float
    after: float
    best: Any  # the action as JSON

    def wire(self) -> dict[str, object]:
        return {
            "seq": self.seq, "role": self.role, "before": self.before, "after": self.after,
            "best": self.best,
        }  # fmt: skip


def get_analysis(db: Session, match_id: str) -> list[JudgedMove] | None:
    moves = db.scalar(select(MatchAnalysis.moves).where(MatchAnalysis.match_id == match_id))
    if moves is None:
        return None
    return [JudgedMove(m["seq"], m["role"], m["before"], m["after"], m["best"]) for m in moves]


def put_analysis(db: Session, match_id: str, moves: list[JudgedMove]) -> None:
    """Store (or store again: a retried job writes the same numbers) the match's analysis."""
    db.execute(delete(MatchAnalysis).where(MatchAnalysis.match_id == match_id))
    db.add(MatchAnalysis(match_id=match_id, moves=[m.wire() for m in moves]))


def delete_analysis(db: Session, match_id: str) -> None:
    db.execute(delete(MatchAnalysis).where(MatchAnalysis.match_id == match_id))
