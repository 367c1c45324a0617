"""Wires the hardening into an app: trusted proxy headers and security headers."""

from __future__ import annotations

from fastapi import FastAPI
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from ..config import Settings
from .security import SecurityHeaders


def install(app: FastAPI, settings: Settings) -> None:
    """Call after the body limit is added: each middleware added here wraps the ones before, so
    a request meets them in the reverse order: proxy headers (who is asking, over which scheme),
    security headers (on every answer, 413 included), then the body limit and the routes."""
    app.add_middleware(SecurityHeaders)
    # Applied here rather than by uvicorn (which runs with proxy_headers=False): one place reads
    # FORWARDED_ALLOW_IPS, and the tests' in-process clients go through the same code.
    app.add_middleware(ProxyHeadersMiddleware, trusted_hosts=settings.forwarded_allow_ips)
