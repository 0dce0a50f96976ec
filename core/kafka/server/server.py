"""Port of core/src/main/scala/kafka/server/Server.scala (Kafka 2.8): the broker's Metrics registry.

`initialize_metrics` makes the Metrics a broker hands to its quota managers (and, with issue 16, to everything that
registers sensors): sampled as `metrics.num.samples` windows of `metrics.sample.window.ms`, recording at
`metrics.recording.level`, expiring idle sensors (thread `SensorExpiryThread`), with the context labels
`_namespace=kafka.server`, `kafka.cluster.id`, `kafka.broker.id` and every `metrics.context.*` config.

# PORT: Kafka adds a JmxReporter as the default reporter; there is no JMX here, so the registry starts with no
# reporter (the Prometheus reporter of issue 16 is to be added here). The `Server` trait and its ProcessStatus
# values (used by the KRaft servers) are not ported.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from kafka.common.metrics.kafka_metrics_context import KafkaMetricsContext
from kafka.common.metrics.metric_config import MetricConfig
from kafka.common.metrics.metrics import Metrics
from kafka.common.metrics.sensor import RecordingLevel

if TYPE_CHECKING:
    from kafka.common.utils.time import Time
    from kafka.server.kafka_config import KafkaConfig

__all__ = [
    "BROKER_ID_LABEL",
    "CLUSTER_ID_LABEL",
    "METRICS_PREFIX",
    "NODE_ID_LABEL",
    "build_metrics_config",
    "create_kafka_metrics_context",
    "initialize_metrics",
]

METRICS_PREFIX: Final = "kafka.server"
CLUSTER_ID_LABEL: Final = "kafka.cluster.id"
BROKER_ID_LABEL: Final = "kafka.broker.id"
NODE_ID_LABEL: Final = "kafka.node.id"
#: CommonClientConfigs.METRICS_CONTEXT_PREFIX
_METRICS_CONTEXT_PREFIX: Final = "metrics.context."


def initialize_metrics(config: KafkaConfig, time: Time, cluster_id: str) -> Metrics:
    """The broker's Metrics registry (see the module docstring); KafkaServer closes it at shutdown."""
    metrics_context = create_kafka_metrics_context(config, cluster_id)
    return Metrics(build_metrics_config(config), [], time, True, metrics_context)


def build_metrics_config(kafka_config: KafkaConfig) -> MetricConfig:
    """The default MetricConfig of the broker's registry."""
    return MetricConfig(
        samples=kafka_config.metric_num_samples,
        time_window_ms=kafka_config.metric_sample_window_ms,
        record_level=RecordingLevel.for_name(kafka_config.metric_recording_level),
    )


def create_kafka_metrics_context(config: KafkaConfig, cluster_id: str) -> KafkaMetricsContext:
    """The labels every reporter of the broker's registry is given."""
    context_labels: dict[str, object] = {CLUSTER_ID_LABEL: cluster_id}
    if config.uses_self_managed_quorum:
        context_labels[NODE_ID_LABEL] = str(config.node_id)
    else:
        context_labels[BROKER_ID_LABEL] = str(config.broker_id)
    context_labels.update(config.originals_with_prefix(_METRICS_CONTEXT_PREFIX))
    return KafkaMetricsContext(METRICS_PREFIX, context_labels)
