"""A port of the parts of Yammer Metrics 2.2.0 (`com.yammer.metrics.core`, metrics-core 2.2.0) that Kafka 2.8 uses.

Kafka's broker records its meters, histograms, timers and gauges in a Yammer `MetricsRegistry`
(`KafkaYammerMetrics.default_registry()`), registered under MBean names; the Prometheus reporter reads them from
there. Classes: `MetricName`, `Meter`, `Histogram` (with `Snapshot` and the two samples), `Timer`, `Gauge`,
`Counter` and `MetricsRegistry`.
"""

from __future__ import annotations

from kafka.metrics.yammer.counter import Counter
from kafka.metrics.yammer.ewma import EWMA
from kafka.metrics.yammer.gauge import Gauge
from kafka.metrics.yammer.histogram import Histogram
from kafka.metrics.yammer.meter import Meter
from kafka.metrics.yammer.metric_name import MetricName
from kafka.metrics.yammer.metrics_registry import Metric, MetricsRegistry, MetricsRegistryListener
from kafka.metrics.yammer.sample import ExponentiallyDecayingSample, Sample, Snapshot, UniformSample
from kafka.metrics.yammer.timer import Timer

__all__ = [
    "EWMA",
    "Counter",
    "ExponentiallyDecayingSample",
    "Gauge",
    "Histogram",
    "Meter",
    "Metric",
    "MetricName",
    "MetricsRegistry",
    "MetricsRegistryListener",
    "Sample",
    "Snapshot",
    "Timer",
    "UniformSample",
]
