"""The evidence board: open spaces for pinning (R23), pinning itself (R24) and the connection
search that decides the Editor's win (R26)."""

from __future__ import annotations

from .catalog import Role
from .events import Event, EvidencePinned
from .events.interned import shared
from .state import BoardToken, MatchState, Move, Token, set_at
from .track import token_payload, win


def open_spaces(s: MatchState, token_id: str) -> list[int]:
    """Empty evidence spaces whose colour slip matches the token (either colour of a pair: R23)."""
    board = s.board
    return [i for i in s.rules.token_spaces[token_id] if board[i] is None]


def connected_spaces(s: MatchState) -> list[bool]:
    """Which evidence spaces are joined to Nixon's picture through face-up tokens only (R26)."""
    board, rules = s.board, s.rules
    neighbours = rules.space_neighbours
    seen = [False] * len(rules.spaces)
    todo = [i for i in rules.center_neighbours if (b := board[i]) is not None and b.up]
    for i in todo:
        seen[i] = True
    while todo:
        i = todo.pop()
        for j in neighbours[i]:
            if not seen[j] and (b := board[j]) is not None and b.up:
                seen[j] = True
                todo.append(j)
    return seen


def connected_people(s: MatchState) -> list[str]:
    """Informants whose face-up picture has a thread of face-up evidence to Nixon (R26)."""
    seen = connected_spaces(s)
    around = s.rules.informant_neighbours
    return [
        person
        for k, person in enumerate(s.rules.people)
        if s.pictures[k] == "up" and any(seen[i] for i in around[k])
    ]


def check_editor_win(s: MatchState, ev: list[Event]) -> None:
    """R26: the Editor wins the moment two informants are connected."""
    if s.winner is None and len(connected_people(s)) >= 2:
        win(s, "editor", "connection", ev)


def pin_token(s: MatchState, role: Role, token: Token, space: int, ev: list[Event]) -> None:
    """Pin a gained token: Editor face up, Nixon face down; the momentum symbol pulls (R23, R24)."""
    placed = BoardToken(token.handle, token.id, role == "editor")
    s.board = set_at(s.board, space, placed)
    ev.append(shared(EvidencePinned, role, s.rules.spaces[space].id, token_payload(s, placed)))
    if s.rules.tokens[token.id].momentum_symbol:
        s.stack.append(Move("momentum", -1, 1, role, role))
    if role == "editor":
        check_editor_win(s, ev)
