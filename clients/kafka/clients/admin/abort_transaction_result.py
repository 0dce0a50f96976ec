"""Port of clients/src/main/java/org/apache/kafka/clients/admin/AbortTransactionResult.java (Kafka 3.7).

The outcome of abortTransaction: done once the abort marker is written on the partition.
"""

from __future__ import annotations

from collections.abc import Mapping

from kafka.common.kafka_future import KafkaFuture
from kafka.common.topic_partition import TopicPartition

__all__ = ["AbortTransactionResult"]


class AbortTransactionResult:
    def __init__(self, futures: Mapping[TopicPartition, KafkaFuture[None]]) -> None:
        self._futures = dict(futures)

    def all(self) -> KafkaFuture[None]:
        """Completes when the marker is written; fails with the partition's error."""
        return KafkaFuture.all_of(self._futures.values())
