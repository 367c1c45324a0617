"""Request dependencies, declared once as Annotated aliases."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from ..auth import SESSION_COOKIE, same_secret, session_valid
from ..errors import ApiError
from ..services.context import AppContext


def get_ctx(request: Request) -> AppContext:
    ctx: AppContext = request.app.state.ctx
    return ctx


def bearer(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def is_admin(request: Request) -> bool:
    """The admin token as a bearer header, or a valid signed sign-in cookie."""
    expected = get_ctx(request).settings.admin_token
    if not expected:
        return False
    token = bearer(request)
    if token and same_secret(token, expected):
        return True
    return session_valid(expected, request.cookies.get(SESSION_COOKIE))


def require_admin(request: Request) -> None:
    if not is_admin(request):
        raise ApiError(401, "unauthorized", "The admin token is required.")


CtxDep = Annotated[AppContext, Depends(get_ctx)]
TokenDep = Annotated[str | None, Depends(bearer)]
AdminDep = Annotated[None, Depends(require_admin)]
