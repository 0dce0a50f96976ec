"""Port of clients/src/main/java/org/apache/kafka/clients/admin/AlterReplicaLogDirsResult.java (Kafka 3.7).

The futures of alterReplicaLogDirs: one per replica, done when its broker accepted the move (or remembered the
directory for a replica it does not host yet, which fails with ReplicaNotAvailableException). A move that is
accepted has only started: describeReplicaLogDirs shows the future replica until it has caught up.
"""

from __future__ import annotations

from collections.abc import Mapping

from kafka.common.kafka_future import KafkaFuture
from kafka.common.topic_partition_replica import TopicPartitionReplica

__all__ = ["AlterReplicaLogDirsResult"]


class AlterReplicaLogDirsResult:
    def __init__(self, futures: Mapping[TopicPartitionReplica, KafkaFuture[None]]) -> None:
        self._futures = dict(futures)

    def values(self) -> dict[TopicPartitionReplica, KafkaFuture[None]]:
        return self._futures

    def all(self) -> KafkaFuture[None]:
        return KafkaFuture.all_of(self._futures.values())
