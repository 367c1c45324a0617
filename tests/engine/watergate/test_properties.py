"""Property tests (Hypothesis) over random seeds and random legal play: termination, one deciding
seat, conservation of cards and tokens, determinism, replay, acceptance of every offered action,
purity of `apply` and JSON round trips (architecture.md §3.4, OpenSpiel's random simulation)."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator, Sequence
from typing import NamedTuple

import pytest
from hypothesis import given, note, settings
from hypothesis import strategies as st

from engine.core.errors import MatchOver
from engine.watergate import (
    ROLES,
    Action,
    Event,
    MatchState,
    Role,
    apply,
    awaiting,
    current_role,
    legal_actions,
    new_match,
    other,
    replay,
    replay_events,
    start,
)
from engine.watergate.actions import action_to_json
from engine.watergate.bots import RandomBot
from engine.watergate.events import events_to_json
from engine.watergate.flow import advance
from engine.watergate.flow import legal_actions as offered_actions
from engine.watergate.serialize import dumps, state_from_json, state_to_json
from engine.watergate.standard import RULESET
from engine.watergate.state import TUPLE_FIELDS, TUPLES_BY_ROLE_FIELDS
from engine.watergate.views import admin_view, events_for, view_for
from tests.engine.watergate.builders import Editable

BAG_TOKEN_IDS = RULESET.bag_token_ids
CARDS = RULESET.cards
MOMENTUM_TOKENS = RULESET.momentum_tokens
PEOPLE = RULESET.people
SPARE_TOKEN_IDS = RULESET.spare_token_ids

MAX_DECISIONS = 3000
SEEDS = st.integers(0, 2**32)


def version_of(seed: int) -> str:
    """The rules version a seed's match is played by: the first edition's and today's alike."""
    return "3" if seed % 2 else "1"


class Ply(NamedTuple):
    """One decision of a random match: the state before, who acted, what, and what happened."""

    before: MatchState
    role: Role
    action: Action
    after: MatchState
    events: tuple[Event, ...]


def random_match(seed: int, bot_seed: int) -> Iterator[Ply]:
    """Play a match to its end, one RandomBot choosing for both seats; fail past the bound."""
    note(f"match seed={seed} bot_seed={bot_seed} rules_version={version_of(seed)}")
    s, bot = new_match(seed, version_of(seed)), RandomBot(bot_seed)
    for _ in range(MAX_DECISIONS):
        role = current_role(s)
        if role is None:
            return
        action = bot.choose(view_for(s, role), legal_actions(s, role))
        step = apply(s, role, action)
        yield Ply(s, role, action, step.state, step.events)
        s = step.state
    pytest.fail(f"seed {seed} / bot {bot_seed}: no winner after {MAX_DECISIONS} decisions")


def plies(seed: int, bot_seed: int) -> list[Ply]:
    return list(random_match(seed, bot_seed))


def states_of(seed: int, bot_seed: int) -> list[MatchState]:
    """Every state of a random match, the initial one and the final one included."""
    ps = plies(seed, bot_seed)
    return [new_match(seed, version_of(seed))] + [p.after for p in ps]


# ---- invariants ---------------------------------------------------------------------------------


def assert_cards_conserved(s: MatchState) -> None:
    """Each of the 40 cards is in exactly one of hands, decks, discards, removed, in play."""
    zones: dict[str, Sequence[str]] = {"removed": s.removed, "in_play": s.in_play}
    for role in ROLES:
        zones[f"hand:{role}"] = s.hands[role]
        zones[f"deck:{role}"] = s.decks[role]
        zones[f"discard:{role}"] = s.discards[role]
    seen = Counter(c for cards in zones.values() for c in cards)
    twice = sorted(c for c, n in seen.items() if n != 1)
    assert seen == Counter(list(CARDS)), f"twice {twice}, missing {sorted(set(CARDS) - set(seen))}"
    for role in ROLES:
        for zone in ("hand", "deck", "discard"):
            wrong = [c for c in zones[f"{zone}:{role}"] if CARDS[c].faction != role]
            assert not wrong, f"{role}'s {zone} holds {wrong}"


def assert_tokens_conserved(s: MatchState) -> None:
    """The 30 bag tokens are each in exactly one of bag/track/holding/board; the spares nowhere."""
    on_track = [t.id for t in s.track]
    held = [t.id for role in ROLES for t in s.holding[role]]
    pinned = [b.id for b in s.board if b is not None]
    seen = Counter([*s.bag, *on_track, *held, *pinned])
    assert seen == Counter(BAG_TOKEN_IDS), seen - Counter(BAG_TOKEN_IDS)
    assert not set(seen) & set(SPARE_TOKEN_IDS)
    handles = [t.handle for t in s.track] + [t.handle for r in ROLES for t in s.holding[r]]
    handles += [b.handle for b in s.board if b is not None]
    assert len(handles) == len(set(handles)), "two tokens in play share a handle"
    for t in s.track:
        assert -5 < t.pos < 5
        assert t.up or t.pos == 0, "R13: a face-down token has never moved, so it sits on 0"
        assert not (t.up and t.peeked)


