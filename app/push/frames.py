"""A viewer's frame: the wire view (product.md, contract v1, with v1.1's players) as JSON text.
The game's view and legal actions come serialised from the cached entry, so a frame only splices
strings together and dumps a few small facts; the live facts (presence, clocks, rematch) are
computed once per render and shared by every viewer."""

from __future__ import annotations

from dataclasses import dataclass

from engine.core.fairness import seed_hex
from engine.core.game import Outcome, Viewer
from engine.registry import get_game

from ..clocks import clocks_view
from ..games import outcome_json, site
from ..jsontext import dumps
from ..lessons import tutorial_facts
from ..persistence.cache import Entry
from ..persistence.chat import ChatLine
from ..persistence.records import MatchInfo
from .hints import hints_json

JSONObj = dict[str, object]


@dataclass(frozen=True, slots=True)
class Live:
    """Facts about a match at one moment that are not part of its stored state."""

    online: frozenset[str]
    clocks: dict[str, object] | None
    chat: tuple[ChatLine, ...] = ()  # the last lines of the table chat (v1.1)
    now: float = 0.0  # the moment (epoch seconds): a table's rematch offer lapses


def other_seat(info: MatchInfo, seat: str) -> str:
    """The opponent of `seat` in a two-seat match (the first other seat otherwise)."""
    return next(s.name for s in info.seats if s.name != seat)


def status_of(info: MatchInfo, entry: Entry) -> str:
    """What the wire calls the status: finished once the rules or the row say it ended."""
    if get_game(entry.game).outcome(entry.state) is not None:
        return "finished"
    return "finished" if info.status == "abandoned" else info.status


def live_at(
    info: MatchInfo,
    entry: Entry,
    online: frozenset[str],
    now: float,
    chat: tuple[ChatLine, ...] = (),
) -> Live:
    return Live(online, clocks_view(info, entry, now), chat, now)


def _facts(
    info: MatchInfo, entry: Entry, outcome: Outcome | None, viewer: Viewer, live: Live
) -> JSONObj:
    """Everything after the legal actions and before the log, in the contract's order."""
    ended = info.ending(outcome) if outcome is not None else None
    winner = (ended.winner if ended else None) or info.winner
    win_reason = (outcome.reason if outcome else None) or info.win_reason
    facts: JSONObj = {
        "winner": winner,
        "win_reason": win_reason,
        "opponent": info.kind(other_seat(info, viewer)) if viewer else None,
        "ended_by": info.ended_by,
        "clock": info.options.get("clock"),
        "rated": info.rated,  # contract v1.1: a rated match offers no hints
        "presence": {
            s.name: {
                "online": s.name in live.online,
                # "last seen" matters only while a seat is away
                "last_seen": None if s.name in live.online else s.last_seen,
            }
            for s in info.seats
        },
        "clocks": live.clocks,
        # names come with the cached facts (read with the seats), never from the database per push
        "players": info.players(),
        "chat": [line.wire() for line in live.chat],  # text: the browser never renders it as HTML
    }
    if outcome is not None and ended is not None:  # v1.1 Games: scores, or the reason; v1.2 places
        facts["outcome"] = outcome_json(entry.game, entry.state, outcome, ended)
    elif info.ended_by:  # resigned, out of time, aborted: no score was reached
        off_board: JSONObj = {"winner": winner, "reason": win_reason or info.ended_by}
        if winner is not None:  # a duel decided off the board: the winner, then the other
            off_board["ranking"] = [[winner], list(info.others(winner))]
        facts["outcome"] = off_board
    tutorial = tutorial_facts(entry.game, info.options, entry.state, viewer)
    if tutorial is not None:  # contract v1.1 Tutorials: the learner's coach follows the path
        facts["tutorial"] = tutorial
    if viewer is not None:
        facts["rematch"] = info.rematch.wire(live.now) if info.rematch else None
        if info.spectator_key:
            prefix = site(info.game).prefix  # the game's own address (a Nations table's)
            facts["spectate_path"] = f"{prefix}/watch/{info.match_id}?key={info.spectator_key}"
    return facts


