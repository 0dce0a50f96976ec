"""Port of clients/src/main/java/org/apache/kafka/clients/admin/ListConsumerGroupOffsetsSpec.java (Kafka 3.7).

What listConsumerGroupOffsets asks of one group: the offsets of some partitions, or (None) of all of them.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Self, overload

from kafka.clients.admin.abstract_options import UNSET
from kafka.common.topic_partition import TopicPartition

__all__ = ["ListConsumerGroupOffsetsSpec"]


class ListConsumerGroupOffsetsSpec:
    """The partitions whose committed offsets are wanted; None (the default) for all the group has."""

    __slots__ = ("_topic_partitions",)

    def __init__(self, topic_partitions: Iterable[TopicPartition] | None = None) -> None:
        self._topic_partitions = None if topic_partitions is None else list(topic_partitions)

    @overload
    def topic_partitions(self) -> list[TopicPartition] | None: ...

    @overload
    def topic_partitions(self, topic_partitions: Iterable[TopicPartition] | None) -> Self: ...

    def topic_partitions(self, topic_partitions: Any = UNSET) -> Any:
        """The partitions asked for; with an argument, sets them and returns the spec."""
        if topic_partitions is UNSET:
            return self._topic_partitions
        self._topic_partitions = None if topic_partitions is None else list(topic_partitions)
        return self

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ListConsumerGroupOffsetsSpec) and self._topic_partitions == other._topic_partitions

    def __hash__(self) -> int:
        return hash(None if self._topic_partitions is None else tuple(self._topic_partitions))

    def __str__(self) -> str:
        return f"ListConsumerGroupOffsetsSpec(topicPartitions={self._topic_partitions})"

    __repr__ = __str__
