"""Maximum-cardinality matching in a general graph (Edmonds' blossom algorithm), pure.

The Swiss pairing needs to know whether a set of players can still all be paired without
breaking an absolute rule (FIDE's "completion criterion"), and, as a last resort, a pairing of
such a set. Players form a general graph (an edge wherever two may meet), not a bipartite one,
so a plain augmenting-path search is wrong on odd cycles; Edmonds' blossom contraction is the
classic exact answer. This is the O(V^3) textbook form (BFS from each exposed vertex, contracting
blossoms through a `base` array), run only on what a greedy start leaves unmatched."""

from __future__ import annotations

from collections.abc import Callable, Sequence


def _lca(a: int, b: int, base: list[int], mate: list[int], parent: list[int]) -> int:
    """The base of the blossom closed by the edge a-b: the first common ancestor of both."""
    seen = [False] * len(base)
    while True:
        a = base[a]
        seen[a] = True
        if mate[a] == -1:
            break
        a = parent[mate[a]]
    while True:
        b = base[b]
        if seen[b]:
            return b
        b = parent[mate[b]]


def _mark(
    v: int,
    top: int,
    child: int,
    base: list[int],
    mate: list[int],
    parent: list[int],
    in_blossom: list[bool],
) -> None:
    while base[v] != top:
        in_blossom[base[v]] = in_blossom[base[mate[v]]] = True
        parent[v] = child
        child = mate[v]
        v = parent[mate[v]]


def _augmenting_end(
    root: int, adj: Sequence[Sequence[int]], mate: list[int], parent: list[int]
) -> int:
    """BFS for an augmenting path from the exposed `root`; its other end, or -1. `parent` is
    filled so that the path can be flipped from that end."""
    n = len(adj)
    for i in range(n):
        parent[i] = -1
    base = list(range(n))
    used = [False] * n
    used[root] = True
    queue = [root]
    head = 0
    while head < len(queue):
        v = queue[head]
        head += 1
        for to in adj[v]:
            if base[v] == base[to] or mate[v] == to:
                continue
            if to == root or (mate[to] != -1 and parent[mate[to]] != -1):
                top = _lca(v, to, base, mate, parent)
                in_blossom = [False] * n
                _mark(v, top, to, base, mate, parent, in_blossom)
                _mark(to, top, v, base, mate, parent, in_blossom)
                for i in range(n):
                    if in_blossom[base[i]]:
                        base[i] = top
                        if not used[i]:
                            used[i] = True
                            queue.append(i)
            elif parent[to] == -1:
                parent[to] = v
                if mate[to] == -1:
                    return to
                used[mate[to]] = True
                queue.append(mate[to])
    return -1


def perfect_matching(
    order: Sequence[int], compatible: Callable[[int, int], bool]
) -> list[tuple[int, int]] | None:
    """A perfect matching of the vertices in `order` (any int labels) under `compatible`, as
    pairs, or None when there is none. It starts greedy, in `order`: each free vertex takes the
    first free compatible one after it, so a caller lists the hardest-to-place vertices first
    and the rest best-first; the blossom search (and the O(n^2) neighbour lists it needs) runs
    only when the greedy pass leaves someone out."""
    n = len(order)
    if n % 2:
        return None
    mate = [-1] * n
    free = list(range(n))
    for i in range(n):
        if mate[i] != -1:
            continue
        for j in free:
            if j != i and compatible(order[i], order[j]):
                mate[i], mate[j] = j, i
                free.remove(i)
                free.remove(j)
                break
    if free:
        adj = [[j for j in range(n) if j != i and compatible(order[i], order[j])] for i in range(n)]
        if not _augment_all(adj, mate):
            return None
    return [(order[i], order[j]) for i, j in enumerate(mate) if i < j]


def _augment_all(adj: Sequence[Sequence[int]], mate: list[int]) -> bool:
    """Grow `mate` by augmenting paths until it is perfect; False if it cannot be."""
    parent = [-1] * len(adj)
    for root in range(len(adj)):
        if mate[root] != -1:
            continue
        end = _augmenting_end(root, adj, mate, parent)
        if end == -1:
            # Edmonds: a vertex with no augmenting path now never gets one later, so the
            # matching can no longer become perfect.
            return False
        while end != -1:
            prev = parent[end]
            after = mate[prev]
            mate[end], mate[prev] = prev, end
            end = after
    return True
