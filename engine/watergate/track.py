"""The research track and the supplies: moving and gaining tokens (R9, R13, space 5), drawing cards
(R7) and evidence tokens, momentum cards, and ending the match (R27)."""

from __future__ import annotations

from typing import cast

from ..core.rng import below, shuffle
from .actions import TrackTarget
from .catalog import Role
from .disposal import put_away_at_end
from .events import (
    DeckReshuffled,
    Event,
    EvidenceGained,
    InitiativeGained,
    MatchWon,
    MomentumGained,
    MomentumPlaced,
    MomentumRemoved,
    TokenPayload,
    TokenRevealed,
    WinReason,
)
from .events.interned import shared, token_moved
from .state import (
    MOMENTUM_GAIN,
    PIN_HOLDING,
    BoardToken,
    MatchState,
    MomentumGain,
    Move,
    OpTask,
    Token,
    replaced,
)

_END = 5  # the last space on each side of the track


def token_payload(s: MatchState, t: Token | BoardToken) -> TokenPayload:
    """Everything about a token, for events; each event's record says what a seat may see."""
    data = s.rules.tokens[t.id]
    face = "up" if t.up else "down"
    return shared(TokenPayload, t.handle, t.id, data.colors, data.momentum_symbol, face)


def win(s: MatchState, role: Role, reason: WinReason, ev: list[Event]) -> None:
    """End the match at once: nothing queued after a win runs (R27, R26) but putting away the
    cards still in play (R34; rules versions 1 and 2 left them there)."""
    s.winner = role
    s.win_reason = reason
    if s.rules.version.features.winning_card_put_away:
        put_away_at_end(s)
    s.stack.clear()
    s.decision = None
    ev.append(MatchWon(role, reason))


def draw_cards(s: MatchState, role: Role, n: int, ev: list[Event]) -> list[str]:
    """Draw n cards from the top of role's deck, reshuffling the discard pile when empty (R7)."""
    deck, drawn = list(s.decks[role]), []
    for _ in range(n):
        if not deck:
            pile = s.discards[role]
            if not pile:
                break  # R7: deck and discard both empty, the player draws fewer
            deck.extend(pile)
            s.discards = replaced(s.discards, role, ())
            s.rng = shuffle(s.rng, deck)
            ev.append(DeckReshuffled(role, len(deck), tuple(deck)))
        drawn.append(deck.pop())
    s.decks = replaced(s.decks, role, tuple(deck))
    return drawn


def new_handle(s: MatchState) -> int:
    s.next_handle += 1
    return s.next_handle


def draw_from_bag(s: MatchState) -> str:
    """Take one token from the bag at random (the bag's order carries no meaning)."""
    bag = s.bag
    s.rng, i = below(s.rng, len(bag))
    s.bag = bag[:i] + bag[i + 1 :]
    return bag[i]


def run_move(s: MatchState, t: Move, ev: list[Event]) -> None:
    """Move a token towards a side; reaching space 5 gains it at once, extra steps are lost (R9).

    Run about twice a decision: tokens are rebuilt directly rather than by `_replace`, and the
    token is found and the end clamped without generator or builtin calls."""
    what, handle, steps, toward, by = t
    if what == "initiative":
        start = s.track_initiative
    elif what == "momentum":
        start = s.track_momentum
    else:
        track = s.track
        for idx in range(len(track)):
            token = track[idx]
            if token.handle == handle:
                break
        else:
            return  # R14: the token left the track; the instruction is skipped
        start = token.pos
        if not token.up:  # R13: a face-down token is turned face up when moved
            token = Token(handle, token.id, start, True, False)
            ev.append(shared(TokenRevealed, token_payload(s, token), start))
    if start is None:
        return  # R14: initiative or momentum already gained this round
    end = start + steps if toward == "editor" else start - steps  # R9: Editor positive
    end = _END if end > _END else -_END if end < -_END else end
    ev.append(
        token_moved(
            cast(TrackTarget, what),
            by,
            toward,
            abs(end - start),
            start,
            end,
            handle if what == "evidence" else None,
        )
    )
    # R9 extended (our ruling): a token that reaches space 5 on a side is gained by that side's
    # player, also when the opponent's card pushed it there (Saturday Night Massacre).
    gainer: Role | None = "editor" if end == _END else "nixon" if end == -_END else None
    if what == "initiative":
        s.track_initiative = end
        if gainer:
            gain_initiative(s, gainer, ev)
    elif what == "momentum":
        s.track_momentum = end
        if gainer:
            s.track_momentum = None
            ev.append(shared(MomentumGained, gainer))
            s.stack.append(MOMENTUM_GAIN[gainer])
    elif gainer:
        del track[idx]
        held = (*s.holding[gainer], Token(handle, token.id, 0, token.up, token.peeked))
        s.holding = replaced(s.holding, gainer, held)
        ev.append(EvidenceGained(gainer, (token_payload(s, token),)))
        s.stack.append(PIN_HOLDING[gainer])
    else:
        track[idx] = Token(handle, token.id, end, token.up, token.peeked)


def gain_initiative(s: MatchState, role: Role, ev: list[Event]) -> None:
    """The initiative card turns to the gainer; they start the next round (evaluation step 2)."""
    s.track_initiative = None
    s.initiative = role
    ev.append(shared(InitiativeGained, role))


def run_momentum_gain(s: MatchState, t: MomentumGain, ev: list[Event]) -> None:
    """Place a gained momentum token on the lowest free space of the gainer's own momentum card
    (each side's size and instructions come from its own card's data). A full card's token leaves
    the game; Nixon's last space wins (R27); otherwise the space's instructions run at once."""
    role = t.role
    placed = s.momentum[role]
    size = s.rules.momentum_sizes[role]
    if placed >= size:
        s.momentum_removed += 1  # the card is full: the token leaves the game
        ev.append(MomentumRemoved(role))
        return
    s.momentum = replaced(s.momentum, role, placed + 1)
    ev.append(shared(MomentumPlaced, role, placed + 1))
    if role == "nixon" and placed + 1 >= size:
        win(s, "nixon", "fifth_momentum", ev)
        return
    source = f"M{placed + 1}" if role == "editor" else f"NM{placed + 1}"
    for i in range(len(s.rules.effect_sources[source]) - 1, -1, -1):
        s.stack.append(OpTask(role, source, i, -1, ()))
