"""Port of clients/src/main/java/org/apache/kafka/clients/producer/RecordMetadata.java (Kafka 3.7).

What the broker acknowledged for one sent record: its partition, offset and timestamp, and the sizes
of its serialized key and value.
"""

from __future__ import annotations

from typing import Final

from kafka.common.record.record_batch import NO_TIMESTAMP
from kafka.common.topic_partition import TopicPartition

__all__ = ["RecordMetadata"]

#: ProduceResponse.INVALID_OFFSET: no offset is known (acks=0, or a failed send).
INVALID_OFFSET: Final = -1


class RecordMetadata:
    """The outcome of a successful send (or the partition of a failed one, with offset -1)."""

    UNKNOWN_PARTITION: Final = -1

    __slots__ = ("_offset", "_serialized_key_size", "_serialized_value_size", "_timestamp", "_topic_partition")

    def __init__(
        self,
        topic_partition: TopicPartition,
        base_offset: int,
        batch_index: int,
        timestamp: int,
        serialized_key_size: int,
        serialized_value_size: int,
    ) -> None:
        # The broker answers with the batch's base offset; a record's own offset is that plus its index.
        self._offset = base_offset if base_offset == -1 else base_offset + batch_index
        self._timestamp = timestamp
        self._serialized_key_size = serialized_key_size
        self._serialized_value_size = serialized_value_size
        self._topic_partition = topic_partition

    def has_offset(self) -> bool:
        """False when the offset is unknown (acks=0)."""
        return self._offset != INVALID_OFFSET

    @property
    def offset(self) -> int:
        """The record's offset in its partition, or -1 when unknown."""
        return self._offset

    def has_timestamp(self) -> bool:
        return self._timestamp != NO_TIMESTAMP

    @property
    def timestamp(self) -> int:
        """The record's timestamp: the broker's append time for LogAppendTime topics, else the create time."""
        return self._timestamp

    @property
    def serialized_key_size(self) -> int:
        """Size of the serialized key in bytes, -1 for a null key."""
        return self._serialized_key_size

    @property
    def serialized_value_size(self) -> int:
        """Size of the serialized value in bytes, -1 for a null value."""
        return self._serialized_value_size

    @property
    def topic(self) -> str:
        return self._topic_partition.topic

    @property
    def partition(self) -> int:
        return self._topic_partition.partition

    def __repr__(self) -> str:
        return f"{self._topic_partition}@{self._offset}"
