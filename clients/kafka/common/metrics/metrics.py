"""Port of clients/src/main/java/org/apache/kafka/common/metrics/Metrics.java (Kafka 2.8).

The registry of a process's sensors and metrics, with the reporters told of every metric added or removed. With
`enable_expiration`, a `SensorExpiryThread` removes every 30 s the sensors that recorded nothing for longer than
their inactivity time (and their metrics, and their child sensors).

Thread-safety: the registry's own lock (Java's `synchronized (this)`) guards creating sensors and registering and
removing metrics; `remove_sensor` holds the sensor's lock, then the registry's (the order Sensor.add takes them in).
Reporters are called with the registry lock held, as in Kafka.

# PORT: `metrics()` returns a snapshot of the map (Java hands out its live ConcurrentHashMap, which can be iterated
# while it changes; a Python dict cannot); `metric(name)` looks one metric up. MetricNameTemplate,
# `metric_instance` and `to_html_table` (used by Kafka's documentation build) are not ported.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Final

from kafka.common.metric_name import MetricName
from kafka.common.metrics.kafka_metric import KafkaMetric
from kafka.common.metrics.kafka_metrics_context import KafkaMetricsContext
from kafka.common.metrics.measurable import Measurable
from kafka.common.metrics.metric_config import MetricConfig
from kafka.common.metrics.sensor import RecordingLevel, Sensor
from kafka.common.utils.kafka_thread import KafkaThread
from kafka.common.utils.log_context import TRACE
from kafka.common.utils.time import Time

if TYPE_CHECKING:
    from kafka.common.metrics.metric_value_provider import MetricValueProvider
    from kafka.common.metrics.metrics_context import MetricsContext
    from kafka.common.metrics.metrics_reporter import MetricsReporter

__all__ = ["Metrics"]

log = logging.getLogger("org.apache.kafka.common.metrics.Metrics")

_LONG_MAX: Final = 2**63 - 1
#: How often the SensorExpiryThread looks for expired sensors (Kafka: 30 s, after a first delay of 30 s).
_EXPIRE_SENSOR_INTERVAL_SECONDS: Final = 30.0


class _MetricCount(Measurable):
    """The `count` metric of group `kafka-metrics-count`: how many metrics are registered."""

    def __init__(self, metrics: dict[MetricName, KafkaMetric]) -> None:
        self._metrics = metrics

    def measure(self, config: MetricConfig, now: int) -> float:
        return float(len(self._metrics))


class Metrics:
    """A registry of sensors and metrics (see the module docstring)."""

    def __init__(
        self,
        default_config: MetricConfig | None = None,
        reporters: Iterable[MetricsReporter] | None = None,
        time: Time = Time.SYSTEM,
        enable_expiration: bool = False,
        metrics_context: MetricsContext | None = None,
    ) -> None:
        self._config = default_config if default_config is not None else MetricConfig()
        self._sensors: dict[str, Sensor] = {}
        self._metrics: dict[MetricName, KafkaMetric] = {}
        self._children_sensors: dict[Sensor, list[Sensor]] = {}
        self._reporters: list[MetricsReporter] = list(reporters) if reporters is not None else []
        self._time = time
        self._lock = threading.RLock()
        context = metrics_context if metrics_context is not None else KafkaMetricsContext("")
        for reporter in self._reporters:
            reporter.context_change(context)
            reporter.init([])
        self._expiry_shutdown = threading.Event()
        self._metrics_scheduler: KafkaThread | None = None
        if enable_expiration:
            self._metrics_scheduler = KafkaThread.daemon_thread("SensorExpiryThread", self._run_expire_sensor_task)
            self._metrics_scheduler.start()
        self.add_metric(
            self.metric_name("count", "kafka-metrics-count", "total number of registered metrics"),
            _MetricCount(self._metrics),
        )

    def metric_name(
        self, name: str, group: str, description: str = "", tags: Mapping[str, str] | None = None
    ) -> MetricName:
        """A MetricName with the registry's default tags (from its config) overridden by `tags`; for Java's
        key/value form pass `get_tags("k1", "v1", ...)` from kafka.common.metrics.internals.metrics_utils."""
        combined_tags = dict(self._config.tags)
        if tags:
            combined_tags.update(tags)
        return MetricName(name, group, description, combined_tags)

    def config(self) -> MetricConfig:
        return self._config

    def get_sensor(self, name: str) -> Sensor | None:
        """The sensor named `name`, or None."""
        if name is None:
            raise TypeError("name")
        return self._sensors.get(name)

    def sensor(
        self,
        name: str,
        *parents: Sensor,
        config: MetricConfig | None = None,
        inactive_sensor_expiration_time_seconds: int = _LONG_MAX,
        recording_level: RecordingLevel = RecordingLevel.INFO,
    ) -> Sensor:
        """The sensor named `name`, created (with these parents, config, expiration and level) if it does not
        exist; an existing sensor is returned as it is."""
        with self._lock:
            s = self.get_sensor(name)
            if s is None:
                s = Sensor(
                    self,
                    name,
                    parents,
                    config if config is not None else self._config,
                    self._time,
                    inactive_sensor_expiration_time_seconds,
                    recording_level,
                )
                self._sensors[name] = s
                for parent in parents:
                    self._children_sensors.setdefault(parent, []).append(s)
                if log.isEnabledFor(TRACE):
                    log.log(TRACE, "Added sensor with name %s", name)
            return s

    def remove_sensor(self, name: str) -> None:
        """Removes the sensor, its metrics, and (recursively) the sensors that have it as a parent."""
        sensor = self._sensors.get(name)
        if sensor is None:
            return
        child_sensors: list[Sensor] | None = None
        with sensor.lock, self._lock:
            if self._sensors.get(name) is sensor:
                del self._sensors[name]
                for metric in sensor.metrics():
                    self.remove_metric(metric.metric_name())
                if log.isEnabledFor(TRACE):
                    log.log(TRACE, "Removed sensor with name %s", name)
                child_sensors = self._children_sensors.pop(sensor, None)
                for parent in sensor.parents():
                    siblings = self._children_sensors.get(parent)
                    if siblings is not None and sensor in siblings:
                        siblings.remove(sensor)
        if child_sensors is not None:
            for child_sensor in child_sensors:
                self.remove_sensor(child_sensor.name())

    def add_metric(
        self, metric_name: MetricName, metric_value_provider: MetricValueProvider, config: MetricConfig | None = None
    ) -> None:
        """Registers a metric read from a Measurable or a Gauge, outside any sensor; ValueError if the name exists."""
        if metric_name is None or metric_value_provider is None:
            raise TypeError("a metric needs a name and a value provider")
        metric = KafkaMetric(
            threading.RLock(),
            metric_name,
            metric_value_provider,
            config if config is not None else self._config,
            self._time,
        )
        self.register_metric(metric)

    def remove_metric(self, metric_name: MetricName) -> KafkaMetric | None:
        """Removes the metric and tells the reporters; the removed metric, or None."""
        with self._lock:
            metric = self._metrics.pop(metric_name, None)
            if metric is not None:
                for reporter in self._reporters:
                    try:
                        reporter.metric_removal(metric)
                    except Exception as e:
                        log.error("Error when removing metric from %s", type(reporter).__name__, exc_info=e)
                if log.isEnabledFor(TRACE):
                    log.log(TRACE, "Removed metric named %s", metric_name)
            return metric

    def add_reporter(self, reporter: MetricsReporter) -> None:
        """Adds a reporter, first handing it every registered metric."""
        with self._lock:
            if reporter is None:
                raise TypeError("reporter")
            reporter.init(list(self._metrics.values()))
            self._reporters.append(reporter)

    def remove_reporter(self, reporter: MetricsReporter) -> None:
        """Removes and closes the reporter (if it was added)."""
        with self._lock:
            if reporter in self._reporters:
                self._reporters.remove(reporter)
                reporter.close()

    def register_metric(self, metric: KafkaMetric) -> None:
        """Adds the metric to the registry and tells the reporters; ValueError if its name is taken."""
        with self._lock:
            metric_name = metric.metric_name()
            if metric_name in self._metrics:
                raise ValueError(f"A metric named '{metric_name}' already exists, can't register another one.")
            self._metrics[metric_name] = metric
            for reporter in self._reporters:
                try:
                    reporter.metric_change(metric)
                except Exception as e:
                    log.error("Error when registering metric on %s", type(reporter).__name__, exc_info=e)
            if log.isEnabledFor(TRACE):
                log.log(TRACE, "Registered metric named %s", metric_name)

    def metrics(self) -> dict[MetricName, KafkaMetric]:
        """A snapshot of the registered metrics (see the PORT note of the module)."""
        return dict(self._metrics)

    def reporters(self) -> list[MetricsReporter]:
        return self._reporters

    def metric(self, metric_name: MetricName) -> KafkaMetric | None:
        """The metric named `metric_name`, or None."""
        return self._metrics.get(metric_name)

    def expire_sensors(self) -> None:
        """Java's ExpireSensorTask: removes every sensor that has expired (with its metrics and children)."""
        for name, sensor in list(self._sensors.items()):
            with sensor.lock:
                if sensor.has_expired():
                    log.debug("Removing expired sensor %s", name)
                    self.remove_sensor(name)

    def _run_expire_sensor_task(self) -> None:
        while not self._expiry_shutdown.wait(_EXPIRE_SENSOR_INTERVAL_SECONDS):
            try:
                self.expire_sensors()
            except Exception as e:
                # PORT: a scheduled task that throws is not run again in Java; here expiry goes on, the error logged.
                log.error("Error while expiring sensors", exc_info=e)

    def children_sensors(self) -> dict[Sensor, list[Sensor]]:
        """Each parent sensor's children (for tests)."""
        with self._lock:
            return {parent: list(children) for parent, children in self._children_sensors.items()}

    def close(self) -> None:
        """Stops the SensorExpiryThread and closes the reporters."""
        if self._metrics_scheduler is not None:
            self._expiry_shutdown.set()
            if self._metrics_scheduler is not threading.current_thread():
                self._metrics_scheduler.join(30)
        log.info("Metrics scheduler closed")
        for reporter in self._reporters:
            try:
                log.info("Closing reporter %s", type(reporter).__name__)
                reporter.close()
            except Exception as e:
                log.error("Error when closing %s", type(reporter).__name__, exc_info=e)
        log.info("Metrics reporters closed")

    def __enter__(self) -> Metrics:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
