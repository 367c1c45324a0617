"""Which failures mean the database or Redis is away: answered 503 `unavailable`, never a 500."""

from __future__ import annotations

from redis import exceptions as redis_errors
from sqlalchemy import exc as sql_errors

from .errors import ApiError

# A lost or refused connection, a pool with no connection to give, a server gone mid-query: the
# request was fine and may succeed a moment later. Errors of the query itself (IntegrityError,
# ProgrammingError) are not here: they are bugs or handled where they occur.
OUTAGES: tuple[type[Exception], ...] = (
    sql_errors.OperationalError,
    # the database's own state, not the query's: a PostgreSQL standby or a read-only database
    # refusing a write (ReadOnlySqlTransaction), a transaction the server dropped
    sql_errors.InternalError,
    sql_errors.InterfaceError,
    sql_errors.TimeoutError,
    redis_errors.ConnectionError,
    redis_errors.TimeoutError,
)
ANSWERED: tuple[type[Exception], ...] = (ApiError, *OUTAGES)  # told to the client as an error
RETRY_AFTER = "2"  # seconds, the Retry-After of a 503


def unavailable() -> ApiError:
    return ApiError(
        503, "unavailable", "The server cannot reach its storage right now; try again shortly."
    )


def as_api_error(err: Exception) -> ApiError:
    """An ApiError as it is, an outage as 503 unavailable."""
    return err if isinstance(err, ApiError) else unavailable()
