"""The interactive API documentation (/docs, Swagger UI) under a CSP: FastAPI's own page, with
this request's nonce on its scripts (its loader and the inline call that starts it). Served only
when the operator turns it on (API_DOCS=on): Swagger UI comes from its CDN, so it is pinned to one
release and the browser checks its files' integrity (a changed file is refused, never run on the
origin that keeps seat and player tokens). /openapi.json, the contract's schema, is always there."""

from __future__ import annotations

from typing import Final

from fastapi import APIRouter, Request
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse

from .security import csp_nonce

router = APIRouter(include_in_schema=False)

# Swagger UI comes from its CDN; its scripts run by nonce only. Its React views set style
# attributes, which style-src must allow inline (styles cannot run code).
SWAGGER_UI = "https://cdn.jsdelivr.net/npm/swagger-ui-dist@5.36.0"
# the files' SHA-384, from the npm package swagger-ui-dist 5.36.0 (what jsDelivr serves)
SCRIPT_INTEGRITY: Final = "sha384-fUpRgC19yPykTqzdrUbdAg8NTiu16NEKf9U12J+IJWCg8/1mEI8f2+PEIz60Wyd+"
STYLE_INTEGRITY: Final = "sha384-z/AtSaOHGn5MJ5auAHXUypohywlIWLBZo1jeGmhdpVIbCnFhxAH92cwdV41oyINc"
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
    script, style = f"{SWAGGER_UI}/swagger-ui-bundle.js", f"{SWAGGER_UI}/swagger-ui.css"
    page = get_swagger_ui_html(
        openapi_url="/openapi.json",
        title="Watergate Online - Swagger UI",
        swagger_js_url=script,
        swagger_css_url=style,
    )
    checked = ' crossorigin="anonymous" integrity="{}"'
    html = (
        bytes(page.body)
        .decode("utf-8")
        .replace(f'src="{script}"', f'src="{script}"{checked.format(SCRIPT_INTEGRITY)}')
        .replace(f'href="{style}"', f'href="{style}"{checked.format(STYLE_INTEGRITY)}')
        .replace("<script", f'<script nonce="{nonce}"')
    )
    return HTMLResponse(html, headers={"Content-Security-Policy": DOCS_CSP.format(nonce=nonce)})
