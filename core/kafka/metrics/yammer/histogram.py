"""Port of com.yammer.metrics.core.Histogram (metrics-core 2.2.0).

The distribution of a stream of values: count, min, max, mean, standard deviation and sum over all values, and
quantiles from a sample (`snapshot()`): exponentially decaying (biased towards the last five minutes) or uniform.
"""

from __future__ import annotations

import heapq
import math
import threading
from collections.abc import Sequence
from typing import Final

from kafka.common.utils.time import Time
from kafka.metrics.yammer.sample import ExponentiallyDecayingSample, Sample, Snapshot, UniformSample

__all__ = ["Histogram", "update_histograms"]

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


def update_histograms(histograms: Sequence[Histogram], values: Sequence[int | float], now_ns: int) -> None:
    """`histograms[i].update(values[i], now_ns)` for each i, in one call.

    # PORT: Yammer updates each histogram on its own; a response's request metrics update 8-10 of them, and on
    # CPython two method calls per histogram (Histogram.update, ExponentiallyDecayingSample.update) cost more than
    # the updates. For a biased (exponentially decaying) histogram both are written out here, the same steps under
    # the same lock; any other sample goes through Histogram.update."""
    exponential = ExponentiallyDecayingSample
    heappush = heapq.heappush
    heapreplace = heapq.heapreplace
    for hist, value in zip(histograms, values):
        sample = hist._sample
        if type(sample) is not exponential:
            hist.update(value, now_ns)
            continue
        lock = hist._lock
        lock.acquire()
        try:
            # ExponentiallyDecayingSample.update
            if now_ns >= sample._next_scale_time_ns:
                sample._rescale(now_ns)
            t = now_ns // 1_000_000_000 - sample._start_time_s
            if t != sample._weight_t:
                sample._weight_t = t
                sample._weight_value = math.exp(sample._alpha * t)
            priority = sample._weight_value / (1.0 - sample._random())
            sample._count = count = sample._count + 1
            if count <= sample._reservoir_size:
                heappush(sample._values, (priority, value))
            elif sample._values[0][0] < priority:
                heapreplace(sample._values, (priority, value))
            # Histogram.update
            hist._count = count = hist._count + 1
            if value < hist._min:
                hist._min = value
            if value > hist._max:
                hist._max = value
            hist._sum += value
            mean = hist._mean_acc
            delta = value - mean
            hist._mean_acc = mean = mean + delta / count
            hist._m2 += delta * (value - mean)
        finally:
            lock.release()
