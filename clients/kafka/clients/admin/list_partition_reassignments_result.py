"""Port of clients/src/main/java/org/apache/kafka/clients/admin/ListPartitionReassignmentsResult.java (Kafka 3.7).

The future of listPartitionReassignments: the ongoing reassignments by partition.
"""

from __future__ import annotations

from kafka.clients.admin.partition_reassignment import PartitionReassignment
from kafka.common.kafka_future import KafkaFuture
from kafka.common.topic_partition import TopicPartition

__all__ = ["ListPartitionReassignmentsResult"]


class ListPartitionReassignmentsResult:
    def __init__(self, reassignments: KafkaFuture[dict[TopicPartition, PartitionReassignment]]) -> None:
        self._future = reassignments

    def reassignments(self) -> KafkaFuture[dict[TopicPartition, PartitionReassignment]]:
        return self._future
