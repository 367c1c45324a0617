"""Locales (en, pt-BR, de): loading the JSON files and picking one per request."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any, Final

from starlette.requests import Request

LOCALES: Final = ("en", "pt-BR", "de")
DEFAULT: Final = "en"
_DIR: Final = Path(__file__).resolve().parent.parent / "locales"


@cache
def locale(lang: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((_DIR / f"{lang}.json").read_text(encoding="utf-8"))
    return data


def _match(tag: str) -> str | None:
    tag = tag.strip().lower()
    for lang in LOCALES:
        if tag == lang.lower():
            return lang
    primary = tag.split("-")[0]
    for lang in LOCALES:
        if lang.lower().split("-")[0] == primary:
            return lang
    return None


def pick(request: Request) -> str:
    """The language: ?lang=, then the remembered cookie, then Accept-Language, then English."""
    for candidate in (request.query_params.get("lang"), request.cookies.get("lang")):
        if candidate and (found := _match(candidate)):
            return found
    weighted: list[tuple[float, str]] = []
    for part in request.headers.get("accept-language", "").split(",")[:20]:
        tag, _, q = part.partition(";q=")
        try:
            weight = float(q) if q else 1.0
        except ValueError:
            continue
        if (found := _match(tag)) is not None:
            weighted.append((weight, found))
    return max(weighted, key=lambda w: w[0])[1] if weighted else DEFAULT
