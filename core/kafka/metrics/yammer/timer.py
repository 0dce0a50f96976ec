"""Port of com.yammer.metrics.core.Timer (metrics-core 2.2.0).

A histogram of durations (kept in nanoseconds, reported in `duration_unit`) and a meter of how often they occur
(reported per `rate_unit`).
"""

from __future__ import annotations

from kafka.common.utils.time import Time
from kafka.metrics.yammer.ewma import nanos_per
from kafka.metrics.yammer.histogram import Histogram
from kafka.metrics.yammer.meter import Meter
from kafka.metrics.yammer.sample import Snapshot
from kafka.utils.time_unit import TimeUnit

__all__ = ["Timer"]


class Timer:
    __slots__ = ("duration_unit", "rate_unit", "_meter", "_histogram", "_duration_factor")

    def __init__(self, duration_unit: TimeUnit, rate_unit: TimeUnit, time: Time = Time.SYSTEM) -> None:
        self.duration_unit = duration_unit
        self.rate_unit = rate_unit
        self._meter = Meter("calls", rate_unit, time)
        self._histogram = Histogram.biased(time)
        self._duration_factor = 1.0 / nanos_per(duration_unit)

    def update(self, duration: int | float, unit: TimeUnit) -> None:
        """Records one event that lasted `duration` `unit`s (negative durations are not recorded)."""
        if duration >= 0:
            self._histogram.update(duration * nanos_per(unit))
            self._meter.mark()

    def clear(self) -> None:
        self._histogram.clear()

    @property
    def count(self) -> int:
        return self._histogram.count

    @property
    def one_minute_rate(self) -> float:
        return self._meter.one_minute_rate

    @property
    def five_minute_rate(self) -> float:
        return self._meter.five_minute_rate

    @property
    def fifteen_minute_rate(self) -> float:
        return self._meter.fifteen_minute_rate

    @property
    def mean_rate(self) -> float:
        return self._meter.mean_rate

    @property
    def event_type(self) -> str:
        return self._meter.event_type

    @property
    def max(self) -> float:
        return self._histogram.max * self._duration_factor

    @property
    def min(self) -> float:
        return self._histogram.min * self._duration_factor

    @property
    def mean(self) -> float:
        return self._histogram.mean * self._duration_factor

    @property
    def std_dev(self) -> float:
        return self._histogram.std_dev * self._duration_factor

    @property
    def sum(self) -> float:
        return self._histogram.sum * self._duration_factor

    def snapshot(self) -> Snapshot:
        """The sampled durations, in `duration_unit`."""
        factor = self._duration_factor
        return Snapshot(v * factor for v in self._histogram.snapshot().get_values())

    get_snapshot = snapshot
