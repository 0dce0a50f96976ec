"""Port of clients/src/main/java/org/apache/kafka/common/metrics/stats/CumulativeSum.java (Kafka 2.8)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kafka.common.metrics.measurable_stat import MeasurableStat

if TYPE_CHECKING:
    from kafka.common.metrics.metric_config import MetricConfig

__all__ = ["CumulativeSum"]


class CumulativeSum(MeasurableStat):
    """The sum of every value ever recorded."""

    def __init__(self, value: float = 0.0) -> None:
        self._total = float(value)

    def record(self, config: MetricConfig, value: float, time_ms: int) -> None:
        self._total += value

    def record_one(self, config: MetricConfig, value: float, time_ms: int) -> None:
        """record(config, 1.0, time_ms): a counting Meter's total, recorded by its sensor (see Meter.record_steps)."""
        self._total += 1.0

    def measure(self, config: MetricConfig, now: int) -> float:
        return self._total
