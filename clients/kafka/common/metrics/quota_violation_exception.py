"""Port of clients/src/main/java/org/apache/kafka/common/metrics/QuotaViolationException.java (Kafka 2.8)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kafka.common.config.config_exception import java_str
from kafka.common.errors import KafkaException

if TYPE_CHECKING:
    from kafka.common.metrics.kafka_metric import KafkaMetric

__all__ = ["QuotaViolationException"]


class QuotaViolationException(KafkaException):
    """A recorded value took a metric past the bound of its quota."""

    def __init__(self, metric: KafkaMetric, value: float, bound: float) -> None:
        super().__init__(metric, value, bound)
        self._metric = metric
        self._value = value
        self._bound = bound

    def metric(self) -> KafkaMetric:
        return self._metric

    def value(self) -> float:
        return self._value

    def bound(self) -> float:
        return self._bound

    def __str__(self) -> str:
        return (
            f"'{self._metric.metric_name()}' violated quota. Actual: {java_str(float(self._value))}, "
            f"Threshold: {java_str(float(self._bound))}"
        )