def fairness(game_id: str, rules_version: str, commitment: str, seed: int, ended: bool) -> JSONObj:
    """The deal's commitment and generator, public from the first view; the seed only once the
    match has ended: before, it would tell every shuffle and draw still to come."""
    shown: JSONObj = {
        "commitment": commitment,
        "algorithm": get_game(game_id).deal_algorithm(rules_version),
    }
    if ended:
        shown["seed"] = seed_hex(seed)
    return shown


def _log(info: MatchInfo, entry: Entry, outcome: Outcome | None, viewer: Viewer) -> tuple[str, ...]:
    """The viewer's log entries as JSON texts, with how the match ended outside the rules."""
    log = entry.log_json[viewer]
    for seat in sorted((s for s in info.seats if s.left), key=lambda s: -s.left_log):
        # where the log stood when the computer took the seat over: entries already sent stay
        at = min(seat.left_log, len(log))
        log = (*log[:at], dumps(replaced_entry(seat.name, seat.left or "")), *log[at:])
    if info.ended_by and outcome is None:  # resigned, out of time, aborted, abandoned
        log = (*log, dumps(ending_entry(info.ended_by, info.win_reason, info.winner)))
    return log


def replaced_entry(seat: str, reason: str) -> JSONObj:
    """The log's entry for a person who left a table of three or more (contract v1.2)."""
    return {"type": "seat_replaced", "role": seat, "reason": reason, "by": "bot"}


def ending_entry(ended_by: str, win_reason: str | None, winner: str | None) -> JSONObj:
    """The log's last entry for a match that ended outside the rules."""
    return {
        "type": "match_ended",
        "reason": win_reason or ended_by,
        "role": ended_by,
        "winner": winner,
    }


@dataclass(frozen=True, slots=True)
class Frame:
    """A viewer's view in two pieces: everything but the log, and the log's entries. A socket
    that asked for log tails (contract v1.1) is sent only the entries it has not had yet; the
    log only ever grows, so entries already sent never change."""

    head: str  # the view's JSON object up to its log, without the closing brace
    log: tuple[str, ...]

    def text(self, sent: int | None = None) -> str:
        """The whole view; with `sent`, `"log_from": sent` and the entries from there on."""
        if sent is None or sent > len(self.log):
            return f'{self.head},"log":[{",".join(self.log)}]}}'
        return f'{self.head},"log_from":{sent},"log":[{",".join(self.log[sent:])}]}}'


def frame(
    info: MatchInfo, entry: Entry, viewer: Viewer, live: Live, message_type: str | None = None
) -> Frame:
    """The view for `viewer` (None: a spectator); `message_type` adds {"type": …} first, as
    websocket messages carry it."""
    outcome = get_game(entry.game).outcome(entry.state)
    status = status_of(info, entry)
    view_json, legal_json = entry.part(viewer)
    head: JSONObj = {} if message_type is None else {"type": message_type}
    head |= {"match_id": info.match_id, "role": viewer, "status": status, "version": entry.version}
    head["rules_version"] = info.rules_version  # the browser words cards as this version does
    legal = legal_json if status == "active" and viewer else "[]"
    hints = hints_json(info, entry, viewer, status)  # a seat of an unrated match only
    if hints is not None:
        legal = f'{legal},"hints":{hints}'
    ended = status == "finished"
    fair = fairness(entry.game, info.rules_version, info.commitment, info.seed, ended)
    text = (
        f"{dumps(head)[:-1]},"
        f'"state":{view_json},"legal_actions":{legal},'
        f"{dumps(_facts(info, entry, outcome, viewer, live))[1:-1]},"
        f'"fairness":{dumps(fair)}'
    )
    return Frame(text, _log(info, entry, outcome, viewer))
