"""The server's log lines (the app's and uvicorn's, one format: text, or one JSON object a line)
with secrets scrubbed out, and the request id every line written while serving a request carries."""

from __future__ import annotations

import logging
import re
import secrets
from collections.abc import Callable
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any
from urllib.parse import unquote_plus

from .jsontext import dumps

FORMAT = "%(asctime)s %(levelname)s %(name)s %(message)s"
# The request being served, set by the request log (app/http/requestlog.py) for an HTTP request
# and by the socket handler for each message; every line logged meanwhile names it.
REQUEST_ID: ContextVar[str | None] = ContextVar("request_id", default=None)


def _stamped(make: Callable[..., logging.LogRecord]) -> Callable[..., logging.LogRecord]:
    """A record factory that notes the request being served when the line is logged: a handler
    that formats later (a queue, pytest's capture) would no longer be in that request's context."""

    def stamped(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record = make(*args, **kwargs)
        record.request_id = REQUEST_ID.get()
        return record

    stamped.stamps = True  # type: ignore[attr-defined]
    return stamped


if not getattr(logging.getLogRecordFactory(), "stamps", False):  # once, however often imported
    logging.setLogRecordFactory(_stamped(logging.getLogRecordFactory()))
HIDDEN = "***"
# A query parameter is a secret when its (decoded) name says so: token, key, seat_token, code...
# The list errs on the side of hiding: a hidden harmless value costs nothing.
_SECRET_NAME = re.compile(r"token|key|secret|password|passwd|code|auth|session|sig", re.I)
# A query string, wherever a line prints a URL or a path: up to a space or a quote.
_QUERY = re.compile(r"\?([^\s\"'<>]*)")
# Invite codes travel in paths: /invite/{code} (the page) and /api/invites/{code}/claim.
_INVITE = re.compile(r"(/invites?/)[^/?\s\"'<>]+")
_BEARER = re.compile(r"(Bearer\s+)\S+", re.I)


def _scrub_query(match: re.Match[str]) -> str:
    fields = []
    for field in match[1].split("&"):  # Starlette splits on "&" only, so this is what it reads
        name, eq, _ = field.partition("=")
        fields.append(
            f"{name}={HIDDEN}" if eq and _SECRET_NAME.search(unquote_plus(name)) else field
        )
    return "?" + "&".join(fields)


def scrub(text: str) -> str:
    """`text` with every secret query value, invite code and bearer token replaced by ***."""
    text = _QUERY.sub(_scrub_query, text)
    text = _INVITE.sub(rf"\g<1>{HIDDEN}", text)
    return _BEARER.sub(rf"\g<1>{HIDDEN}", text)


def new_request_id() -> str:
    """A request id of our own: 64 random bits in hex, enough to tell a day's requests apart."""
    return secrets.token_hex(8)


def fields(**values: object) -> dict[str, Any]:
    """`extra=` for a log call: structured fields, keys of their own in a JSON line and
    `name=value` after the message in a text line."""
    return {"fields": values}


def _fields(record: logging.LogRecord) -> dict[str, object]:
    found: dict[str, object] = {}
    request_id = getattr(record, "request_id", None)
    if request_id is not None:
        found["request_id"] = request_id
    given = getattr(record, "fields", None)
    if isinstance(given, dict):
        found.update(given)
    return found


def _scrubbed(value: object) -> object:
    """A field's value for the line: numbers and flags as they are, anything else as scrubbed
    text (a field is as likely as a message to hold a path with its query)."""
    if value is None or isinstance(value, bool | int | float):
        return value
    return scrub(value if isinstance(value, str) else str(value))


class ScrubbingFormatter(logging.Formatter):
    """Scrubs the whole formatted line, tracebacks included, whatever logger wrote it."""

    def format(self, record: logging.LogRecord) -> str:
        line = super().format(record)
        extra = _fields(record)
        if extra:  # before the traceback, if any, so the fields stay on the event's line
            head, newline, rest = line.partition("\n")
            pairs = " ".join(f"{name}={value}" for name, value in extra.items())
            line = f"{head} {pairs}{newline}{rest}"
        return scrub(line)


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time (UTC, ISO 8601), level, logger, message, the fields, and a
    traceback as "exception". Each value is scrubbed before it is encoded, with the same rules
    as a text line (scrubbing the encoded line could cut into JSON escapes)."""

    def format(self, record: logging.LogRecord) -> str:
        when = datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds")
        line: dict[str, object] = {
            "time": when.replace("+00:00", "Z"),
            "level": record.levelname,
            "logger": record.name,
            "message": scrub(record.getMessage()),
        }
        for name, value in _fields(record).items():
            line.setdefault(name, _scrubbed(value))  # a field never replaces the four above
        if record.exc_info:
            line["exception"] = scrub(self.formatException(record.exc_info))
        if record.stack_info:
            line["stack"] = scrub(self.formatStack(record.stack_info))
        return dumps(line)


class QuietSockets(logging.Filter):
    """Drops the websockets library's "connection open" and "connection closed" (two lines a
    socket that name neither the socket nor its client: its `"WebSocket /path" [accepted]` line
    does), and its "connection rejected (429 …)" after a refused handshake, which uvicorn's
    `"WebSocket /path" 429` line already says with the path; under a storm of connects they
    cost a tenth of the CPU."""

    NOISE = frozenset(
        {
            "connection open",
            "connection closed",
            "connection rejected (%d %s)",
            "HTTP response sent (%d %s)",
        }
    )

    def filter(self, record: logging.LogRecord) -> bool:
        return record.msg not in self.NOISE


def configure(level: int = logging.INFO, json_lines: bool = False) -> None:
    """One handler on the root logger, used by uvicorn's loggers too (started with
    log_config=None, they propagate to it): its access lines print paths with their query.
    `json_lines`: one JSON object a line (LOG_FORMAT=json), else text."""
    handler = logging.StreamHandler()
    handler.setFormatter(JsonFormatter() if json_lines else ScrubbingFormatter(FORMAT))
    root = logging.getLogger()
    for old in root.handlers[:]:
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    uvicorn = logging.getLogger("uvicorn.error")
    if not any(isinstance(f, QuietSockets) for f in uvicorn.filters):
        uvicorn.addFilter(QuietSockets())
