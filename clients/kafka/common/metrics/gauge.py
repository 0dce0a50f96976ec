"""Port of clients/src/main/java/org/apache/kafka/common/metrics/Gauge.java (Kafka 2.8)."""

from __future__ import annotations

from abc import abstractmethod
from typing import TYPE_CHECKING, Generic, TypeVar

from kafka.common.metrics.metric_value_provider import MetricValueProvider

if TYPE_CHECKING:
    from kafka.common.metrics.metric_config import MetricConfig

__all__ = ["Gauge"]

T = TypeVar("T")


class Gauge(MetricValueProvider, Generic[T]):
    """A metric whose value is read on demand and may be of any type."""

    @abstractmethod
    def value(self, config: MetricConfig, now: int) -> T:
        """The value at time `now` (ms)."""
