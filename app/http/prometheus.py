"""`GET /metrics`: this process's metrics in Prometheus's text format, for operators only (a
bearer METRICS_TOKEN, or without one a scraper on this machine)."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import Response

from ..metrics import CONTENT_TYPE
from .deps import CtxDep, MetricsDep

router = APIRouter(include_in_schema=False)  # not part of the JSON API the schema describes


@router.get("/metrics")
async def metrics(_: MetricsDep, ctx: CtxDep) -> Response:
    """Every series of this process (each process is scraped on its own)."""
    return Response(ctx.metrics.exposition(), media_type=CONTENT_TYPE)
