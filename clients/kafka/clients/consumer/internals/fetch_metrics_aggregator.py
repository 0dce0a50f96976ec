"""Port of clients/src/main/java/org/apache/kafka/clients/consumer/internals/FetchMetricsAggregator.java (Kafka 3.7).

Sums the bytes and records of one fetch response's partitions as the application drains them, and hands the
totals (for the fetch and per topic) to the FetchMetricsManager once every partition of the response is drained:
the fetch-size and records-per-request metrics are per response, not per partition.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kafka.clients.consumer.internals.fetch_metrics_manager import FetchMetricsManager
    from kafka.common.topic_partition import TopicPartition

__all__ = ["FetchMetricsAggregator"]


class FetchMetricsAggregator:
    """The bytes and records drained so far from one fetch response (used by the thread that polls)."""

    __slots__ = ("_metrics_manager", "_unrecorded_partitions", "_bytes", "_records", "_per_topic")

    def __init__(self, metrics_manager: FetchMetricsManager, partitions: Iterable[TopicPartition]) -> None:
        self._metrics_manager = metrics_manager
        self._unrecorded_partitions = set(partitions)
        self._bytes = 0
        self._records = 0
        # Per topic: [bytes, records].
        self._per_topic: dict[str, list[int]] = {}

    def record(self, partition: TopicPartition, num_bytes: int, records: int) -> None:
        self._bytes += num_bytes
        self._records += records
        topic_totals = self._per_topic.get(partition.topic)
        if topic_totals is None:
            self._per_topic[partition.topic] = [num_bytes, records]
        else:
            topic_totals[0] += num_bytes
            topic_totals[1] += records
        self._maybe_record_metrics(partition)

    def _maybe_record_metrics(self, partition: TopicPartition) -> None:
        self._unrecorded_partitions.discard(partition)
        if self._unrecorded_partitions:
            return
        self._metrics_manager.record_fetch_totals(self._bytes, self._records, self._per_topic)
