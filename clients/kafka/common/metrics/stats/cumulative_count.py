"""Port of clients/src/main/java/org/apache/kafka/common/metrics/stats/CumulativeCount.java (Kafka 2.8)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kafka.common.metrics.stats.cumulative_sum import CumulativeSum

if TYPE_CHECKING:
    from kafka.common.metrics.metric_config import MetricConfig

__all__ = ["CumulativeCount"]


class CumulativeCount(CumulativeSum):
    """The number of values ever recorded."""

    def record(self, config: MetricConfig, value: float, time_ms: int) -> None:
        super().record(config, 1.0, time_ms)
