"""Exact Nations positions for rule tests: start a real match, then set the parts a test cares
about (nations, board, order, decision, event, war, round); `act` applies an offered action."""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from engine.core.game import JSONObject
from engine.nations import flow
from engine.nations.actions import Action, action_to_json, parse_action
from engine.nations.catalog import Difficulty
from engine.nations.describe import describe
from engine.nations.events import Event, event_to_json
from engine.nations.ruleset import (
    AGES,
    DOCUMENTS,
    Ruleset,
    load_ruleset,
    read_data,
    ruleset_from_data,
)
from engine.nations.state import (
    ActD,
    Decision,
    GrowthD,
    MatchState,
    Nation,
    Slot,
    War,
    player_of,
)
from engine.nations.views import view_for

RULES = load_ruleset()


def quiet_rules(rules_table: Mapping[str, int] | None = None) -> Ruleset:
    """The real components plus one event card per age whose events do nothing and whose famine
    is 0 ("e_quiet<age>"), so a production or war test reads without an event in the way;
    `rules_table` changes entries of rules.json."""
    docs = {name: copy.deepcopy(read_data(name)) for name in DOCUMENTS}
    for key, value in (rules_table or {}).items():
        entry = docs["rules"][key]
        assert isinstance(entry, dict)
        entry["value"] = value
    for age in AGES:
        events = docs[f"age{age}"]["events"]
        assert isinstance(events, list)
        quiet: JSONObject = {"measure": "strength", "leader": [], "last": []}
        events.append(
            {
                "id": f"e_quiet{age}",
                "age": age,
                "architects": 2,
                "famine": 0,
                "events": [quiet, quiet],
                "history": "tests only",
                "provenance": "reconstructed; tests only",
            }
        )
    return ruleset_from_data(docs)


QUIET = quiet_rules()
START_SLOTS = tuple(Slot(c, 1) for c in RULES.starting_cards)


def new(
    players: int = 2,
    seed: int = 0,
    levels: Sequence[Difficulty] | None = None,
    rules: Ruleset = RULES,
) -> MatchState:
    return flow.start(seed, rules, players, levels).state


def nation(
    *,
    slots: Sequence[tuple[str, int]] | None = None,
    level: Difficulty = "prince",
    gold: int = 0,
    stone: int = 0,
    food: int = 0,
    books: int = 0,
    vp: int = 0,
    idle: int = 0,
    grown: int = 0,
    colonies: Sequence[str] = (),
    advisor: str = "",
    wonder: str = "",
    built: int = 0,
    wonders: Sequence[str] = (),
) -> Nation:
    """A nation with exactly these holdings; `slots` None is side A's printed cards, 1 worker
    each; every resource not named is 0 (so production tests read plainly)."""
    cards = START_SLOTS if slots is None else tuple(Slot(c, w) for c, w in slots)
    return Nation(
        level,
        gold,
        stone,
        food,
        books,
        vp,
        idle,
        grown,
        cards,
        tuple(colonies),
        advisor,
        wonder,
        built,
        tuple(wonders),
    )


def position(
    players: int = 2,
    *,
    nations: Mapping[int, Nation] | None = None,
    board: Mapping[int, str] | None = None,
    order: Sequence[int] | None = None,
    decision: Decision | None = None,
    round_number: int | None = None,
    event: str | None = None,
    architects: int | None = None,
    war: War | None = None,
    passed: Sequence[int] = (),
    seed: int = 0,
    rules: Ruleset = QUIET,
) -> MatchState:
    """A state of a `players` match (seed `seed`) in its first action phase, then changed: the
    nations named replace those players' nations; `board` (slot index -> card) replaces the
    whole progress board; `decision` defaults to the first player's turn. The event defaults to
    the age's quiet test card (famine 0, no effects)."""
    s = new(players, seed, rules=rules)
    while isinstance(s.decision, GrowthD):  # everyone takes the food bonus
        bonus = parse_action({"type": "bonus", "resource": "food"})
        s = flow.apply(s, s.decision.player, bonus).state
    s = s.clone()
    if nations:
        s.nations = tuple(nations.get(p, s.nations[p]) for p in range(players))
    if board is not None:
        slots = ["" for _ in s.board]
        for i, card in board.items():
            slots[i] = card
        s.board = tuple(slots)
    if order is not None:
        s.order = tuple(order)
    if round_number is not None:
        s.round = round_number
    quiet = f"e_quiet{s.age}"
    s.event = event if event is not None else quiet if quiet in rules.events else s.event
    if architects is not None:
        s.architects = architects
    s.war = war
    s.wars_bought = 1 if war is not None else 0
    s.passed = tuple(p in passed for p in range(players))
    s.decision = decision if decision is not None else ActD(s.order[0])
    return s


def offered(s: MatchState, seat: str) -> list[JSONObject]:
    return [action_to_json(a) for a in flow.legal_actions(s, player_of(seat))]


def act(s: MatchState, seat: str, action: Mapping[str, Any]) -> tuple[MatchState, list[JSONObject]]:
    """Apply `action` after checking it is offered; return the state and the events as JSON."""
    legal = offered(s, seat)
    assert dict(action) in legal, f"{dict(action)} not offered to {seat}: {legal}\n{describe(s)}"
    step = flow.apply(s, player_of(seat), dict(action))
    return step.state, [event_to_json(e) for e in step.events]


def acts(s: MatchState, seat: str, *actions: Mapping[str, Any]) -> MatchState:
    for a in actions:
        s, _ = act(s, seat, a)
    return s


def of_type(events: Sequence[JSONObject], kind: str) -> list[JSONObject]:
    return [e for e in events if e["type"] == kind]


def pass_all(s: MatchState) -> tuple[MatchState, list[JSONObject]]:
    """Everyone passes until the action phase ends (resolution and the next maintenance run)."""
    log: list[JSONObject] = []
    while isinstance(s.decision, ActD):
        seat = f"p{s.decision.player + 1}"
        s, events = act(s, seat, {"type": "pass"})
        log += events
    return s, log


def shown(s: MatchState, seat: str) -> dict[str, Any]:
    """A nation as the spectator's view shows it."""
    nations = view_for(s, None)["nations"]
    assert isinstance(nations, dict) and isinstance(nations[seat], dict)
    return dict(nations[seat])  # type: ignore[arg-type]


def events_json(events: Sequence[Event]) -> list[JSONObject]:
    return [event_to_json(e) for e in events]


def as_action(obj: Mapping[str, Any]) -> Action:
    return parse_action(dict(obj))
