"""The server's log lines (the app's and uvicorn's, one format) with secrets scrubbed out."""

from __future__ import annotations

import logging
import re
from urllib.parse import unquote_plus

FORMAT = "%(asctime)s %(levelname)s %(name)s %(message)s"
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


class ScrubbingFormatter(logging.Formatter):
    """Scrubs the whole formatted line, tracebacks included, whatever logger wrote it."""

    def format(self, record: logging.LogRecord) -> str:
        return scrub(super().format(record))


def configure(level: int = logging.INFO) -> None:
    """One handler on the root logger, used by uvicorn's loggers too (started with
    log_config=None, they propagate to it): its access lines print paths with their query."""
    handler = logging.StreamHandler()
    handler.setFormatter(ScrubbingFormatter(FORMAT))
    root = logging.getLogger()
    for old in root.handlers[:]:
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
