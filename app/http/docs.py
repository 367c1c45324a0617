"""The interactive API documentation (/docs, Swagger UI) under a CSP: FastAPI's own page, with
this request's nonce on its scripts (its loader and the inline call that starts it)."""

from __future__ import annotations

from typing import Final

from fastapi import APIRouter, Request
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse

from .security import csp_nonce

router = APIRouter(include_in_schema=False)

# Swagger UI comes from its CDN; its scripts run by nonce only. Its React views set style
# attributes, which style-src must allow inline (styles cannot run code).
DOCS_CSP: Final = (
    "default-src 'none'; script-src 'nonce-{nonce}'; "
    "style-src https://cdn.jsdelivr.net 'unsafe-inline'; "
    "img-src 'self' data: https://fastapi.tiangolo.com https://cdn.jsdelivr.net; "
    "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)


@router.get("/docs")
async def swagger_ui(request: Request) -> HTMLResponse:
    """The API explorer over /openapi.json."""
    nonce = csp_nonce(request)
    page = get_swagger_ui_html(openapi_url="/openapi.json", title="Watergate Online - Swagger UI")
    html = bytes(page.body).decode("utf-8").replace("<script", f'<script nonce="{nonce}"')
    return HTMLResponse(html, headers={"Content-Security-Policy": DOCS_CSP.format(nonce=nonce)})
