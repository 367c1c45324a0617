"""A seat's information set as a state (NR1): the decks' order and content are hidden from
everyone, so `observation_for` puts every deck in sorted order and zeroes the generator; two
states that differ only in their decks give equal observations (the non-interference property).
`determinize` draws one full state consistent with an observation, for search."""

from __future__ import annotations

from ..core.rng import shuffle
from .state import MatchState


def observation_for(s: MatchState) -> MatchState:
    """The same for every seat: nothing else in Nations is hidden (NR1)."""
    o = s.clone()
    o.decks = tuple(tuple(sorted(d)) for d in s.decks)
    o.event_decks = tuple(tuple(sorted(d)) for d in s.event_decks)
    o.seed = 0
    o.rng = 0
    return o


def determinize(obs: MatchState, rng: int) -> tuple[MatchState, int]:
    """One full state consistent with `obs`, its decks shuffled with the bot's generator `rng`;
    returns it and the bot's next generator state."""
    s = obs.clone()
    decks, event_decks = [], []
    for d in obs.decks:
        cards = list(d)
        rng = shuffle(rng, cards)
        decks.append(tuple(cards))
    for d in obs.event_decks:
        cards = list(d)
        rng = shuffle(rng, cards)
        event_decks.append(tuple(cards))
    s.decks, s.event_decks = tuple(decks), tuple(event_decks)
    return s, rng
