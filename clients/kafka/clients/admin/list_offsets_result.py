"""Port of clients/src/main/java/org/apache/kafka/clients/admin/ListOffsetsResult.java (Kafka 3.7).

The futures of listOffsets: each partition's offset, its timestamp and the leader epoch.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from kafka.clients.admin._results import all_values
from kafka.common.kafka_future import KafkaFuture
from kafka.common.topic_partition import TopicPartition

__all__ = ["ListOffsetsResult", "ListOffsetsResultInfo"]


@dataclass(frozen=True, slots=True)
class ListOffsetsResultInfo:
    """An offset with its record's timestamp (-1 when unknown) and the leader epoch (None when unknown)."""

    offset: int
    timestamp: int
    leader_epoch: int | None

    def __str__(self) -> str:
        epoch = "Optional.empty" if self.leader_epoch is None else f"Optional[{self.leader_epoch}]"
        return f"ListOffsetsResultInfo(offset={self.offset}, timestamp={self.timestamp}, leaderEpoch={epoch})"


class ListOffsetsResult:
    def __init__(self, futures: Mapping[TopicPartition, KafkaFuture[ListOffsetsResultInfo]]) -> None:
        self._futures = dict(futures)

    def partition_result(self, partition: TopicPartition) -> KafkaFuture[ListOffsetsResultInfo]:
        future = self._futures.get(partition)
        if future is None:
            raise ValueError(f'List Offsets for partition "{partition}" was not attempted')
        return future

    def all(self) -> KafkaFuture[dict[TopicPartition, ListOffsetsResultInfo]]:
        return all_values(self._futures)
