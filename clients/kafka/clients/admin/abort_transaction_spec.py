"""Port of clients/src/main/java/org/apache/kafka/clients/admin/AbortTransactionSpec.java (Kafka 3.7).

What abortTransaction needs to write an abort marker on one partition: the partition, the producer id and epoch
of the open transaction, and the coordinator epoch the marker carries.
"""

from __future__ import annotations

from dataclasses import dataclass

from kafka.common.topic_partition import TopicPartition

__all__ = ["AbortTransactionSpec"]


@dataclass(frozen=True, slots=True)
class AbortTransactionSpec:
    topic_partition: TopicPartition
    producer_id: int
    producer_epoch: int
    coordinator_epoch: int

    def __str__(self) -> str:
        return (
            f"AbortTransactionSpec(topicPartition={self.topic_partition}, producerId={self.producer_id}, "
            f"producerEpoch={self.producer_epoch}, coordinatorEpoch={self.coordinator_epoch})"
        )
