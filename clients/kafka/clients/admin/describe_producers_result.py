"""Port of clients/src/main/java/org/apache/kafka/clients/admin/DescribeProducersResult.java (Kafka 3.7).

The futures of describeProducers: the active producers of each partition.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from kafka.clients.admin._results import all_values
from kafka.clients.admin.producer_state import ProducerState
from kafka.common.kafka_future import KafkaFuture
from kafka.common.topic_partition import TopicPartition

__all__ = ["DescribeProducersResult", "PartitionProducerState"]


@dataclass(frozen=True, slots=True)
class PartitionProducerState:
    """The active producers of one partition."""

    active_producers: Sequence[ProducerState]

    def __str__(self) -> str:
        return f"PartitionProducerState(activeProducers=[{', '.join(str(p) for p in self.active_producers)}])"


class DescribeProducersResult:
    def __init__(self, futures: Mapping[TopicPartition, KafkaFuture[PartitionProducerState]]) -> None:
        self._futures = dict(futures)

    def partition_result(self, partition: TopicPartition) -> KafkaFuture[PartitionProducerState]:
        """The future of one partition; ValueError (Java's IllegalArgumentException) for a partition that was
        not asked for."""
        future = self._futures.get(partition)
        if future is None:
            raise ValueError(f"Topic partition {partition} was not included in the request")
        return future

    def all(self) -> KafkaFuture[dict[TopicPartition, PartitionProducerState]]:
        """Every partition's producers; fails if any partition failed."""
        return all_values(self._futures)
