"""Port of clients/src/main/java/org/apache/kafka/clients/producer/internals/SenderMetricsRegistry.java (Kafka 3.7).

The names of the Sender's metrics: group `producer-metrics` (tags: the registry's, i.e. `client-id`) and, per topic,
`producer-topic-metrics` (plus tag `topic`).

# PORT: Java keeps MetricNameTemplates for the per-topic names (for its documentation build); here the per-topic
# names are made from a (name, description) pair and the topic's tags.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kafka.common.metric_name import MetricName
    from kafka.common.metrics.measurable import Measurable
    from kafka.common.metrics.metrics import Metrics
    from kafka.common.metrics.sensor import Sensor

__all__ = ["SenderMetricsRegistry"]


class SenderMetricsRegistry:
    """The Sender's metric names, made once against the producer's Metrics."""

    METRIC_GROUP_NAME = "producer-metrics"
    TOPIC_METRIC_GROUP_NAME = "producer-topic-metrics"

    def __init__(self, metrics: Metrics) -> None:
        self._metrics = metrics
        self._tags = metrics.config().tags
        name = self._create_metric_name
        self.batch_size_avg = name("batch-size-avg", "The average number of bytes sent per partition per-request.")
        self.batch_size_max = name("batch-size-max", "The max number of bytes sent per partition per-request.")
        self.compression_rate_avg = name(
            "compression-rate-avg",
            "The average compression rate of record batches, defined as the average ratio of the compressed batch "
            "size over the uncompressed size.",
        )
        self.record_queue_time_avg = name(
            "record-queue-time-avg", "The average time in ms record batches spent in the send buffer."
        )
        self.record_queue_time_max = name(
            "record-queue-time-max", "The maximum time in ms record batches spent in the send buffer."
        )
        self.request_latency_avg = name("request-latency-avg", "The average request latency in ms")
        self.request_latency_max = name("request-latency-max", "The maximum request latency in ms")
        self.record_send_rate = name("record-send-rate", "The average number of records sent per second.")
        self.record_send_total = name("record-send-total", "The total number of records sent.")
        self.records_per_request_avg = name("records-per-request-avg", "The average number of records per request.")
        self.record_retry_rate = name("record-retry-rate", "The average per-second number of retried record sends")
        self.record_retry_total = name("record-retry-total", "The total number of retried record sends")
        self.record_error_rate = name(
            "record-error-rate", "The average per-second number of record sends that resulted in errors"
        )
        self.record_error_total = name("record-error-total", "The total number of record sends that resulted in errors")
        self.record_size_max = name("record-size-max", "The maximum record size")
        self.record_size_avg = name("record-size-avg", "The average record size")
        self.requests_in_flight = name(
            "requests-in-flight", "The current number of in-flight requests awaiting a response."
        )
        self.metadata_age = name("metadata-age", "The age in seconds of the current producer metadata being used.")
        self.batch_split_rate = name("batch-split-rate", "The average number of batch splits per second")
        self.batch_split_total = name("batch-split-total", "The total number of batch splits")
        self.produce_throttle_time_avg = name(
            "produce-throttle-time-avg", "The average time in ms a request was throttled by a broker"
        )
        self.produce_throttle_time_max = name(
            "produce-throttle-time-max", "The maximum time in ms a request was throttled by a broker"
        )

    def _create_metric_name(self, name: str, description: str) -> MetricName:
        return self._metrics.metric_name(name, self.METRIC_GROUP_NAME, description, self._tags)

    def _topic_name(self, name: str, description: str, tags: Mapping[str, str]) -> MetricName:
        return self._metrics.metric_name(name, self.TOPIC_METRIC_GROUP_NAME, description, tags)

    def topic_record_send_rate(self, tags: Mapping[str, str]) -> MetricName:
        return self._topic_name("record-send-rate", "The average number of records sent per second for a topic.", tags)

    def topic_record_send_total(self, tags: Mapping[str, str]) -> MetricName:
        return self._topic_name("record-send-total", "The total number of records sent for a topic.", tags)

    def topic_byte_rate(self, tags: Mapping[str, str]) -> MetricName:
        return self._topic_name("byte-rate", "The average number of bytes sent per second for a topic.", tags)

    def topic_byte_total(self, tags: Mapping[str, str]) -> MetricName:
        return self._topic_name("byte-total", "The total number of bytes sent for a topic.", tags)

    def topic_compression_rate(self, tags: Mapping[str, str]) -> MetricName:
        return self._topic_name(
            "compression-rate",
            "The average compression rate of record batches for a topic, defined as the average ratio of the "
            "compressed batch size over the uncompressed size.",
            tags,
        )

    def topic_record_retry_rate(self, tags: Mapping[str, str]) -> MetricName:
        return self._topic_name(
            "record-retry-rate", "The average per-second number of retried record sends for a topic", tags
        )

    def topic_record_retry_total(self, tags: Mapping[str, str]) -> MetricName:
        return self._topic_name("record-retry-total", "The total number of retried record sends for a topic", tags)

    def topic_record_error_rate(self, tags: Mapping[str, str]) -> MetricName:
        return self._topic_name(
            "record-error-rate",
            "The average per-second number of record sends that resulted in errors for a topic",
            tags,
        )

    def topic_record_error_total(self, tags: Mapping[str, str]) -> MetricName:
        return self._topic_name(
            "record-error-total", "The total number of record sends that resulted in errors for a topic", tags
        )

    def sensor(self, name: str) -> Sensor:
        return self._metrics.sensor(name)

    def add_metric(self, metric_name: MetricName, measurable: Measurable) -> None:
        self._metrics.add_metric(metric_name, measurable)

    def get_sensor(self, name: str) -> Sensor | None:
        return self._metrics.get_sensor(name)
