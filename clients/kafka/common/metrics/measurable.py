"""Port of clients/src/main/java/org/apache/kafka/common/metrics/Measurable.java (Kafka 2.8)."""

from __future__ import annotations

from abc import abstractmethod
from typing import TYPE_CHECKING

from kafka.common.metrics.metric_value_provider import MetricValueProvider

if TYPE_CHECKING:
    from kafka.common.metrics.metric_config import MetricConfig

__all__ = ["Measurable"]


class Measurable(MetricValueProvider):
    """A quantity that can be measured at a given time."""

    @abstractmethod
    def measure(self, config: MetricConfig, now: int) -> float:
        """The value at time `now` (ms), under `config`."""
