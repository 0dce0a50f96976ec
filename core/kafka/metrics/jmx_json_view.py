"""The broker's metrics as MBeans and attributes, in JSON at `GET /jmx` beside `/metrics` (for JmxTool, issue 16).

# PORT: Kafka's metrics are JMX MBeans, read by tools such as kafka.tools.JmxTool over a JMX connector (RMI). A
# Python broker has no MBean server, so the metrics endpoint also serves the MBeans its metrics would be, with the
# attributes Yammer's and Kafka's JMX reporters give them, as JSON in the shape of Hadoop's `/jmx` servlet:
#   {"beans": [{"name": "kafka.server:type=ReplicaManager,name=PartitionCount", "Value": 3}, ...]}
# The MBean names and attributes are the ones PrometheusReporter renders for the exporter rules.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, Final

from kafka.metrics.prometheus_reporter import PrometheusReporter, _yammer_attributes

if TYPE_CHECKING:
    from kafka.common.metrics.metrics import Metrics
    from kafka.metrics.yammer.metrics_registry import MetricsRegistry

__all__ = ["JMX_JSON_PATH", "jmx_json_app", "mbeans"]

JMX_JSON_PATH: Final = "/jmx"

log = logging.getLogger("kafka.metrics.PrometheusReporter")

_WsgiApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


def _json_value(value: Any) -> Any:
    """A value JSON can carry: numbers and booleans as they are, anything else (a state name) as its text."""
    if value is None or isinstance(value, (bool, int, float, str)):
        if isinstance(value, float) and value != value:  # NaN: JSON has no such number
            return "NaN"
        if isinstance(value, float) and value in (float("inf"), float("-inf")):
            return "Infinity" if value > 0 else "-Infinity"
        return value
    return str(value)


def mbeans(yammer_registry: MetricsRegistry, java_metrics: Metrics | None = None) -> list[dict[str, Any]]:
    """Every MBean of the registry's metrics and of `java_metrics`, sorted by name; an attribute whose value
    cannot be read now (a gauge of a component shutting down) is left out."""
    beans: dict[str, dict[str, Any]] = {}
    for metric_name, metric in yammer_registry.all_metrics().items():
        bean = beans.setdefault(metric_name.mbean_name, {"name": metric_name.mbean_name})
        for attribute, getter in _yammer_attributes(metric):
            try:
                bean[attribute] = _json_value(getter())
            except Exception as e:
                log.debug("Skipping %s:%s: %s", metric_name.mbean_name, attribute, e)
    if java_metrics is not None:
        for java_name, kafka_metric in list(java_metrics.metrics().items()):
            mbean_name = PrometheusReporter._java_mbean_name(java_name.group, java_name.tags)
            bean = beans.setdefault(mbean_name, {"name": mbean_name})
            try:
                bean[java_name.name] = _json_value(kafka_metric.metric_value())
            except Exception as e:
                log.debug("Skipping %s:%s: %s", mbean_name, java_name.name, e)
    return [beans[name] for name in sorted(beans)]


def jmx_json_app(reporter: PrometheusReporter, metrics_app: _WsgiApp) -> _WsgiApp:
    """A WSGI app serving `/jmx` from the reporter's metrics and everything else with `metrics_app`."""

    def app(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        if environ.get("PATH_INFO") != JMX_JSON_PATH:
            return metrics_app(environ, start_response)
        body = json.dumps({"beans": mbeans(reporter.yammer_registry, reporter.java_metrics)}).encode()
        start_response("200 OK", [("Content-Type", "application/json"), ("Content-Length", str(len(body)))])
        return [body]

    return app
