"""Port of clients/src/main/java/org/apache/kafka/common/metrics (Kafka 2.8): sensors, stats and the registry of
metrics that quotas are enforced with and that reporters publish.

# PORT: JmxReporter (there is no JMX in Python; the Prometheus reporter of issue 16 takes its place),
# MetricNameTemplate and internals/IntGaugeSuite are not ported.
"""

from kafka.common.metric_name import MetricName
from kafka.common.metrics.compound_stat import CompoundStat, NamedMeasurable
from kafka.common.metrics.gauge import Gauge
from kafka.common.metrics.kafka_metric import KafkaMetric
from kafka.common.metrics.kafka_metrics_context import KafkaMetricsContext
from kafka.common.metrics.measurable import Measurable
from kafka.common.metrics.measurable_stat import MeasurableStat
from kafka.common.metrics.metric_config import MetricConfig
from kafka.common.metrics.metric_value_provider import MetricValueProvider
from kafka.common.metrics.metrics import Metrics
from kafka.common.metrics.metrics_context import MetricsContext
from kafka.common.metrics.metrics_reporter import MetricsReporter
from kafka.common.metrics.quota import Quota
from kafka.common.metrics.quota_violation_exception import QuotaViolationException
from kafka.common.metrics.sensor import RecordingLevel, Sensor
from kafka.common.metrics.stat import Stat

__all__ = [
    "CompoundStat",
    "Gauge",
    "KafkaMetric",
    "KafkaMetricsContext",
    "Measurable",
    "MeasurableStat",
    "MetricConfig",
    "MetricName",
    "MetricValueProvider",
    "Metrics",
    "MetricsContext",
    "MetricsReporter",
    "NamedMeasurable",
    "Quota",
    "QuotaViolationException",
    "RecordingLevel",
    "Sensor",
    "Stat",
]
