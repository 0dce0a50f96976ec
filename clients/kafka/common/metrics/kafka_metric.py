"""Port of clients/src/main/java/org/apache/kafka/common/metrics/KafkaMetric.java (Kafka 2.8)."""

from __future__ import annotations

import itertools
import threading
from typing import TYPE_CHECKING, Any, ClassVar

from kafka.common.metric import Metric
from kafka.common.metrics.gauge import Gauge
from kafka.common.metrics.measurable import Measurable

if TYPE_CHECKING:
    from kafka.common.metric_name import MetricName
    from kafka.common.metrics.metric_config import MetricConfig
    from kafka.common.metrics.metric_value_provider import MetricValueProvider
    from kafka.common.utils.time import Time

__all__ = ["KafkaMetric", "note_quota_change"]

# PORT: Java's Sensor looks at every metric's config for a quota on every record; here a sensor remembers which of
# its metrics have one, and anything that may change that (a metric given another config, a MetricConfig given
# another quota, a sensor given a metric with a quota) moves KafkaMetric.quota_epoch to a value it never had before,
# after the change, so that a sensor which looked at its metrics before the change looks again (see Sensor.record).
_QUOTA_EPOCHS = itertools.count(1)


def note_quota_change() -> None:
    """Called after a change that may give a metric a quota or take it away (see KafkaMetric.quota_epoch)."""
    KafkaMetric.quota_epoch = next(_QUOTA_EPOCHS)


class KafkaMetric(Metric):
    """A registered metric: a name, a value provider and the config it is measured under.

    Thread-safety: reads of the value and changes of the config hold `lock`, which a sensor shares between all its
    metrics and holds while recording into their stats, as Java's metric lock is.
    """

    __slots__ = ("_metric_name", "_lock", "_time", "_metric_value_provider", "_config")

    #: A new value after each change that may give a metric a quota or take it away (note_quota_change).
    quota_epoch: ClassVar[int] = 0

    def __init__(
        self,
        lock: threading.RLock,
        metric_name: MetricName,
        value_provider: MetricValueProvider,
        config: MetricConfig,
        time: Time,
    ) -> None:
        if not isinstance(value_provider, Measurable | Gauge):
            raise ValueError(f"Unsupported metric value provider of class {type(value_provider).__name__}")
        self._metric_name = metric_name
        self._lock = lock
        self._metric_value_provider = value_provider
        self._config = config
        self._time = time

    @property
    def config(self) -> MetricConfig:
        return self._config

    @config.setter
    def config(self, config: MetricConfig) -> None:
        with self._lock:
            self._config = config
        note_quota_change()

    def metric_name(self) -> MetricName:
        return self._metric_name

    def metric_value(self) -> Any:
        now = self._time.milliseconds()
        with self._lock:
            provider = self._metric_value_provider
            if isinstance(provider, Measurable):
                return provider.measure(self._config, now)
            if isinstance(provider, Gauge):
                return provider.value(self._config, now)
            raise RuntimeError(f"Not a valid metric: {type(provider).__name__}")

    def measurable(self) -> Measurable:
        """The Measurable behind this metric (RuntimeError, Java's IllegalStateException, for a gauge)."""
        if isinstance(self._metric_value_provider, Measurable):
            return self._metric_value_provider
        raise RuntimeError(f"Not a measurable: {type(self._metric_value_provider).__name__}")

    def measurable_value(self, time_ms: int) -> float:
        """The value at `time_ms` of a measurable metric (0.0 for a gauge)."""
        with self._lock:
            if isinstance(self._metric_value_provider, Measurable):
                return self._metric_value_provider.measure(self._config, time_ms)
            return 0.0

    def __repr__(self) -> str:
        return f"KafkaMetric({self._metric_name!r})"
