"""Ending a waiting match unplayed: a direct challenge declined, withdrawn, expired or ended by
a block leaves a match nobody will sit down at. It ends in the match transaction, like the
host's abort: nobody is ranked or rated, and its table (the challenger's, if open) is told."""

from __future__ import annotations

from collections.abc import Iterable

from starlette.concurrency import run_in_threadpool

from ..errors import ApiError, not_found
from ..persistence.cache import Entry
from ..persistence.moves import MoveTransaction
from ..persistence.records import Ending, MatchInfo, MatchRow
from ..push.changes import MatchChanged
from .changes import Changed, MatchChanges
from .core import Core


async def end_unplayed(core: Core, match_ids: Iterable[str]) -> None:
    """End each of the matches that is still waiting; one under way (an accept won) or gone is
    left as it is."""
    for match_id in match_ids:
        try:
            await run_in_threadpool(_end, core, match_id)
        except ApiError:
            continue
        core.cache.drop_info(match_id)
        await core.publish(MatchChanged(match_id))


def _end(core: Core, match_id: str) -> None:
    def end(tx: MoveTransaction, row: MatchRow, info: MatchInfo, entry: Entry) -> Changed:
        if row.status != "waiting":
            raise ApiError(409, "not_waiting", "The match is under way.")
        return Changed(info, ending=Ending("finished", None, None, "host"))

    MatchChanges(core).run(match_id, end, core.stamp(), missing=not_found)
