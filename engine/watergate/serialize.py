"""Canonical JSON for states: every NamedTuple becomes {"type": ClassName, ...fields} and back.

`state_from_json(state_to_json(s)) == s` for every reachable state (a property test checks it).
Actions and events are already plain JSON objects.
"""

from __future__ import annotations

import json
from typing import Final, cast

from ..core.records import decode, encode
from . import state as st
from .ruleset import Ruleset
from .state import JSON, STATE_FIELDS, TUPLE_FIELDS, TUPLES_BY_ROLE_FIELDS, MatchState

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


def state_to_json(s: MatchState) -> dict[str, JSON]:
    """The whole state as plain JSON (admin only: it holds every secret), with the rules version
    it is played by (the components themselves are not in it)."""
    data = {name: cast(JSON, encode(getattr(s, name))) for name in STATE_FIELDS}
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
        value = decode(data[name], _RECORDS)
        # JSON has only lists: the state's immutable parts are tuples again (the compiled copy
        # checks each field's type as it is set)
        if name in TUPLE_FIELDS:
            value = tuple(cast(list[object], value))
        elif name in TUPLES_BY_ROLE_FIELDS:
            value = {k: tuple(v) for k, v in cast(dict[str, list[object]], value).items()}
        setattr(s, name, value)
    s._legal = None
    return s


def dumps(value: object) -> str:
    """Canonical text: sorted keys, no spaces, UTF-8 kept."""
    return json.dumps(encode(value), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
