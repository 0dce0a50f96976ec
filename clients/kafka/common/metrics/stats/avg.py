"""Port of clients/src/main/java/org/apache/kafka/common/metrics/stats/Avg.java (Kafka 2.8)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from kafka.common.metrics.stats.sampled_stat import UPDATE_ADDS_VALUE, Sample, SampledStat

if TYPE_CHECKING:
    from kafka.common.metrics.metric_config import MetricConfig

__all__ = ["Avg"]


class Avg(SampledStat):
    """The mean of the values recorded in the retained windows (NaN when none)."""

    def __init__(self) -> None:
        super().__init__(0.0)

    update_kind = UPDATE_ADDS_VALUE

    def update(self, sample: Sample, config: MetricConfig, value: float, time_ms: int) -> None:
        sample.value += value

    def combine(self, samples: list[Sample], config: MetricConfig, now: int) -> float:
        total = 0.0
        count = 0
        for sample in samples:
            total += sample.value
            count += sample.event_count
        return math.nan if count == 0 else total / count
