"""API errors: every rejection has an HTTP status, a stable `code` and a human `message`.

ApiError
├── 400 invalid_json, invalid_request (422 for schema errors)
├── 401 unauthorized (missing or unknown token), 403 wrong_match
├── 404 not_found          ├── 409 stale_version, invite_claimed, match_not_started
├── 413 payload_too_large  └── 422 engine errors: illegal_action, malformed_action,
                               not_your_decision, match_over
"""

from __future__ import annotations

from engine.core.errors import EngineError


class ApiError(Exception):
    """A rejection the client is told about, never a 500."""

    def __init__(
        self, status: int, code: str, message: str, headers: dict[str, str] | None = None
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers  # sent with the answer, e.g. a 503's Retry-After

    def body(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}


def from_engine(err: EngineError) -> ApiError:
    """Engine rejections are 422s carrying the engine's code and public-safe message."""
    return ApiError(422, err.code, err.message)


def checked_id(text: str, what: str = "match") -> str:
    """Our ids and codes are short url-safe strings; anything else is refused before any query
    (PostgreSQL would choke on a NUL byte, for one)."""
    ok = 0 < len(text) <= 64 and text.isascii() and all(c.isalnum() or c in "-_" for c in text)
    if not ok:
        raise not_found(what)
    return text


def not_found(what: str = "match") -> ApiError:
    return ApiError(404, "not_found", f"No such {what}.")


def unauthorized() -> ApiError:
    return ApiError(401, "unauthorized", "A valid seat token is required (Authorization: Bearer).")
