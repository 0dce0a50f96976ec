"""Port of clients/src/main/java/org/apache/kafka/common/metrics/MetricsReporter.java (Kafka 2.8).

A plugin told of every metric added to or removed from a Metrics registry, to publish them elsewhere.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from kafka.common.metrics.kafka_metric import KafkaMetric
    from kafka.common.metrics.metrics_context import MetricsContext

__all__ = ["MetricsReporter"]


class MetricsReporter(ABC):
    """Java's MetricsReporter (a Reconfigurable, hence Configurable, and AutoCloseable)."""

    @abstractmethod
    def configure(self, configs: Mapping[str, Any]) -> None:
        """Configures the reporter (Java's Configurable)."""

    @abstractmethod
    def init(self, metrics: list[KafkaMetric]) -> None:
        """Called once, with the metrics already registered, when the reporter is added."""

    @abstractmethod
    def metric_change(self, metric: KafkaMetric) -> None:
        """A metric was added (or replaced)."""

    @abstractmethod
    def metric_removal(self, metric: KafkaMetric) -> None:
        """A metric was removed."""

    @abstractmethod
    def close(self) -> None:
        """Called when the registry is closed or the reporter removed."""

    def reconfigurable_configs(self) -> set[str]:
        """The configs that can change at run time (none by default)."""
        return set()

    def validate_reconfiguration(self, configs: Mapping[str, Any]) -> None:
        """Raises ConfigException if `configs` cannot be applied (accepts everything by default)."""
        return None

    def reconfigure(self, configs: Mapping[str, Any]) -> None:
        """Applies new values of the reconfigurable configs (nothing by default)."""
        return None

    def context_change(self, metrics_context: MetricsContext) -> None:
        """Told the labels of the registry's context, before `init`."""
        return None