def assert_markers_conserved(s: MatchState) -> None:
    """9 momentum tokens, 1 initiative token and 7 pictures, each somewhere exactly once."""
    track = 0 if s.track_momentum is None else 1
    total = track + s.momentum["editor"] + s.momentum["nixon"]
    total += s.momentum_supply + s.momentum_removed
    assert total == MOMENTUM_TOKENS == 9
    assert min(s.momentum_supply, s.momentum_removed, *s.momentum.values()) >= 0
    for pos in (s.track_initiative, s.track_momentum):
        # None: the token was gained (the initiative card / a momentum card holds it)
        assert pos is None or (type(pos) is int and -5 < pos < 5)
    assert s.initiative in ROLES
    assert len(s.pictures) == len(PEOPLE) == 7
    assert all(p in (None, "up", "down") for p in s.pictures)


def assert_one_seat_decides(s: MatchState) -> None:
    d = awaiting(s)
    if s.winner is not None:
        assert d is None and current_role(s) is None
        assert legal_actions(s, "editor") == [] and legal_actions(s, "nixon") == []
        return
    assert d is not None, "no winner, yet nobody decides"
    assert current_role(s) == d.role
    assert legal_actions(s, d.role), f"{d.role} must decide {d} but has no legal action"
    assert legal_actions(s, other(d.role)) == []


def jsonable(value: object) -> object:
    return json.loads(json.dumps(value, sort_keys=True))


# ---- properties ---------------------------------------------------------------------------------


@pytest.mark.ruling("R34")
@settings(max_examples=300, deadline=None)
@given(seed=SEEDS, bot_seed=SEEDS)
def test_every_match_ends_within_the_bound(seed: int, bot_seed: int) -> None:
    ps = plies(seed, bot_seed)
    final = ps[-1].after if ps else new_match(seed, version_of(seed))
    assert final.winner in ROLES
    assert final.win_reason in ("connection", "fifth_momentum", "empty_supply")
    assert final.version == len(ps) <= MAX_DECISIONS
    if version_of(seed) == "3":
        assert final.in_play == [], "R34: the card that ended the match is put away"
    with pytest.raises(MatchOver):
        apply(final, "editor", {"type": "pass"})


@settings(max_examples=150, deadline=None)
@given(seed=SEEDS, bot_seed=SEEDS)
def test_exactly_one_seat_decides_until_the_end(seed: int, bot_seed: int) -> None:
    for s in states_of(seed, bot_seed):
        assert_one_seat_decides(s)


@settings(max_examples=150, deadline=None)
@given(seed=SEEDS, bot_seed=SEEDS)
def test_cards_tokens_and_markers_are_conserved_at_every_step(seed: int, bot_seed: int) -> None:
    for s in states_of(seed, bot_seed):
        assert_cards_conserved(s)
        assert_tokens_conserved(s)
        assert_markers_conserved(s)


@settings(max_examples=50, deadline=None)
@given(seed=SEEDS, bot_seed=SEEDS)
def test_same_seed_and_actions_give_equal_states_and_events(seed: int, bot_seed: int) -> None:
    first, second = plies(seed, bot_seed), plies(seed, bot_seed)
    assert start(seed, version_of(seed)).events == start(seed, version_of(seed)).events
    assert len(first) == len(second)
    for a, b in zip(first, second, strict=True):
        assert (a.role, a.action) == (b.role, b.action)
        assert a.after == b.after
        assert a.events == b.events
    # the same actions chosen by hand (no bot) give the same events again
    s = new_match(seed, version_of(seed))
    for ply in first:
        step = apply(s, ply.role, dict(ply.action))
        assert step.events == ply.events
        s = step.state
    assert s == first[-1].after


@settings(max_examples=50, deadline=None)
@given(seed=SEEDS, bot_seed=SEEDS, data=st.data())
def test_replay_of_a_prefix_equals_the_state_built_step_by_step(
    seed: int, bot_seed: int, data: st.DataObject
) -> None:
    ps = plies(seed, bot_seed)
    actions = [(p.role, p.action) for p in ps]
    states = [new_match(seed, version_of(seed))] + [p.after for p in ps]
    cuts = data.draw(st.lists(st.integers(0, len(ps)), min_size=1, max_size=4), label="cuts")
    for k in {0, len(ps), *cuts}:
        assert replay(seed, actions[:k], version_of(seed)) == states[k], (
            f"replay of {k} actions differs"
        )
    final, log = replay_events(seed, actions, version_of(seed))
    assert final == states[-1]
    assert log == list(start(seed, version_of(seed)).events) + [e for p in ps for e in p.events]


