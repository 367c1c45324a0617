"""The spectator projection (issue 7): `view_for(s, None)` and `events_for(events, None)` carry
public information only, checked with the same non-interference idea as the seats' projections.

A spectator sees neither hand (only counts), no deck order, nothing of the bag but its size, no
colour of a face-down track token (not even one the Editor has peeked at) and not Howard Hunt's
drawn card before it is played (R19). So from many reachable states we build a second state that
differs only in those parts, and the spectator must be shown exactly the same. The matches are
played by a random bot that prefers the peeking cards (E01 Bob Woodward, E07 Deep Throat), so
that peeked face-down tokens are common among the states."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterator

from engine.watergate import MatchState, Role, apply, current_role, legal_actions, new_match
from engine.watergate.events import CardPlayed, Event
from engine.watergate.serialize import dumps, state_to_json
from engine.watergate.standard import RULESET
from engine.watergate.state import PlayD
from engine.watergate.views import events_for, view_for
from tests.engine.watergate.builders import Editable

CARD_IDS = RULESET.card_ids

ROLES: tuple[Role, Role] = ("editor", "nixon")
SEEDS = range(30)
PEEKS = frozenset({"E01", "E07"})
ALL_CARDS = frozenset(CARD_IDS["editor"]) | frozenset(CARD_IDS["nixon"])
# events whose face-down token may show its colours: it is gained from the track to be pinned, or
# it is on the evidence board, which the rules let everybody look at (views.py)
BOARD_EVENTS = frozenset(
    {"evidence_gained", "evidence_pinned", "board_evidence_flipped", "board_evidence_removed"}
)


def choose(s: MatchState, role: Role, rnd: random.Random) -> object:
    options = legal_actions(s, role)
    peeks = [a for a in options if a.get("type") == "play_action" and a.get("card") in PEEKS]
    return rnd.choice(peeks) if peeks and rnd.random() < 0.9 else rnd.choice(options)


def playthroughs() -> Iterator[tuple[int, MatchState, object, MatchState, tuple[Event, ...]]]:
    """(seed, state, action, next state, the action's events) for every decision of the games."""
    for seed in SEEDS:
        rnd, s = random.Random(f"spectator-{seed}"), new_match(seed)
        while (role := current_role(s)) is not None:
            action = choose(s, role, rnd)
            step = apply(s, role, action)
            yield seed, s, action, step.state, step.events
            s = step.state


STEPS = list(playthroughs())
STATES = [(seed, s) for seed, s, *_ in STEPS]


def hidden_from_spectators(s: MatchState, rnd: random.Random) -> MatchState:
    """A clone of s that differs only in what nobody watching may know."""
    v = Editable(s)
    for role in ROLES:  # hands traded for deck cards at equal counts, decks reordered
        pool = v.hands[role] + v.decks[role]
        rnd.shuffle(pool)
        n = len(v.hands[role])
        v.hands[role], v.decks[role] = pool[:n], pool[n:]
    d = v.decision
    if isinstance(d, PlayD) and d.card and v.decks[d.role]:  # R19: the drawn card, unplayed
        j = rnd.randrange(len(v.decks[d.role]))
        new, v.decks[d.role][j] = v.decks[d.role][j], d.card
        v.in_play[v.in_play.index(d.card)] = new
        v.decision = d._replace(card=new)
    rnd.shuffle(v.bag)
    down = [i for i, t in enumerate(v.track) if not t.up]  # peeked ones included
    ids = [v.track[i].id for i in down]
    rnd.shuffle(ids)
    for i, token_id in zip(down, ids, strict=True):
        v.track[i] = v.track[i]._replace(id=token_id)
    if down and v.bag:  # a face-down token may just as well still be in the bag
        i, j = rnd.choice(down), rnd.randrange(len(v.bag))
        v.track[i], v.bag[j] = v.track[i]._replace(id=v.bag[j]), v.track[i].id
    return v.frozen()


def peeked_down(s: MatchState) -> list[str]:
    return [t.id for t in s.track if t.peeked and not t.up]


def test_the_spectator_view_ignores_every_hidden_part() -> None:
    rnd = random.Random("spectator-views")
    tally: Counter[str] = Counter()
    for k, (seed, a) in enumerate(STATES):
        for _ in range(2):
            b = hidden_from_spectators(a, rnd)
            where = f"seed {seed}, state #{k} (v{a.version})"
            assert view_for(a, None) == view_for(b, None), where
            tally["changed"] += state_to_json(a) != state_to_json(b)
            tally["hands"] += a.hands != b.hands
            tally["peeked ids"] += peeked_down(a) != peeked_down(b)
            tally["drawn card"] += isinstance(a.decision, PlayD) and a.decision != b.decision
    assert tally["changed"] > len(STATES), tally
    assert tally["hands"] > len(STATES) // 2, tally
    assert tally["peeked ids"] > 100, f"too few peeked face-down tokens were varied: {tally}"


def test_the_spectator_view_names_no_hidden_thing() -> None:
    """Read directly: counts for hands, no face-down colours, no token ids, no drawn card."""
    peeked = 0
    for seed, s in STATES:
        v = view_for(s, None)
        assert v["role"] is None
        assert v["hands"] == {r: len(s.hands[r]) for r in ROLES}, seed
        text = json.dumps(v)
        for card in s.hands["editor"] + s.hands["nixon"]:
            assert f'"{card}"' not in text, f"seed {seed} v{s.version}: hand card {card} shown"
        for t in [*v["track"]["evidence"], *v["holding"]["editor"], *v["holding"]["nixon"]]:
            assert "id" not in t
            if t["face"] == "down":
                assert "colors" not in t and "momentum_symbol" not in t, (seed, s.version, t)
                peeked += bool(t.get("peeked"))
        d = s.decision
        if isinstance(d, PlayD) and d.card and s.winner is None:
            assert f'"{d.card}"' not in text, f"seed {seed} v{s.version}: drawn card shown"
    assert peeked > 50, peeked


def cards_named(event: Event) -> set[str]:
    found: set[str] = set()

    def walk(value: object) -> None:
        if isinstance(value, str) and value in ALL_CARDS:
            found.add(value)
        elif isinstance(value, dict):
            for x in value.values():
                walk(x)
        elif isinstance(value, list | tuple):
            for x in value:
                walk(x)

    walk(event)
    return found


def public_cards(s: MatchState) -> set[str]:
    v = view_for(s, None)
    piles = [*v["discards"]["editor"], *v["discards"]["nixon"], *v["removed"], *v["in_play"]]
    return {str(c) for c in piles}


def test_the_spectator_log_names_played_cards_only_and_no_face_down_colour() -> None:
    tally: Counter[str] = Counter()
    for seed, before, action, after, events in STEPS:
        played = {e.card for e in events if isinstance(e, CardPlayed)}
        allowed = played | public_cards(before) | public_cards(after)
        for e in events_for(events, None):
            where = f"seed {seed}, v{before.version}, {dumps(action)}: {e}"
            assert "cards" not in e, where
            assert cards_named(e) <= allowed, where
            tally["card events"] += bool(cards_named(e))
            for p in [e.get("token"), *e.get("tokens", [])]:
                if not isinstance(p, dict):
                    continue
                assert "id" not in p, where
                if p["face"] == "down" and e["type"] not in BOARD_EVENTS:
                    assert "colors" not in p and "momentum_symbol" not in p, where
                    tally[f"hidden {e['type']}"] += 1
    assert tally["card events"] > 500 and tally["hidden track_peeked"] > 20, tally
    assert tally["hidden tokens_placed"] > 50, tally


def without_face_up_colours(log: list[Event]) -> list[Event]:
    """A face-up token drawn from the bag or turned up is public; which one it is may come from
    the hidden bag or hidden face-down colours, so its colours are left out of the comparison."""

    def blank(p: object) -> object:
        if isinstance(p, dict) and p.get("face") == "up":
            return {k: v for k, v in p.items() if k in ("handle", "face")}
        return p

    out: list[Event] = []
    for event in log:
        e = dict(event)
        if "token" in e:
            e["token"] = blank(e["token"])
        if isinstance(tokens := e.get("tokens"), list):
            e["tokens"] = [blank(p) for p in tokens]
        out.append(e)
    return out


def test_the_same_move_logs_the_same_for_spectators_whatever_was_hidden() -> None:
    """Every action legal in both states gives the spectator the same log, unless it brings a
    hidden thing to light (the spectator's next views differ) or the only difference is which
    face-up token came out (counted "drawn")."""
    rnd = random.Random("spectator-logs")
    tally: Counter[str] = Counter()
    for k, (seed, a) in enumerate(STATES):
        role = current_role(a)
        if role is None or k % 2:
            continue
        b = hidden_from_spectators(a, rnd)
        for action in [x for x in legal_actions(a, role) if x in legal_actions(b, role)]:
            sa, sb = apply(a, role, action), apply(b, role, action)
            if view_for(sa.state, None) != view_for(sb.state, None):
                tally["revealed"] += 1
                continue
            log_a, log_b = events_for(sa.events, None), events_for(sb.events, None)
            tally["compared" if log_a == log_b else "drawn"] += 1
            where = f"seed {seed}, state #{k} (v{a.version}), {role} plays {dumps(action)}"
            assert without_face_up_colours(log_a) == without_face_up_colours(log_b), where
    assert tally["compared"] > 1000 and tally["revealed"] > 0, tally
