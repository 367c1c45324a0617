"""How much of the machine's CPU time the hypervisor took away (steal) while a benchmark ran."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

PROC_STAT = Path("/proc/stat")
STEAL_FIELD = 7  # user nice system idle iowait irq softirq steal guest guest_nice


@dataclass(frozen=True, slots=True)
class CpuTimes:
    total: int
    steal: int

    @classmethod
    def now(cls) -> CpuTimes | None:
        """The machine's CPU counters since boot, in ticks; None off Linux."""
        try:
            return cls.parse(PROC_STAT.read_text().splitlines()[0])
        except OSError:
            return None

    @classmethod
    def parse(cls, line: str) -> CpuTimes:
        """From /proc/stat's first line: `cpu  user nice system idle iowait irq softirq steal …`."""
        ticks = [int(value) for value in line.split()[1:9]]  # guest time is counted in user
        return cls(sum(ticks), ticks[STEAL_FIELD])


def steal_percent(before: CpuTimes | None, after: CpuTimes | None) -> float:
    """The share of CPU time between the two readings that a virtual machine's cores wanted to
    run but the host ran something else: a latency tail measured through a high figure here
    says more about the neighbours than about the code. NaN where it cannot be read."""
    if before is None or after is None or after.total <= before.total:
        return float("nan")
    return 100 * (after.steal - before.steal) / (after.total - before.total)
