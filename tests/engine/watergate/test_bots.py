"""Computer opponents: they play only legal actions, finish matches in either role, and decide from
their seat's observation alone — two states that differ only in what the seat cannot see give the
same choice for the same bot seed (product.md hidden information; R18)."""

from __future__ import annotations

import pytest

from engine.core.rng import shuffle
from engine.watergate import Role, apply, current_role, legal_actions, new_match
from engine.watergate.bots import HeuristicBot, RandomBot
from engine.watergate.bots.search import SearchBot
from engine.watergate.observation import determinize, observation_for
from engine.watergate.state import MatchState
from engine.watergate.views import view_for
from tests.engine.watergate.builders import position


def states_along(seed: int, every: int = 7, limit: int = 140) -> list[MatchState]:
    """Reachable states of a random match, sampled along the way."""
    s, bot, out = new_match(seed), RandomBot(seed + 99), []
    while (role := current_role(s)) is not None and s.version < limit:
        if s.version % every == 0:
            out.append(s)
        s = apply(s, role, bot.choose({}, legal_actions(s, role))).state
    return out


def hidden_variant(s: MatchState, seat: Role, salt: int) -> MatchState:
    """The same state except what `seat` cannot see: the opponent's hand traded with deck cards,
    deck orders, the bag order, and (for the Editor) the ids of unseen face-down track tokens."""
    v = s.clone()
    opp: Role = "nixon" if seat == "editor" else "editor"
    pool = [*v.hands[opp], *v.decks[opp]]
    rng = shuffle(salt, pool)
    held = len(v.hands[opp])
    own = list(v.decks[seat])
    rng = shuffle(rng, own)
    v.hands[opp] = pool[:held]
    v.decks = {opp: tuple(pool[held:]), seat: tuple(own)}
    unseen = (
        [i for i, t in enumerate(v.track) if not t.up and not t.peeked] if seat == "editor" else []
    )
    ids = [*(v.track[i].id for i in unseen), *v.bag]
    rng = shuffle(rng, ids)
    for k, i in enumerate(unseen):
        v.track[i] = v.track[i]._replace(id=ids[k])
    v.bag = tuple(ids[len(unseen) :])
    v.rng ^= 0xDEADBEEF
    v._legal = None
    return v


def deciding_states(seeds: range) -> list[tuple[MatchState, Role]]:
    return [
        (s, role)
        for seed in seeds
        for s in states_along(seed)
        if (role := current_role(s)) is not None and len(legal_actions(s, role)) > 1
    ]


@pytest.mark.ruling("R18")
def test_the_observation_hides_exactly_what_the_seat_cannot_see() -> None:
    """R18: the information set is equal for states that differ only in hidden parts, and it
    keeps the seat's view and legal actions."""
    for s, role in deciding_states(range(6)):
        variant = hidden_variant(s, role, s.version + 1)
        assert view_for(variant, role) == view_for(s, role)
        assert observation_for(variant, role) == observation_for(s, role)
        obs = observation_for(s, role)
        assert view_for(obs, role) == view_for(s, role)
        assert legal_actions(obs, role) == legal_actions(s, role)


@pytest.mark.ruling("R18")
@pytest.mark.parametrize("make", [HeuristicBot, lambda seed: SearchBot(seed, iterations=60)])
def test_a_bot_chooses_the_same_whatever_it_cannot_see(make) -> None:  # type: ignore[no-untyped-def]
    """R18: same bot seed, states differing only in what its seat cannot see → same choice."""
    checked = 0
    for s, role in deciding_states(range(3)):
        variant = hidden_variant(s, role, s.version + 7)
        legal = legal_actions(s, role)
        a = make(11).decide(observation_for(s, role), role, legal)
        b = make(11).decide(observation_for(variant, role), role, legal_actions(variant, role))
        assert a == b, f"v{s.version} {role}"
        checked += 1
    assert checked > 10


def test_determinize_keeps_what_the_seat_knows() -> None:
    """A sample agrees with the observation on everything public and on the seat's own hand."""
    for s, role in deciding_states(range(3)):
        obs = observation_for(s, role)
        sample, _ = determinize(obs, role, 12345)
        assert view_for(sample, role) == view_for(s, role)
        assert sorted([*sample.hands["editor"], *sample.decks["editor"]]) == sorted(
            [*s.hands["editor"], *s.decks["editor"]]
        )


@pytest.mark.parametrize("editor", ["heuristic", "search"])
def test_bots_finish_matches_with_legal_moves_in_both_roles(editor: str) -> None:
    """Every choice is one of the offered actions; the match reaches a winner."""
    for seed in (1, 2):
        s = new_match(seed)
        smart = HeuristicBot(seed) if editor == "heuristic" else SearchBot(seed, iterations=25)
        bots = (
            {"editor": smart, "nixon": RandomBot(seed)}
            if seed == 1
            else {
                "editor": RandomBot(seed),
                "nixon": smart,
            }
        )
        while (role := current_role(s)) is not None:
            legal = legal_actions(s, role)
            action = bots[role].decide(observation_for(s, role), role, legal)
            assert action in legal
            s = apply(s, role, action).state
        assert s.winner is not None


def test_the_heuristic_asks_when_any_answer_of_nixons_helps_the_editor() -> None:
    """R11: asking for a colour moves the face-down token Nixon names. The heuristic scores an ask
    after Nixon's answer (the one that hurts it most), not before anything moved, so it asks when
    the only face-down blue token it has seen lies one step from its end of the track."""
    s = position(
        turn="editor",
        editor_hand=["E05", "E04"],
        nixon_hand=["N13"],
        track=[("T02", 4, False), ("T08", -3, True)],  # T02 blue, face down; T08 yellow, up
        track_momentum=None,
        track_initiative=None,
    )
    s.track[0] = s.track[0]._replace(peeked=True)  # Deep Throat showed it to him
    ask = {"type": "play_value", "card": "E05", "target": "ask", "color": "blue"}
    legal = legal_actions(s, "editor")
    assert ask in legal and len(legal) > 2
    for seed in range(5):
        assert HeuristicBot(seed).decide(observation_for(s, "editor"), "editor", legal) == ask
