"""Port of clients/src/main/java/org/apache/kafka/clients/admin/DeleteRecordsResult.java (Kafka 3.7).

The futures of deleteRecords: each partition's new low watermark.
"""

from __future__ import annotations

from collections.abc import Mapping

from kafka.clients.admin.deleted_records import DeletedRecords
from kafka.common.kafka_future import KafkaFuture
from kafka.common.topic_partition import TopicPartition

__all__ = ["DeleteRecordsResult"]


class DeleteRecordsResult:
    def __init__(self, futures: Mapping[TopicPartition, KafkaFuture[DeletedRecords]]) -> None:
        self._futures = dict(futures)

    def low_watermarks(self) -> dict[TopicPartition, KafkaFuture[DeletedRecords]]:
        return self._futures

    def all(self) -> KafkaFuture[None]:
        return KafkaFuture.all_of(self._futures.values())
