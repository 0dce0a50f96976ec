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
    def update(self, value: int | float, now_ns: int | None = None) -> None:
        """Adds `value`; `now_ns`, when the caller has just read the sample's clock (`Time.nanoseconds()`), spares
        reading it again."""

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

    def update(self, value: int | float, now_ns: int | None = None) -> None:
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
    """Values weighted by exp(alpha * age in seconds), so that recent values dominate; rescaled every hour.

    # PORT: Yammer takes the seconds of the weights from the wall clock and the rescale time from the tick clock;
    # here both come from one read of the monotonic clock (`Time.nanoseconds()`), as only differences of times
    # count. An update costs one clock read (none when the caller passes the time it has just read), and the weight
    # of a second is worked out once."""

    def __init__(
        self, reservoir_size: int, alpha: float, time: Time = Time.SYSTEM, rng: random.Random | None = None
    ) -> None:
        self._reservoir_size = reservoir_size
        self._alpha = alpha
        self._time = time
        self._nanoseconds = time.nanoseconds
        self._random = (rng or random.Random()).random
        # A min-heap of (priority, value): the lowest priority is the one evicted.
        self._values: list[tuple[float, float]] = []
        self._count = 0
        self._start(self._nanoseconds())

    def _start(self, now_ns: int) -> None:
        self._start_time_s = now_ns // 1_000_000_000
        self._next_scale_time_ns = now_ns + _RESCALE_THRESHOLD_NS
        # The weight of the last second an update fell in, and that second (relative to the start).
        self._weight_t = 0
        self._weight_value = 1.0

    def clear(self) -> None:
        self._values = []
        self._count = 0
        self._start(self._nanoseconds())

    def size(self) -> int:
        return min(self._reservoir_size, self._count)

    def update(self, value: int | float, now_ns: int | None = None) -> None:
        if now_ns is None:
            now_ns = self._nanoseconds()
        if now_ns >= self._next_scale_time_ns:
            self._rescale(now_ns)
        t = now_ns // 1_000_000_000 - self._start_time_s
        if t != self._weight_t:
            self._weight_t = t
            self._weight_value = math.exp(self._alpha * t)
        # 1 - random() is in (0, 1], so the division is always defined.
        priority = self._weight_value / (1.0 - self._random())
        self._count = count = self._count + 1
        if count <= self._reservoir_size:
            heapq.heappush(self._values, (priority, value))
        elif self._values[0][0] < priority:
            heapq.heapreplace(self._values, (priority, value))

    def _rescale(self, now_ns: int) -> None:
        old_start = self._start_time_s
        self._start(now_ns)
        factor = math.exp(-self._alpha * (self._start_time_s - old_start))
        # Scaling every priority by the same positive factor keeps the heap order.
        self._values = [(p * factor, v) for p, v in self._values]
        self._count = len(self._values)

    def get_snapshot(self) -> Snapshot:
        return Snapshot(v for _, v in self._values)
