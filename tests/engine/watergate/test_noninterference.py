"""Non-interference: what a seat cannot see never changes what it is shown or offered.

The hidden-information table of product.md says each seat sees its own hand, only counts of the
other hand, of both decks and of the bag, and (for the Editor) only the count and position of
face-down research-track tokens; R18 says a reaction window never depends on a hand, and R19 keeps
Howard Hunt's drawn card from the Editor until it is played. So from many reachable states we build
a second state that differs ONLY in what seat X cannot see, and X's view, legal actions, log and
error messages must be the same in both (architecture.md §3.4).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

import pytest

from engine.core.errors import EngineError
from engine.watergate import (
    ROLES,
    Event,
    MatchState,
    Role,
    apply,
    current_role,
    legal_actions,
    new_match,
    other,
)
from engine.watergate.bots import RandomBot
from engine.watergate.forced import forced_action
from engine.watergate.serialize import dumps, state_to_json
from engine.watergate.standard import RULESET
from engine.watergate.state import JSON, AskedD, GambitD, PlayD, ReactD
from engine.watergate.views import events_for, view_for
from tests.engine.watergate.builders import Editable

CARD_IDS = RULESET.card_ids

# (seed, rules version): the first edition's matches, and today's, whose new choices (R28's done,
# R29's question, R31's Gambit prompt, R32's window on a replayed card) must leak nothing either.
MATCHES = [(seed, "1") for seed in range(24)] + [(seed, "3") for seed in range(24, 40)]


def reachable_states() -> Iterator[tuple[int, MatchState]]:
    """Every state of random matches from several seeds (the final ones included)."""
    for seed, version in MATCHES:
        s, bot = new_match(seed, version), RandomBot(1000 + seed)
        yield seed, s
        while (role := current_role(s)) is not None:
            s = apply(s, role, bot.choose(view_for(s, role), legal_actions(s, role))).state
            yield seed, s


STATES = list(reachable_states())


def test_todays_states_offer_the_new_choices() -> None:
    """The states checked below include R28–R32's decisions, so the checks are not vacuous."""
    seen: Counter[str] = Counter()
    for _, s in STATES:
        d, legal = s.decision, legal_actions(s, s.decision.role) if s.decision else []
        seen["done"] += {"type": "done"} in legal
        seen["ask"] += any(a["type"] == "ask" for a in legal)
        seen[type(d).__name__] += isinstance(d, AskedD | GambitD)
        seen["replay"] += isinstance(d, ReactD) and s.chain[d.ann].mode == "replay"
    assert min(seen[k] for k in ("done", "ask", "AskedD", "GambitD", "replay")) > 0, seen


# ---- building a state that X cannot tell apart ------------------------------------------------


def _mix_hand_into_deck(v: Editable, owner: Role, rnd: random.Random) -> None:
    """Trade the owner's hand for cards of its deck at equal counts (the opponent sees counts)."""
    pool = v.hands[owner] + v.decks[owner]
    rnd.shuffle(pool)
    n = len(v.hands[owner])
    v.hands[owner], v.decks[owner] = pool[:n], pool[n:]


def _swap_drawn_card(v: Editable, owner: Role, rnd: random.Random) -> None:
    """R19: a drawn card waiting to be played is hidden from the other seat; trade it too."""
    d = v.decision
    if isinstance(d, PlayD) and d.card and d.role == owner and v.decks[owner]:
        j = rnd.randrange(len(v.decks[owner]))
        new = v.decks[owner][j]
        v.decks[owner][j] = d.card
        v.in_play[v.in_play.index(d.card)] = new
        v.decision = d._replace(card=new)


def _recolour_face_down_tokens(v: Editable, rnd: random.Random) -> None:
    """The Editor sees a face-down, not-peeked track token only as a handle on a position."""
    hidden = [i for i, t in enumerate(v.track) if not t.up and not t.peeked]
    ids = [v.track[i].id for i in hidden]
    rnd.shuffle(ids)
    for i, token_id in zip(hidden, ids, strict=True):
        v.track[i] = v.track[i]._replace(id=token_id)
    if hidden and v.bag:  # and the bag holds what the Editor cannot see either
        i, j = rnd.choice(hidden), rnd.randrange(len(v.bag))
        v.track[i], v.bag[j] = v.track[i]._replace(id=v.bag[j]), v.track[i].id


