"""Port of clients/src/main/java/org/apache/kafka/common/metrics/MetricValueProvider.java (Kafka 2.8).

What a KafkaMetric reads its value from: a Measurable (a float) or a Gauge (any value).
"""

from __future__ import annotations

from abc import ABC

__all__ = ["MetricValueProvider"]


class MetricValueProvider(ABC):  # noqa: B024 - Java's marker interface: Measurable and Gauge add the method
    """Marker base of Measurable and Gauge."""
