"""Compact JSON text for views, logs and frames: orjson on the hot path (serialising views was a
fifth of a move's CPU with the standard library), the standard library for what orjson refuses."""

from __future__ import annotations

import json

import orjson

_OPTIONS = orjson.OPT_NON_STR_KEYS


def dumps(obj: object) -> str:
    """The same JSON value as json.dumps(obj, separators=(",", ":")); non-ASCII characters are
    written as UTF-8 rather than escaped, which every JSON parser reads the same."""
    try:
        return orjson.dumps(obj, option=_OPTIONS).decode()
    except TypeError:  # e.g. an integer wider than 64 bits
        return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)