@settings(max_examples=30, deadline=None)
@given(seed=SEEDS, bot_seed=SEEDS)
def test_every_offered_action_is_accepted_and_apply_never_mutates(seed: int, bot_seed: int) -> None:
    for ply in random_match(seed, bot_seed):
        s = ply.before
        before = dumps(state_to_json(s))
        offered = [dict(a) for a in legal_actions(s, ply.role)]
        assert ply.action in offered
        assert len({dumps(a) for a in offered}) == len(offered), "an action is offered twice"
        for action in offered:
            step = apply(s, ply.role, action)  # raises if an offered action is refused
            assert step.state.version == s.version + 1
            assert dumps(state_to_json(s)) == before, f"apply({action}) mutated its input"
        assert legal_actions(s, ply.role) == offered
        # nor does later work on a returned state reach back into the input
        n = apply(s, ply.role, offered[0]).state
        n.hands[ply.role].clear()
        n.track.clear()
        n.in_play.clear()
        n.stack.clear()
        assert dumps(state_to_json(s)) == before
        # what `clone` shares with the input cannot be edited in place at all
        for name in TUPLE_FIELDS:
            assert type(getattr(n, name)) is tuple, name
        for name in TUPLES_BY_ROLE_FIELDS:
            assert all(type(v) is tuple for v in getattr(n, name).values()), name


@settings(max_examples=30, deadline=None)
@given(seed=SEEDS, bot_seed=SEEDS)
def test_advance_in_place_reaches_the_state_apply_returns(seed: int, bot_seed: int) -> None:
    """A search plays its samples with `advance` (no copy a step): every step of a match must
    come out exactly as `apply`'s, or the computer would search a game with other rules."""
    for ply in random_match(seed, bot_seed):
        mine = ply.before.clone()
        offered = offered_actions(mine, ply.role)
        advance(mine, next(a for a in offered if action_to_json(a) == ply.action))
        assert mine == ply.after
        assert offered_actions(mine, ply.role) == offered_actions(ply.after, ply.role)


@settings(max_examples=30, deadline=None)
@given(seed=SEEDS, bot_seed=SEEDS)
def test_state_actions_events_and_views_round_trip_through_json(seed: int, bot_seed: int) -> None:
    s = new_match(seed, version_of(seed))
    for ply in [None, *random_match(seed, bot_seed)]:
        if ply is not None:
            assert jsonable(ply.action) == ply.action
            full_log = events_to_json(ply.events)
            assert [jsonable(e) for e in full_log] == full_log
            for seat in ROLES:
                seat_log = events_for(ply.events, seat)
                assert [jsonable(e) for e in seat_log] == seat_log
            s = ply.after
        data = state_to_json(s)
        back = state_from_json(json.loads(json.dumps(data)), s.rules)
        assert back == s
        assert dumps(state_to_json(back)) == dumps(data)
        assert jsonable(admin_view(s)) == admin_view(s)
        for seat in ROLES:
            assert jsonable(view_for(s, seat)) == view_for(s, seat)
            assert [jsonable(a) for a in legal_actions(s, seat)] == legal_actions(s, seat)
            assert legal_actions(back, seat) == legal_actions(s, seat)
        if ply is not None and s.winner is None:
            role = current_role(s)
            assert role is not None
            action = legal_actions(s, role)[0]
            # a state read back from JSON plays on exactly like the original
            assert apply(back, role, action) == apply(s, role, action)


def test_the_invariant_checks_catch_a_broken_state() -> None:
    """The conservation checks above are not vacuous: each one fails on a corrupted state."""
    s = new_match(7)
    for corrupt, check in (
        (lambda b: b.hands["editor"].append(b.decks["editor"][-1]), assert_cards_conserved),
        (lambda b: b.hands["nixon"].append(b.decks["editor"].pop()), assert_cards_conserved),
        (lambda b: b.bag.append(b.track[0].id), assert_tokens_conserved),
        (lambda b: b.bag.append(SPARE_TOKEN_IDS[0]), assert_tokens_conserved),
        (lambda b: setattr(b, "momentum_supply", b.momentum_supply - 1), assert_markers_conserved),
        (lambda b: setattr(b, "decision", None), assert_one_seat_decides),
    ):
        broken = Editable(s)
        corrupt(broken)
        with pytest.raises(AssertionError):
            check(broken.frozen())
