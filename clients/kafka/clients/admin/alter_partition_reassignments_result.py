"""Port of clients/src/main/java/org/apache/kafka/clients/admin/AlterPartitionReassignmentsResult.java (Kafka 3.7).

The futures of alterPartitionReassignments: one per partition, done when the controller accepted (or
cancelled) that partition's reassignment.
"""

from __future__ import annotations

from collections.abc import Mapping

from kafka.common.kafka_future import KafkaFuture
from kafka.common.topic_partition import TopicPartition

__all__ = ["AlterPartitionReassignmentsResult"]


class AlterPartitionReassignmentsResult:
    def __init__(self, futures: Mapping[TopicPartition, KafkaFuture[None]]) -> None:
        self._futures = dict(futures)

    def values(self) -> dict[TopicPartition, KafkaFuture[None]]:
        return self._futures

    def all(self) -> KafkaFuture[None]:
        return KafkaFuture.all_of(self._futures.values())
