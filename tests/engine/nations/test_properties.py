"""Property tests (Hypothesis) over random seeds, player counts and random legal play: resources
never negative (NR29, NR30: VP may be, and moves only as the log says), workers and cards
conserved, one seat deciding at a time through exactly eight rounds (NR16), the final score
recomputed from the data files equal to the engine's (NR36, NR37), and determinism (NR2)."""

from __future__ import annotations

from collections import Counter
from typing import NamedTuple

from hypothesis import given, note, settings
from hypothesis import strategies as st

from engine.core.game import JSONObject
from engine.nations import GAME
from engine.nations.events import event_to_json
from engine.nations.state import MatchState
from tests.engine.nations.builders import RULES
from tests.engine.nations.raw import final_score

WORKERS = sum(RULES.starting_workers.values()) + RULES.idle_workers + len(RULES.population_track)
VP_EVENTS = {"gained", "revolted", "short_of", "defeated", "age_scored"}


class Ply(NamedTuple):
    before: MatchState
    seat: str
    after: MatchState
    events: list[JSONObject]


def random_match(seed: int, bot_seed: int, players: int) -> list[Ply]:
    note(f"match seed={seed} bot_seed={bot_seed} players={players}")
    game = GAME.with_players(players)
    s = game.start(seed).state
    bot = game.make_bot("random", bot_seed, 0, None)
    plies = []
    for _ in range(5000):
        to_move = game.to_move(s)
        if not to_move:
            return plies
        seat = to_move[0]
        action = bot.decide(game.observation_for(s, seat), seat, game.legal_actions(s, seat))
        step = game.apply(s, seat, action)
        plies.append(Ply(s, seat, step.state, [event_to_json(e) for e in step.events]))
        s = step.state
    raise AssertionError("no end within 5000 decisions")


MATCHES = st.tuples(st.integers(0, 2**64), st.integers(0, 2**32), st.integers(2, 5))
FEW = settings(max_examples=12, deadline=None)


def owned(s: MatchState) -> list[str]:
    """Every progress card somewhere other than a deck: board, nations, the war space."""
    cards = [c for c in s.board if c]
    for n in s.nations:
        cards += [sl.card for sl in n.slots if sl.card not in RULES.starting_cards]
        cards += [*n.colonies, *n.wonders, *([n.advisor] if n.advisor else [])]
        cards += [n.wonder] if n.wonder else []
    return cards + ([s.war.card] if s.war else [])


def gone(events: list[JSONObject]) -> list[str]:
    """Cards the log says left the game in a step (NR8, NR22, battles, golden ages, wars)."""
    out: list[str] = []
    for e in events:
        if e["type"] == "progress_cleared":
            out += e["removed"]  # type: ignore[arg-type]
        elif e["type"] == "card_bought":
            replaced = e["replaced"]
            if isinstance(replaced, str) and replaced not in RULES.starting_cards:
                out.append(replaced)
            if RULES.cards[str(e["card"])].type in ("battle", "golden_age"):
                out.append(str(e["card"]))
        elif e["type"] == "war_resolved":
            out.append(str(e["card"]))
    return out


@FEW
@given(MATCHES)
def test_resources_are_never_negative_and_workers_are_conserved(
    match: tuple[int, int, int],
) -> None:
    for ply in random_match(*match):
        for n in ply.after.nations:
            assert min(n.gold, n.stone, n.food, n.books, n.idle) >= 0, n
            deployed = sum(sl.workers for sl in n.slots)
            assert all(sl.workers >= 0 for sl in n.slots)
            track = len(RULES.population_track) - n.grown
            assert n.idle + deployed + track == WORKERS, n  # a replaced card's workers return


@FEW
@given(MATCHES)
def test_cards_are_conserved(match: tuple[int, int, int]) -> None:
    plies = random_match(*match)
    first = plies[0].before
    players = first.players
    full = Counter(c for age in (1, 2, 3, 4) for c in RULES.deck(age, players))
    out: list[str] = []
    for ply in plies:
        out += gone(ply.events)
        s = ply.after
        where = Counter([*(c for d in s.decks for c in d), *owned(s), *out])
        assert where == full  # every card in exactly one place


@FEW
@given(MATCHES)
def test_vp_move_only_as_the_log_says(match: tuple[int, int, int]) -> None:
    for ply in random_match(*match):
        for p, (a, b) in enumerate(zip(ply.before.nations, ply.after.nations, strict=True)):
            seat = f"p{p + 1}"
            logged = 0
            for e in ply.events:
                if e.get("seat") != seat or e["type"] not in VP_EVENTS:
                    continue
                if e["type"] == "gained":
                    logged += int(e["amount"]) if e["resource"] == "vp" else 0  # type: ignore[call-overload]
                elif e["type"] == "age_scored":
                    logged += int(e["vp"])  # type: ignore[call-overload]
                else:
                    logged -= int(e["vp"])  # type: ignore[call-overload]
            assert b.vp - a.vp == logged, (seat, ply.events)


@FEW
@given(MATCHES)
def test_one_seat_decides_at_a_time_through_eight_rounds(match: tuple[int, int, int]) -> None:
    plies = random_match(*match)
    rounds = [ply.before.round for ply in plies]
    assert rounds == sorted(rounds) and set(rounds) == set(range(1, 9))
    end = plies[-1].after
    assert GAME.to_move(end) == () and end.round == 8 and end.winner >= 0
    for ply in plies:
        assert len(GAME.to_move(ply.before)) == 1


@FEW
@given(MATCHES)
def test_the_final_score_recomputed_from_the_data_equals_the_engines(
    match: tuple[int, int, int],
) -> None:
    end = random_match(*match)[-1].after
    scores = tuple(final_score(n) for n in end.nations)
    assert end.scores == scores
    best = max(scores)
    assert end.winner == next(p for p in end.order if scores[p] == best)  # NR37


@settings(max_examples=5, deadline=None)
@given(MATCHES)
def test_a_seed_and_the_bots_seed_replay_the_same_match(match: tuple[int, int, int]) -> None:
    a, b = random_match(*match), random_match(*match)
    assert GAME.describe(a[-1].after) == GAME.describe(b[-1].after)
    assert [p.events for p in a] == [p.events for p in b]
