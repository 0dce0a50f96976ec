"""Port of clients/src/main/java/org/apache/kafka/clients/consumer/OffsetOutOfRangeException.java (Kafka 3.7).

A fetch position outside the partition's log range with no reset policy configured.
"""

from __future__ import annotations

from collections.abc import Mapping

from kafka.clients.consumer.invalid_offset_exception import InvalidOffsetException
from kafka.common.topic_partition import TopicPartition

__all__ = ["OffsetOutOfRangeException"]


class OffsetOutOfRangeException(InvalidOffsetException):
    def __init__(
        self,
        message_or_offsets: str | Mapping[TopicPartition, int],
        offsets: Mapping[TopicPartition, int] | None = None,
    ) -> None:
        if isinstance(message_or_offsets, str):
            message = message_or_offsets
            out_of_range = dict(offsets or {})
        else:
            out_of_range = dict(message_or_offsets)
            shown = ", ".join(f"{tp}={offset}" for tp, offset in out_of_range.items())
            message = f"Offsets out of range with no configured reset policy for partitions: {{{shown}}}"
        super().__init__(message)
        self._offset_out_of_range_partitions = out_of_range

    def offset_out_of_range_partitions(self) -> dict[TopicPartition, int]:
        return dict(self._offset_out_of_range_partitions)

    def partitions(self) -> set[TopicPartition]:
        return set(self._offset_out_of_range_partitions)
