"""Views: `view_for` builds what a viewer reads field by field (a whitelist); under NR1 every
seat and a spectator read the same table — every nation, the progress board, the event, the war —
and of the decks only how many cards each holds. `open_view` adds the decks (admin, finished
replays); `admin_view` is the whole state."""

from __future__ import annotations

from typing import assert_never

from ..core.game import JSON, JSONObject, Viewer
from .economy import best_attack, production, score_sheet, stability, strength
from .events import events_for as events_for  # the log's projection, declared on the records
from .ruleset import Ruleset
from .serialize import state_to_json
from .state import ActD, Decision, GoldenD, GrowthD, MatchState, Nation, seat_of


def _decision(d: Decision | None) -> JSONObject | None:
    match d:
        case None:
            return None
        case GrowthD(p):
            return {"seat": seat_of(p), "kind": "growth"}
        case ActD(p):
            return {"seat": seat_of(p), "kind": "turn"}
        case GoldenD(p, card):
            return {"seat": seat_of(p), "kind": "golden_age", "card": card}
        case _:
            assert_never(d)


def _phase(s: MatchState) -> str:
    if s.winner >= 0:
        return "over"
    return "maintenance" if isinstance(s.decision, GrowthD) else "actions"


def _next_growth(rules: Ruleset, n: Nation) -> JSONObject | None:
    """The space the next growth would empty: its lasting cost (None once the track is empty)."""
    if n.grown >= len(rules.population_track):
        return None
    cost, amount = rules.population_track[n.grown]
    return {"cost": cost, "amount": amount}


def _nation(s: MatchState, p: int, n: Nation) -> JSONObject:
    rules = s.rules
    gains, costs = production(rules, n)
    sheet = score_sheet(rules, n)
    wonder: JSON = None
    if n.wonder:
        sections: list[JSON] = list(rules.cards[n.wonder].sections)
        wonder = {"card": n.wonder, "built": n.built, "sections": sections}
    return {
        "level": n.level,
        "gold": n.gold,
        "stone": n.stone,
        "food": n.food,
        "books": n.books,
        # NR29: books past 50 show as 50-book tokens and the heritage disc's place
        "book_tokens": n.books // rules.book_token,
        "heritage": n.books % rules.book_token,
        "vp": n.vp,
        "strength": strength(rules, n),
        "stability": stability(rules, n),
        "attack": best_attack(rules, n),
        "idle_workers": n.idle,
        "population": len(rules.population_track) - n.grown,
        "grown": n.grown,
        # what the next growth costs, as this match's rules version orders the spaces
        "next_growth": _next_growth(rules, n),
        "slots": [{"card": sl.card, "workers": sl.workers} for sl in n.slots],
        "colonies": list(n.colonies),
        "advisor": n.advisor or None,
        "wonder": wonder,
        "wonders": list(n.wonders),
        "passed": s.passed[p],
        "production": {"gains": list(gains), "costs": list(costs)},
        "score": {
            "tokens": sheet.tokens,
            "colonies": sheet.colonies,
            "wonders": sheet.wonders,
            "cards": sheet.cards,
            "resources": sheet.resources,
            "total": sheet.total,
        },
    }


def view_for(s: MatchState, viewer: Viewer) -> JSONObject:
    """Everything `viewer` may read (the same for all under NR1, bar the `viewer` field);
    legal actions are separate."""
    rules, cols = s.rules, s.columns
    rows: list[JSON] = [
        [c or None for c in s.board[r * cols : (r + 1) * cols]] for r in range(rules.rows)
    ]
    war: JSON = None
    if s.war is not None:
        war = {"card": s.war.card, "seat": seat_of(s.war.buyer), "strength": s.war.strength}
    return {
        "game": "nations",
        "viewer": viewer,
        "version": s.version,
        "players": s.players,
        "round": s.round,
        "rounds": rules.rounds,
        "age": s.age,
        "phase": _phase(s),
        "decision": None if s.winner >= 0 else _decision(s.decision),
        "order": [seat_of(p) for p in s.order],
        "progress": {"rows": rows, "costs": list(rules.row_costs)},
        # NR1: the decks' order and content are hidden from everyone; their sizes are not
        "decks": {
            "progress": [len(d) for d in s.decks],
            "events": [len(d) for d in s.event_decks],
        },
        "event": s.event or None,
        "architects": s.architects,
        "war": war,
        "wars_bought": s.wars_bought,
        "nations": {seat_of(p): _nation(s, p, n) for p, n in enumerate(s.nations)},
        "scores": {seat_of(p): v for p, v in enumerate(s.scores)} if s.scores else None,
        "winner": seat_of(s.winner) if s.winner >= 0 else None,
    }


def open_view(s: MatchState) -> JSONObject:
    """The view with nothing hidden: every deck's cards, top last."""
    view = view_for(s, None)
    view["deck_cards"] = {
        "progress": [list(d) for d in s.decks],
        "events": [list(d) for d in s.event_decks],
    }
    return view


def admin_view(s: MatchState) -> JSONObject:
    """The whole state, the decks' order included."""
    return state_to_json(s)
