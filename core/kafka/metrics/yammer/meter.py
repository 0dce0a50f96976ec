"""Port of com.yammer.metrics.core.Meter (metrics-core 2.2.0).

Counts events and keeps their mean rate and the 1, 5 and 15 minute exponentially weighted rates.

# PORT: Yammer 2.2 ticks every meter from a shared scheduled thread every 5 seconds; here a meter ticks lazily when
# it is marked or read, closing every 5 s interval that has passed since its last tick (as Metrics 3 does), so
# there is no thread and no timer per meter and the rates read the same.
"""

from __future__ import annotations

import threading

from kafka.common.utils.time import Time
from kafka.metrics.yammer.ewma import EWMA, TICK_INTERVAL_NS, nanos_per
from kafka.utils.time_unit import TimeUnit

__all__ = ["Meter"]


class Meter:
    """Events of `event_type` (e.g. "messages"), whose rates are given per `rate_unit`."""

    __slots__ = (
        "event_type",
        "rate_unit",
        "_time",
        "_nanoseconds",
        "_lock",
        "_count",
        "_uncounted",
        "_start_ns",
        "_last_tick_ns",
        "_m1",
        "_m5",
        "_m15",
    )

    def __init__(self, event_type: str, rate_unit: TimeUnit, time: Time = Time.SYSTEM) -> None:
        self.event_type = event_type
        self.rate_unit = rate_unit
        self._time = time
        self._nanoseconds = time.nanoseconds
        self._lock = threading.Lock()
        self._count = 0
        # Marked since the last tick: handed to the three averages when they tick (they all see the same counts).
        self._uncounted = 0
        self._m1 = EWMA.one_minute_ewma()
        self._m5 = EWMA.five_minute_ewma()
        self._m15 = EWMA.fifteen_minute_ewma()
        self._start_ns = time.nanoseconds()
        self._last_tick_ns = self._start_ns

    def _tick_if_necessary(self, now: int | None = None) -> None:
        # Called with self._lock held.
        if now is None:
            now = self._nanoseconds()
        age = now - self._last_tick_ns
        if age >= TICK_INTERVAL_NS:
            self._tick(now, age)

    def _tick(self, now: int, age: int) -> None:
        ticks = age // TICK_INTERVAL_NS
        self._last_tick_ns = now - age % TICK_INTERVAL_NS
        uncounted = self._uncounted
        self._uncounted = 0
        for ewma in (self._m1, self._m5, self._m15):
            ewma.update(uncounted)
            ewma.tick(ticks)

    def mark(self, n: int = 1, now_ns: int | None = None) -> None:
        """Records `n` events. `now_ns`: the meter's clock (`Time.nanoseconds()`), when the caller has just read it."""
        # The lock taken without `with` (see Histogram.update): one mark per request and version.
        lock = self._lock
        lock.acquire()
        try:
            now = self._nanoseconds() if now_ns is None else now_ns
            age = now - self._last_tick_ns
            if age >= TICK_INTERVAL_NS:
                self._tick(now, age)
            self._count += n
            self._uncounted += n
        finally:
            lock.release()

    @property
    def count(self) -> int:
        return self._count

    def _rate(self, ewma: EWMA) -> float:
        with self._lock:
            self._tick_if_necessary()
            return ewma.rate(self.rate_unit)

    @property
    def one_minute_rate(self) -> float:
        return self._rate(self._m1)

    @property
    def five_minute_rate(self) -> float:
        return self._rate(self._m5)

    @property
    def fifteen_minute_rate(self) -> float:
        return self._rate(self._m15)

    @property
    def mean_rate(self) -> float:
        """Events per `rate_unit` since the meter was created."""
        count = self._count
        if count == 0:
            return 0.0
        elapsed_ns = self._time.nanoseconds() - self._start_ns
        if elapsed_ns <= 0:
            return 0.0
        return count / elapsed_ns * nanos_per(self.rate_unit)
