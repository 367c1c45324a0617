"""A seat's information set as a state: `observation_for(state, role)` keeps everything the seat may
know and replaces every hidden part by one canonical arrangement of what it could be.

Two states that differ only in what `role` cannot see give equal observations (the non-interference
property), so a computer opponent that is handed only the observation — never the true state —
cannot play on hidden information. `determinize` then samples one full state consistent with the
observation, for search.
"""

from __future__ import annotations

from ..core.rng import bot_state, shuffle
from .catalog import Role, other
from .state import MatchState, Token


def _unseen_track(s: MatchState, role: Role) -> list[int]:
    """Indices of face-down track tokens whose identity `role` does not know."""
    if role == "nixon":
        return []
    return [i for i, t in enumerate(s.track) if not t.up and not t.peeked]


def observation_for(s: MatchState, role: Role) -> MatchState:
    """The canonical information set of `role` (hidden parts sorted, generator state zeroed)."""
    o = s.clone()
    opp = other(role)
    # The opponent's hand and deck together: which cards are where is unknown, only counts are.
    pool = sorted([*o.hands[opp], *o.decks[opp]])
    held = len(o.hands[opp])
    o.hands[opp] = pool[:held]
    # own deck: the set is known, the order is not
    o.decks = {opp: tuple(pool[held:]), role: tuple(sorted(o.decks[role]))}
    # The bag and the face-down track tokens this seat has not seen share one unknown pool.
    unseen = _unseen_track(o, role)
    tokens = sorted([*(o.track[i].id for i in unseen), *o.bag])
    for k, i in enumerate(unseen):
        o.track[i] = o.track[i]._replace(id=tokens[k])
    o.bag = tuple(tokens[len(unseen) :])
    o.seed = 0
    o.rng = 0
    return o


def determinize(obs: MatchState, role: Role, rng: int) -> tuple[MatchState, int]:
    """One full state consistent with the observation, drawn with the bot's generator `rng` (a
    `bot_state`).

    Returns the state (whose own generator continues from the bot's) and the new bot generator.
    """
    s = obs.clone()
    opp = other(role)
    pool = [*s.hands[opp], *s.decks[opp]]
    rng = shuffle(rng, pool)
    held = len(s.hands[opp])
    s.hands[opp] = pool[:held]
    own = list(s.decks[role])
    rng = shuffle(rng, own)
    s.decks = {opp: tuple(pool[held:]), role: tuple(own)}
    unseen = _unseen_track(s, role)
    tokens = [*(s.track[i].id for i in unseen), *s.bag]
    rng = shuffle(rng, tokens)
    for k, i in enumerate(unseen):
        t: Token = s.track[i]
        s.track[i] = Token(t.handle, tokens[k], t.pos, t.up, t.peeked)
    s.bag = tuple(tokens[len(unseen) :])
    # future shuffles of this sample: unknown, so drawn too, from a stream seeded by the bot's
    # generator (by its magnitude: the streams stay those the search was measured with)
    s.rng = bot_state(-rng)
    return s, rng
