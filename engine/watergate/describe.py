"""`describe(state)`: a compact, stable text rendering of the whole state for goldens and asserts.

>>> from engine.watergate.flow import new_match
>>> print(describe(new_match(1)).splitlines()[0])
v0 round 1 turn editor initiative editor | decide play(editor)
"""

from __future__ import annotations

from .catalog import PEOPLE, SPACES, TOKENS
from .state import BoardToken, MatchState, Token


def _colors(token_id: str) -> str:
    data = TOKENS[token_id]
    return "".join(c[0].upper() for c in data.colors) + ("^" if data.momentum_symbol else "")


def _track(t: Token) -> str:
    face = "up" if t.up else ("peeked" if t.peeked else "down")
    return f"#{t.handle}:{_colors(t.id)}@{t.pos:+d}:{face}"


def _board(b: BoardToken | None) -> str:
    return "." if b is None else _colors(b.id) + ("+" if b.up else "-")


def _pos(p: int | None) -> str:
    return "gained" if p is None else f"{p:+d}"


def describe(s: MatchState) -> str:
    """Every part of the state, hidden ones included, one topic a line."""
    d = s.decision
    deciding = f"{type(d).__name__.removesuffix('D').lower()}({d.role})" if d else "none"
    lines = [
        f"v{s.version} round {s.round} turn {s.turn} initiative {s.initiative} | decide {deciding}",
        f"track initiative {_pos(s.track_initiative)} momentum {_pos(s.track_momentum)} | "
        + " ".join(_track(t) for t in s.track),
        "holding editor "
        + " ".join(_track(t) for t in s.holding["editor"])
        + " | nixon "
        + " ".join(_track(t) for t in s.holding["nixon"]),
        "board " + " ".join(f"{sp.id}:{_board(s.board[i])}" for i, sp in enumerate(SPACES)),
        "pictures " + " ".join(f"{p}:{s.pictures[k] or '.'}" for k, p in enumerate(PEOPLE)),
    ]
    for role in ("editor", "nixon"):
        lines.append(
            f"{role} hand {' '.join(s.hands[role]) or '-'} | deck(top last) "
            f"{' '.join(s.decks[role]) or '-'} | discard {' '.join(s.discards[role]) or '-'}"
        )
    lines.append(f"removed {' '.join(s.removed) or '-'} | in play {' '.join(s.in_play) or '-'}")
    lines.append(
        f"bag {len(s.bag)} | momentum editor {s.momentum['editor']} nixon {s.momentum['nixon']} "
        f"supply {s.momentum_supply} removed {s.momentum_removed} | restrictions "
        f"{' '.join(s.restrictions) or '-'} | winner {s.winner or '-'} {s.win_reason or '-'}"
    )
    return "\n".join(lines)
