"""Port of clients/src/main/java/org/apache/kafka/common/metrics/stats/Value.java (Kafka 2.8)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kafka.common.metrics.measurable_stat import MeasurableStat

if TYPE_CHECKING:
    from kafka.common.metrics.metric_config import MetricConfig

__all__ = ["Value"]


class Value(MeasurableStat):
    """The last value recorded (0.0 before any)."""

    def __init__(self) -> None:
        self._value = 0.0

    def measure(self, config: MetricConfig, now: int) -> float:
        return self._value

    def record(self, config: MetricConfig, value: float, time_ms: int) -> None:
        self._value = float(value)
