"""Port of clients/src/main/java/org/apache/kafka/clients/producer/internals/KafkaProducerMetrics.java (Kafka 3.7).

The total time (ns) the application's thread spent in the producer's blocking calls, in group producer-metrics:
flush, the five transaction calls and the waits for a topic's metadata in send.
"""

from __future__ import annotations

from kafka.common.metrics.metrics import Metrics
from kafka.common.metrics.sensor import Sensor
from kafka.common.metrics.stats.cumulative_sum import CumulativeSum

__all__ = ["KafkaProducerMetrics"]


class KafkaProducerMetrics:
    """One `{name}-time-ns-total` cumulative sum per blocking call."""

    GROUP = "producer-metrics"
    _FLUSH = "flush"
    _TXN_INIT = "txn-init"
    _TXN_BEGIN = "txn-begin"
    _TXN_SEND_OFFSETS = "txn-send-offsets"
    _TXN_COMMIT = "txn-commit"
    _TXN_ABORT = "txn-abort"
    _TOTAL_TIME_SUFFIX = "-time-ns-total"
    _METADATA_WAIT = "metadata-wait"

    def __init__(self, metrics: Metrics) -> None:
        self._metrics = metrics
        self._tags = dict(metrics.config().tags)
        self._flush_time_sensor = self._new_latency_sensor(
            self._FLUSH, "Total time producer has spent in flush in nanoseconds."
        )
        self._init_time_sensor = self._new_latency_sensor(
            self._TXN_INIT, "Total time producer has spent in initTransactions in nanoseconds."
        )
        self._begin_txn_time_sensor = self._new_latency_sensor(
            self._TXN_BEGIN, "Total time producer has spent in beginTransaction in nanoseconds."
        )
        self._send_offsets_sensor = self._new_latency_sensor(
            self._TXN_SEND_OFFSETS, "Total time producer has spent in sendOffsetsToTransaction in nanoseconds."
        )
        self._commit_txn_sensor = self._new_latency_sensor(
            self._TXN_COMMIT, "Total time producer has spent in commitTransaction in nanoseconds."
        )
        self._abort_txn_sensor = self._new_latency_sensor(
            self._TXN_ABORT, "Total time producer has spent in abortTransaction in nanoseconds."
        )
        self._metadata_wait_sensor = self._new_latency_sensor(
            self._METADATA_WAIT, "Total time producer has spent waiting on topic metadata in nanoseconds."
        )

    def close(self) -> None:
        for name in (
            self._FLUSH,
            self._TXN_INIT,
            self._TXN_BEGIN,
            self._TXN_SEND_OFFSETS,
            self._TXN_COMMIT,
            self._TXN_ABORT,
            self._METADATA_WAIT,
        ):
            self._metrics.remove_sensor(name + self._TOTAL_TIME_SUFFIX)

    def record_flush(self, duration_ns: int) -> None:
        self._flush_time_sensor.record(duration_ns)

    def record_init(self, duration_ns: int) -> None:
        self._init_time_sensor.record(duration_ns)

    def record_begin_txn(self, duration_ns: int) -> None:
        self._begin_txn_time_sensor.record(duration_ns)

    def record_send_offsets(self, duration_ns: int) -> None:
        self._send_offsets_sensor.record(duration_ns)

    def record_commit_txn(self, duration_ns: int) -> None:
        self._commit_txn_sensor.record(duration_ns)

    def record_abort_txn(self, duration_ns: int) -> None:
        self._abort_txn_sensor.record(duration_ns)

    def record_metadata_wait(self, duration_ns: int) -> None:
        self._metadata_wait_sensor.record(duration_ns)

    def _new_latency_sensor(self, name: str, description: str) -> Sensor:
        sensor = self._metrics.sensor(name + self._TOTAL_TIME_SUFFIX)
        sensor.add(
            self._metrics.metric_name(name + self._TOTAL_TIME_SUFFIX, self.GROUP, description, self._tags),
            CumulativeSum(),
        )
        return sensor
