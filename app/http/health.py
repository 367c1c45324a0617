"""Liveness (`/healthz`: the process serves) and readiness (`/readyz`: its dependencies answer)."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from ..outages import RETRY_AFTER
from ..services.health import not_ready
from .deps import CtxDep
from .schemas import ErrorBody, Health

router = APIRouter()


@router.get("/healthz", response_model=Health)
async def healthz() -> Health:
    """The server is up; asks nothing of the database or Redis."""
    return Health(status="ok")


@router.get(
    "/readyz",
    response_model=Health,
    responses={503: {"model": ErrorBody, "description": "The database or Redis does not answer"}},
)
async def readyz(ctx: CtxDep) -> JSONResponse:
    """Whether this process can serve: the database answers, and Redis when it is configured."""
    problem = await not_ready(ctx.db, ctx.fanout)
    if problem is None:
        return JSONResponse({"status": "ready"})
    body = {"code": "unavailable", "message": problem}
    return JSONResponse(body, status_code=503, headers={"Retry-After": RETRY_AFTER})
