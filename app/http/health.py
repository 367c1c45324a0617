"""Liveness."""

from __future__ import annotations

from fastapi import APIRouter

from .schemas import Health

router = APIRouter()


@router.get("/healthz", response_model=Health)
async def healthz() -> Health:
    """The server is up."""
    return Health(status="ok")
