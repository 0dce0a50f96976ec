"""Port of clients/src/main/java/org/apache/kafka/common/metrics/Stat.java (Kafka 2.8)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kafka.common.metrics.metric_config import MetricConfig

__all__ = ["Stat"]


class Stat(ABC):
    """Something that records values (a sensor feeds each recorded value to its stats)."""

    @abstractmethod
    def record(self, config: MetricConfig, value: float, time_ms: int) -> None:
        """Records `value` at time `time_ms`."""
