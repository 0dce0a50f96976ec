"""Port of clients/src/main/java/org/apache/kafka/common/TopicPartitionReplica.java (Kafka 3.7).

The replica of one partition on one broker, as describeReplicaLogDirs takes it.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["TopicPartitionReplica"]


@dataclass(frozen=True, slots=True)
class TopicPartitionReplica:
    """A topic, a partition and a broker id; prints as `topic-partition-brokerId`, as Java's toString."""

    topic: str
    partition: int
    broker_id: int

    def __str__(self) -> str:
        return f"{self.topic}-{self.partition}-{self.broker_id}"
