"""The Ruleset: Watergate's printed components (cards, evidence tokens, board graph, momentum
cards) with the lookup tables the rules derive from them, built from data and passed in, and the
rules version the match is played by.

Nothing in the rules reads a component at import time: a match carries its Ruleset (on the state),
so a game built from other data plays by that data. `load_ruleset()` reads the package's data
files; `ruleset_from_data` builds one from the same four documents given as plain dicts; `edition`
gives the same components under another rules version.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, replace
from importlib import resources
from typing import Final, Literal, cast

from ..core.game import JSON, JSONObject
from ..core.jsondata import as_int as _int
from ..core.jsondata import as_list as _list
from ..core.jsondata import as_object as _obj
from ..core.jsondata import as_str as _str
from .catalog import ROLES, Card, Op, Req, Role, Space, TokenData
from .versions import RULES_VERSION, VERSIONS, RulesVersion

DATA_PACKAGE: Final = "engine.watergate.data"
KINDS: Final = ("event", "conspirator", "journalist")


@dataclass(frozen=True, slots=True, eq=False)
class Ruleset:
    """The components of one edition and the tables derived from them (read-only).

    Compared and hashed by identity: a match holds its Ruleset by reference, never by value.
    """

    cards: Mapping[str, Card]
    card_ids: Mapping[Role, tuple[str, ...]]  # each faction's deck, in data order
    reaction_cards: Mapping[Role, tuple[Card, ...]]  # per faction, for opening windows (R18)
    tokens: Mapping[str, TokenData]
    bag_token_ids: tuple[str, ...]
    spare_token_ids: tuple[str, ...]
    spaces: tuple[Space, ...]
    space_index: Mapping[str, int]
    people: tuple[str, ...]
    person_names: Mapping[str, str]
    person_index: Mapping[str, int]
    informant_spaces: Mapping[str, str]  # person -> the board node of their picture
    center: str
    edges: tuple[tuple[str, str], ...]
    # Evidence-space indices next to the centre, next to each space, next to each informant.
    center_neighbours: tuple[int, ...]
    space_neighbours: tuple[tuple[int, ...], ...]
    informant_neighbours: tuple[tuple[int, ...], ...]
    # Evidence-space indices whose colour slip takes each token (either colour of a pair: R23).
    token_spaces: Mapping[str, tuple[int, ...]]
    informants_json: JSON  # the board's informant list as written (for clients)
    layout_json: JSON  # drawing positions for clients
    # Each side's momentum card, read from its own data: its instructions by space (1 … size)
    # and its size. The Editor's overflow leaves the game; Nixon's last space wins (R27).
    editor_momentum_effects: Mapping[int, tuple[Op, ...]]
    nixon_momentum_effects: Mapping[int, tuple[Op, ...]]
    momentum_sizes: Mapping[Role, int]
    momentum_tokens: int
    # Sources of effect lists: a card id, "M<k>" for the Editor's momentum-card space k, "NM<k>"
    # for Nixon's.
    effect_sources: Mapping[str, tuple[Op, ...]]
    # The rules version these components are played by (its readings: `version.features`; its
    # data edition: `version.data`).
    version: RulesVersion = VERSIONS[RULES_VERSION]
    # The four data documents it was read from, for `edition` to read them as another edition.
    documents: tuple[JSONObject, JSONObject, JSONObject, JSONObject] | None = None


# ---- typed reading of plain JSON (no Any: every field is checked where it is read) -----------


def _ops(value: JSON, what: str) -> tuple[Op, ...]:
    return tuple(cast(Op, _obj(op, what)) for op in _list(value, what))


def _role(value: JSON, what: str) -> Role:
    if value not in ROLES:
        raise ValueError(f"{what} must be one of {ROLES}")
    return value


def _card(raw: JSONObject) -> Card:
    cid = _str(raw["id"], "card id")
    kind = _str(raw["kind"], f"{cid} kind")
    if kind not in KINDS:
        raise ValueError(f"{cid} kind must be one of {KINDS}")
    reaction = _obj(raw.get("reaction") or {}, f"{cid} reaction")
    return Card(
        id=cid,
        name=_str(raw["name"], f"{cid} name"),
        faction=_role(raw["faction"], f"{cid} faction"),
        kind=cast(Literal["event", "conspirator", "journalist"], kind),
        value=_int(raw["value"], f"{cid} value"),
        color=_str(raw["color"], f"{cid} color"),
        requires=tuple(
            cast(Req, _obj(r, f"{cid} requirement")) for r in _list(raw["requires"], cid)
        ),
        effects=_ops(raw["effects"], f"{cid} effects"),
        reacts_to=tuple(_str(k, cid) for k in _list(reaction.get("reacts_to", []), cid)),
        on_cancel=_str(reaction.get("on_cancel", ""), f"{cid} on_cancel"),
        disposal=_str(raw.get("disposal", ""), f"{cid} disposal"),
        provenance=_str(raw["provenance"], f"{cid} provenance"),
    )


def _token(raw: JSONObject) -> TokenData:
    tid = _str(raw["id"], "token id")
    return TokenData(
        tid,
        tuple(_str(c, f"{tid} colour") for c in _list(raw["colors"], tid)),
        raw["momentum_symbol"] is True,
        raw["in_bag"] is True,
        _str(raw["provenance"], f"{tid} provenance"),
    )


def _neighbours(edges: tuple[tuple[str, str], ...]) -> dict[str, tuple[str, ...]]:
    adj: dict[str, list[str]] = {}
    for a, b in edges:
        adj.setdefault(a, []).append(b)
        adj.setdefault(b, []).append(a)
    return {k: tuple(v) for k, v in adj.items()}


def ruleset_from_data(
    cards: JSONObject,
    tokens: JSONObject,
    board: JSONObject,
    momentum: JSONObject,
    version: RulesVersion = VERSIONS[RULES_VERSION],
) -> Ruleset:
    """A Ruleset from the four data documents (the shapes of engine/watergate/data/*.json),
    played by `version` (today's unless told)."""
    raw_cards = (_obj(c, "card") for c in _list(cards["cards"], "cards"))
    card_list = [_card(as_of(c, version.data)) for c in raw_cards]
    by_id = {c.id: c for c in card_list}
    token_list = [_token(_obj(t, "token")) for t in _list(tokens["tokens"], "tokens")]
    spaces = tuple(
        Space(_str(s["id"], "space id"), _str(s["color"], "space colour"))
        for s in (_obj(x, "space") for x in _list(board["spaces"], "spaces"))
    )
    space_index = {s.id: i for i, s in enumerate(spaces)}
    informants = [_obj(p, "informant") for p in _list(board["informants"], "informants")]
    people = tuple(_str(p["person"], "person") for p in informants)
    person_index = {p: i for i, p in enumerate(people)}
    informant_spaces = {_str(p["person"], "person"): _str(p["space"], "space") for p in informants}
    edges = tuple(
        (_str(e[0], "edge"), _str(e[1], "edge"))
        for e in (_list(x, "edge") for x in _list(board["edges"], "edges"))
    )
    adj = _neighbours(edges)
    center = _str(board["center"], "center")

    def evidence_next_to(node: str) -> tuple[int, ...]:
        return tuple(space_index[n] for n in adj.get(node, ()) if n in space_index)

    def momentum_card(role: Role) -> dict[int, tuple[Op, ...]]:
        """A side's momentum card as `version` words it: its spaces 1 … n with their
        instructions (a card's size is how many spaces its data lists)."""
        spaces = [
            as_of(_obj(x, "momentum space"), version.data)
            for x in _list(_obj(momentum[role], role)["spaces"], f"{role} spaces")
        ]
        card = {_int(sp["space"], "momentum space"): _ops(sp["effects"], "momentum effects")
                for sp in spaces}  # fmt: skip
        if sorted(card) != list(range(1, len(card) + 1)):
            raise ValueError(f"{role}'s momentum card must number its spaces 1 … n: {sorted(card)}")
        return card

    editor_momentum, nixon_momentum = momentum_card("editor"), momentum_card("nixon")
    return Ruleset(
        cards=by_id,
        card_ids={r: tuple(c.id for c in card_list if c.faction == r) for r in ROLES},
        reaction_cards={
            r: tuple(c for c in card_list if c.faction == r and c.is_reaction) for r in ROLES
        },
        tokens={t.id: t for t in token_list},
        bag_token_ids=tuple(t.id for t in token_list if t.in_bag),
        spare_token_ids=tuple(t.id for t in token_list if not t.in_bag),
        spaces=spaces,
        space_index=space_index,
        people=people,
        person_names={_str(p["person"], "person"): _str(p["name"], "name") for p in informants},
        person_index=person_index,
        informant_spaces=informant_spaces,
        center=center,
        edges=edges,
        center_neighbours=evidence_next_to(center),
        space_neighbours=tuple(evidence_next_to(s.id) for s in spaces),
        informant_neighbours=tuple(evidence_next_to(informant_spaces[p]) for p in people),
        token_spaces={
            t.id: tuple(i for i, sp in enumerate(spaces) if sp.color in t.colors)
            for t in token_list
        },
        informants_json=board["informants"],
        layout_json=board["layout"],
        editor_momentum_effects=editor_momentum,
        nixon_momentum_effects=nixon_momentum,
        momentum_sizes={"editor": len(editor_momentum), "nixon": len(nixon_momentum)},
        momentum_tokens=_int(_obj(momentum["tokens"], "tokens")["momentum"], "momentum tokens"),
        effect_sources={
            **{cid: c.effects for cid, c in by_id.items()},
            **{f"M{k}": ops for k, ops in editor_momentum.items()},
            **{f"NM{k}": ops for k, ops in nixon_momentum.items()},
        },
        version=version,
        documents=(cards, tokens, board, momentum),
    )


def as_of(entry: JSONObject, data: str) -> JSONObject:
    """A data entry as data edition `data` words it: the fields of its latest edition up to `data`
    (effects and provenance) replace the first edition's; an entry without one is as first. An
    edition lists only what it changes, so edition 5 keeps edition 4's wording of the rest."""
    if not data:
        return entry
    editions = _obj(entry.get("editions") or {}, "editions")
    known = [key for key in editions if int(key) <= int(data)]
    if not known:
        return entry
    latest = max(known, key=int)
    wording = _obj(editions[latest], f"edition {latest}")
    _str(wording["provenance"], f"edition {latest} provenance")  # every rewording says why
    return {**entry, **wording}


def edition(rules: Ruleset, version: RulesVersion) -> Ruleset:
    """The same components played by `version` (`rules` itself when it already is), read again
    from their documents when its data edition words some of them differently."""
    if rules.version == version:
        return rules
    if rules.version.data == version.data or rules.documents is None:
        return replace(rules, version=version)
    cards, tokens, board, momentum = rules.documents
    return ruleset_from_data(cards, tokens, board, momentum, version)


def read_data(name: str) -> JSONObject:
    """One of the package's data documents ("cards", "tokens", "board", "momentum") as JSON."""
    text = resources.files(DATA_PACKAGE).joinpath(f"{name}.json").read_text(encoding="utf-8")
    return _obj(cast(JSON, json.loads(text)), name)


def load_ruleset() -> Ruleset:
    """The standard edition, from engine/watergate/data."""
    return ruleset_from_data(
        read_data("cards"), read_data("tokens"), read_data("board"), read_data("momentum")
    )
