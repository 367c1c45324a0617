"""Exact positions for engine tests: name the hands, decks, track, board and flags you care about;
every card and token not named is put somewhere legal (decks, bag) so that totals stay right."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from engine.core.game import JSONObject
from engine.watergate import (
    RULES_VERSION,
    Action,
    Event,
    MatchState,
    Role,
    apply,
    legal_actions,
    new_match,
)
from engine.watergate.describe import describe
from engine.watergate.events import event_to_json
from engine.watergate.standard import GAME, RULESET
from engine.watergate.state import BoardToken, PlayD, Token

BAG_TOKEN_IDS = RULESET.bag_token_ids
CARD_IDS = RULESET.card_ids
PEOPLE = RULESET.people
PERSON_INDEX = RULESET.person_index
SPACE_INDEX = RULESET.space_index


class Editable:
    """A clone of a state for a test to rearrange in place: its decks and bag are lists here (the
    state holds them as tuples, and the compiled copy takes nothing else); every other attribute
    is the clone's own. `frozen()` hands back the state."""

    def __init__(self, s: MatchState) -> None:
        self.__dict__["state"] = s.clone()
        self.__dict__["decks"] = {role: list(cards) for role, cards in s.decks.items()}
        self.__dict__["bag"] = list(s.bag)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.__dict__["state"], name)

    def __setattr__(self, name: str, value: object) -> None:
        if name in ("decks", "bag"):
            self.__dict__[name] = value
        else:
            setattr(self.__dict__["state"], name, value)

    def frozen(self) -> MatchState:
        v: MatchState = self.__dict__["state"]
        v.decks = {role: tuple(cards) for role, cards in self.__dict__["decks"].items()}
        v.bag = tuple(self.__dict__["bag"])
        v._legal = None
        return v


def position(
    *,
    turn: Role = "editor",
    initiative: Role | None = None,
    editor_hand: Sequence[str] = (),
    nixon_hand: Sequence[str] = (),
    editor_deck: Sequence[str] | None = None,
    nixon_deck: Sequence[str] | None = None,
    editor_discard: Sequence[str] = (),
    nixon_discard: Sequence[str] = (),
    removed: Sequence[str] = (),
    track: Iterable[tuple[str, int, bool]] = (),
    track_initiative: int | None = 0,
    track_momentum: int | None = 0,
    board: Mapping[str, tuple[str, bool]] | None = None,
    pictures: Mapping[str, str] | None = None,
    bag: Sequence[str] | None = None,
    momentum: Mapping[Role, int] | None = None,
    momentum_supply: int | None = None,
    restrictions: Sequence[str] = (),
    turns: Mapping[Role, int] | None = None,
    round_number: int = 1,
    seed: int = 0,
    rules_version: str = RULES_VERSION,
) -> MatchState:
    """A state in the card phase where `turn` must play a card from the hand.

    Decks are given top LAST (the engine draws from the end). A deck left as None receives every
    card of that faction not placed elsewhere. `track` lists (token_id, position, face_up) and gets
    handles 1, 2, 3, … in order; `board` maps a space id to (token_id, face_up).

    The position is played by `rules_version` (today's unless told); its generator stays the
    first edition's SplitMix64 from `seed`, so that a reshuffle (R7) deals the same in every
    version and the tests can name the order.
    """
    s = new_match(seed).clone()
    s.rules = GAME.edition(rules_version)
    placed: dict[Role, list[str]] = {
        "editor": [*editor_hand, *editor_discard, *(editor_deck or ())],
        "nixon": [*nixon_hand, *nixon_discard, *(nixon_deck or ())],
    }
    for c in removed:
        placed["editor" if c.startswith("E") else "nixon"].append(c)
    s.hands = {"editor": list(editor_hand), "nixon": list(nixon_hand)}
    s.discards = {"editor": tuple(editor_discard), "nixon": tuple(nixon_discard)}
    s.removed = tuple(removed)
    s.in_play = []
    decks: dict[Role, tuple[str, ...]] = {}
    for role, given in (("editor", editor_deck), ("nixon", nixon_deck)):
        rest = [c for c in CARD_IDS[role] if c not in placed[role]]
        decks[role] = tuple(given) if given is not None else tuple(rest)
    s.decks = decks
    s.track = []
    handle = 0
    for token_id, pos, up in track:
        handle += 1
        s.track.append(Token(handle, token_id, pos, up, False))
    pinned: list[BoardToken | None] = [None] * len(s.board)
    for space, (token_id, up) in (board or {}).items():
        handle += 1
        pinned[SPACE_INDEX[space]] = BoardToken(handle, token_id, up)
    s.board = tuple(pinned)
    s.next_handle = handle
    s.pictures = tuple((pictures or {}).get(p) for p in PEOPLE)
    used = {t.id for t in s.track} | {b.id for b in s.board if b is not None}
    s.bag = tuple(bag) if bag is not None else tuple(t for t in BAG_TOKEN_IDS if t not in used)
    s.holding = {"editor": (), "nixon": ()}
    s.track_initiative = track_initiative
    s.track_momentum = track_momentum
    s.momentum = {"editor": 0, "nixon": 0, **(momentum or {})}
    on_track = 1 if track_momentum is not None else 0
    s.momentum_supply = (
        momentum_supply
        if momentum_supply is not None
        else 9 - on_track - s.momentum["editor"] - s.momentum["nixon"]
    )
    s.momentum_removed = 0
    s.initiative = initiative or turn
    s.turn = turn
    s.turns = {"editor": 0, "nixon": 0, **(turns or {})}
    s.restrictions = tuple(restrictions)
    s.round = round_number
    s.stack = []
    s.chain = []
    s.decision = PlayD(turn, "", s.turns[turn] + 1)
    s.winner = None
    s.win_reason = None
    s._legal = None
    return s


