"""Edmonds' matching against brute force: on small random graphs, a perfect matching is found
exactly when one exists, and what is found is one (every vertex once, every pair an edge)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from app.tournaments.matching import perfect_matching


def _exists(vertices: frozenset[int], edges: set[frozenset[int]]) -> bool:
    """Brute force: pair the smallest vertex with each neighbour in turn."""
    if not vertices:
        return True
    v = min(vertices)
    return any(
        _exists(vertices - {v, u}, edges) for u in vertices if u != v and frozenset((u, v)) in edges
    )


@st.composite
def graphs(draw: st.DrawFn) -> tuple[list[int], set[frozenset[int]]]:
    n = draw(st.integers(0, 10))
    possible = [frozenset((a, b)) for a in range(n) for b in range(a + 1, n)]
    edges = {e for e in possible if draw(st.booleans())}
    order = draw(st.permutations(list(range(n))))
    return order, edges


@settings(max_examples=400, deadline=None)
@given(graphs())
def test_perfect_matching_exactly_when_one_exists(graph: tuple[list[int], set[frozenset[int]]]):
    order, edges = graph
    found = perfect_matching(order, lambda a, b: frozenset((a, b)) in edges)
    assert (found is not None) == _exists(frozenset(order), edges)
    if found is not None:
        assert sorted(v for pair in found for v in pair) == sorted(order)
        assert all(frozenset(pair) in edges for pair in found)


def test_an_odd_cycle_needs_a_blossom():
    # Two triangles 0-1-2 and 3-4-5 joined by the edge 2-3. In this order the greedy start
    # takes 1-2 and 3-4 and leaves 0 and 5 out; the search from 0 meets the triangle 0-1-2 (an
    # odd cycle, which a bipartite search mishandles) and must contract it to reach 5.
    edges = {frozenset(e) for e in [(0, 1), (1, 2), (0, 2), (2, 3), (3, 4), (4, 5), (3, 5)]}
    found = perfect_matching([1, 2, 3, 4, 0, 5], lambda a, b: frozenset((a, b)) in edges)
    assert found is not None
    assert {frozenset(p) for p in found} == {
        frozenset((0, 1)),
        frozenset((2, 3)),
        frozenset((4, 5)),
    }
