"""Browser hardening: security headers with a per-request CSP nonce on every response, and the
Origin check on every admin request that changes something."""

from __future__ import annotations

import secrets
from typing import Any, Final
from urllib.parse import urlsplit

from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..config import Settings


def secure_cookies(request: Request, base_url: str | None) -> bool:
    """Whether our cookies are Secure: when players reach us over https, by BASE_URL or as
    uvicorn saw the request (itself on TLS, or through a trusted proxy that said
    X-Forwarded-Proto: https)."""
    return (base_url or "").startswith("https://") or request.url.scheme == "https"


# Pages: scripts and styles only from our own files (the bootstrap JSON block carries the nonce
# too, though browsers never run application/json); the CSS draws face-down tokens with a data:
# SVG; the table's socket is same-origin ('self' covers ws/wss of our own host); forms post to us
# only; no <base>, no plugins, no framing.
PAGE_CSP: Final = (
    "default-src 'none'; script-src 'self' 'nonce-{nonce}'; style-src 'self'; "
    "img-src 'self' data:; connect-src 'self'; font-src 'self'; manifest-src 'self'; "
    "form-action 'self'; base-uri 'none'; object-src 'none'; frame-ancestors 'none'"
)
# JSON, static files, redirects: nothing in them may run or be framed, even if opened directly.
OTHER_CSP: Final = "default-src 'none'; frame-ancestors 'none'"
# Only our own origin, never a path: invite codes and spectator keys live in page URLs, and a
# full Referer would copy them into other sites' logs (and our proxy's). Not no-referrer:
# browsers then send `Origin: null` on our own form posts, which the admin check below needs.
REFERRER_POLICY: Final = b"strict-origin"
COMMON: Final = (
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", REFERRER_POLICY),
    (b"x-frame-options", b"DENY"),  # frame-ancestors for browsers that predate it
)
NONCE_KEY: Final = "csp_nonce"


def csp_nonce(request: Request) -> str:
    """This request's nonce, for templates' <script nonce="…">."""
    nonce: str = request.state.csp_nonce
    return nonce


def template_context(request: Request) -> dict[str, Any]:
    """Jinja2Templates context processor: every page knows its nonce."""
    return {NONCE_KEY: csp_nonce(request)}


class SecurityHeaders:
    """Adds the headers to every HTTP response (pages get the nonce CSP, everything else the
    closed one); a header a route set itself is left as it is."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        nonce = secrets.token_urlsafe(16)  # 128 bits, fresh for each response
        scope.setdefault("state", {})[NONCE_KEY] = nonce

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": _with_headers(message, nonce)}
            await send(message)

        await self.app(scope, receive, send_with_headers)


def _with_headers(message: Message, nonce: str) -> list[tuple[bytes, bytes]]:
    headers = list(message.get("headers", []))
    present = {name.lower() for name, _ in headers}
    content_type = next((v for n, v in headers if n.lower() == b"content-type"), b"")
    page = content_type.startswith(b"text/html")
    csp = PAGE_CSP.format(nonce=nonce) if page else OTHER_CSP
    wanted = [(b"content-security-policy", csp.encode()), *COMMON]
    if page:  # a page opened from elsewhere gets no handle on our window
        wanted.append((b"cross-origin-opener-policy", b"same-origin"))
    headers.extend((name, value) for name, value in wanted if name not in present)
    return headers


SAFE_METHODS: Final = frozenset({"GET", "HEAD", "OPTIONS"})
FOREIGN: Final = (
    b'{"code":"foreign_origin","message":"Admin requests must come from this site\'s own pages."}'
)


class AdminOrigin:
    """Every admin request that changes something (sign-in, sign-out, abort, delete, verify)
    from a browser must carry our own Origin: a page elsewhere cannot post with the admin's
    cookie. Requests without Origin (curl, scripts with the bearer token) are not from a page."""

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.app = app
        self.base_origin = _origin(settings.base_url) if settings.base_url else None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] not in SAFE_METHODS and _admin(scope):
            origin = _header(scope, b"origin")
            if origin is not None and not self._ours(scope, origin):
                await _refuse(send)
                return
        await self.app(scope, receive, send)

    def _ours(self, scope: Scope, origin: str) -> bool:
        given = _origin(origin)
        if given is None:  # "null" (sandboxed frames, privacy redirects) or junk
            return False
        if given == self.base_origin:
            return True
        host = _header(scope, b"host")
        return host is not None and given == _origin(f"{scope.get('scheme', 'http')}://{host}")


def _admin(scope: Scope) -> bool:
    path: str = scope["path"]
    # the moderators' API too: the admin's cookie opens it (issue 43)
    return path == "/admin" or path.startswith(("/admin/", "/api/admin/", "/api/mod/"))


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope["headers"]:
        if key == name:
            return str(value.decode("latin-1"))
    return None


def _origin(url: str | None) -> str | None:
    """scheme://host[:port] in lower case, the default port left out, or None if not a URL."""
    try:
        parts = urlsplit((url or "").strip().lower())
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return None
    host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    default = {"http": 80, "https": 443}[parts.scheme]
    return f"{parts.scheme}://{host}" + (f":{port}" if port and port != default else "")


async def _refuse(send: Send) -> None:
    await send(
        {
            "type": "http.response.start",
            "status": 403,
            "headers": [(b"content-type", b"application/json")],
        }
    )
    await send({"type": "http.response.body", "body": FOREIGN})
