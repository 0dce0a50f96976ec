"""Port of core/src/main/scala/kafka/log/Log.scala (Kafka 2.8): the value classes declared beside `Log`.

LogAppendInfo (what an append computed about its batches), LeaderHwChange, LogOffsetSnapshot,
LogReadInfo, CompletedTxn, RollParams and the reasons for a log start offset increment.

# PORT: Kafka declares these case classes at the top of Log.scala. They live in this module so that
ProducerStateManager and LogSegment, which Log imports, can use them without importing Log itself;
kafka.log.log re-exports them under their usual names.
"""

from __future__ import annotations

from abc import ABC
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from kafka.common.record.compression_type import CompressionType
from kafka.common.record.record_batch import NO_TIMESTAMP
from kafka.common.record.record_validation_stats import RecordValidationStats

if TYPE_CHECKING:
    from kafka.common.message import FetchResponseData
    from kafka.common.requests.produce_response import RecordError
    from kafka.server.fetch_data_info import FetchDataInfo
    from kafka.server.log_offset_metadata import LogOffsetMetadata


class LeaderHwChange(ABC):  # noqa: B024 - a sealed trait: the subclasses are its only values
    """What an append as leader did to the high watermark."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class Increased(LeaderHwChange):
    """The high watermark moved up."""


@dataclass(frozen=True, slots=True)
class Same(LeaderHwChange):
    """The high watermark stayed where it was."""


@dataclass(frozen=True, slots=True)
class None_(LeaderHwChange):
    """Not known: the default, and the value after a failed append.

    # PORT: Kafka's case object is `LeaderHwChange.None`, which is a keyword in Python.
    """


@dataclass(slots=True)
class LogAppendInfo:
    """What the log learned about an append: its offsets, timestamps, codecs and sizes.

    `first_offset` is None for a follower append of magic 0/1 batches (the first offset would need
    decompression; `last_offset_of_first_batch` stands in for it), and holds the original first
    offset when the append was answered as a duplicate.
    """

    first_offset: LogOffsetMetadata | None
    last_offset: int
    last_leader_epoch: int | None
    max_timestamp: int
    offset_of_max_timestamp: int
    log_append_time: int
    log_start_offset: int
    record_conversion_stats: RecordValidationStats
    source_codec: CompressionType
    target_codec: CompressionType
    shallow_count: int
    valid_bytes: int
    offsets_monotonic: bool
    last_offset_of_first_batch: int
    record_errors: list[RecordError] = field(default_factory=list)
    error_message: str | None = None
    leader_hw_change: LeaderHwChange = field(default_factory=None_)

    @property
    def first_or_last_offset_of_first_batch(self) -> int:
        """The first offset if known, else the last offset of the first batch."""
        return self.first_offset.message_offset if self.first_offset is not None else self.last_offset_of_first_batch

    @property
    def num_messages(self) -> int:
        """How many offsets the append spans (0 when unknown)."""
        first = self.first_offset
        if first is not None and first.message_offset >= 0 and self.last_offset >= 0:
            return self.last_offset - first.message_offset + 1
        return 0

    @staticmethod
    def unknown_log_append_info_with_log_start_offset(log_start_offset: int) -> LogAppendInfo:
        """The answer for an append that failed before anything was learned."""
        return LogAppendInfo.unknown_log_append_info_with_additional_info(log_start_offset, [], None)

    @staticmethod
    def unknown_log_append_info_with_additional_info(
        log_start_offset: int, record_errors: list[RecordError], error_message: str | None
    ) -> LogAppendInfo:
        """The answer for an append whose records were rejected (ProduceResponse v8+ reports them)."""
        return LogAppendInfo(
            None,
            -1,
            None,
            NO_TIMESTAMP,
            -1,
            NO_TIMESTAMP,
            log_start_offset,
            RecordValidationStats.EMPTY,
            CompressionType.NONE,
            CompressionType.NONE,
            -1,
            -1,
            False,
            -1,
            list(record_errors),
            error_message,
        )


#: Kafka's LogAppendInfo.UnknownLogAppendInfo.
def unknown_log_append_info() -> LogAppendInfo:
    """A fresh copy of Kafka's UnknownLogAppendInfo (the class is mutable, so no shared instance)."""
    return LogAppendInfo.unknown_log_append_info_with_log_start_offset(-1)


@dataclass(frozen=True, slots=True)
class LogOffsetSnapshot:
    """The significant offsets of a partition read together."""

    log_start_offset: int
    log_end_offset: LogOffsetMetadata
    high_watermark: LogOffsetMetadata
    last_stable_offset: LogOffsetMetadata


@dataclass(frozen=True, slots=True)
class LogReadInfo:
    """A read from a partition with the offsets the fetch response reports."""

    fetched_data: FetchDataInfo
    diverging_epoch: FetchResponseData.EpochEndOffset | None
    high_watermark: int
    log_start_offset: int
    log_end_offset: int
    last_stable_offset: int


@dataclass(frozen=True, slots=True)
class CompletedTxn:
    """A decided transaction: from its first data offset to the offset of its COMMIT/ABORT marker."""

    producer_id: int
    first_offset: int
    last_offset: int
    is_aborted: bool

    def __str__(self) -> str:
        return (
            f"CompletedTxn(producerId={self.producer_id}, firstOffset={self.first_offset}, "
            f"lastOffset={self.last_offset}, isAborted={self.is_aborted})"
        )


@dataclass(frozen=True, slots=True)
class RollParams:
    """What a segment needs to decide whether the log rolls before an append."""

    max_segment_ms: int
    max_segment_bytes: int
    max_timestamp_in_messages: int
    max_offset_in_messages: int
    messages_size: int
    now: int

    @classmethod
    def from_config(cls, config: Any, append_info: LogAppendInfo, messages_size: int, now: int) -> RollParams:
        """Kafka's RollParams(config, appendInfo, messagesSize, now) (`config` is a LogConfig)."""
        return cls(
            config.max_segment_ms,
            config.segment_size,
            append_info.max_timestamp,
            append_info.last_offset,
            messages_size,
            now,
        )


class LogStartOffsetIncrementReason(ABC):  # noqa: B024 - a sealed trait: the subclasses are its only values
    """Why the log start offset moved (printed in the log line)."""

    __slots__ = ()
    _TEXT = ""

    def __str__(self) -> str:
        return self._TEXT


@dataclass(frozen=True, slots=True)
class ClientRecordDeletion(LogStartOffsetIncrementReason):
    """A DeleteRecords request."""

    _TEXT = "client delete records request"


@dataclass(frozen=True, slots=True)
class LeaderOffsetIncremented(LogStartOffsetIncrementReason):
    """The leader's log start offset moved (seen by a follower)."""

    _TEXT = "leader offset increment"


@dataclass(frozen=True, slots=True)
class SegmentDeletion(LogStartOffsetIncrementReason):
    """Segments were deleted by retention."""

    _TEXT = "segment deletion"


@dataclass(frozen=True, slots=True)
class SnapshotGenerated(LogStartOffsetIncrementReason):
    """A metadata snapshot was generated (KRaft)."""

    _TEXT = "snapshot generated"
