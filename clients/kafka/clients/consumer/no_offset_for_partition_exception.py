"""Port of clients/src/main/java/org/apache/kafka/clients/consumer/NoOffsetForPartitionException.java (Kafka 3.7).

Raised when a partition has neither a committed offset nor a position and auto.offset.reset is none.
"""

from __future__ import annotations

from collections.abc import Iterable

from kafka.clients.consumer.invalid_offset_exception import InvalidOffsetException
from kafka.common.topic_partition import TopicPartition

__all__ = ["NoOffsetForPartitionException"]


class NoOffsetForPartitionException(InvalidOffsetException):
    def __init__(self, partitions: TopicPartition | Iterable[TopicPartition]) -> None:
        if isinstance(partitions, TopicPartition):
            super().__init__(f"Undefined offset with no reset policy for partition: {partitions}")
            self._partitions = {partitions}
        else:
            parts = list(partitions)
            super().__init__(
                f"Undefined offset with no reset policy for partitions: [{', '.join(str(p) for p in parts)}]"
            )
            self._partitions = set(parts)

    def partitions(self) -> set[TopicPartition]:
        return set(self._partitions)
