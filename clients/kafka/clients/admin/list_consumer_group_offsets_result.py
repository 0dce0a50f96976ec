"""Port of clients/src/main/java/org/apache/kafka/clients/admin/ListConsumerGroupOffsetsResult.java (Kafka 3.7).

The futures of listConsumerGroupOffsets: for each group, its committed offsets by partition (None for a
partition asked for that has no committed offset).
"""

from __future__ import annotations

from collections.abc import Mapping

from kafka.clients.admin._results import all_values
from kafka.clients.admin.internals.coordinator_key import CoordinatorKey
from kafka.clients.consumer.offset_and_metadata import OffsetAndMetadata
from kafka.common.kafka_future import KafkaFuture
from kafka.common.topic_partition import TopicPartition

__all__ = ["ListConsumerGroupOffsetsResult"]

GroupOffsets = dict[TopicPartition, OffsetAndMetadata | None]


class ListConsumerGroupOffsetsResult:
    def __init__(self, futures: Mapping[CoordinatorKey, KafkaFuture[GroupOffsets]]) -> None:
        self._futures: dict[str, KafkaFuture[GroupOffsets]] = {k.id_value: f for k, f in futures.items()}

    def partitions_to_offset_and_metadata(self, group_id: str | None = None) -> KafkaFuture[GroupOffsets]:
        """The offsets of `group_id`; without it, of the only group asked for (RuntimeError, Java's
        IllegalStateException, if there were several)."""
        if group_id is None:
            if len(self._futures) != 1:
                raise RuntimeError(
                    "Offsets from multiple consumer groups were requested. Use partitionsToOffsetAndMetadata(groupId) "
                    "instead to get future for a specific group."
                )
            return next(iter(self._futures.values()))
        if group_id not in self._futures:
            raise ValueError(f"Offsets for consumer group '{group_id}' were not requested.")
        return self._futures[group_id]

    def all(self) -> KafkaFuture[dict[str, GroupOffsets]]:
        return all_values(self._futures)
