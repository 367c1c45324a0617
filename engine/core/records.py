"""Canonical JSON for game states built of NamedTuple records: each record becomes
{"type": ClassName, ...fields} and back, looked up in the game's own table of record types."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import cast

from .game import JSON


def encode(value: object) -> JSON:
    """Records, lists, tuples and dicts of plain values as plain JSON."""
    if isinstance(value, tuple) and hasattr(value, "_fields"):
        out: dict[str, JSON] = {"type": type(value).__name__}
        for name in value._fields:
            out[name] = encode(getattr(value, name))
        return out
    if isinstance(value, list | tuple):
        return [encode(v) for v in value]
    if isinstance(value, dict):
        return {str(k): encode(v) for k, v in value.items()}
    return cast(JSON, value)


def decode(
    value: object, records: Mapping[str, type], sequence: Callable[[list[object]], object] = list
) -> object:
    """What `encode` wrote: an object with a known "type" is that record (a field that is a list
    becomes a tuple); other lists become `sequence` (a list, or a tuple for immutable states)."""
    if isinstance(value, dict):
        kind = value.get("type")
        if isinstance(kind, str) and kind in records:
            cls = records[kind]
            fields = cast(tuple[str, ...], cls._fields)  # type: ignore[attr-defined]
            args = [decode(value[name], records, sequence) for name in fields]
            return cls(*(tuple(a) if isinstance(a, list) else a for a in args))
        return {k: decode(v, records, sequence) for k, v in value.items()}
    if isinstance(value, list):
        return sequence([decode(v, records, sequence) for v in value])
    return value
