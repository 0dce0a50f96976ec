"""Ports of com.yammer.metrics.stats.{Sample,UniformSample,ExponentiallyDecayingSample,Snapshot} (metrics-core 2.2.0).

The reservoirs behind a `Histogram`: a uniform random sample of all values (Vitter's algorithm R), or a forward
decaying priority sample that favours the last five minutes (Cormode et al.), each of 1028 values, and the sorted
`Snapshot` quantiles are read from. The samples are not thread-safe by themselves: the owning histogram holds its
lock around them.
"""

from __future__ import annotations

import heapq
import math
import random
from abc import ABC, abstractmethod
from collections.abc import Iterable
from typing import Final

from kafka.common.utils.time import Time

__all__ = ["ExponentiallyDecayingSample", "Sample", "Snapshot", "UniformSample"]

_RESCALE_THRESHOLD_NS: Final = 60 * 60 * 1_000_000_000


class Snapshot:
    """A sorted copy of a sample's values, read for quantiles."""

    __slots__ = ("_values",)

    def __init__(self, values: Iterable[float]) -> None:
        self._values = sorted(float(v) for v in values)

    def get_value(self, quantile: float) -> float:
        """The value at `quantile` (0..1), interpolated between the two nearest values as Yammer does."""
        if quantile < 0.0 or quantile > 1.0 or math.isnan(quantile):
            raise ValueError(f"{quantile} is not in [0..1]")
        values = self._values
        if not values:
            return 0.0
        pos = quantile * (len(values) + 1)
        if pos < 1:
            return values[0]
        if pos >= len(values):
            return values[-1]
        lower = values[int(pos) - 1]
        upper = values[int(pos)]
        return lower + (pos - math.floor(pos)) * (upper - lower)

    def size(self) -> int:
        return len(self._values)

    @property
    def median(self) -> float:
        return self.get_value(0.5)

    @property
    def p75(self) -> float:
        return self.get_value(0.75)

    @property
    def p95(self) -> float:
        return self.get_value(0.95)

    @property
    def p98(self) -> float:
        return self.get_value(0.98)

    @property
    def p99(self) -> float:
        return self.get_value(0.99)

    @property
    def p999(self) -> float:
        return self.get_value(0.999)

    def get_values(self) -> list[float]:
        return list(self._values)


class Sample(ABC):
    @abstractmethod
    def clear(self) -> None: ...

    @abstractmethod
    def size(self) -> int: ...

    @abstractmethod
    def update(self, value: int | float) -> None: ...

    @abstractmethod
    def get_snapshot(self) -> Snapshot: ...


class UniformSample(Sample):
    """Every value ever seen has the same chance of being in the sample."""

    def __init__(self, reservoir_size: int, rng: random.Random | None = None) -> None:
        self._size = reservoir_size
        self._rng = rng or random.Random()
        self._values: list[float] = []
        self._count = 0

    def clear(self) -> None:
        self._values = []
        self._count = 0

    def size(self) -> int:
        return min(self._count, self._size)

    def update(self, value: int | float) -> None:
        self._count += 1
        if self._count <= self._size:
            self._values.append(value)
        else:
            r = self._rng.randrange(self._count)
            if r < self._size:
                self._values[r] = value

    def get_snapshot(self) -> Snapshot:
        return Snapshot(self._values)


class ExponentiallyDecayingSample(Sample):
    """Values weighted by exp(alpha * age in seconds), so that recent values dominate; rescaled every hour."""

    def __init__(
        self, reservoir_size: int, alpha: float, time: Time = Time.SYSTEM, rng: random.Random | None = None
    ) -> None:
        self._reservoir_size = reservoir_size
        self._alpha = alpha
        self._time = time
        self._rng = rng or random.Random()
        # A min-heap of (priority, value): the lowest priority is the one evicted.
        self._values: list[tuple[float, float]] = []
        self._count = 0
        self._start_time_s = self._current_time_s()
        self._next_scale_time_ns = time.nanoseconds() + _RESCALE_THRESHOLD_NS

    def _current_time_s(self) -> int:
        return self._time.milliseconds() // 1000

    def clear(self) -> None:
        self._values = []
        self._count = 0
        self._start_time_s = self._current_time_s()
        self._next_scale_time_ns = self._time.nanoseconds() + _RESCALE_THRESHOLD_NS

    def size(self) -> int:
        return min(self._reservoir_size, self._count)

    def update(self, value: int | float, timestamp_s: int | None = None) -> None:
        self._rescale_if_needed()
        if timestamp_s is None:
            timestamp_s = self._current_time_s()
        # 1 - random() is in (0, 1], so the division is always defined.
        priority = self._weight(timestamp_s - self._start_time_s) / (1.0 - self._rng.random())
        self._count += 1
        if self._count <= self._reservoir_size:
            heapq.heappush(self._values, (priority, value))
        elif self._values[0][0] < priority:
            heapq.heapreplace(self._values, (priority, value))

    def _weight(self, t: int) -> float:
        return math.exp(self._alpha * t)

    def _rescale_if_needed(self) -> None:
        now = self._time.nanoseconds()
        if now >= self._next_scale_time_ns:
            self._next_scale_time_ns = now + _RESCALE_THRESHOLD_NS
            old_start = self._start_time_s
            self._start_time_s = self._current_time_s()
            factor = math.exp(-self._alpha * (self._start_time_s - old_start))
            # Scaling every priority by the same positive factor keeps the heap order.
            self._values = [(p * factor, v) for p, v in self._values]
            self._count = len(self._values)

    def get_snapshot(self) -> Snapshot:
        return Snapshot(v for _, v in self._values)
