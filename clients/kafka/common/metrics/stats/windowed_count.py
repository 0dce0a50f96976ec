"""Port of clients/src/main/java/org/apache/kafka/common/metrics/stats/WindowedCount.java (Kafka 2.8)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kafka.common.metrics.stats.sampled_stat import UPDATE_ADDS_ONE
from kafka.common.metrics.stats.windowed_sum import WindowedSum

if TYPE_CHECKING:
    from kafka.common.metrics.metric_config import MetricConfig
    from kafka.common.metrics.stats.sampled_stat import Sample

__all__ = ["WindowedCount"]


class WindowedCount(WindowedSum):
    """The number of values recorded in the retained windows."""

    update_kind = UPDATE_ADDS_ONE

    def update(self, sample: Sample, config: MetricConfig, value: float, time_ms: int) -> None:
        sample.value += 1.0  # WindowedSum.update of 1.0