def act(s: MatchState, role: Role, action: Action) -> tuple[MatchState, list[Event]]:
    """Apply an action that must be legal; return the new state and its events."""
    step = apply(s, role, action)
    return step.state, list(step.events)


def acts(s: MatchState, role: Role) -> list[Action]:
    return legal_actions(s, role)


def do(s: MatchState, role: Role, action: Action) -> tuple[MatchState, list[Event]]:
    """Apply `action` after checking that it is one of the offered legal actions."""
    offered = acts(s, role)
    assert action in offered, f"{action} not offered to {role}: {offered}\n{describe(s)}"
    return act(s, role, action)


def play_action(card: str) -> Action:
    return {"type": "play_action", "card": card}


def react(card: str) -> Action:
    return {"type": "react", "card": card}


def of_type(events: Iterable[Event] | Iterable[JSONObject], kind: str) -> list[JSONObject]:
    """The events of one type, as JSON: a log projected for a viewer, or records in full."""
    return [
        e if isinstance(e, dict) else event_to_json(e)
        for e in events
        if (e["type"] if isinstance(e, dict) else e.type) == kind
    ]


def pass_window(s: MatchState) -> tuple[MatchState, list[Event]]:
    """Let the seat facing a reaction window pass."""
    assert s.decision is not None and type(s.decision).__name__ == "ReactD", s.decision
    return act(s, s.decision.role, {"type": "pass"})


def token(s: MatchState, handle: int) -> Token | None:
    """The track token with this handle, if it is on the track."""
    return next((t for t in s.track if t.handle == handle), None)


def board(s: MatchState, space: str) -> BoardToken | None:
    return s.board[SPACE_INDEX[space]]


def picture(s: MatchState, person: str) -> str | None:
    return s.pictures[PERSON_INDEX[person]]


def choice_set(s: MatchState, role: Role, key: str) -> set[object]:
    """The values of one field over the seat's legal actions that have it (a "done" has none)."""
    return {a[key] for a in legal_actions(s, role) if key in a}
