"""bench.server reads a /metrics histogram between two readings: the quantile's bucket bound is
that of what was observed in between, not since the server started."""

import math

from bench.server import bound, buckets

BEFORE = """# HELP x_seconds x
x_seconds_bucket{le="0.01"} 90.0
x_seconds_bucket{le="0.1"} 100.0
x_seconds_bucket{le="+Inf"} 100.0
x_seconds_count 100.0
"""
AFTER = """x_seconds_bucket{le="0.01"} 100.0
x_seconds_bucket{le="0.1"} 190.0
x_seconds_bucket{le="+Inf"} 200.0
other_bucket{le="0.01"} 7.0
"""


def test_the_quantile_is_of_the_observations_between_the_readings() -> None:
    before, after = buckets(BEFORE, "x_seconds"), buckets(AFTER, "x_seconds")
    assert after == {0.01: 100.0, 0.1: 190.0, math.inf: 200.0}
    # between: 10 under 10 ms, 80 more under 100 ms, 10 beyond (since the start: 0.1 for p90)
    assert bound(before, after, 0.10) == 0.01
    assert bound(before, after, 0.50) == 0.1
    assert bound(before, after, 0.99) == math.inf
    assert math.isnan(bound(after, after, 0.99))
