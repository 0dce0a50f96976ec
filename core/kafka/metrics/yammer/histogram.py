"""Port of com.yammer.metrics.core.Histogram (metrics-core 2.2.0).

The distribution of a stream of values: count, min, max, mean, standard deviation and sum over all values, and
quantiles from a sample (`snapshot()`): exponentially decaying (biased towards the last five minutes) or uniform.
"""

from __future__ import annotations

import math
import threading
from typing import Final

from kafka.common.utils.time import Time
from kafka.metrics.yammer.sample import ExponentiallyDecayingSample, Sample, Snapshot, UniformSample

__all__ = ["Histogram"]

DEFAULT_SAMPLE_SIZE: Final = 1028
DEFAULT_ALPHA: Final = 0.015


class Histogram:
    __slots__ = ("_sample", "_lock", "_count", "_min", "_max", "_sum", "_mean_acc", "_m2")

    def __init__(self, sample: Sample) -> None:
        self._sample = sample
        self._lock = threading.Lock()
        self._reset()

    @classmethod
    def biased(cls, time: Time = Time.SYSTEM) -> Histogram:
        """A histogram whose quantiles favour recent values (Yammer's SampleType.BIASED)."""
        return cls(ExponentiallyDecayingSample(DEFAULT_SAMPLE_SIZE, DEFAULT_ALPHA, time))

    @classmethod
    def uniform(cls) -> Histogram:
        """A histogram whose quantiles weigh every value alike (Yammer's SampleType.UNIFORM)."""
        return cls(UniformSample(DEFAULT_SAMPLE_SIZE))

    def _reset(self) -> None:
        self._count = 0
        self._min = math.inf
        self._max = -math.inf
        self._sum = 0.0
        # Welford's running mean and sum of squared deviations, for the variance.
        self._mean_acc = 0.0
        self._m2 = 0.0

    def clear(self) -> None:
        with self._lock:
            self._sample.clear()
            self._reset()

    def update(self, value: int | float, now_ns: int | None = None) -> None:
        """Adds `value`. `now_ns`: the histogram's clock (`Time.nanoseconds()` of the time it was made with), when
        the caller has just read it for several updates (one read per response for the request metrics)."""
        # The lock taken without `with`, which on CPython 3.11 binds __enter__/__exit__ on every use (about 115 ns of
        # this method; a request's metrics update 8 or 16 histograms).
        lock = self._lock
        lock.acquire()
        try:
            self._sample.update(value, now_ns)
            self._count = count = self._count + 1
            if value < self._min:
                self._min = value
            if value > self._max:
                self._max = value
            self._sum += value
            mean = self._mean_acc
            delta = value - mean
            self._mean_acc = mean = mean + delta / count
            self._m2 += delta * (value - mean)
        finally:
            lock.release()

    @property
    def count(self) -> int:
        return self._count

    @property
    def max(self) -> float:
        return float(self._max) if self._count > 0 else 0.0

    @property
    def min(self) -> float:
        return float(self._min) if self._count > 0 else 0.0

    @property
    def mean(self) -> float:
        return self._sum / self._count if self._count > 0 else 0.0

    @property
    def std_dev(self) -> float:
        return math.sqrt(self._variance())

    @property
    def sum(self) -> float:
        return float(self._sum)

    def _variance(self) -> float:
        if self._count <= 1:
            return 0.0
        return self._m2 / (self._count - 1)

    def snapshot(self) -> Snapshot:
        with self._lock:
            return self._sample.get_snapshot()

    get_snapshot = snapshot
