"""Port of clients/src/main/java/org/apache/kafka/common/internals/PartitionStates.java (Kafka 2.8).

An insertion-ordered map of partition -> state in which a partition can be moved to the end, so that whoever
walks the map in order (a fetcher building its next request) serves the partitions round-robin. Not thread-safe:
its owner locks around it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Generic, TypeVar

from kafka.common.topic_partition import TopicPartition

S = TypeVar("S")

__all__ = ["PartitionStates"]


class PartitionStates(Generic[S]):
    """Partition states in fetch order (see the module docstring)."""

    def __init__(self) -> None:
        self._map: dict[TopicPartition, S] = {}

    def move_to_end(self, topic_partition: TopicPartition) -> None:
        state = self._map.pop(topic_partition, None)
        if state is not None:
            self._map[topic_partition] = state

    def update_and_move_to_end(self, topic_partition: TopicPartition, state: S) -> None:
        self._map.pop(topic_partition, None)
        self._map[topic_partition] = state

    def update(self, topic_partition: TopicPartition, state: S) -> None:
        self._map[topic_partition] = state

    def remove(self, topic_partition: TopicPartition) -> None:
        self._map.pop(topic_partition, None)

    def partition_set(self) -> set[TopicPartition]:
        return set(self._map)

    def clear(self) -> None:
        self._map.clear()

    def contains(self, topic_partition: TopicPartition) -> bool:
        return topic_partition in self._map

    def state_iterator(self) -> Iterator[S]:
        return iter(list(self._map.values()))

    def for_each(self, consumer: Callable[[TopicPartition, S], None]) -> None:
        for tp, state in list(self._map.items()):
            consumer(tp, state)

    def partition_state_map(self) -> dict[TopicPartition, S]:
        """A copy of the map, in order."""
        return dict(self._map)

    def state_value(self, topic_partition: TopicPartition) -> S | None:
        return self._map.get(topic_partition)

    def size(self) -> int:
        return len(self._map)

    def set(self, partition_to_state: Mapping[TopicPartition, S]) -> None:
        """Replaces every state; the partitions of one topic end up next to each other, topics in order of first
        appearance."""
        by_topic: dict[str, list[TopicPartition]] = {}
        for tp in partition_to_state:
            by_topic.setdefault(tp.topic, []).append(tp)
        self._map = {tp: partition_to_state[tp] for tps in by_topic.values() for tp in tps}
