"""Port of clients/src/main/java/org/apache/kafka/clients/admin/DescribeReplicaLogDirsResult.java (Kafka 3.7).

The futures of describeReplicaLogDirs: where each replica lives, and where it is being moved to.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from kafka.clients.admin._results import all_values
from kafka.common.kafka_future import KafkaFuture
from kafka.common.topic_partition_replica import TopicPartitionReplica

__all__ = ["INVALID_OFFSET_LAG", "DescribeReplicaLogDirsResult", "ReplicaLogDirInfo"]

# DescribeLogDirsResponse.INVALID_OFFSET_LAG.
INVALID_OFFSET_LAG = -1


@dataclass(frozen=True, slots=True)
class ReplicaLogDirInfo:
    """The current log directory of a replica (None if the broker has no such replica) with its lag behind the
    high watermark, and the directory it is being moved to (None if it is not moving) with that copy's lag."""

    current_replica_log_dir: str | None = None
    current_replica_offset_lag: int = INVALID_OFFSET_LAG
    future_replica_log_dir: str | None = None
    future_replica_offset_lag: int = INVALID_OFFSET_LAG

    def __str__(self) -> str:
        if self.future_replica_log_dir is not None:
            return (
                f"(currentReplicaLogDir={self.current_replica_log_dir}, futureReplicaLogDir="
                f"{self.future_replica_log_dir}, futureReplicaOffsetLag={self.future_replica_offset_lag})"
            )
        return f"ReplicaLogDirInfo(currentReplicaLogDir={self.current_replica_log_dir})"


class DescribeReplicaLogDirsResult:
    def __init__(self, futures: Mapping[TopicPartitionReplica, KafkaFuture[ReplicaLogDirInfo]]) -> None:
        self._futures = dict(futures)

    def values(self) -> dict[TopicPartitionReplica, KafkaFuture[ReplicaLogDirInfo]]:
        return self._futures

    def all(self) -> KafkaFuture[dict[TopicPartitionReplica, ReplicaLogDirInfo]]:
        return all_values(self._futures)
