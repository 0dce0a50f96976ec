"""Port of clients/src/main/java/org/apache/kafka/common/Metric.java (Kafka 2.8).

A metric as the registry hands it out: its name and its current value.

# PORT: Java's deprecated `value()` (the value as a double) is left out; `metric_value()` replaces it.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kafka.common.metric_name import MetricName

__all__ = ["Metric"]


class Metric(ABC):
    """A named metric whose value can be read."""

    @abstractmethod
    def metric_name(self) -> MetricName:
        """The name of the metric."""

    @abstractmethod
    def metric_value(self) -> object:
        """The current value (a float for a measurable metric, anything for a gauge)."""
