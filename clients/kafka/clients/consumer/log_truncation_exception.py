"""Port of clients/src/main/java/org/apache/kafka/clients/consumer/LogTruncationException.java (Kafka 3.7).

The log was truncated below the consumer's position (after an unclean leader change) and no reset policy
is configured; carries the first divergent offsets when the leader could tell them.
"""

from __future__ import annotations

from collections.abc import Mapping

from kafka.clients.consumer.offset_and_metadata import OffsetAndMetadata
from kafka.clients.consumer.offset_out_of_range_exception import OffsetOutOfRangeException
from kafka.common.topic_partition import TopicPartition

__all__ = ["LogTruncationException"]


class LogTruncationException(OffsetOutOfRangeException):
    def __init__(
        self,
        fetch_offsets: Mapping[TopicPartition, int],
        divergent_offsets: Mapping[TopicPartition, OffsetAndMetadata],
        message: str | None = None,
    ) -> None:
        if message is None:
            shown = ", ".join(f"{tp}={o}" for tp, o in divergent_offsets.items())
            message = f"Truncated partitions detected with divergent offsets {{{shown}}}"
        super().__init__(message, fetch_offsets)
        self._divergent_offsets = dict(divergent_offsets)

    def divergent_offsets(self) -> dict[TopicPartition, OffsetAndMetadata]:
        return dict(self._divergent_offsets)
