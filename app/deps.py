"""Request dependencies, declared once as Annotated aliases."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from .context import AppContext
from .errors import ApiError
from .security import same_secret


def get_ctx(request: Request) -> AppContext:
    ctx: AppContext = request.app.state.ctx
    return ctx


def bearer(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def require_admin(request: Request) -> None:
    ctx = get_ctx(request)
    token = bearer(request)
    expected = ctx.settings.admin_token
    if not expected or not token or not same_secret(token, expected):
        raise ApiError(401, "unauthorized", "The admin token is required.")


CtxDep = Annotated[AppContext, Depends(get_ctx)]
TokenDep = Annotated[str | None, Depends(bearer)]
AdminDep = Annotated[None, Depends(require_admin)]
