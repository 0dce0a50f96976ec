"""Port of com.yammer.metrics.stats.EWMA (metrics-core 2.2.0).

An exponentially weighted moving average of a rate, fed with counts and ticked every 5 seconds; the 1, 5 and
15 minute averages are the load-average style rates Kafka's meters report. Not thread-safe by itself: the owning
`Meter` holds its lock around update/tick.
"""

from __future__ import annotations

import math
from typing import Final

from kafka.utils.time_unit import TimeUnit

__all__ = ["EWMA", "TICK_INTERVAL_NS"]

INTERVAL_S: Final = 5
TICK_INTERVAL_NS: Final = INTERVAL_S * 1_000_000_000
_SECONDS_PER_MINUTE: Final = 60.0
_M1_ALPHA: Final = 1 - math.exp(-INTERVAL_S / _SECONDS_PER_MINUTE / 1)
_M5_ALPHA: Final = 1 - math.exp(-INTERVAL_S / _SECONDS_PER_MINUTE / 5)
_M15_ALPHA: Final = 1 - math.exp(-INTERVAL_S / _SECONDS_PER_MINUTE / 15)


def nanos_per(unit: TimeUnit) -> float:
    """How many nanoseconds one `unit` lasts (Java's `unit.toNanos(1)`)."""
    return float(unit.value * 1_000_000)


class EWMA:
    """A moving average of events per nanosecond; `rate(unit)` gives it per `unit`."""

    __slots__ = ("alpha", "interval_ns", "_uncounted", "_rate", "_initialized")

    def __init__(self, alpha: float, interval_ns: int = TICK_INTERVAL_NS) -> None:
        self.alpha = alpha
        self.interval_ns = interval_ns
        self._uncounted = 0
        self._rate = 0.0
        self._initialized = False

    @classmethod
    def one_minute_ewma(cls) -> EWMA:
        return cls(_M1_ALPHA)

    @classmethod
    def five_minute_ewma(cls) -> EWMA:
        return cls(_M5_ALPHA)

    @classmethod
    def fifteen_minute_ewma(cls) -> EWMA:
        return cls(_M15_ALPHA)

    def update(self, n: int) -> None:
        self._uncounted += n

    def tick(self, ticks: int = 1) -> None:
        """Closes `ticks` intervals: the first with the counts seen since the last tick, the rest empty."""
        if ticks <= 0:
            return
        count = self._uncounted
        self._uncounted = 0
        instant_rate = count / self.interval_ns
        if self._initialized:
            self._rate += self.alpha * (instant_rate - self._rate)
        else:
            self._rate = instant_rate
            self._initialized = True
        if ticks > 1:
            # PORT: Yammer ticks once per interval; the intervals after the first saw no events, and decaying by
            # (1 - alpha) per empty interval in one step gives the same rate without a loop.
            self._rate *= (1 - self.alpha) ** (ticks - 1)

    def rate(self, unit: TimeUnit) -> float:
        return self._rate * nanos_per(unit)
