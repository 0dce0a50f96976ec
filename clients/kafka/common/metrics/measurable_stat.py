"""Port of clients/src/main/java/org/apache/kafka/common/metrics/MeasurableStat.java (Kafka 2.8)."""

from __future__ import annotations

from kafka.common.metrics.measurable import Measurable
from kafka.common.metrics.stat import Stat

__all__ = ["MeasurableStat"]


class MeasurableStat(Stat, Measurable):
    """A stat that is also a measurable quantity: one metric backed by recorded values."""
