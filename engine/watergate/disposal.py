"""Where used cards go: events out of the game, conspirators and journalists to the discard pile
(R15), Gambit's alternative (R20, R31), a replayed card back out of the game (R32), and the cards
still in play when the match ends (R34)."""

from __future__ import annotations

from typing import assert_never

from .actions import GAMBIT_REMOVE, GambitKeep, GambitRemove, offer
from .events import Event, GambitKept
from .state import Ann, DiscardPlayed, Dispose, GambitD, MatchState, discard


def _put_away(s: MatchState, ann: Ann) -> None:
    """R15, R32: a replayed card and an event leave the game, any other card is discarded."""
    s.in_play.remove(ann.card)
    if ann.mode == "replay" or s.rules.cards[ann.card].kind == "event":
        s.removed += (ann.card,)
    else:
        discard(s, ann.role, ann.card)


def run_dispose(s: MatchState, t: Dispose, ev: list[Event]) -> None:
    """Put away a card whose action was used; Gambit first asks Nixon (R20, R31)."""
    ann = s.chain[t.ann]
    card = s.rules.cards[ann.card]
    asks = s.rules.version.features.gambit_always_asks or bool(s.hands[ann.role])
    if card.disposal == "gambit" and ann.mode != "replay" and asks:
        # R31 (R20 with R18's care): the prompt never depends on whether Nixon holds a
        # conspirator; keeping Gambit is offered only for the conspirators he holds. Rules
        # versions 1 and 2 asked whenever he held any card, which told nothing either.
        s.decision = GambitD(ann.role, t.ann)
    else:
        _put_away(s, ann)


def run_discard_played(s: MatchState, t: DiscardPlayed, ev: list[Event]) -> None:
    s.in_play.remove(t.card)
    discard(s, t.role, t.card)


def put_away_at_end(s: MatchState) -> None:
    """R34: the match has just been won; every card still waiting to be put away goes where it
    would have gone, newest first, as the stack would have run. Gambit, whose choice can no
    longer be made, leaves the game."""
    for task in reversed(s.stack):
        if isinstance(task, Dispose):
            _put_away(s, s.chain[task.ann])
        elif isinstance(task, DiscardPlayed):
            run_discard_played(s, task, [])


def gambit_choices(s: MatchState, d: GambitD) -> list[GambitKeep | GambitRemove]:
    cards = s.rules.cards
    out: list[GambitKeep | GambitRemove] = [
        offer(GambitKeep, c) for c in s.hands[d.role] if cards[c].kind == "conspirator"
    ]
    out.append(GAMBIT_REMOVE)
    return out


def resolve_gambit(
    s: MatchState, d: GambitD, action: GambitKeep | GambitRemove, ev: list[Event]
) -> None:
    gambit = s.chain[d.ann].card
    s.in_play.remove(gambit)
    match action:
        case GambitKeep(conspirator):
            s.hands[d.role].remove(conspirator)
            s.removed += (conspirator,)
            discard(s, d.role, gambit)
            ev.append(GambitKept(d.role, gambit, conspirator))
        case GambitRemove():
            s.removed += (gambit,)
        case _:
            assert_never(action)