def indistinguishable(
    s: MatchState,
    seat: Role,
    rnd: random.Random,
    *,
    keep_order: bool = False,
    own_deck: bool = True,
) -> MatchState:
    """A clone of s that differs only in what `seat` cannot see (product.md's table).

    keep_order: only trade the opponent's hand with deck cards in place; own_deck=False leaves the
    seat's own deck order alone (hidden from it too, but its next draw would differ visibly).
    """
    v = Editable(s)
    opp = other(seat)
    if keep_order:
        hand, deck = v.hands[opp], v.decks[opp]
        for i in range(len(hand)):
            if deck and rnd.random() < 0.7:
                j = rnd.randrange(len(deck))
                hand[i], deck[j] = deck[j], hand[i]
    else:
        _mix_hand_into_deck(v, opp, rnd)
        _swap_drawn_card(v, opp, rnd)
        rnd.shuffle(v.decks[opp])
        if own_deck:
            rnd.shuffle(v.decks[seat])
        rnd.shuffle(v.bag)
        if seat == "editor":
            _recolour_face_down_tokens(v, rnd)
    return v.frozen()


def variants(
    seat: Role, count: int = 2, own_deck: bool = True
) -> Iterator[tuple[int, int, MatchState, MatchState]]:
    rnd = random.Random(f"noninterference-{seat}-{own_deck}")
    for k, (seed, s) in enumerate(STATES):
        for _ in range(count):
            yield seed, k, s, indistinguishable(s, seat, rnd, own_deck=own_deck)


def error_of(s: MatchState, seat: Role, action: object) -> tuple[str, str, str]:
    with pytest.raises(EngineError) as info:
        apply(s, seat, action)
    return type(info.value).__name__, info.value.code, str(info.value)


def bad_actions(s: MatchState, seat: Role) -> list[object]:
    """Refused actions, many naming things the seat cannot see (opponent cards, hidden tokens)."""
    opp = other(seat)
    foreign = [*s.hands[opp][:2], *s.decks[opp][-1:], CARD_IDS[opp][0]]
    own_elsewhere = [*s.decks[seat][-1:], *s.discards[seat][-1:]]
    hidden = [t.handle for t in s.track if not t.up][:2]
    out: list[object] = ["junk", [], {"type": "choose_token", "handle": True}]
    out += [{"type": "react"}, {"type": "pass", "peek": 1}, {"type": "pin", "handle": "1"}]
    out += [{"type": "choose_token", "handle": 999}, {"type": "pin", "handle": 999, "space": "O1"}]
    out += [{"type": "play_value", "card": "E99", "target": "initiative"}]
    out += [{"type": "play_action", "card": "N99"}, {"type": "pass"}, {"type": "gambit_remove"}]
    for card in foreign + own_elsewhere:
        out += [{"type": "play_action", "card": card}, {"type": "react", "card": card}]
        out += [{"type": "play_value", "card": card, "target": "momentum"}]
        out += [{"type": "gambit_keep", "card": card}, {"type": "choose_card", "card": card}]
    for handle in hidden:
        out += [{"type": "choose_token", "handle": handle}]
        out += [{"type": "choose_target", "target": "evidence", "handle": handle}]
    legal = legal_actions(s, seat)
    return [a for a in out if a not in legal]


# ---- the checks ---------------------------------------------------------------------------------


@pytest.mark.ruling("R18")
@pytest.mark.parametrize("seat", ROLES)
def test_view_and_legal_actions_ignore_what_the_seat_cannot_see(seat: Role) -> None:
    """product.md hidden-information table, R18, R19: X's view and options are the same in both."""
    changed = 0
    for seed, k, a, b in variants(seat):
        where = f"seed {seed}, state #{k} (v{a.version}), seat {seat}"
        changed += state_to_json(a) != state_to_json(b)
        assert view_for(a, seat) == view_for(b, seat), where
        assert legal_actions(a, seat) == legal_actions(b, seat), where
    assert changed > len(STATES), "the variants hardly differ: the test would be vacuous"


@pytest.mark.ruling("R18")
@pytest.mark.parametrize("seat", ROLES)
def test_refusals_say_the_same_whatever_the_seat_cannot_see(seat: Role) -> None:
    """Error messages speak only from the acting seat's knowledge (architecture.md §3.1)."""
    for seed, k, a, b in variants(seat, count=1):
        if k % 3:
            continue
        for action in bad_actions(a, seat):
            where = f"seed {seed}, state #{k} (v{a.version}), {seat} sends {action!r}"
            assert error_of(a, seat, action) == error_of(b, seat, action), where


def without_face_up_faces(log: list[Event]) -> list[Event]:
    """The log with the colours of face-up tokens blanked: a token drawn from the bag or turned up
    is public, and which one it is may come from the hidden bag or the hidden face-down colours."""

    def blank(p: JSON) -> JSON:
        if not isinstance(p, dict) or p.get("face") == "down":
            return p
        return {k: v for k, v in p.items() if k in ("handle", "face")}

    def blank_any(p: JSON) -> JSON:
        return {k: v for k, v in p.items() if k in ("handle", "face")} if isinstance(p, dict) else p

    out: list[Event] = []
    for event in log:
        e = dict(event)
        # A peek shows the Editor face-down tokens, and a peeked token may then go back to the bag
        # before the view is read again: what it showed is a reveal, like a face-up draw.
        blanker = blank_any if e["type"] in ("track_peeked", "token_returned_to_bag") else blank
        if "token" in e:
            e["token"] = blanker(e["token"])
        if isinstance(tokens := e.get("tokens"), list):
            e["tokens"] = [blanker(p) for p in tokens]
        out.append(e)
    return out


