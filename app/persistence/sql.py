"""One way to run a statement in whichever transaction ends a match: an ORM session's, or the
move path's own driver connection (persistence.moves). Code that must join either transaction
(rating a match as it ends) is written once against `Sql`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, cast

from sqlalchemy.orm import Session
from sqlalchemy.sql import ClauseElement, Executable


class Sql(Protocol):
    def rows(self, stmt: ClauseElement, params: dict[str, Any]) -> list[Sequence[Any]]:
        """The statement's result rows (its columns' types applied)."""
        ...

    def write(self, stmt: ClauseElement, params: dict[str, Any]) -> int:
        """Execute a write; how many rows it touched."""
        ...


class OnSession:
    """Sql on an ORM session's transaction (its connection, inside the caller's `with`)."""

    def __init__(self, db: Session) -> None:
        self.db = db

    def rows(self, stmt: ClauseElement, params: dict[str, Any]) -> list[Sequence[Any]]:
        return [tuple(row) for row in self.db.connection().execute(cast(Executable, stmt), params)]

    def write(self, stmt: ClauseElement, params: dict[str, Any]) -> int:
        return int(self.db.connection().execute(cast(Executable, stmt), params).rowcount)
