"""Port of core/src/main/scala/kafka/metrics/KafkaMetricsGroup.scala (Kafka 2.8).

The mixin through which broker classes create their Yammer metrics in `KafkaYammerMetrics.default_registry()`,
named `<group>:type=<type>,name=<name>[,tag=value...]` where group and type come from the class: Kafka takes the
JVM package and the simple class name; here the Python module's package (`kafka.server.replica_manager` ->
`kafka.server`) and the class name. A class whose Kafka name differs sets `metrics_group` and/or
`metrics_type_name`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from kafka.common.utils.sanitizer import jmx_sanitize
from kafka.metrics.kafka_yammer_metrics import KafkaYammerMetrics
from kafka.metrics.yammer.gauge import Gauge
from kafka.metrics.yammer.histogram import Histogram
from kafka.metrics.yammer.meter import Meter
from kafka.metrics.yammer.metric_name import MetricName
from kafka.metrics.yammer.timer import Timer
from kafka.utils.time_unit import TimeUnit

__all__ = ["KafkaMetricsGroup", "explicit_metric_name"]

Tags = Mapping[str, str]


def explicit_metric_name(group: str, type_name: str, name: str, tags: Tags | None = None) -> MetricName:
    """The MetricName Kafka builds for `group`, `type_name`, `name` and `tags` (in the order given; tags with an
    empty value are left out; values are quoted for JMX where needed)."""
    parts = [group, ":type=", type_name]
    if name:
        parts.append(",name=")
        parts.append(name)
    filtered = [(k, v) for k, v in tags.items() if v != ""] if tags else []
    scope = None
    if filtered:
        for k, v in filtered:
            parts.append(f",{k}={jmx_sanitize(v)}")
        scope = ".".join(f"{k}.{v.replace('.', '_')}" for k, v in sorted(filtered, key=lambda kv: kv[0]))
    return MetricName(group, type_name, name, scope, "".join(parts))


class KafkaMetricsGroup:
    """Mixin: `new_gauge/new_meter/new_histogram/new_timer/remove_metric` under this class's group and type."""

    metrics_group: str | None = None
    metrics_type_name: str | None = None

    def _metrics_group_and_type(self) -> tuple[str, str]:
        cls = type(self)
        group = self.metrics_group
        if group is None:
            module = cls.__module__
            group = module.rpartition(".")[0] if "." in module else ""
        type_name = self.metrics_type_name if self.metrics_type_name is not None else cls.__name__
        return group, type_name

    def metric_name(self, name: str, tags: Tags | None = None) -> MetricName:
        group, type_name = self._metrics_group_and_type()
        return explicit_metric_name(group, type_name, name, tags)

    def explicit_metric_name(self, group: str, type_name: str, name: str, tags: Tags | None = None) -> MetricName:
        return explicit_metric_name(group, type_name, name, tags)

    def new_gauge(self, name: str, metric: Gauge | Callable[[], Any], tags: Tags | None = None) -> Gauge:
        return KafkaYammerMetrics.default_registry().new_gauge(self.metric_name(name, tags), metric)

    def new_meter(self, name: str, event_type: str, time_unit: TimeUnit, tags: Tags | None = None) -> Meter:
        return KafkaYammerMetrics.default_registry().new_meter(self.metric_name(name, tags), event_type, time_unit)

    def new_histogram(self, name: str, biased: bool = True, tags: Tags | None = None) -> Histogram:
        return KafkaYammerMetrics.default_registry().new_histogram(self.metric_name(name, tags), biased)

    def new_timer(self, name: str, duration_unit: TimeUnit, rate_unit: TimeUnit, tags: Tags | None = None) -> Timer:
        return KafkaYammerMetrics.default_registry().new_timer(self.metric_name(name, tags), duration_unit, rate_unit)

    def remove_metric(self, name: str, tags: Tags | None = None) -> None:
        KafkaYammerMetrics.default_registry().remove_metric(self.metric_name(name, tags))
