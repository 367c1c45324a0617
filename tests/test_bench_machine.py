"""bench.machine reads the hypervisor's steal from /proc/stat, so benchmark tails can be judged."""

import math

from bench.machine import CpuTimes, steal_percent


def test_steal_is_the_share_of_all_ticks_between_two_readings() -> None:
    before = CpuTimes.parse("cpu  100 0 50 800 10 0 5 35 0 0")
    after = CpuTimes.parse("cpu  160 0 70 900 10 0 10 85 7 0")  # guest (7) is within user
    assert (before.total, before.steal) == (1000, 35)
    assert steal_percent(before, after) == 100 * 50 / 235


def test_no_reading_or_no_time_passed_gives_nan() -> None:
    same = CpuTimes.parse("cpu  1 2 3 4 5 6 7 8")
    assert math.isnan(steal_percent(None, same))
    assert math.isnan(steal_percent(same, same))
