"""`describe(state)`: a compact, stable text rendering of the whole state for goldens and asserts.

>>> from engine.watergate.standard import new_match
>>> print(describe(new_match(1)).splitlines()[0])
v0 round 1 turn editor initiative editor | decide play(editor)
"""

from __future__ import annotations

from .ruleset import Ruleset
from .state import BoardToken, MatchState, Token


def _colors(rules: Ruleset, token_id: str) -> str:
    data = rules.tokens[token_id]
    return "".join(c[0].upper() for c in data.colors) + ("^" if data.momentum_symbol else "")


def _track(rules: Ruleset, t: Token) -> str:
    face = "up" if t.up else ("peeked" if t.peeked else "down")
    return f"#{t.handle}:{_colors(rules, t.id)}@{t.pos:+d}:{face}"


def _board(rules: Ruleset, b: BoardToken | None) -> str:
    return "." if b is None else _colors(rules, b.id) + ("+" if b.up else "-")


def _pos(p: int | None) -> str:
    return "gained" if p is None else f"{p:+d}"


def describe(s: MatchState) -> str:
    """Every part of the state, hidden ones included, one topic a line."""
    d, rules = s.decision, s.rules
    deciding = f"{type(d).__name__.removesuffix('D').lower()}({d.role})" if d else "none"
    lines = [
        f"v{s.version} round {s.round} turn {s.turn} initiative {s.initiative} | decide {deciding}",
        f"track initiative {_pos(s.track_initiative)} momentum {_pos(s.track_momentum)} | "
        + " ".join(_track(rules, t) for t in s.track),
        "holding editor "
        + " ".join(_track(rules, t) for t in s.holding["editor"])
        + " | nixon "
        + " ".join(_track(rules, t) for t in s.holding["nixon"]),
        "board "
        + " ".join(f"{sp.id}:{_board(rules, s.board[i])}" for i, sp in enumerate(rules.spaces)),
        "pictures " + " ".join(f"{p}:{s.pictures[k] or '.'}" for k, p in enumerate(rules.people)),
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