@pytest.mark.ruling("R18")
@pytest.mark.parametrize("seat", ROLES)
def test_own_decisions_log_the_same_unless_they_reveal_something(
    seat: Role, request: pytest.FixtureRequest
) -> None:
    """When X decides, each legal action gives X the same log in both states unless it brings hidden
    information to light: then X's new views differ (counted "revealed"), or the only difference is
    which face-up token came out of the bag or was turned up (counted "drawn")."""
    tally: Counter[str] = Counter()
    for seed, k, a, b in variants(seat, count=1, own_deck=False):
        if current_role(a) != seat:
            continue
        for action in legal_actions(a, seat):
            sa, sb = apply(a, seat, action), apply(b, seat, action)
            if view_for(sa.state, seat) != view_for(sb.state, seat):
                tally["revealed"] += 1
                continue
            log_a, log_b = events_for(sa.events, seat), events_for(sb.events, seat)
            tally["compared" if log_a == log_b else "drawn"] += 1
            where = f"seed {seed}, state #{k} (v{a.version}), {seat} plays {dumps(action)}"
            assert without_face_up_faces(log_a) == without_face_up_faces(log_b), where
    request.node.user_properties.append(("outcomes", dict(tally)))
    assert tally["compared"] > tally["revealed"] > 0, tally


@pytest.mark.ruling("R18")
@pytest.mark.ruling("R20")
@pytest.mark.ruling("R31")
@pytest.mark.parametrize("seat", ROLES)
def test_no_decision_tells_the_seat_what_the_opponent_holds(
    seat: Role, request: pytest.FixtureRequest
) -> None:
    """With the opponent's hand traded for deck cards in place (nothing else changed), every action
    legal in both states, by either seat, gives X the same next view and log: the server must not
    open a reaction window (R18) or put the Gambit choice (R20) only when a card is in the hand."""
    rnd = random.Random(f"hand-only-{seat}")
    tally: Counter[str] = Counter()
    leaks: list[str] = []
    for k, (seed, a) in enumerate(STATES):
        role = current_role(a)
        if role is None:
            continue
        b = indistinguishable(a, seat, rnd, keep_order=True)
        tally["changed"] += a.hands[other(seat)] != b.hands[other(seat)]
        both = [x for x in legal_actions(a, role) if x in legal_actions(b, role)]
        for action in both:
            sa, sb = apply(a, role, action), apply(b, role, action)
            tally["own" if role == seat else "opponent's"] += 1
            same_view = view_for(sa.state, seat) == view_for(sb.state, seat)
            if not same_view or events_for(sa.events, seat) != events_for(sb.events, seat):
                leaks.append(f"seed {seed}, state #{k} (v{a.version}): {role} {dumps(action)}")
    request.node.user_properties.append(("outcomes", dict(tally)))
    assert min(tally.values()) > 500, tally
    assert not leaks, f"{len(leaks)} leaks, first: {leaks[:5]}"


@pytest.mark.ruling("R11")
@pytest.mark.ruling("R18")
@pytest.mark.parametrize("hidden_from", ROLES)
def test_a_forced_choice_is_the_same_whatever_the_other_seat_cannot_see(
    hidden_from: Role, request: pytest.FixtureRequest
) -> None:
    """Issue 42: a forced choice is taken at once, so its being forced must not depend on what the
    seat NOT deciding cannot see (the decider's hand, face-down colours hidden from the Editor):
    the decider's `forced`, and the engine's, are the same in both states."""
    tally: Counter[str] = Counter()
    for seed, k, a, b in variants(hidden_from):
        decider = current_role(a)
        if decider is None or decider == hidden_from:
            continue
        where = f"seed {seed}, state #{k} (v{a.version}), {decider} decides"
        forced = view_for(a, decider).get("forced")
        assert forced == view_for(b, decider).get("forced"), where
        assert forced_action(a) == forced_action(b), where
        tally["forced" if forced is not None else "not"] += 1
        tally["single"] += forced is None and len(legal_actions(a, decider)) == 1
        tally["count differs"] += len(legal_actions(a, decider)) != len(legal_actions(b, decider))
    request.node.user_properties.append(("outcomes", dict(tally)))
    assert tally["forced"] > 0 and tally["single"] > 0, tally
