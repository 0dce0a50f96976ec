"""Port of core/src/main/scala/kafka/server/LogOffsetMetadata.scala (Kafka 2.8).

An offset in a log, optionally with where it sits: the base offset of its segment and its byte
position in that segment. Fetches use the position to know how many bytes lie between two offsets
without reading the log.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from kafka.common.errors import KafkaException
from kafka.log.log_file_utils import UNKNOWN_OFFSET

UNKNOWN_FILE_POSITION = -1


@dataclass(frozen=True, slots=True)
class LogOffsetMetadata:
    """A message offset, plus the segment base offset and file position where they are known."""

    message_offset: int
    segment_base_offset: int = UNKNOWN_OFFSET
    relative_position_in_segment: int = UNKNOWN_FILE_POSITION

    UNKNOWN_FILE_POSITION: ClassVar[int] = UNKNOWN_FILE_POSITION
    # Set after the class body: LogOffsetMetadata(-1, 0, 0).
    UNKNOWN_OFFSET_METADATA: ClassVar[LogOffsetMetadata]

    def on_older_segment(self, that: LogOffsetMetadata) -> bool:
        """Whether this offset lies in a segment that starts before `that`'s segment."""
        if self.message_offset_only:
            raise KafkaException(
                f"{self} cannot compare its segment info with {that} since it only has message offset info"
            )
        return self.segment_base_offset < that.segment_base_offset

    def on_same_segment(self, that: LogOffsetMetadata) -> bool:
        """Whether this offset and `that` lie in the same segment."""
        if self.message_offset_only:
            raise KafkaException(
                f"{self} cannot compare its segment info with {that} since it only has message offset info"
            )
        return self.segment_base_offset == that.segment_base_offset

    def offset_diff(self, that: LogOffsetMetadata) -> int:
        """How many offsets this one is ahead of `that`."""
        return self.message_offset - that.message_offset

    def position_diff(self, that: LogOffsetMetadata) -> int:
        """How many bytes this offset is ahead of `that`; both must be in the same segment."""
        if not self.on_same_segment(that):
            raise KafkaException(
                f"{self} cannot compare its segment position with {that} since they are not on the same segment"
            )
        if self.message_offset_only:
            raise KafkaException(
                f"{self} cannot compare its segment position with {that} since it only has message offset info"
            )
        return self.relative_position_in_segment - that.relative_position_in_segment

    @property
    def message_offset_only(self) -> bool:
        """True when neither the segment nor the position of the offset is known."""
        return self.segment_base_offset == UNKNOWN_OFFSET and self.relative_position_in_segment == UNKNOWN_FILE_POSITION

    def __str__(self) -> str:
        return (
            f"(offset={self.message_offset} segment=[{self.segment_base_offset}:{self.relative_position_in_segment}])"
        )


LogOffsetMetadata.UNKNOWN_OFFSET_METADATA = LogOffsetMetadata(-1, 0, 0)
UNKNOWN_OFFSET_METADATA = LogOffsetMetadata.UNKNOWN_OFFSET_METADATA


def offset_ordering_key(metadata: LogOffsetMetadata) -> int:
    """Sort key ordering LogOffsetMetadata by message offset, as Kafka's OffsetOrdering does.

    # PORT: Kafka defines an Ordering class; Python sorts with a key function.
    """
    return metadata.message_offset
