"""The once-only operations of the effect vocabulary (NR19), each implemented here once: gain,
lose, pay and a battle's gain by attack; `choose` becomes the owner's decision (NR33)."""

from __future__ import annotations

from typing import assert_never

from .catalog import Choose, Gain, GainByAttack, Lose, Once, Pay, Resource
from .economy import best_attack
from .events import BattleFought, Event, Gained
from .state import MatchState, Nation, seat_of


def set_nation(s: MatchState, player: int, n: Nation) -> None:
    nations = s.nations
    s.nations = (*nations[:player], n, *nations[player + 1 :])


def can_pay(n: Nation, option: tuple[Gain | Lose | Pay, ...]) -> bool:
    """Whether the nation holds everything an option pays (the same resource summed)."""
    need: dict[Resource, int] = {}
    for op in option:
        if isinstance(op, Pay):
            need[op.resource] = need.get(op.resource, 0) + op.amount
    return all(n.amount(r) >= amount for r, amount in need.items())


def run_once(s: MatchState, player: int, op: Once, source: str, ev: list[Event]) -> None:
    """Carry out one once-only operation for `player` (its legality was checked before)."""
    n, seat = s.nations[player], seat_of(player)
    match op:
        case Gain(resource, amount):
            n = n.plus(resource, amount)
            ev.append(Gained(seat, resource, amount, source))
        case Lose(resource, amount):
            # NR30: VP may go below 0; a resource loses only what is there
            lost = amount if resource == "vp" else min(amount, n.amount(resource))
            n = n.plus(resource, -lost)
            ev.append(Gained(seat, resource, -lost, source))
        case Pay(resource, amount):
            n = n.plus(resource, -amount)
            ev.append(Gained(seat, resource, -amount, source))
        case GainByAttack(resource, per):
            attack = best_attack(s.rules, n)
            ev.append(BattleFought(seat, source, attack))
            n = n.plus(resource, per * attack)
            ev.append(Gained(seat, resource, per * attack, source))
        case Choose():
            raise ValueError("a choice is the owner's decision, not run on its own (NR33)")
        case _:
            assert_never(op)
    set_nation(s, player, n)
