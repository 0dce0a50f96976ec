"""Port of core/src/main/java/kafka/metrics/KafkaYammerMetrics.java (Kafka 2.8).

The process-wide Yammer registry every `KafkaMetricsGroup` registers in.

# PORT: Kafka also attaches a JmxReporter (with its `metrics.jmx.whitelist/blacklist` filter) here; there is no
# JMX in Python, and the broker's metrics are read from this registry by the Prometheus reporter instead.
"""

from __future__ import annotations

import threading

from kafka.metrics.yammer.metrics_registry import MetricsRegistry

__all__ = ["KafkaYammerMetrics"]


class KafkaYammerMetrics:
    _INSTANCE: KafkaYammerMetrics | None = None
    _INSTANCE_LOCK = threading.Lock()

    def __init__(self) -> None:
        self.metrics_registry = MetricsRegistry()

    @classmethod
    def instance(cls) -> KafkaYammerMetrics:
        if cls._INSTANCE is None:
            with cls._INSTANCE_LOCK:
                if cls._INSTANCE is None:
                    cls._INSTANCE = cls()
        return cls._INSTANCE

    @classmethod
    def default_registry(cls) -> MetricsRegistry:
        return cls.instance().metrics_registry
