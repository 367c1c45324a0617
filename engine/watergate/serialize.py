"""Canonical JSON for states: every NamedTuple becomes {"type": ClassName, ...fields} and back.

`state_from_json(state_to_json(s)) == s` for every reachable state (a property test checks it).
Actions and events are already plain JSON objects.
"""

from __future__ import annotations

import json
from typing import Final, cast

from . import state as st
from .ruleset import Ruleset
from .state import JSON, STATE_FIELDS, MatchState

_RECORDS: Final[dict[str, type]] = {
    cls.__name__: cls
    for cls in (
        st.Token,
        st.BoardToken,
        st.Ann,
        st.StartRound,
        st.Turn,
        st.TurnEnd,
        st.Resolve,
        st.Window,
        st.Dispose,
        st.DiscardPlayed,
        st.Move,
        st.MomentumGain,
        st.PinHolding,
        st.EvalStep,
        st.PinSide,
        st.OpTask,
        st.PlayD,
        st.ReactD,
        st.FaceDownD,
        st.FallbackD,
        st.TargetD,
        st.AskedD,
        st.SpaceD,
        st.PictureD,
        st.CardD,
        st.PinD,
        st.GambitD,
    )
}


def _encode(value: object) -> JSON:
    if isinstance(value, tuple) and hasattr(value, "_fields"):
        out: dict[str, JSON] = {"type": type(value).__name__}
        for name in value._fields:
            out[name] = _encode(getattr(value, name))
        return out
    if isinstance(value, list | tuple):
        return [_encode(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _encode(v) for k, v in value.items()}
    return cast(JSON, value)


def _decode(value: JSON) -> object:
    if isinstance(value, dict):
        kind = value.get("type")
        if isinstance(kind, str) and kind in _RECORDS:
            cls = _RECORDS[kind]
            fields = cast(tuple[str, ...], cls._fields)  # type: ignore[attr-defined]
            args = [_decode(value[name]) for name in fields]
            return cls(*(tuple(a) if isinstance(a, list) else a for a in args))
        return {k: _decode(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_decode(v) for v in value]
    return value


def state_to_json(s: MatchState) -> dict[str, JSON]:
    """The whole state as plain JSON (admin only: it holds every secret), with the rules version
    it is played by (the components themselves are not in it)."""
    data = {name: _encode(getattr(s, name)) for name in STATE_FIELDS}
    data["rules_version"] = s.rules.version.id
    return data


def state_from_json(data: dict[str, JSON], rules: Ruleset) -> MatchState:
    """The state `state_to_json` wrote, played with `rules`, which must be of its rules version."""
    written = data.get("rules_version", rules.version.id)
    if written != rules.version.id:
        raise ValueError(f"a state of rules version {written!r} loaded as {rules.version.id!r}")
    s = MatchState.__new__(MatchState)
    s.rules = rules
    for name in STATE_FIELDS:
        setattr(s, name, _decode(data[name]))
    s._legal = None
    return s


def dumps(value: object) -> str:
    """Canonical text: sorted keys, no spaces, UTF-8 kept."""
    return json.dumps(_encode(value), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
