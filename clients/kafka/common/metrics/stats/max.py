"""Port of clients/src/main/java/org/apache/kafka/common/metrics/stats/Max.java (Kafka 2.8)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from kafka.common.metrics.stats.sampled_stat import Sample, SampledStat

if TYPE_CHECKING:
    from kafka.common.metrics.metric_config import MetricConfig

__all__ = ["Max"]


def _java_max(a: float, b: float) -> float:
    """Math.max: NaN if either is NaN."""
    if a != a or b != b:
        return math.nan
    return a if a >= b else b


class Max(SampledStat):
    """The largest value recorded in the retained windows (NaN when none)."""

    def __init__(self) -> None:
        super().__init__(-math.inf)

    def update(self, sample: Sample, config: MetricConfig, value: float, time_ms: int) -> None:
        sample.value = _java_max(sample.value, float(value))

    def combine(self, samples: list[Sample], config: MetricConfig, now: int) -> float:
        result = -math.inf
        count = 0
        for sample in samples:
            result = _java_max(result, sample.value)
            count += sample.event_count
        return math.nan if count == 0 else result
