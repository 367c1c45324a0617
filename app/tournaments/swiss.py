"""Swiss pairing by the FIDE Dutch system (FIDE Handbook C.04.3), pure: one round's pairs and bye
from the players' scores and the rounds already paired.

Units: points as chess counts them (a win 1, a draw 0.5, a loss 0, a bye 1), as floats; every
value is a multiple of 1/2, exact in binary floating point, so equal scores compare equal.
Roles: "first" is the first seat (White-like: Watergate's Editor, Nations' p1).

Implemented from C.04.3:
- A.2 "Order": players ranked by score, then rating, then id (our stand-in for the pairing
  numbers, so ties are broken deterministically); A.3 "Scoregroups and pairing brackets":
  brackets paired from the top score down, unpaired players moving down to the next bracket as
  downfloaters (the MDPs of the next, heterogeneous, bracket).
- A.5 "Byes" with C.2: an odd field gives one pairing-allocated bye, worth a win, to the
  lowest-ranked player without a bye whose absence leaves the rest pairable; never a second.
- A.6 "Colour differences and colour preferences": absolute (difference beyond +-1, or the same
  role in the last two games played), strong (difference +-1), mild (difference 0: alternate).
- Absolute criteria C.1 (no two players meet twice), C.2 (at most one bye), C.3 (two players
  with the same absolute colour preference do not meet): with C.3 every absolute preference is
  granted, so nobody plays a role three times running and the colour difference stays in +-2.
- Completion criterion C.4: a bracket's pairing is kept only if the players below (its
  downfloaters included) can still all be paired, checked exactly with Edmonds' matching.
- Quality criteria C.5 (maximise the pairs in a bracket) then C.10 (minimise the players who do
  not get their colour preference), in that order, bracket by bracket from the top.
- D "sequential generation": candidates tried S1 against S2 with S2's transpositions in
  lexicographic order (the first legal one wins); MDPs are paired first, with the highest
  residents; an S1 player who cannot meet anyone of S2 meets S1's lowest (a simplified exchange).
- E "Colour allocation rules" E.1-E.5, the initial colour (E.5) being the first seat.

Simplified: A.7 topscorers are not told apart (the caller does not say which round is the last),
so C.3 holds for all; if no pairing exists with C.3 at all, C.3 is dropped for that round
(`Round.relaxed`) rather than leaving it unpaired, as C.04.1 allows for topscorers. C.6-C.9
(score differences of floaters) follow only from the order candidates are tried in; C.11 and the
float-history criteria C.12-C.21 are not applied. The search of a bracket is bounded
(`_NODE_BUDGET`): past it, the rest of the round is paired by a maximum matching preferring rank
neighbours, which keeps C.1-C.4 but not the Dutch order. 500 players are paired in 0.01-0.06 s a
round, 0.15 s at worst (measured, not committed: 9-12 rounds of random, all-draw and one-sided
results, on the shared 2-core development machine)."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Final

from app.tournaments.matching import perfect_matching

_NODE_BUDGET: Final = 4000  # search steps per bracket before the matching fallback takes over
FIRST: Final = 1  # the first seat's colour, as a colour difference counts it
SECOND: Final = -1
_MILD, _STRONG, _ABSOLUTE = 1, 2, 3


@dataclass(frozen=True, slots=True)
class Entrant:
    """A player still in the tournament (the caller leaves withdrawn players out)."""

    id: str
    rating: float
    points: float


@dataclass(frozen=True, slots=True)
class Pair:
    first: str  # the first seat: White-like
    second: str


@dataclass(frozen=True, slots=True)
class Round:
    """A paired round. `relaxed`: C.3 had to be dropped for it to be paired at all."""

    pairs: tuple[Pair, ...]
    bye: str | None = None
    relaxed: bool = False


class NoPairing(Exception):
    """No pairing meets the absolute criteria (e.g. everyone has met everyone they may meet);
    the service ends the tournament or refuses the round with this stable code."""

    code: Final = "swiss_unpairable"


def max_rounds(n: int) -> int:
    """The most rounds a field of n allows: everyone meets everyone at most once, so n-1 (a
    round robin; an odd field's byes fill the gaps). The Dutch order can still get stuck
    earlier in a small field, which `pair_round` reports as NoPairing."""
    return max(n - 1, 0)


class _Field:
    """The players in pairing order with what the rules need of their past."""

    def __init__(
        self, players: Sequence[Entrant], history: Sequence[Round], strict: bool,
        apart: Collection[frozenset[str]] = (),
    ):  # fmt: skip
        ranked = sorted(players, key=lambda p: (-p.points, -p.rating, p.id))
        self.players = ranked
        index = {p.id: i for i, p in enumerate(ranked)}
        if len(index) != len(ranked):
            raise ValueError("duplicate player ids")
        n = len(ranked)
        self.strict = strict
        self.met: list[set[int]] = [set() for _ in range(n)]
        self.had_bye = [False] * n
        # per round: +1 first seat, -1 second, 0 did not play (absent or bye)
        self.colours: list[list[int]] = [[] for _ in range(n)]
        for past in history:
            row = [0] * n
            for pair in past.pairs:
                a, b = index.get(pair.first), index.get(pair.second)
                if a is not None:
                    row[a] = FIRST
                if b is not None:
                    row[b] = SECOND
                if a is not None and b is not None:
                    self.met[a].add(b)
                    self.met[b].add(a)
            if past.bye is not None and past.bye in index:
                self.had_bye[index[past.bye]] = True
            for i in range(n):
                self.colours[i].append(row[i])
        for kept in apart:  # players kept apart by a block: as if they had met (C.1)
            ids = [index[x] for x in kept if x in index]
            if len(ids) == 2:
                self.met[ids[0]].add(ids[1])
                self.met[ids[1]].add(ids[0])
        self.pref = [0] * n
        self.strength = [0] * n
        self.difference = [0] * n
        for i in range(n):
            self.pref[i], self.strength[i], self.difference[i] = _preference(self.colours[i])
        # C.3's groups: the colour everyone in it must get (0: none, or C.3 relaxed)
        self.barred = [
            self.pref[i] if strict and self.strength[i] == _ABSOLUTE else 0 for i in range(n)
        ]

    def compatible(self, a: int, b: int) -> bool:
        """C.1 and, when strict, C.3."""
        barred = self.barred[a]
        return b not in self.met[a] and (barred == 0 or barred != self.barred[b])

    def completable(self, members: Sequence[int]) -> bool:
        """C.4: can these players all be paired among themselves?"""
        n = len(members)
        if n % 2:
            return False
        if n <= 2:
            return n == 0 or self.compatible(members[0], members[1])
        # Dirac: if everyone may meet at least half the others there is a Hamiltonian cycle,
        # hence a perfect matching. Cheap, and true of almost every large remainder.
        inside = set(members)
        groups = self.groups(members)
        if 2 * max(groups[FIRST], groups[SECOND]) > n:  # a C.3 group needs partners outside it
            return False
        for v in members:
            group = self.barred[v]
            shut = groups[group] - 1 if group else 0
            shut += sum(
                1 for u in self.met[v] if u in inside and (not group or self.barred[u] != group)
            )
            if 2 * (n - 1 - shut) < n:
                return self.matching(members) is not None
        return True

    def groups(self, members: Sequence[int]) -> dict[int, int]:
        """How many of these players are in each C.3 group (keys FIRST and SECOND)."""
        counts = {0: 0, FIRST: 0, SECOND: 0}
        for v in members:
            counts[self.barred[v]] += 1
        return counts

    def matching(self, members: Sequence[int]) -> list[tuple[int, int]] | None:
        """A perfect matching of these players, or None. Those with an absolute preference
        are placed first (the larger such group first: C.3 lets them meet only the others),
        then everyone in rank order, each with the first free rank neighbour allowed."""
        groups = self.groups(members)
        order = sorted(members, key=lambda v: (-groups[self.barred[v]] if self.barred[v] else 0, v))
        return perfect_matching(order, self.compatible)


def _preference(colours: Sequence[int]) -> tuple[int, int, int]:
    """A.6: (preferred colour or 0, strength, colour difference) from a role history."""
    played = [c for c in colours if c]
    if not played:
        return 0, 0, 0
    difference = sum(played)
    if difference > 1 or difference < -1:
        return (SECOND if difference > 0 else FIRST), _ABSOLUTE, difference
    if len(played) >= 2 and played[-1] == played[-2]:
        return -played[-1], _ABSOLUTE, difference
    if difference:
        return -difference, _STRONG, difference
    return -played[-1], _MILD, difference


class _Exhausted(Exception):
    """The bracket search went past its budget."""


class _Bracket:
    """The search for one bracket's pairing (D: candidates in the Dutch order)."""

    def __init__(self, field: _Field, members: list[int], lower: list[int], score: float):
        self.field = field
        self.members = members
        self.lower = lower
        self.mdp = [field.players[v].points > score for v in members]
        self.nodes = 0

    def solve(self) -> tuple[list[tuple[int, int]], list[int]]:
        m = len(self.members)
        counts = self._counts(list(range(m)))
        # C.3: of two players in one group only one can be paired here; and each group below
        # needs as many partners outside it as it has players, so some of ours must go down.
        inside, below = self.field.groups(self.members), self.field.groups(self.lower)
        need = max(0, 2 * below[FIRST] - len(self.lower), 2 * below[SECOND] - len(self.lower))
        most = min(m // 2, m - inside[FIRST], m - inside[SECOND], (m - need) // 2)
        for pairs in range(most, -1 if self.lower else m // 2 - 1, -1):
            floats = m - 2 * pairs
            for allowed in range(_colour_floor(counts, floats), pairs + 1):
                self.assigned = [False] * m
                found = self._search(pairs, floats, allowed, 0, counts, None, [], [])
                if found is not None:
                    return found
        raise _Exhausted  # unreachable while C.4 held above; the fallback copes anyway

    def _counts(self, locals_: list[int]) -> list[int]:
        counts = [0, 0, 0]  # no preference, first, second
        for i in locals_:
            counts[self.field.pref[self.members[i]]] += 1
        return counts

    def _search(
        self,
        pairs: int,
        floats: int,
        allowed: int,
        spent: int,
        counts: list[int],
        s1: frozenset[int] | None,
        made: list[tuple[int, int]],
        floated: list[int],
    ) -> tuple[list[tuple[int, int]], list[int]] | None:
        self.nodes += 1
        if self.nodes > _NODE_BUDGET:
            raise _Exhausted
        if spent + _colour_floor(counts, floats) > allowed:
            return None
        free = [i for i, done in enumerate(self.assigned) if not done]
        if not free:
            down = [self.members[i] for i in floated]
            # C.4, even with no downfloater: the brackets below may have needed these players.
            # The check is charged to the budget by its size, so failing leaves stay bounded.
            self.nodes += (len(down) + len(self.lower)) // 4
            if not self.field.completable(down + self.lower):
                return None
            return [(self.members[a], self.members[b]) for a, b in made], down
        i = free[0]
        if not self.mdp[i] and s1 is None:
            residents = [j for j in free if not self.mdp[j]]
            s1 = frozenset(residents[:pairs])  # S1: as many residents as pairs are left
        field, me = self.field, self.members[i]
        for j in self._partners(i, free, s1):
            other = self.members[j]
            if not field.compatible(me, other):
                continue
            clash = int(field.pref[me] != 0 and field.pref[me] == field.pref[other])
            self.assigned[i] = self.assigned[j] = True
            counts[field.pref[me]] -= 1
            counts[field.pref[other]] -= 1
            made.append((i, j))
            found = self._search(
                pairs - 1, floats, allowed, spent + clash, counts, s1, made, floated
            )
            made.pop()
            counts[field.pref[me]] += 1
            counts[field.pref[other]] += 1
            self.assigned[i] = self.assigned[j] = False
            if found is not None:
                return found
        if floats:
            self.assigned[i] = True
            counts[field.pref[me]] -= 1
            floated.append(i)
            found = self._search(pairs, floats - 1, allowed, spent, counts, s1, made, floated)
            floated.pop()
            counts[field.pref[me]] += 1
            self.assigned[i] = False
            return found
        return None

    def _partners(self, i: int, free: list[int], s1: frozenset[int] | None) -> list[int]:
        later = [j for j in free if j > i]
        if self.mdp[i]:  # an MDP meets the highest residents first (heterogeneous bracket)
            return [j for j in later if not self.mdp[j]] + [j for j in later if self.mdp[j]]
        if s1 is not None and i in s1:  # S2 in order, then S1's lowest (an exchange)
            return [j for j in later if j not in s1] + [j for j in reversed(later) if j in s1]
        return later


def _colour_floor(counts: list[int], floats: int) -> int:
    """The fewest colour-preference clashes (C.10) any pairing of these players can have: the
    surplus of one preference over the other, less those without one and those who float."""
    surplus = abs(counts[FIRST] - counts[SECOND]) - counts[0] - floats
    return max(0, (surplus + 1) // 2)


def _seat(field: _Field, a: int, b: int) -> tuple[int, int]:
    """E: who of a (the higher ranked) and b takes the first seat."""
    pa, pb = field.pref[a], field.pref[b]
    first_to_a: bool
    if (pa and pb and pa != pb) or (pa and not pb):  # E.1: both granted, or the only one
        first_to_a = pa == FIRST
    elif pb and not pa:
        first_to_a = pb == SECOND
    elif pa and pb:  # same colour wanted
        key_a = (field.strength[a], abs(field.difference[a]))
        key_b = (field.strength[b], abs(field.difference[b]))
        if key_a != key_b:  # E.2: the stronger preference wins
            first_to_a = (pa if key_a > key_b else -pb) == FIRST
        else:  # E.3: alternate from the latest round they played different roles, else E.4
            first_to_a = pa == FIRST
            for ca, cb in zip(reversed(field.colours[a]), reversed(field.colours[b]), strict=True):
                if ca and cb and ca != cb:
                    first_to_a = ca == SECOND
                    break
    else:  # E.5: no preference on either side; the initial colour by the pairing number
        first_to_a = a % 2 == 0
    return (a, b) if first_to_a else (b, a)


def _pair(field: _Field) -> Round | None:
    everyone = list(range(len(field.players)))
    bye: int | None = None
    if len(everyone) % 2:
        for v in reversed(everyone):  # A.5 / C.2: the lowest-ranked eligible, if the rest pairs
            if not field.had_bye[v] and field.completable([u for u in everyone if u != v]):
                bye = v
                break
        if bye is None:
            return None
        everyone.remove(bye)
    elif not field.completable(everyone):
        return None
    pairs: list[tuple[int, int]] = []
    carried: list[int] = []
    scores = sorted({field.players[v].points for v in everyone}, reverse=True)
    for score in scores:
        group = carried + [v for v in everyone if field.players[v].points == score]
        lower = [v for v in everyone if field.players[v].points < score]
        try:
            made, carried = _Bracket(field, group, lower, score).solve()
        except _Exhausted:
            fallback = field.matching(group + lower)
            if fallback is None:  # cannot happen: every bracket above kept C.4
                return None
            pairs.extend(fallback)
            carried = []
            break
        pairs.extend(made)
    seats = [_seat(field, min(a, b), max(a, b)) for a, b in pairs]  # E needs the higher first
    seated = tuple(Pair(field.players[f].id, field.players[s].id) for f, s in seats)
    return Round(seated, None if bye is None else field.players[bye].id, not field.strict)


def pair_round(
    players: Sequence[Entrant], history: Sequence[Round], apart: Collection[frozenset[str]] = ()
) -> Round:
    """The next round for these players, given every round paired before (in order; games of
    players no longer in `players` are ignored). `apart`: pairs of players kept apart (a block
    either way), never paired together unless no round avoids it. Raises NoPairing when the
    absolute criteria cannot be met even with C.3 relaxed, ValueError on duplicate ids."""
    if len(players) < 2:
        raise NoPairing("a Swiss round needs at least two players")
    for avoid in (apart, ()) if apart else ((),):
        for strict in (True, False):
            paired = _pair(_Field(players, history, strict, avoid))
            if paired is not None:
                return paired
    raise NoPairing("no pairing avoids a rematch or a second bye")
