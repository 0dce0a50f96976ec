"""Port of core/src/main/scala/kafka/log/Log.scala (Kafka 2.8).

The log of one partition: a directory `topic-partition` of segments keyed by base offset, the last of
which (the active segment) takes appends. A Log assigns offsets and checks appends (through
LogValidator and ProducerStateManager), rolls segments, serves reads as FileRecords slices, looks up
offsets by timestamp, applies retention (time, size, log start offset), truncates, flushes, and on
start-up loads its segments from disk and recovers the ones above the recovery point unless the
broker shut down cleanly. It also keeps the high watermark, the last stable offset, the leader epoch
cache (`leader-epoch-checkpoint`) and the topic id (`partition.metadata`).

Directory names: `topic-partition`; `topic-partition.<uuid>-delete` for a log waiting for deletion;
`topic-partition.<uuid>-future` for a replica being moved between log directories.

Any OSError while touching the disk marks the log's directory offline through LogDirFailureChannel
and is raised as KafkaStorageException; later calls fail fast with KafkaStorageException.

Threading: appends, rolls, truncation and deletions hold `_lock` (an RLock, Kafka's `lock` object).
Reads take no log lock, as in Kafka: they read `_next_offset_metadata` once and look segments up in
`_segments`, a sorted map guarded by a lock of its own for each lookup (standing in for Kafka's
ConcurrentSkipListMap). Lock order: `Log._lock` before `_SegmentMap._lock`; the latter is held only
inside the map and never while calling out. ProducerStateManager and the leader epoch cache are used
under `Log._lock`.

# PORT: the companion's file-name helpers and suffix constants are in kafka.log.log_file_utils and
the case classes declared beside Log (LogAppendInfo, CompletedTxn, RollParams, ...) in
kafka.log.log_append_info; both are re-exported here. The BrokerTopicStats meters Kafka's Log and
LogValidator mark are the broker's `broker_topic_stats` (None outside a broker: tools and tests).
PartitionMetadataFile, which Kafka keeps in kafka.server, is defined here beside its only user.
"""

from __future__ import annotations

import contextlib
import os
import re
import threading
import uuid
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, Literal

from sortedcontainers import SortedDict

from kafka.common.errors import (
    CorruptRecordException,
    InconsistentTopicIdException,
    InvalidOffsetException,
    InvalidRecordException,
    KafkaException,
    KafkaStorageException,
    OffsetOutOfRangeException,
    RecordBatchTooLargeException,
    RecordTooLargeException,
    UnsupportedForMessageFormatException,
)
from kafka.common.message import DescribeProducersResponseData
from kafka.common.protocol.types import ZERO_UUID, Uuid
from kafka.common.record.compression_type import CompressionType
from kafka.common.record.default_record_batch import COMPRESSION_CODEC_MASK, RECORD_BATCH_OVERHEAD, DefaultRecordBatch
from kafka.common.record.file_records import TimestampAndOffset
from kafka.common.record.memory_records import MemoryRecords
from kafka.common.record.mutable_record_batch import MutableRecordBatch
from kafka.common.record.record_batch import (
    MAGIC_VALUE_V1,
    MAGIC_VALUE_V2,
    NO_PARTITION_LEADER_EPOCH,
    NO_TIMESTAMP,
    RecordBatch,
)
from kafka.common.record.record_validation_stats import RecordValidationStats
from kafka.common.record.records import LOG_OVERHEAD
from kafka.common.record.timestamp_type import TimestampType
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.time import Time
from kafka.common.utils.utils import atomic_move_with_fallback, parse_int
from kafka.log.corrupt_index_exception import CorruptIndexException
from kafka.log.index_entry import OffsetPosition
from kafka.log.log_append_info import (
    ClientRecordDeletion,
    CompletedTxn,
    Increased,
    LeaderHwChange,
    LeaderOffsetIncremented,
    LogAppendInfo,
    LogOffsetSnapshot,
    LogReadInfo,
    LogStartOffsetIncrementReason,
    None_,
    RollParams,
    Same,
    SegmentDeletion,
    SnapshotGenerated,
)
from kafka.log.log_dir_failure_channel import LogDirFailureChannel
from kafka.log.log_file_utils import (
    CLEAN_SHUTDOWN_FILE,
    CLEANED_FILE_SUFFIX,
    DELETE_DIR_SUFFIX,
    DELETED_FILE_SUFFIX,
    FUTURE_DIR_SUFFIX,
    INDEX_FILE_SUFFIX,
    LOG_FILE_SUFFIX,
    PRODUCER_SNAPSHOT_FILE_SUFFIX,
    SWAP_FILE_SUFFIX,
    TIME_INDEX_FILE_SUFFIX,
    TXN_INDEX_FILE_SUFFIX,
    UNKNOWN_OFFSET,
    filename_prefix_from_offset,
    is_index_file,
    is_log_file,
    log_file,
    offset_from_file,
    offset_from_file_name,
    offset_index_file,
    producer_snapshot_file,
    time_index_file,
    transaction_index_file,
)
from kafka.log.log_segment import LogSegment, LogSegmentOffsetOverflowException
from kafka.log.log_segment import delete_if_exists as delete_segment_files_if_exist
from kafka.log.log_validator import (
    AppendOrigin,
    Client,
    LongRef,
    RaftLeader,
    Replication,
    validate_messages_and_assign_offsets,
)
from kafka.log.producer_state_manager import (
    BatchMetadata,
    LastRecord,
    ProducerAppendInfo,
    ProducerStateManager,
)
from kafka.log.transaction_index import AbortedTxn
from kafka.metrics.kafka_metrics_group import KafkaMetricsGroup
from kafka.server.checkpoints.leader_epoch_checkpoint_file import LeaderEpochCheckpointFile
from kafka.server.epoch.leader_epoch_file_cache import LeaderEpochFileCache
from kafka.server.fetch_data_info import (
    FetchDataInfo,
    FetchHighWatermark,
    FetchIsolation,
    FetchLogEnd,
    FetchTxnCommitted,
)
from kafka.server.log_offset_metadata import LogOffsetMetadata
from kafka.utils.core_utils import delete_recursive, replace_suffix
from kafka.utils.logging import Logging

if TYPE_CHECKING:
    from kafka.common.message import FetchResponseData
    from kafka.common.record.records import Records
    from kafka.server.kafka_request_handler import BrokerTopicStats
    from kafka.utils.kafka_scheduler import ScheduledFuture, Scheduler

__all__ = [
    "CLEANED_FILE_SUFFIX",
    "CLEAN_SHUTDOWN_FILE",
    "DELETED_FILE_SUFFIX",
    "DELETE_DIR_SUFFIX",
    "FUTURE_DIR_SUFFIX",
    "INDEX_FILE_SUFFIX",
    "LOG_FILE_SUFFIX",
    "PRODUCER_SNAPSHOT_FILE_SUFFIX",
    "SWAP_FILE_SUFFIX",
    "TIME_INDEX_FILE_SUFFIX",
    "TXN_INDEX_FILE_SUFFIX",
    "UNKNOWN_OFFSET",
    "ClientRecordDeletion",
    "CompletedTxn",
    "Increased",
    "LeaderHwChange",
    "LeaderOffsetIncremented",
    "Log",
    "LogAppendInfo",
    "LogOffsetSnapshot",
    "LogReadInfo",
    "LogStartOffsetIncrementReason",
    "None_",
    "OffsetAndEpoch",
    "PartitionMetadataFile",
    "RollParams",
    "Same",
    "SegmentDeletion",
    "SnapshotGenerated",
    "filename_prefix_from_offset",
    "log_file",
    "offset_from_file",
    "offset_index_file",
    "producer_snapshot_file",
    "time_index_file",
    "transaction_index_file",
]

INT32_MAX: Final = 2**31 - 1
INT64_MAX: Final = 2**63 - 1

# ListOffsets special timestamps (ListOffsetsRequest).
EARLIEST_TIMESTAMP: Final = -2
LATEST_TIMESTAMP: Final = -1
MAX_TIMESTAMP: Final = -3

# OffsetsForLeaderEpochResponse.UNDEFINED_EPOCH_OFFSET / UNDEFINED_EPOCH.
UNDEFINED_EPOCH_OFFSET: Final = -1
UNDEFINED_EPOCH: Final = -1

DELETE_DIR_PATTERN: Final = re.compile(rf"^(\S+)-(\S+)\.(\S+){re.escape(DELETE_DIR_SUFFIX)}$")
FUTURE_DIR_PATTERN: Final = re.compile(rf"^(\S+)-(\S+)\.(\S+){re.escape(FUTURE_DIR_SUFFIX)}$")


class OffsetAndEpoch:
    """An offset and the leader epoch it belongs to (kafka.server.OffsetAndEpoch)."""

    __slots__ = ("leader_epoch", "offset")

    def __init__(self, offset: int, leader_epoch: int) -> None:
        self.offset = offset
        self.leader_epoch = leader_epoch

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, OffsetAndEpoch)
            and other.offset == self.offset
            and other.leader_epoch == self.leader_epoch
        )

    def __hash__(self) -> int:
        return hash((self.offset, self.leader_epoch))

    def __repr__(self) -> str:
        return f"(offset={self.offset}, leaderEpoch={self.leader_epoch})"


class OffsetsOutOfOrderException(KafkaException):
    """A follower append whose offsets do not increase (Kafka's kafka.common exception)."""


class UnexpectedAppendOffsetException(KafkaException):
    """A follower append starting below the log end offset (Kafka's kafka.common exception)."""

    def __init__(self, message: str, first_offset: int, last_offset: int) -> None:
        super().__init__(message)
        self.first_offset = first_offset
        self.last_offset = last_offset


# ---- compression.type ----------------------------------------------------------------------------


def get_target_compression_type(compression_type: str, source_codec: CompressionType) -> CompressionType:
    """The codec the log stores: the producer's for `producer`, none for `uncompressed`, else the named one.

    # PORT: Kafka's BrokerCompressionCodec.getTargetCompressionCodec (kafka/message/CompressionCodec.scala).
    """
    if compression_type == "producer":
        return source_codec
    if compression_type == "uncompressed":
        return CompressionType.NONE
    return CompressionType.for_name(compression_type)


def _record_version_value(config: Any) -> int:
    """The record format (magic) of the topic's message.format.version."""
    return int(config.message_format_version.record_version)


# ---- partition.metadata --------------------------------------------------------------------------

PARTITION_METADATA_FILENAME: Final = "partition.metadata"
_PARTITION_METADATA_WHITE_SPACES: Final = re.compile(r":\s+")
_PARTITION_METADATA_CURRENT_VERSION: Final = 0


class PartitionMetadata:
    """The content of `partition.metadata`: its version and the topic id."""

    __slots__ = ("topic_id", "version")

    def __init__(self, version: int, topic_id: Uuid) -> None:
        self.version = version
        self.topic_id = topic_id


class PartitionMetadataFile(Logging):
    """The `partition.metadata` file of a partition directory, holding the topic id:

        version: 0
        topic_id: <topic id in URL-safe base64>

    The id is recorded first and written by `maybe_flush` (before the next append), through a
    temporary file renamed over the old one.

    # PORT: Kafka's kafka.server.PartitionMetadataFile, kept beside Log, its only user.
    """

    logger_name = "kafka.server.PartitionMetadataFile"

    def __init__(self, file: Path, log_dir_failure_channel: LogDirFailureChannel) -> None:
        self.file = Path(file)
        self._path = self.file.absolute()
        self._temp_path = Path(str(self._path) + ".tmp")
        self._lock = threading.Lock()
        self._log_dir = str(self._path.parent.parent)
        self._log_dir_failure_channel = log_dir_failure_channel
        self._dirty_topic_id: Uuid | None = None

    @staticmethod
    def new_file(dir: Path) -> Path:
        """The metadata file of the partition directory `dir`."""
        return Path(dir) / PARTITION_METADATA_FILENAME

    def record(self, topic_id: Uuid) -> None:
        """Remember `topic_id` to be written by the next flush."""
        dirty = self._dirty_topic_id
        if dirty is not None and dirty != topic_id:
            raise InconsistentTopicIdException(
                f"Tried to record topic ID {topic_id} to file but had already recorded {dirty}"
            )
        self._dirty_topic_id = topic_id

    def maybe_flush(self) -> None:
        """Write the recorded topic id, if one is waiting."""
        if self._dirty_topic_id is None:
            return
        with self._lock:
            topic_id = self._dirty_topic_id
            if topic_id is None:
                return
            try:
                fd = os.open(self._temp_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
                try:
                    os.write(fd, f"version: {_PARTITION_METADATA_CURRENT_VERSION}\ntopic_id: {topic_id}".encode())
                    os.fsync(fd)
                finally:
                    os.close(fd)
                atomic_move_with_fallback(str(self._temp_path), str(self._path))
            except OSError as e:
                msg = f"Error while writing to partition metadata file {self.file.absolute()}"
                self._log_dir_failure_channel.maybe_add_offline_log_dir(self._log_dir, msg, e)
                raise KafkaStorageException(msg) from e
            self._dirty_topic_id = None

    def read(self) -> PartitionMetadata:
        """Parse the file; KafkaStorageException (and the directory offline) when it is unreadable."""
        with self._lock:
            try:
                lines = self._path.read_text(encoding="utf-8").split("\n")
                return self._parse(lines)
            except OSError as e:
                msg = f"Error while reading partition metadata file {self.file.absolute()}"
                self._log_dir_failure_channel.maybe_add_offline_log_dir(self._log_dir, msg, e)
                raise KafkaStorageException(msg) from e

    def _parse(self, lines: list[str]) -> PartitionMetadata:
        location = str(self.file.absolute())

        def malformed(line: str | None) -> OSError:
            return OSError(f"Malformed line in checkpoint file ({location}): '{line}'")

        line = lines[0] if lines else None
        fields = _PARTITION_METADATA_WHITE_SPACES.split(line) if line is not None else []
        if len(fields) != 2:
            raise malformed(line)
        try:
            version = int(fields[1])
        except ValueError:
            raise malformed(line) from None
        if version != _PARTITION_METADATA_CURRENT_VERSION:
            raise OSError(f"Unrecognized version of partition metadata file ({location}): {fields[1]}")
        line = lines[1] if len(lines) > 1 else None
        fields = _PARTITION_METADATA_WHITE_SPACES.split(line) if line is not None else []
        if len(fields) != 2:
            raise malformed(line)
        try:
            topic_id = Uuid.from_string(fields[1])
        except ValueError:
            raise malformed(line) from None
        if topic_id == ZERO_UUID:
            raise OSError(f"Invalid topic ID in partition metadata file ({location})")
        return PartitionMetadata(_PARTITION_METADATA_CURRENT_VERSION, topic_id)

    def exists(self) -> bool:
        """Whether the file is on disk."""
        return self.file.exists()

    def delete(self) -> bool:
        """Remove the file; True if it was there."""
        try:
            self.file.unlink()
        except FileNotFoundError:
            return False
        return True


# ---- the segment map -----------------------------------------------------------------------------


class _SegmentMap:
    """Segments by base offset: a SortedDict with a lock around each operation, so that readers
    without the log lock see a consistent map (Kafka's ConcurrentSkipListMap)."""

    __slots__ = ("_lock", "_map")

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._map: SortedDict = SortedDict()

    def __len__(self) -> int:
        return len(self._map)

    def is_empty(self) -> bool:
        return not self._map

    def put(self, segment: LogSegment) -> LogSegment | None:
        with self._lock:
            previous: LogSegment | None = self._map.get(segment.base_offset)
            self._map[segment.base_offset] = segment
            return previous

    def remove(self, base_offset: int) -> LogSegment | None:
        with self._lock:
            removed: LogSegment | None = self._map.pop(base_offset, None)
            return removed

    def clear(self) -> None:
        with self._lock:
            self._map.clear()

    def contains(self, base_offset: int) -> bool:
        with self._lock:
            return base_offset in self._map

    def get(self, base_offset: int) -> LogSegment | None:
        with self._lock:
            segment: LogSegment | None = self._map.get(base_offset)
            return segment

    def first(self) -> LogSegment | None:
        with self._lock:
            return self._map.peekitem(0)[1] if self._map else None

    def last(self) -> LogSegment | None:
        with self._lock:
            return self._map.peekitem(-1)[1] if self._map else None

    def floor(self, offset: int) -> LogSegment | None:
        """The segment with the greatest base offset <= `offset`."""
        with self._lock:
            index = self._map.bisect_right(offset) - 1
            return self._map.peekitem(index)[1] if index >= 0 else None

    def higher(self, offset: int) -> LogSegment | None:
        """The segment with the least base offset > `offset`."""
        with self._lock:
            index = self._map.bisect_right(offset)
            return self._map.peekitem(index)[1] if index < len(self._map) else None

    def lower(self, offset: int) -> LogSegment | None:
        """The segment with the greatest base offset < `offset`."""
        with self._lock:
            index = self._map.bisect_left(offset) - 1
            return self._map.peekitem(index)[1] if index >= 0 else None

    def values(self) -> list[LogSegment]:
        with self._lock:
            return list(self._map.values())

    def base_offsets(self) -> list[int]:
        with self._lock:
            return list(self._map.keys())

    def range_values(self, from_key: int | None, to_key: int) -> list[LogSegment]:
        """Segments with base offsets in [from_key, to_key) (from the first one when `from_key` is None)."""
        with self._lock:
            keys = self._map.irange(minimum=from_key, maximum=to_key, inclusive=(True, False))
            return [self._map[k] for k in keys]

    def floor_key(self, offset: int) -> int | None:
        with self._lock:
            index = self._map.bisect_right(offset) - 1
            return self._map.peekitem(index)[0] if index >= 0 else None


# ---- segment deletion reasons --------------------------------------------------------------------


class SegmentDeletionReason:
    """Why segments are deleted; each reason writes its own log line."""

    def log_reason(self, log: Log, to_delete: list[LogSegment]) -> None:
        log.info(f"Deleting segments: {_segments_str(to_delete)}")


class _RetentionMsBreach(SegmentDeletionReason):
    def log_reason(self, log: Log, to_delete: list[LogSegment]) -> None:
        retention_ms = log.config.retention_ms
        for segment in to_delete:
            if segment.largest_record_timestamp is not None:
                log.info(
                    f"Deleting segment {segment} due to retention time {retention_ms}ms breach based on the largest "
                    "record timestamp in the segment"
                )
            else:
                log.info(
                    f"Deleting segment {segment} due to retention time {retention_ms}ms breach based on the last "
                    "modified time of the segment"
                )


class _RetentionSizeBreach(SegmentDeletionReason):
    def log_reason(self, log: Log, to_delete: list[LogSegment]) -> None:
        size = log.size
        for segment in to_delete:
            size -= segment.size
            log.info(
                f"Deleting segment {segment} due to retention size {log.config.retention_size} breach. Log size "
                f"after deletion will be {size}."
            )


class _StartOffsetBreach(SegmentDeletionReason):
    def log_reason(self, log: Log, to_delete: list[LogSegment]) -> None:
        log.info(f"Deleting segments due to log start offset {log.log_start_offset} breach: {_segments_str(to_delete)}")


class _SimpleReason(SegmentDeletionReason):
    def __init__(self, text: str) -> None:
        self._text = text

    def log_reason(self, log: Log, to_delete: list[LogSegment]) -> None:
        log.info(f"Deleting segments as {self._text}: {_segments_str(to_delete)}")


RETENTION_MS_BREACH: Final = _RetentionMsBreach()
RETENTION_SIZE_BREACH: Final = _RetentionSizeBreach()
START_OFFSET_BREACH: Final = _StartOffsetBreach()
LOG_RECOVERY: Final = _SimpleReason("part of log recovery")
LOG_TRUNCATION: Final = _SimpleReason("part of log truncation")
LOG_ROLL: Final = _SimpleReason("part of log roll")
LOG_DELETION: Final = _SimpleReason("the log has been deleted")


def _segments_str(segments: Iterable[LogSegment]) -> str:
    return ",".join(str(s) for s in segments)


# Kafka's LogMetricNames: the gauges each log registers.
LOG_METRIC_NUM_LOG_SEGMENTS: Final = "NumLogSegments"
LOG_METRIC_LOG_START_OFFSET: Final = "LogStartOffset"
LOG_METRIC_LOG_END_OFFSET: Final = "LogEndOffset"
LOG_METRIC_SIZE: Final = "Size"
LOG_METRIC_NAMES: Final = (
    LOG_METRIC_NUM_LOG_SEGMENTS,
    LOG_METRIC_LOG_START_OFFSET,
    LOG_METRIC_LOG_END_OFFSET,
    LOG_METRIC_SIZE,
)


# ---- Log -----------------------------------------------------------------------------------------


class Log(Logging, KafkaMetricsGroup):
    """An append-only log of record batches for one partition, stored as segments in `dir`.

    `log_start_offset` is the first offset exposed to clients (moved by retention, DeleteRecords and
    truncation); `recovery_point` is the first offset not known to be flushed to disk.
    """

    logger_name = "kafka.log.Log"

    # Suffixes and names of Kafka's `object Log`.
    LOG_FILE_SUFFIX: Final = LOG_FILE_SUFFIX
    INDEX_FILE_SUFFIX: Final = INDEX_FILE_SUFFIX
    TIME_INDEX_FILE_SUFFIX: Final = TIME_INDEX_FILE_SUFFIX
    PRODUCER_SNAPSHOT_FILE_SUFFIX: Final = PRODUCER_SNAPSHOT_FILE_SUFFIX
    TXN_INDEX_FILE_SUFFIX: Final = TXN_INDEX_FILE_SUFFIX
    DELETED_FILE_SUFFIX: Final = DELETED_FILE_SUFFIX
    CLEANED_FILE_SUFFIX: Final = CLEANED_FILE_SUFFIX
    SWAP_FILE_SUFFIX: Final = SWAP_FILE_SUFFIX
    CLEAN_SHUTDOWN_FILE: Final = CLEAN_SHUTDOWN_FILE
    DELETE_DIR_SUFFIX: Final = DELETE_DIR_SUFFIX
    FUTURE_DIR_SUFFIX: Final = FUTURE_DIR_SUFFIX
    UNKNOWN_OFFSET: Final = UNKNOWN_OFFSET

    def __init__(
        self,
        dir: str | os.PathLike[str],
        config: Any,
        log_start_offset: int,
        recovery_point: int,
        scheduler: Scheduler,
        time: Time,
        max_producer_id_expiration_ms: int,
        producer_id_expiration_check_interval_ms: int,
        topic_partition: TopicPartition,
        producer_state_manager: ProducerStateManager,
        log_dir_failure_channel: LogDirFailureChannel,
        had_clean_shutdown: bool = True,
        keep_partition_metadata_file: bool = True,
        broker_topic_stats: BrokerTopicStats | None = None,
    ) -> None:
        self._dir = Path(dir)
        # The broker's, for the meters the LogValidator and the CRC check mark (none in tools and tests).
        self.broker_topic_stats = broker_topic_stats
        self.config = config
        self.log_start_offset = log_start_offset
        self.recovery_point = recovery_point
        self._scheduler = scheduler
        self.time = time
        self.max_producer_id_expiration_ms = max_producer_id_expiration_ms
        self.producer_id_expiration_check_interval_ms = producer_id_expiration_check_interval_ms
        self.topic_partition = topic_partition
        self.producer_state_manager = producer_state_manager
        self._log_dir_failure_channel = log_dir_failure_channel
        self._had_clean_shutdown = had_clean_shutdown
        self.keep_partition_metadata_file = keep_partition_metadata_file
        self.log_ident = f"[Log partition={topic_partition}, dir={self._dir.parent}] "

        self._lock = threading.RLock()
        # Set once the files are closed (offline directory, deleted log): no I/O may follow.
        self._is_memory_mapped_buffer_closed = False
        self._parent_dir = str(self._dir.parent)
        self._last_flushed_time = time.milliseconds()
        self._next_offset_metadata = LogOffsetMetadata(0)
        self._log_dir_offline = False
        # The first offset of an undecided (or unreplicated decided) transaction, bounding the LSO.
        self._first_unstable_offset_metadata: LogOffsetMetadata | None = None
        self._high_watermark_metadata = LogOffsetMetadata(log_start_offset)
        self._segments = _SegmentMap()
        self.leader_epoch_cache: LeaderEpochFileCache | None = None
        self.partition_metadata_file: PartitionMetadataFile | None = None
        self.topic_id: Uuid = ZERO_UUID

        self._dir.mkdir(parents=True, exist_ok=True)
        self._initialize_leader_epoch_cache()
        self._initialize_partition_metadata()
        next_offset = self._load_segments()
        active = self.active_segment
        self._next_offset_metadata = LogOffsetMetadata(next_offset, active.base_offset, active.size)
        if self.leader_epoch_cache is not None:
            self.leader_epoch_cache.truncate_from_end(self._next_offset_metadata.message_offset)
        first = self._segments.first()
        assert first is not None
        self._update_log_start_offset(max(self.log_start_offset, first.base_offset))
        # The earliest epoch entry may not have been flushed before a hard failure.
        if self.leader_epoch_cache is not None:
            self.leader_epoch_cache.truncate_from_start(self.log_start_offset)
        # Segment loading and recovery used separate producer state managers, so that the state can
        # be built from scratch here.
        if not self.producer_state_manager.is_empty:
            raise RuntimeError("Producer state must be empty during log initialization")
        self.producer_state_manager.remove_stray_snapshots(self._segments.base_offsets())
        self._load_producer_state(self.log_end_offset, reload_from_clean_shutdown=had_clean_shutdown)
        assert self.partition_metadata_file is not None
        if self.partition_metadata_file.exists():
            if not keep_partition_metadata_file:
                self.partition_metadata_file.delete()
            else:
                self.topic_id = self.partition_metadata_file.read().topic_id

        def expire_producers() -> None:
            with self._lock:
                self.producer_state_manager.remove_expired_producers(self.time.milliseconds())

        self.producer_expire_check: ScheduledFuture = scheduler.schedule(
            "PeriodicProducerExpirationCheck",
            expire_producers,
            delay_ms=producer_id_expiration_check_interval_ms,
            period_ms=producer_id_expiration_check_interval_ms,
        )
        self._metrics_tags: dict[str, str] = self._log_metrics_tags()
        self._new_log_metrics()

    @classmethod
    def apply(
        cls,
        dir: str | os.PathLike[str],
        config: Any,
        log_start_offset: int,
        recovery_point: int,
        scheduler: Scheduler,
        time: Time,
        max_producer_id_expiration_ms: int,
        producer_id_expiration_check_interval_ms: int,
        log_dir_failure_channel: LogDirFailureChannel,
        last_shutdown_clean: bool = True,
        keep_partition_metadata_file: bool = True,
        broker_topic_stats: BrokerTopicStats | None = None,
    ) -> Log:
        """Open the log in `dir` (Kafka's `Log.apply`): parse the partition from the name, create its
        ProducerStateManager, load and (if needed) recover the segments."""
        topic_partition = Log.parse_topic_partition_name(Path(dir))
        producer_state_manager = ProducerStateManager(topic_partition, Path(dir), max_producer_id_expiration_ms)
        return cls(
            dir,
            config,
            log_start_offset,
            recovery_point,
            scheduler,
            time,
            max_producer_id_expiration_ms,
            producer_id_expiration_check_interval_ms,
            topic_partition,
            producer_state_manager,
            log_dir_failure_channel,
            last_shutdown_clean,
            keep_partition_metadata_file,
            broker_topic_stats,
        )

    # ---- simple accessors -------------------------------------------------------------------

    @property
    def dir(self) -> Path:
        """The partition directory."""
        return self._dir

    @property
    def parent_dir(self) -> str:
        """The log directory (the parent of the partition directory)."""
        return self._parent_dir

    @property
    def parent_dir_file(self) -> Path:
        """The log directory as a path."""
        return Path(self._parent_dir)

    @property
    def init_file_size(self) -> int:
        """The size new segment files are preallocated to."""
        return int(self.config.segment_size) if self.config.preallocate else 0

    @property
    def name(self) -> str:
        """The partition directory name."""
        return self._dir.name

    @property
    def is_future(self) -> bool:
        """Whether this is a future replica (directory name ending in -future)."""
        return self._dir.name.endswith(FUTURE_DIR_SUFFIX)

    @property
    def record_version(self) -> int:
        """The record format (magic) of the topic's message.format.version."""
        return _record_version_value(self.config)

    def update_config(self, new_config: Any) -> None:
        """Use `new_config`; a record format change re-creates the leader epoch cache."""
        old_config = self.config
        self.config = new_config
        old_version = _record_version_value(old_config)
        new_version = _record_version_value(new_config)
        if new_version < old_version:
            self.warn(f"Record format version has been downgraded from V{old_version} to V{new_version}.")
        if new_version != old_version:
            self._initialize_leader_epoch_cache()

    def _check_if_memory_mapped_buffer_closed(self) -> None:
        if self._is_memory_mapped_buffer_closed:
            raise KafkaStorageException(f"The memory mapped buffer for log of {self.topic_partition} is already closed")

    # ---- high watermark, LSO --------------------------------------------------------------------

    @property
    def high_watermark(self) -> int:
        """The offset up to which the log is replicated (exclusive)."""
        return self._high_watermark_metadata.message_offset

    def update_high_watermark(self, hw: int | LogOffsetMetadata) -> int:
        """Set the high watermark, bounded by the log start and end offsets; returns the offset set."""
        high_watermark_metadata = hw if isinstance(hw, LogOffsetMetadata) else LogOffsetMetadata(hw)
        end_offset_metadata = self.log_end_offset_metadata
        if high_watermark_metadata.message_offset < self.log_start_offset:
            new_high_watermark_metadata = LogOffsetMetadata(self.log_start_offset)
        elif high_watermark_metadata.message_offset >= end_offset_metadata.message_offset:
            new_high_watermark_metadata = end_offset_metadata
        else:
            new_high_watermark_metadata = high_watermark_metadata
        self._update_high_watermark_metadata(new_high_watermark_metadata)
        return new_high_watermark_metadata.message_offset

    def maybe_increment_high_watermark(self, new_high_watermark: LogOffsetMetadata) -> LogOffsetMetadata | None:
        """Move the high watermark up (or onto a newer segment); returns the old one if it moved."""
        if new_high_watermark.message_offset > self.log_end_offset:
            raise ValueError(
                f"High watermark {new_high_watermark} update exceeds current log end offset "
                f"{self.log_end_offset_metadata}"
            )
        with self._lock:
            old_high_watermark = self._fetch_high_watermark_metadata()
            if old_high_watermark.message_offset < new_high_watermark.message_offset or (
                old_high_watermark.message_offset == new_high_watermark.message_offset
                and old_high_watermark.on_older_segment(new_high_watermark)
            ):
                self._update_high_watermark_metadata(new_high_watermark)
                return old_high_watermark
            return None

    def _fetch_high_watermark_metadata(self) -> LogOffsetMetadata:
        self._check_if_memory_mapped_buffer_closed()
        offset_metadata = self._high_watermark_metadata
        if offset_metadata.message_offset_only:
            with self._lock:
                full_offset = self._convert_to_offset_metadata_or_throw(self.high_watermark)
                self._update_high_watermark_metadata(full_offset)
                return full_offset
        return offset_metadata

    def _update_high_watermark_metadata(self, new_high_watermark: LogOffsetMetadata) -> None:
        if new_high_watermark.message_offset < 0:
            raise ValueError("High watermark offset should be non-negative")
        with self._lock:
            if new_high_watermark.message_offset < self._high_watermark_metadata.message_offset:
                self.warn(
                    f"Non-monotonic update of high watermark from {self._high_watermark_metadata} to "
                    f"{new_high_watermark}"
                )
            self._high_watermark_metadata = new_high_watermark
            self.producer_state_manager.on_high_watermark_updated(new_high_watermark.message_offset)
            self._maybe_increment_first_unstable_offset()
        if self.is_trace_enabled():
            self.trace(f"Setting high watermark {new_high_watermark}")

    @property
    def first_unstable_offset(self) -> int | None:
        """The first offset of an open transaction, if any."""
        metadata = self._first_unstable_offset_metadata
        return None if metadata is None else metadata.message_offset

    def _fetch_last_stable_offset_metadata(self) -> LogOffsetMetadata:
        self._check_if_memory_mapped_buffer_closed()
        high_watermark_metadata = self._fetch_high_watermark_metadata()
        offset_metadata = self._first_unstable_offset_metadata
        if offset_metadata is not None and offset_metadata.message_offset < high_watermark_metadata.message_offset:
            if offset_metadata.message_offset_only:
                with self._lock:
                    full_offset = self._convert_to_offset_metadata_or_throw(offset_metadata.message_offset)
                    if self._first_unstable_offset_metadata == offset_metadata:
                        self._first_unstable_offset_metadata = full_offset
                    return full_offset
            return offset_metadata
        return high_watermark_metadata

    @property
    def last_stable_offset(self) -> int:
        """The first offset not yet decided (the high watermark when no transaction is open below it)."""
        metadata = self._first_unstable_offset_metadata
        if metadata is not None and metadata.message_offset < self.high_watermark:
            return metadata.message_offset
        return self.high_watermark

    @property
    def last_stable_offset_lag(self) -> int:
        """High watermark minus last stable offset."""
        return self.high_watermark - self.last_stable_offset

    def fetch_offset_snapshot(self) -> LogOffsetSnapshot:
        """Log start, log end, high watermark and last stable offset, with segment positions."""
        last_stable = self._fetch_last_stable_offset_metadata()
        high_watermark = self._fetch_high_watermark_metadata()
        return LogOffsetSnapshot(self.log_start_offset, self.log_end_offset_metadata, high_watermark, last_stable)

    def fetch_log_end_offset_metadata(self) -> LogOffsetMetadata:
        """The log end of fetch_offset_snapshot alone, after the same check that the log is open (KafkaStorageException
        otherwise): what a follower's delayed fetch compares its position with, several times per record."""
        self._check_if_memory_mapped_buffer_closed()
        return self._next_offset_metadata

    # ---- initialization -------------------------------------------------------------------------

    def _initialize_partition_metadata(self) -> None:
        with self._lock:
            self.partition_metadata_file = PartitionMetadataFile(
                PartitionMetadataFile.new_file(self._dir), self._log_dir_failure_channel
            )

    def _initialize_leader_epoch_cache(self) -> None:
        with self._lock:
            leader_epoch_file = LeaderEpochCheckpointFile.new_file(self._dir)

            def new_leader_epoch_file_cache() -> LeaderEpochFileCache:
                checkpoint_file = LeaderEpochCheckpointFile(leader_epoch_file, self._log_dir_failure_channel)
                return LeaderEpochFileCache(self.topic_partition, lambda: self.log_end_offset, checkpoint_file)

            if self.record_version < MAGIC_VALUE_V2:
                current_cache = new_leader_epoch_file_cache() if leader_epoch_file.exists() else None
                if current_cache is not None and current_cache.non_empty():
                    self.warn(
                        f"Deleting non-empty leader epoch cache due to incompatible message format "
                        f"V{self.record_version}"
                    )
                with contextlib.suppress(FileNotFoundError):
                    leader_epoch_file.unlink()
                self.leader_epoch_cache = None
            else:
                self.leader_epoch_cache = new_leader_epoch_file_cache()

    def _maybe_flush_metadata_file(self) -> None:
        assert self.partition_metadata_file is not None
        self.partition_metadata_file.maybe_flush()

    def assign_topic_id(self, topic_id: Uuid) -> None:
        """Record the topic id (ZooKeeper clusters gaining ids), written before the next append."""
        if self.topic_id != ZERO_UUID and self.topic_id != topic_id:
            raise InconsistentTopicIdException(
                f"Tried to assign topic ID {topic_id} to log for topic partition {self.topic_partition},but log "
                f"already contained topic ID {self.topic_id}"
            )
        if self.keep_partition_metadata_file:
            self.topic_id = topic_id
            assert self.partition_metadata_file is not None
            if not self.partition_metadata_file.exists():
                self.partition_metadata_file.record(topic_id)
                self._scheduler.schedule("flush-metadata-file", self._maybe_flush_metadata_file)

    def _remove_temp_files_and_collect_swap_files(self) -> set[Path]:
        """Delete leftover .deleted and .cleaned files; return the .swap files that can be completed."""

        def delete_indices_if_exist(base_file: Path, suffix: str = "") -> None:
            self.info(f"Deleting index files with suffix {suffix} for baseFile {base_file}")
            offset = offset_from_file(base_file)
            for f in (
                offset_index_file(self._dir, offset, suffix),
                time_index_file(self._dir, offset, suffix),
                transaction_index_file(self._dir, offset, suffix),
            ):
                with contextlib.suppress(FileNotFoundError):
                    f.unlink()

        swap_files: set[Path] = set()
        clean_files: set[Path] = set()
        min_cleaned_file_offset = INT64_MAX
        for name in sorted(os.listdir(self._dir)):
            file = self._dir / name
            # Index files of a swapped segment may already be gone by the time they are listed here.
            if not file.is_file():
                continue
            if not os.access(file, os.R_OK):
                raise OSError(f"Could not read file {file}")
            filename = name
            if filename.endswith(DELETED_FILE_SUFFIX):
                self.debug(f"Deleting stray temporary file {file.absolute()}")
                with contextlib.suppress(FileNotFoundError):
                    file.unlink()
            elif filename.endswith(CLEANED_FILE_SUFFIX):
                min_cleaned_file_offset = min(offset_from_file_name(filename), min_cleaned_file_offset)
                clean_files.add(file)
            elif filename.endswith(SWAP_FILE_SUFFIX):
                # A crash in the middle of a swap: the indexes are rebuilt; a log file's swap is
                # completed below.
                base_file = Path(replace_suffix(str(file), SWAP_FILE_SUFFIX, ""))
                self.info(f"Found file {file.absolute()} from interrupted swap operation.")
                if is_index_file(base_file):
                    delete_indices_if_exist(base_file)
                elif is_log_file(base_file):
                    delete_indices_if_exist(base_file)
                    swap_files.add(file)
        # Swap files above the lowest .cleaned offset may belong to an unfinished segment split.
        invalid_swap_files = {f for f in swap_files if offset_from_file(f) >= min_cleaned_file_offset}
        for file in invalid_swap_files:
            self.debug(f"Deleting invalid swap file {file.absolute()} minCleanedFileOffset: {min_cleaned_file_offset}")
            base_file = Path(replace_suffix(str(file), SWAP_FILE_SUFFIX, ""))
            delete_indices_if_exist(base_file, SWAP_FILE_SUFFIX)
            with contextlib.suppress(FileNotFoundError):
                file.unlink()
        for file in clean_files:
            self.debug(f"Deleting stray .clean file {file.absolute()}")
            with contextlib.suppress(FileNotFoundError):
                file.unlink()
        return swap_files - invalid_swap_files

    def _load_segment_files(self) -> None:
        """Open every segment in the directory, in offset order; segments with broken indexes are recovered."""
        for name in sorted(os.listdir(self._dir)):
            file = self._dir / name
            if not file.is_file():
                continue
            if is_index_file(file):
                offset = offset_from_file(file)
                if not log_file(self._dir, offset).exists():
                    self.warn(f"Found an orphaned index file {file.absolute()}, with no corresponding log file.")
                    with contextlib.suppress(FileNotFoundError):
                        file.unlink()
            elif is_log_file(file):
                base_offset = offset_from_file(file)
                time_index_file_newly_created = not time_index_file(self._dir, base_offset).exists()
                segment = LogSegment.open(self._dir, base_offset, self.config, self.time, file_already_exists=True)
                try:
                    segment.sanity_check(time_index_file_newly_created)
                except FileNotFoundError:
                    self.error(
                        f"Could not find offset index file corresponding to log file {segment.log.file().absolute()}, "
                        "recovering segment and rebuilding index files..."
                    )
                    self._recover_segment(segment)
                except CorruptIndexException as e:
                    self.warn(
                        f"Found a corrupted index file corresponding to log file {segment.log.file().absolute()} due "
                        f"to {e}}}, recovering segment and rebuilding index files..."
                    )
                    self._recover_segment(segment)
                self.add_segment(segment)

    def _recover_segment(self, segment: LogSegment, leader_epoch_cache: LeaderEpochFileCache | None = None) -> int:
        """Rebuild a segment's indexes and producer state from its data; returns the bytes truncated."""
        with self._lock:
            producer_state_manager = ProducerStateManager(
                self.topic_partition, self._dir, self.max_producer_id_expiration_ms
            )
            self._rebuild_producer_state(segment.base_offset, False, producer_state_manager)
            bytes_truncated = segment.recover(producer_state_manager, leader_epoch_cache)
            # With this snapshot, recovering a later segment need not read this one again.
            producer_state_manager.take_snapshot()
            return bytes_truncated

    def _complete_swap_operations(self, swap_files: set[Path]) -> None:
        for swap_file in sorted(swap_files):
            log_path = Path(replace_suffix(str(swap_file), SWAP_FILE_SUFFIX, ""))
            base_offset = offset_from_file(log_path)
            swap_segment = LogSegment.open(
                swap_file.parent, base_offset, self.config, self.time, file_suffix=SWAP_FILE_SUFFIX
            )
            self.info(f"Found log file {swap_file} from interrupted swap operation, repairing.")
            self._recover_segment(swap_segment)
            # The swapped-in segment replaces the segments in its offset range that are still there.
            next_offset = swap_segment.read_next_offset()
            old_segments = [
                segment
                for segment in self.log_segments(swap_segment.base_offset, next_offset)
                if segment.read_next_offset() > swap_segment.base_offset
            ]
            self.replace_segments([swap_segment], old_segments, is_recovered_swap_file=True)

    def _load_segments(self) -> int:
        """Load the segments from disk and return the next offset."""
        swap_files = self._remove_temp_files_and_collect_swap_files()

        def load() -> None:
            # After a split, loading starts over; close what the previous attempt opened.
            for segment in self._segments.values():
                segment.close()
            self._segments.clear()
            self._load_segment_files()

        self.retry_on_offset_overflow(load)
        self._complete_swap_operations(swap_files)
        if not str(self._dir.absolute()).endswith(DELETE_DIR_SUFFIX):
            next_offset = self.retry_on_offset_overflow(self.recover_log)
            # The active segment gets its full index size back.
            self.active_segment.resize_indexes(self.config.max_index_size)
            return next_offset
        if self._segments.is_empty():
            self.add_segment(LogSegment.open(self._dir, 0, self.config, self.time, init_file_size=self.init_file_size))
        return 0

    def _update_log_end_offset(self, offset: int) -> None:
        active = self.active_segment
        self._next_offset_metadata = LogOffsetMetadata(offset, active.base_offset, active.size)
        # After a truncation or a roll the high watermark may be ahead or point at an old segment.
        if self.high_watermark >= offset:
            self._update_high_watermark_metadata(self._next_offset_metadata)
        if self.recovery_point > offset:
            self.recovery_point = offset

    def _update_log_start_offset(self, offset: int) -> None:
        self.log_start_offset = offset
        if self.high_watermark < offset:
            self.update_high_watermark(offset)
        if self.recovery_point < offset:
            self.recovery_point = offset

    def recover_log(self) -> int:
        """Recover the segments above the recovery point (unless the shutdown was clean); returns the next offset."""

        def delete_segments_if_log_start_greater_than_log_end() -> int | None:
            if self._segments.is_empty():
                return None
            log_end_offset = self.active_segment.read_next_offset()
            if log_end_offset >= self.log_start_offset:
                return log_end_offset
            self.warn(
                f"Deleting all segments because logEndOffset ({log_end_offset}) is smaller than logStartOffset "
                f"({self.log_start_offset}). This could happen if segment files were deleted from the file system."
            )
            self._remove_and_delete_segments(self.log_segments(), True, LOG_RECOVERY)
            if self.leader_epoch_cache is not None:
                self.leader_epoch_cache.clear_and_flush()
            self.producer_state_manager.truncate_fully_and_start_at(self.log_start_offset)
            return None

        if not self._had_clean_shutdown:
            unflushed = self.log_segments(self.recovery_point, INT64_MAX)
            for index, segment in enumerate(unflushed):
                # Progress as Kafka 3.x's LogLoader shows it: how many of the unflushed segments are done.
                self.info(
                    f"Recovering unflushed segment {segment.base_offset}. {index}/{len(unflushed)} recovered for "
                    f"{self.topic_partition}."
                )
                try:
                    truncated_bytes = self._recover_segment(segment, self.leader_epoch_cache)
                except InvalidOffsetException:
                    start_offset = segment.base_offset
                    self.warn(
                        "Found invalid offset during recovery. Deleting the corrupt segment and creating an empty "
                        f"one with starting offset {start_offset}"
                    )
                    truncated_bytes = segment.truncate_to(start_offset)
                if truncated_bytes > 0:
                    # Everything after invalid data goes.
                    self.warn(
                        f"Corruption found in segment {segment.base_offset}, truncating to offset "
                        f"{segment.read_next_offset()}"
                    )
                    self._remove_and_delete_segments(unflushed[index + 1 :], True, LOG_RECOVERY)
                    break

        log_end_offset_option = delete_segments_if_log_start_greater_than_log_end()
        if self._segments.is_empty():
            self.add_segment(
                LogSegment.open(
                    self._dir,
                    self.log_start_offset,
                    self.config,
                    self.time,
                    init_file_size=self.init_file_size,
                    preallocate=self.config.preallocate,
                )
            )
        # Only flush() moves the recovery point forward, except after a clean shutdown.
        if self._had_clean_shutdown and log_end_offset_option is not None:
            self.recovery_point = log_end_offset_option
            return log_end_offset_option
        log_end_offset = (
            log_end_offset_option if log_end_offset_option is not None else self.active_segment.read_next_offset()
        )
        self.recovery_point = min(self.recovery_point, log_end_offset)
        return log_end_offset

    def _rebuild_producer_state(
        self, last_offset: int, reload_from_clean_shutdown: bool, producer_state_manager: ProducerStateManager
    ) -> None:
        """Bring `producer_state_manager` up to `last_offset` from snapshots and segment data, with no
        other side effect on the log."""
        with self._lock:
            self._check_if_memory_mapped_buffer_closed()
            segments = self._segments.values()
            if segments:
                lower = self._segments.lower(segments[-1].base_offset)
                offsets_to_snapshot = [
                    None if lower is None else lower.base_offset,
                    segments[-1].base_offset,
                    last_offset,
                ]
            else:
                offsets_to_snapshot = [last_offset]
            self.info(
                f"Loading producer state till offset {last_offset} with message format version {self.record_version}"
            )
            # Without snapshots after an upgrade, or on an old format, scanning all segments is avoided:
            # empty snapshots are written at the last two segment bases and the end instead.
            if self.record_version < MAGIC_VALUE_V2 or (
                producer_state_manager.latest_snapshot_offset is None and reload_from_clean_shutdown
            ):
                for offset in offsets_to_snapshot:
                    if offset is not None:
                        producer_state_manager.update_map_end_offset(offset)
                        producer_state_manager.take_snapshot()
                return
            is_empty_before_truncation = (
                producer_state_manager.is_empty and producer_state_manager.map_end_offset >= last_offset
            )
            producer_state_manager.truncate_and_reload(self.log_start_offset, last_offset, self.time.milliseconds())
            # Only read the log when the state is behind and there were producers before truncation.
            if last_offset > producer_state_manager.map_end_offset and not is_empty_before_truncation:
                segment_of_last_offset = self._segments.floor(last_offset)
                for segment in self.log_segments(producer_state_manager.map_end_offset, last_offset):
                    start_offset = max(
                        segment.base_offset, producer_state_manager.map_end_offset, self.log_start_offset
                    )
                    producer_state_manager.update_map_end_offset(start_offset)
                    if segment.base_offset in offsets_to_snapshot:
                        producer_state_manager.take_snapshot()
                    if segment is segment_of_last_offset:
                        position = segment.translate_offset(last_offset)
                        max_position = position.position if position is not None else segment.size
                    else:
                        max_position = segment.size
                    fetch_data_info = segment.read(start_offset, INT32_MAX, max_position, False)
                    if fetch_data_info is not None:
                        _load_producers_from_records(producer_state_manager, fetch_data_info.records)
            producer_state_manager.update_map_end_offset(last_offset)
            producer_state_manager.take_snapshot()

    def _load_producer_state(self, last_offset: int, reload_from_clean_shutdown: bool) -> None:
        with self._lock:
            self._rebuild_producer_state(last_offset, reload_from_clean_shutdown, self.producer_state_manager)
            self._maybe_increment_first_unstable_offset()

    def active_producers(self) -> list[DescribeProducersResponseData.ProducerState]:
        """The producers of this partition, as DescribeProducers reports them."""
        with self._lock:
            return [
                DescribeProducersResponseData.ProducerState(
                    producer_id=producer_id,
                    producer_epoch=state.producer_epoch,
                    last_sequence=state.last_seq,
                    last_timestamp=state.last_timestamp,
                    coordinator_epoch=state.coordinator_epoch,
                    current_txn_start_offset=(
                        -1 if state.current_txn_first_offset is None else state.current_txn_first_offset
                    ),
                )
                for producer_id, state in self.producer_state_manager.active_producers().items()
            ]

    def active_producers_with_last_sequence(self) -> dict[int, int]:
        """Producer id to last sequence."""
        with self._lock:
            return {pid: entry.last_seq for pid, entry in self.producer_state_manager.active_producers().items()}

    def last_records_of_active_producers(self) -> dict[int, LastRecord]:
        """Producer id to its last data offset (None if only a marker is left) and epoch."""
        with self._lock:
            return {
                pid: LastRecord(entry.last_data_offset if entry.last_data_offset >= 0 else None, entry.producer_epoch)
                for pid, entry in self.producer_state_manager.active_producers().items()
            }

    @property
    def number_of_segments(self) -> int:
        """How many segments the log has."""
        return len(self._segments)

    # ---- metrics (kafka.log:type=Log) ----------------------------------------------------------

    def _log_metrics_tags(self) -> dict[str, str]:
        tags = {"topic": self.topic_partition.topic, "partition": str(self.topic_partition.partition)}
        if self.is_future:
            tags["is-future"] = "true"
        return tags

    def _new_log_metrics(self) -> None:
        tags = self._metrics_tags
        self.new_gauge(LOG_METRIC_NUM_LOG_SEGMENTS, lambda: self.number_of_segments, tags)
        self.new_gauge(LOG_METRIC_LOG_START_OFFSET, lambda: self.log_start_offset, tags)
        self.new_gauge(LOG_METRIC_LOG_END_OFFSET, lambda: self.log_end_offset, tags)
        self.new_gauge(LOG_METRIC_SIZE, lambda: self.size, tags)

    def remove_log_metrics(self) -> None:
        """Unregisters the log's gauges (the LogManager calls it when the log is removed)."""
        for name in LOG_METRIC_NAMES:
            self.remove_metric(name, self._metrics_tags)

    def refresh_log_metrics(self) -> None:
        """Registers the gauges again under the tags of the log's current directory name.

        # PORT: Kafka 2.8 keeps the tags a log was created with, so a future log that replaced the current one
        # reports under is-future=true until a restart (later Kafka fixes this); the LogManager calls this once the
        # replaced log's gauges are gone, so that the gauges of the partition's name are this log's.
        """
        new_tags = self._log_metrics_tags()
        if new_tags != self._metrics_tags:
            self.remove_log_metrics()
            self._metrics_tags = new_tags
            self._new_log_metrics()

    # ---- close, rename, delete ------------------------------------------------------------------

    def close(self) -> None:
        """Snapshot the producer state and close every segment (the files stay)."""
        self.debug("Closing log")
        with self._lock:
            self._maybe_flush_metadata_file()
            self._check_if_memory_mapped_buffer_closed()
            self.producer_expire_check.cancel(True)
            with self._maybe_handle_io_exception(
                lambda: f"Error while renaming dir for {self.topic_partition} in dir {self._dir.parent}"
            ):
                # A snapshot at the end avoids rescanning the log at the next start.
                self.producer_state_manager.take_snapshot()
                for segment in self._segments.values():
                    segment.close()

    def rename_dir(self, name: str) -> None:
        """Rename the partition directory to `name` within the same log directory."""
        with self._lock:
            with self._maybe_handle_io_exception(
                lambda: f"Error while renaming dir for {self.topic_partition} in log dir {self._dir.parent}"
            ):
                self._maybe_flush_metadata_file()
                renamed_dir = self._dir.parent / name
                atomic_move_with_fallback(str(self._dir), str(renamed_dir))
                if renamed_dir != self._dir:
                    self._dir = renamed_dir
                    self._parent_dir = str(renamed_dir.parent)
                    for segment in self._segments.values():
                        segment.update_parent_dir(renamed_dir)
                    self.producer_state_manager.update_parent_dir(self._dir)
                    self._initialize_leader_epoch_cache()
                    self._initialize_partition_metadata()

    def close_handlers(self) -> None:
        """Close the files without writing (the directory is offline)."""
        self.debug("Closing handlers")
        with self._lock:
            for segment in self._segments.values():
                segment.close_handlers()
            self._is_memory_mapped_buffer_closed = True

    # ---- append ---------------------------------------------------------------------------------

    def append_as_leader(
        self, records: MemoryRecords, leader_epoch: int, origin: AppendOrigin | None = None
    ) -> LogAppendInfo:
        """Validate `records`, assign offsets and the leader epoch, and append them.

        `records` must be writable (the batch headers are patched in place). Raises Kafka's
        validation exceptions (RecordTooLargeException, CorruptRecordException, InvalidRecordException,
        RecordValidationException, OutOfOrderSequenceException, ...) and KafkaStorageException.
        """
        origin = origin if origin is not None else Client()
        validate_and_assign_offsets = not isinstance(origin, RaftLeader)
        return self._append(records, origin, validate_and_assign_offsets, leader_epoch, ignore_record_size=False)

    def append_as_follower(self, records: MemoryRecords) -> LogAppendInfo:
        """Append replicated batches with the offsets and epochs the leader gave them."""
        return self._append(records, Replication(), False, -1, ignore_record_size=True)

    def _append(
        self,
        records: MemoryRecords,
        origin: AppendOrigin,
        validate_and_assign_offsets: bool,
        leader_epoch: int,
        ignore_record_size: bool,
    ) -> LogAppendInfo:
        # The topic id reaches the disk before any data of the log does.
        self._maybe_flush_metadata_file()
        # The batches are read once: the epoch and producer-state steps below walk the same list when the
        # records are appended as they came (a follower's, not trimmed).
        batches: list[MutableRecordBatch] = []
        append_info = self._analyze_and_validate_records(records, batches, origin, ignore_record_size, leader_epoch)
        if append_info.shallow_count == 0:
            return append_info
        valid_records = self._trim_invalid_bytes(records, append_info)
        valid_batches: Sequence[RecordBatch] | None = (
            batches if not validate_and_assign_offsets and valid_records is records else None
        )
        with self._lock:
            with self._maybe_handle_io_exception(
                lambda: f"Error while appending records to {self.topic_partition} in dir {self._dir.parent}"
            ):
                self._check_if_memory_mapped_buffer_closed()
                if validate_and_assign_offsets:
                    offset = LongRef(self._next_offset_metadata.message_offset)
                    append_info.first_offset = LogOffsetMetadata(offset.value)
                    now = self.time.milliseconds()
                    result = validate_messages_and_assign_offsets(
                        valid_records,
                        self.topic_partition,
                        offset,
                        self.time,
                        now,
                        append_info.source_codec,
                        append_info.target_codec,
                        self.config.compact,
                        self.record_version,
                        self.config.message_timestamp_type,
                        self.config.message_timestamp_difference_max_ms,
                        leader_epoch,
                        origin,
                        self.broker_topic_stats,
                    )
                    valid_records = result.validated_records
                    append_info.max_timestamp = result.max_timestamp
                    append_info.offset_of_max_timestamp = result.shallow_offset_of_max_timestamp
                    append_info.last_offset = offset.value - 1
                    append_info.record_conversion_stats = result.record_conversion_stats
                    if self.config.message_timestamp_type is TimestampType.LOG_APPEND_TIME:
                        append_info.log_append_time = now
                    # Conversion or recompression may have changed the batch sizes.
                    if not ignore_record_size and result.message_size_maybe_changed:
                        for batch in valid_records.batches():
                            if batch.size_in_bytes() > self.config.max_message_size:
                                # The size of the records as sent, as before a recompression.
                                self._mark_bytes_rejected(records.size_in_bytes())
                                raise RecordTooLargeException(
                                    f"Message batch size is {batch.size_in_bytes()} bytes in append to partition "
                                    f"{self.topic_partition} which exceeds the maximum configured size of "
                                    f"{self.config.max_message_size}."
                                )
                else:
                    if not append_info.offsets_monotonic:
                        raise OffsetsOutOfOrderException(
                            f"Out of order offsets found in append to {self.topic_partition}: "
                            f"{[r.offset() for r in records.records()]}"
                        )
                    if append_info.first_or_last_offset_of_first_batch < self._next_offset_metadata.message_offset:
                        # A follower fetching from an unaligned log start may still recover if the log is empty.
                        if append_info.first_offset is not None:
                            first_offset = append_info.first_offset.message_offset
                        else:
                            first_batch = records.first_batch()
                            first_offset = first_batch.base_offset() if first_batch is not None else -1
                        first_or_last = (
                            "First offset" if append_info.first_offset is not None else "Last offset of the first batch"
                        )
                        first_ten = [r.offset() for _, r in zip(range(10), records.records())]
                        raise UnexpectedAppendOffsetException(
                            f"Unexpected offset in append to {self.topic_partition}. {first_or_last} "
                            f"{append_info.first_or_last_offset_of_first_batch} is less than the next offset "
                            f"{self._next_offset_metadata.message_offset}. First 10 offsets in append: {first_ten}, "
                            f"last offset in append: {append_info.last_offset}. Log start offset = "
                            f"{self.log_start_offset}",
                            first_offset,
                            append_info.last_offset,
                        )

                # The leader stamped its epoch on the batches; the epoch cache follows it.
                epoch_batches: Iterable[RecordBatch] = (
                    valid_batches if valid_batches is not None else valid_records.batches()
                )
                for epoch_batch in epoch_batches:
                    magic = epoch_batch.magic()
                    if magic >= MAGIC_VALUE_V2:
                        self.maybe_assign_epoch_start_offset(
                            epoch_batch.partition_leader_epoch(), epoch_batch.base_offset()
                        )
                    elif self.leader_epoch_cache is not None and self.leader_epoch_cache.non_empty():
                        # A temporary format downgrade: fall back to high watermark truncation.
                        self.warn(f"Clearing leader epoch cache after unexpected append with message format v{magic}")
                        self.leader_epoch_cache.clear_and_flush()

                if valid_records.size_in_bytes() > self.config.segment_size:
                    raise RecordBatchTooLargeException(
                        f"Message batch size is {valid_records.size_in_bytes()} bytes in append to partition "
                        f"{self.topic_partition}, which exceeds the maximum configured segment size of "
                        f"{self.config.segment_size}."
                    )

                segment = self._maybe_roll(valid_records.size_in_bytes(), append_info)
                log_offset_metadata = LogOffsetMetadata(
                    append_info.first_or_last_offset_of_first_batch, segment.base_offset, segment.size
                )
                updated_producers, completed_txns, maybe_duplicate = self._analyze_and_validate_producer_state(
                    log_offset_metadata, valid_batches if valid_batches is not None else valid_records.batches(), origin
                )
                if maybe_duplicate is not None:
                    append_info.first_offset = LogOffsetMetadata(maybe_duplicate.first_offset)
                    append_info.last_offset = maybe_duplicate.last_offset
                    append_info.log_append_time = maybe_duplicate.timestamp
                    append_info.log_start_offset = self.log_start_offset
                    return append_info

                if append_info.first_offset is not None:
                    append_info.first_offset = LogOffsetMetadata(
                        append_info.first_offset.message_offset, segment.base_offset, segment.size
                    )
                segment.append(
                    append_info.last_offset,
                    append_info.max_timestamp,
                    append_info.offset_of_max_timestamp,
                    valid_records,
                )
                # The end offset moves right after the write, so that offsets stay monotonic even if
                # the transaction index update below fails.
                self._update_log_end_offset(append_info.last_offset + 1)
                for producer_append_info in updated_producers.values():
                    self.producer_state_manager.update(producer_append_info)
                for completed_txn in completed_txns:
                    last_stable_offset = self.producer_state_manager.last_stable_offset(completed_txn)
                    segment.update_txn_index(completed_txn, last_stable_offset)
                    self.producer_state_manager.complete_txn(completed_txn)
                # The snapshot offset follows the log even without idempotent data.
                self.producer_state_manager.update_map_end_offset(append_info.last_offset + 1)
                self._maybe_increment_first_unstable_offset()
                if self.is_trace_enabled():
                    self.trace(
                        f"Appended message set with last offset: {append_info.last_offset}, first offset: "
                        f"{append_info.first_offset}, next offset: {self._next_offset_metadata.message_offset}, "
                        f"and messages: {valid_records}"
                    )
                if self._unflushed_messages() >= self.config.flush_interval_messages:
                    self.flush()
                return append_info

    def _check_for_log_dir_failure(self) -> None:
        if self._log_dir_offline:
            raise KafkaStorageException(f"The log dir {self._parent_dir} is offline due to a previous IO exception.")

    def maybe_assign_epoch_start_offset(self, leader_epoch: int, start_offset: int) -> None:
        """Record that `leader_epoch` starts at `start_offset` (if newer than the cache's latest)."""
        if self.leader_epoch_cache is not None:
            self.leader_epoch_cache.assign(leader_epoch, start_offset)

    def latest_epoch(self) -> int | None:
        """The latest leader epoch in the cache."""
        return None if self.leader_epoch_cache is None else self.leader_epoch_cache.latest_epoch()

    def end_offset_for_epoch(self, leader_epoch: int) -> OffsetAndEpoch | None:
        """For OffsetsForLeaderEpoch: the end offset of `leader_epoch` (or of the largest epoch below it)."""
        cache = self.leader_epoch_cache
        if cache is None:
            return None
        found_epoch, found_offset = cache.end_offset_for(leader_epoch)
        if found_offset == UNDEFINED_EPOCH_OFFSET:
            return None
        return OffsetAndEpoch(found_offset, found_epoch)

    def _maybe_increment_first_unstable_offset(self) -> None:
        with self._lock:
            self._check_if_memory_mapped_buffer_closed()
            updated = self.producer_state_manager.first_unstable_offset()
            if updated is not None and (updated.message_offset_only or updated.message_offset < self.log_start_offset):
                offset = max(updated.message_offset, self.log_start_offset)
                updated = self._convert_to_offset_metadata_or_throw(offset)
            if updated != self._first_unstable_offset_metadata:
                self.debug(f"First unstable offset updated to {updated}")
                self._first_unstable_offset_metadata = updated

    def maybe_increment_log_start_offset(
        self, new_log_start_offset: int, reason: LogStartOffsetIncrementReason
    ) -> bool:
        """Move the log start offset up to `new_log_start_offset` (not past the high watermark:
        OffsetOutOfRangeException); returns whether it moved."""
        updated_log_start_offset = False
        with self._maybe_handle_io_exception(
            lambda: (
                f"Exception while increasing log start offset for {self.topic_partition} to "
                f"{new_log_start_offset} in dir {self._dir.parent}"
            )
        ):
            with self._lock:
                if new_log_start_offset > self.high_watermark:
                    raise OffsetOutOfRangeException(
                        f"Cannot increment the log start offset to {new_log_start_offset} of partition "
                        f"{self.topic_partition} since it is larger than the high watermark {self.high_watermark}"
                    )
                self._check_if_memory_mapped_buffer_closed()
                if new_log_start_offset > self.log_start_offset:
                    updated_log_start_offset = True
                    self._update_log_start_offset(new_log_start_offset)
                    self.info(f"Incremented log start offset to {new_log_start_offset} due to {reason}")
                    if self.leader_epoch_cache is not None:
                        self.leader_epoch_cache.truncate_from_start(self.log_start_offset)
                    self.producer_state_manager.on_log_start_offset_incremented(new_log_start_offset)
                    self._maybe_increment_first_unstable_offset()
        return updated_log_start_offset

    def _analyze_and_validate_producer_state(
        self, append_offset_metadata: LogOffsetMetadata, batches: Iterable[RecordBatch], origin: AppendOrigin
    ) -> tuple[dict[int, ProducerAppendInfo], list[CompletedTxn], BatchMetadata | None]:
        updated_producers: dict[int, ProducerAppendInfo] = {}
        completed_txns: list[CompletedTxn] = []
        relative_position_in_segment = append_offset_metadata.relative_position_in_segment
        for batch in batches:
            if batch.has_producer_id():
                # A client retrying one of its last five batches gets the original offsets back.
                if isinstance(origin, Client):
                    last_entry = self.producer_state_manager.last_entry(batch.producer_id())
                    if last_entry is not None:
                        duplicate = last_entry.find_duplicate_batch(batch)
                        if duplicate is not None:
                            return updated_producers, completed_txns, duplicate
                # The start of each transaction is kept with its position, for the LSO.
                first_offset_metadata = (
                    LogOffsetMetadata(
                        batch.base_offset(), append_offset_metadata.segment_base_offset, relative_position_in_segment
                    )
                    if batch.is_transactional()
                    else None
                )
                maybe_completed_txn = _update_producers(
                    self.producer_state_manager, batch, updated_producers, first_offset_metadata, origin
                )
                if maybe_completed_txn is not None:
                    completed_txns.append(maybe_completed_txn)
            relative_position_in_segment += batch.size_in_bytes()
        return updated_producers, completed_txns, None

    def _mark_bytes_rejected(self, size_in_bytes: int) -> None:
        """BytesRejectedPerSec of the topic and of all topics: an append refused for exceeding max.message.bytes."""
        stats = self.broker_topic_stats
        if stats is not None:
            stats.topic_stats(self.topic_partition.topic).bytes_rejected_rate.mark(size_in_bytes)
            stats.all_topics_stats.bytes_rejected_rate.mark(size_in_bytes)

    def _analyze_and_validate_records(
        self,
        records: MemoryRecords,
        batches: list[MutableRecordBatch],
        origin: AppendOrigin,
        ignore_record_size: bool,
        leader_epoch: int,
    ) -> LogAppendInfo:
        """Check each batch's size and CRC and gather the offsets, timestamps and codecs of the append; the batches
        are added to `batches` as they are read."""
        shallow_message_count = 0
        valid_bytes_count = 0
        first_offset: LogOffsetMetadata | None = None
        last_offset = -1
        last_leader_epoch = NO_PARTITION_LEADER_EPOCH
        source_codec = CompressionType.NONE
        monotonic = True
        max_timestamp = NO_TIMESTAMP
        offset_of_max_timestamp = -1
        read_first_message = False
        last_offset_of_first_batch = -1
        max_message_size = self.config.max_message_size
        is_client = isinstance(origin, Client)
        add_batch = batches.append
        is_raft_leader = isinstance(origin, RaftLeader)
        for batch in records.batches():
            add_batch(batch)
            v2_batch = batch if isinstance(batch, DefaultRecordBatch) else None
            if v2_batch is not None:
                # PORT: a v2 batch's header is read once (header_fields); the checks below are the same.
                (
                    base_offset,
                    length,
                    batch_leader_epoch,
                    magic,
                    stored_crc,
                    attributes,
                    last_offset_delta,
                    _,
                    batch_max_timestamp,
                    _,
                    _,
                    _,
                    _,
                ) = v2_batch.header_fields()
                batch_last_offset = base_offset + last_offset_delta
                batch_size = length + LOG_OVERHEAD
            else:
                batch_leader_epoch = batch.partition_leader_epoch()
                magic = batch.magic()
                # For magic < 2 the base offset would need decompression: only v2's is read.
                base_offset = batch.base_offset() if magic >= MAGIC_VALUE_V2 else -1
                batch_last_offset = batch.last_offset()
                batch_size = batch.size_in_bytes()
            if is_raft_leader and batch_leader_epoch != leader_epoch:
                raise InvalidRecordException("Append from Raft leader did not set the batch epoch correctly")
            # Only v2 is checked, for compatibility with older clients.
            if magic >= MAGIC_VALUE_V2 and is_client and base_offset != 0:
                raise InvalidRecordException(
                    f"The baseOffset of the record batch in the append to {self.topic_partition} should be 0, but it "
                    f"is {base_offset}"
                )
            # For magic < 2 the first offset would need decompression; the last offset stands in.
            if not read_first_message:
                if magic >= MAGIC_VALUE_V2:
                    first_offset = LogOffsetMetadata(base_offset)
                last_offset_of_first_batch = batch_last_offset
                read_first_message = True
            if last_offset >= batch_last_offset:
                monotonic = False
            last_offset = batch_last_offset
            last_leader_epoch = batch_leader_epoch
            if not ignore_record_size and batch_size > max_message_size:
                self._mark_bytes_rejected(records.size_in_bytes())
                raise RecordTooLargeException(
                    f"The record batch size in the append to {self.topic_partition} is {batch_size} bytes which "
                    f"exceeds the maximum configured value of {max_message_size}."
                )
            if v2_batch is not None:
                valid = batch_size >= RECORD_BATCH_OVERHEAD and stored_crc == v2_batch.compute_checksum()
            else:
                valid = batch.is_valid()
            if not valid:
                if self.broker_topic_stats is not None:
                    self.broker_topic_stats.all_topics_stats.invalid_message_crc_records_rate.mark()
                raise CorruptRecordException(
                    f"Record is corrupt (stored crc = {batch.checksum()}) in topic partition {self.topic_partition}."
                )
            if v2_batch is None:
                batch_max_timestamp = batch.max_timestamp()
            if batch_max_timestamp > max_timestamp:
                max_timestamp = batch_max_timestamp
                offset_of_max_timestamp = last_offset
            shallow_message_count += 1
            valid_bytes_count += batch_size
            # A v2 batch without codec bits is uncompressed; compression_type raises for an unknown codec.
            if v2_batch is None or attributes & COMPRESSION_CODEC_MASK:
                codec = batch.compression_type()
                if codec is not CompressionType.NONE:
                    source_codec = codec
        # The walk ended without an error: validation, the epoch cache and producer state walk this list again.
        records.remember_batches(batches)
        target_codec = get_target_compression_type(self.config.compression_type, source_codec)
        return LogAppendInfo(
            first_offset,
            last_offset,
            None if last_leader_epoch == NO_PARTITION_LEADER_EPOCH else last_leader_epoch,
            max_timestamp,
            offset_of_max_timestamp,
            NO_TIMESTAMP,
            self.log_start_offset,
            RecordValidationStats.EMPTY,
            source_codec,
            target_codec,
            shallow_message_count,
            valid_bytes_count,
            monotonic,
            last_offset_of_first_batch,
        )

    def _trim_invalid_bytes(self, records: MemoryRecords, info: LogAppendInfo) -> MemoryRecords:
        valid_bytes = info.valid_bytes
        if valid_bytes < 0:
            raise CorruptRecordException(
                f"Cannot append record batch with illegal length {valid_bytes} to log for {self.topic_partition}. A "
                "possible cause is a corrupted produce request."
            )
        if valid_bytes == records.size_in_bytes():
            return records
        return MemoryRecords.readable_records(records.buffer()[:valid_bytes])

    # ---- read -----------------------------------------------------------------------------------

    def _empty_fetch_data_info(
        self, fetch_offset_metadata: LogOffsetMetadata, include_aborted_txns: bool
    ) -> FetchDataInfo:
        return FetchDataInfo(fetch_offset_metadata, MemoryRecords.EMPTY, False, [] if include_aborted_txns else None)

    def read(
        self, start_offset: int, max_length: int, isolation: FetchIsolation, min_one_message: bool
    ) -> FetchDataInfo:
        """Up to `max_length` bytes of batches from `start_offset`, not beyond what `isolation` allows.

        With `min_one_message` the first batch is returned whole even if larger than `max_length`.
        OffsetOutOfRangeException when `start_offset` is below the log start or above the log end.
        """
        # PORT: _maybe_handle_io_exception inline (a context manager object and a message closure per call
        # otherwise): every fetch reads each of its partitions here.
        self._check_for_log_dir_failure()
        try:
            if self.is_trace_enabled():
                self.trace(
                    f"Reading maximum {max_length} bytes at offset {start_offset} from log with total length "
                    f"{self.size} bytes"
                )
            include_aborted_txns = isinstance(isolation, FetchTxnCommitted)
            # Reads take no lock: work from one view of the end offset.
            end_offset_metadata = self._next_offset_metadata
            end_offset = end_offset_metadata.message_offset
            segment = self._segments.floor(start_offset)
            if start_offset > end_offset or segment is None or start_offset < self.log_start_offset:
                raise OffsetOutOfRangeException(
                    f"Received request for offset {start_offset} for partition {self.topic_partition}, but we only "
                    f"have log segments in the range {self.log_start_offset} to {end_offset}."
                )
            if isinstance(isolation, FetchLogEnd):
                max_offset_metadata = end_offset_metadata
            elif isinstance(isolation, FetchHighWatermark):
                max_offset_metadata = self._fetch_high_watermark_metadata()
            else:
                max_offset_metadata = self._fetch_last_stable_offset_metadata()
            if start_offset == max_offset_metadata.message_offset:
                return self._empty_fetch_data_info(max_offset_metadata, include_aborted_txns)
            if start_offset > max_offset_metadata.message_offset:
                return self._empty_fetch_data_info(
                    self._convert_to_offset_metadata_or_throw(start_offset), include_aborted_txns
                )
            # Read from the segment holding the offset; if nothing there is at or after it, move on.
            current: LogSegment | None = segment
            while current is not None:
                if max_offset_metadata.segment_base_offset == current.base_offset:
                    max_position = max_offset_metadata.relative_position_in_segment
                else:
                    max_position = current.size
                fetch_data_info = current.read(start_offset, max_length, max_position, min_one_message)
                if fetch_data_info is not None:
                    if include_aborted_txns:
                        fetch_data_info = self._add_aborted_transactions(start_offset, current, fetch_data_info)
                    return fetch_data_info
                current = self._segments.higher(current.base_offset)
            # Everything from start_offset on has been deleted (e.g. compacted away).
            return FetchDataInfo(self._next_offset_metadata, MemoryRecords.EMPTY)
        except OSError as e:
            raise self._log_dir_failed(
                f"Exception while reading from {self.topic_partition} in dir {self._dir.parent}", e
            ) from e

    def collect_aborted_transactions(self, start_offset: int, upper_bound_offset: int) -> list[AbortedTxn]:
        """The aborted transactions overlapping [start_offset, upper_bound_offset), from the log start on."""
        segment = self._segments.floor(start_offset)
        all_aborted: list[AbortedTxn] = []
        self._collect_aborted_transactions(self.log_start_offset, upper_bound_offset, segment, all_aborted.extend)
        return all_aborted

    def _add_aborted_transactions(
        self, start_offset: int, segment: LogSegment, fetch_info: FetchDataInfo
    ) -> FetchDataInfo:
        fetch_size = fetch_info.records.size_in_bytes()
        start_offset_position = OffsetPosition(
            fetch_info.fetch_offset_metadata.message_offset,
            fetch_info.fetch_offset_metadata.relative_position_in_segment,
        )
        upper_bound_offset = segment.fetch_upper_bound_offset(start_offset_position, fetch_size)
        if upper_bound_offset is None:
            next_segment = self._segments.higher(segment.base_offset)
            upper_bound_offset = next_segment.base_offset if next_segment is not None else self.log_end_offset
        aborted_transactions: list[FetchResponseData.AbortedTransaction] = []

        def accumulator(aborted_txns: list[AbortedTxn]) -> None:
            aborted_transactions.extend(txn.as_aborted_transaction() for txn in aborted_txns)

        self._collect_aborted_transactions(start_offset, upper_bound_offset, segment, accumulator)
        return FetchDataInfo(
            fetch_info.fetch_offset_metadata,
            fetch_info.records,
            fetch_info.first_entry_incomplete,
            aborted_transactions,
        )

    def _collect_aborted_transactions(
        self,
        start_offset: int,
        upper_bound_offset: int,
        starting_segment: LogSegment | None,
        accumulator: Callable[[list[AbortedTxn]], Any],
    ) -> None:
        segment = starting_segment
        while segment is not None:
            search_result = segment.collect_aborted_txns(start_offset, upper_bound_offset)
            accumulator(list(search_result.aborted_transactions))
            if search_result.is_complete:
                return
            segment = self._segments.higher(segment.base_offset)

    def fetch_offset_by_timestamp(self, target_timestamp: int) -> TimestampAndOffset | None:
        """ListOffsets: EARLIEST_TIMESTAMP (-2) gives the log start offset, LATEST_TIMESTAMP (-1) the log end
        offset, MAX_TIMESTAMP (-3) the record holding the largest timestamp, and any other value the first
        record whose timestamp is >= it (None when there is none)."""
        with self._maybe_handle_io_exception(
            lambda: f"Error while fetching offset by timestamp for {self.topic_partition} in dir {self._dir.parent}"
        ):
            self.debug(f"Searching offset for timestamp {target_timestamp}")
            if (
                self.record_version < MAGIC_VALUE_V1
                and target_timestamp != EARLIEST_TIMESTAMP
                and target_timestamp != LATEST_TIMESTAMP
            ):
                raise UnsupportedForMessageFormatException(
                    "Cannot search offsets based on timestamp because message format version for partition "
                    f"{self.topic_partition} is V{self.record_version} which is earlier than the minimum required "
                    "version 0.10.0"
                )
            cache = self.leader_epoch_cache
            if target_timestamp == EARLIEST_TIMESTAMP:
                # The first cached epoch applies only if it starts at or before the log start offset.
                earliest_entry = cache.earliest_entry() if cache is not None else None
                epoch = (
                    earliest_entry.epoch
                    if earliest_entry is not None and earliest_entry.start_offset <= self.log_start_offset
                    else None
                )
                return TimestampAndOffset(NO_TIMESTAMP, self.log_start_offset, epoch)
            if target_timestamp == LATEST_TIMESTAMP:
                latest_epoch = cache.latest_epoch() if cache is not None else None
                return TimestampAndOffset(NO_TIMESTAMP, self.log_end_offset, latest_epoch)
            segments = self._segments.values()
            if target_timestamp == MAX_TIMESTAMP:
                return self._fetch_max_timestamp(segments)
            # The first segment whose largest timestamp reaches the target holds the answer.
            for segment in segments:
                if segment.largest_timestamp >= target_timestamp:
                    return segment.find_offset_by_timestamp(target_timestamp, self.log_start_offset)
            return None

    def _fetch_max_timestamp(self, segments: list[LogSegment]) -> TimestampAndOffset | None:
        """The record holding the largest timestamp of the log (not just its batch's last offset).

        # PORT: ListOffsets MAX_TIMESTAMP came with Kafka 3.0 (KIP-734); as Kafka's later fix for
        it, the answer is the record with the timestamp, found in the batch that holds it.
        """
        if not segments:
            return None
        segment = max(segments, key=lambda s: s.max_timestamp_so_far)
        max_timestamp = segment.max_timestamp_so_far
        if max_timestamp < 0:
            return None
        position = segment.offset_index.lookup(segment.offset_of_max_timestamp_so_far).position
        for batch in segment.log.batches_from(segment.log.start + position):
            if batch.max_timestamp() != max_timestamp:
                continue
            epoch = batch.partition_leader_epoch()
            epoch_opt = None if epoch == NO_PARTITION_LEADER_EPOCH else epoch
            if batch.timestamp_type() is TimestampType.LOG_APPEND_TIME:
                return TimestampAndOffset(max_timestamp, batch.base_offset(), epoch_opt)
            for record in batch:
                if record.timestamp() == max_timestamp:
                    return TimestampAndOffset(max_timestamp, record.offset(), epoch_opt)
        return None

    def legacy_fetch_offsets_before(self, timestamp: int, max_num_offsets: int) -> list[int]:
        """ListOffsets v0: segment start offsets whose files were modified at or before `timestamp`."""
        segments = self._segments.values()
        last_segment_has_size = segments[-1].size > 0
        offset_time_array = [(max(s.base_offset, self.log_start_offset), s.last_modified) for s in segments]
        if last_segment_has_size:
            offset_time_array.append((self.log_end_offset, self.time.milliseconds()))
        if timestamp == LATEST_TIMESTAMP:
            start_index = len(offset_time_array) - 1
        elif timestamp == EARLIEST_TIMESTAMP:
            start_index = 0
        else:
            start_index = len(offset_time_array) - 1
            while start_index >= 0 and offset_time_array[start_index][1] > timestamp:
                start_index -= 1
        ret_size = min(max_num_offsets, start_index + 1)
        ret = [offset_time_array[start_index - j][0] for j in range(ret_size)]
        return sorted(ret, reverse=True)

    def _convert_to_offset_metadata_or_throw(self, offset: int) -> LogOffsetMetadata:
        fetch_data_info = self.read(offset, 1, FetchLogEnd(), False)
        return fetch_data_info.fetch_offset_metadata

    # ---- retention ------------------------------------------------------------------------------

    def _delete_old_segments_matching(
        self, predicate: Callable[[LogSegment, LogSegment | None], bool], reason: SegmentDeletionReason
    ) -> int:
        with self._lock:
            deletable = self._deletable_segments(predicate)
            if deletable:
                return self._delete_segments(deletable, reason)
            return 0

    def _delete_segments(self, deletable: list[LogSegment], reason: SegmentDeletionReason) -> int:
        with self._maybe_handle_io_exception(
            lambda: f"Error while deleting segments for {self.topic_partition} in dir {self._dir.parent}"
        ):
            num_to_delete = len(deletable)
            if num_to_delete > 0:
                # There is always at least one segment: roll first if every segment goes.
                if len(self._segments) == num_to_delete:
                    self.roll()
                with self._lock:
                    self._check_if_memory_mapped_buffer_closed()
                    self._remove_and_delete_segments(deletable, True, reason)
                    first = self._segments.first()
                    assert first is not None
                    self.maybe_increment_log_start_offset(first.base_offset, SegmentDeletion())
            return num_to_delete

    def _deletable_segments(self, predicate: Callable[[LogSegment, LogSegment | None], bool]) -> list[LogSegment]:
        """Segments from the oldest on while `predicate` holds, stopping at the one holding the high
        watermark; an empty last segment is never returned."""
        deletable: list[LogSegment] = []
        segment = self._segments.first()
        while segment is not None:
            next_segment = self._segments.higher(segment.base_offset)
            if next_segment is not None:
                upper_bound_offset = next_segment.base_offset
                is_last_segment_and_empty = False
            else:
                upper_bound_offset = self.log_end_offset
                is_last_segment_and_empty = segment.size == 0
            if (
                self.high_watermark >= upper_bound_offset
                and predicate(segment, next_segment)
                and not is_last_segment_and_empty
            ):
                deletable.append(segment)
                segment = next_segment
            else:
                segment = None
        return deletable

    def delete_old_segments(self) -> int:
        """Apply retention: by time and size when `cleanup.policy` has delete, and always below the log
        start offset. Returns the number of segments deleted."""
        if self.config.delete:
            return (
                self._delete_retention_ms_breached_segments()
                + self._delete_retention_size_breached_segments()
                + self._delete_log_start_offset_breached_segments()
            )
        return self._delete_log_start_offset_breached_segments()

    def _delete_retention_ms_breached_segments(self) -> int:
        retention_ms = self.config.retention_ms
        if retention_ms < 0:
            return 0
        start_ms = self.time.milliseconds()

        def should_delete(segment: LogSegment, next_segment: LogSegment | None) -> bool:
            return start_ms - segment.largest_timestamp > retention_ms

        return self._delete_old_segments_matching(should_delete, RETENTION_MS_BREACH)

    def _delete_retention_size_breached_segments(self) -> int:
        retention_size = self.config.retention_size
        size = self.size
        if retention_size < 0 or size < retention_size:
            return 0
        diff = size - retention_size

        def should_delete(segment: LogSegment, next_segment: LogSegment | None) -> bool:
            nonlocal diff
            if diff - segment.size >= 0:
                diff -= segment.size
                return True
            return False

        return self._delete_old_segments_matching(should_delete, RETENTION_SIZE_BREACH)

    def _delete_log_start_offset_breached_segments(self) -> int:
        def should_delete(segment: LogSegment, next_segment: LogSegment | None) -> bool:
            return next_segment is not None and next_segment.base_offset <= self.log_start_offset

        return self._delete_old_segments_matching(should_delete, START_OFFSET_BREACH)

    @property
    def size(self) -> int:
        """The log's size in bytes (all segments)."""
        return sum(segment.size for segment in self._segments.values())

    @property
    def log_end_offset_metadata(self) -> LogOffsetMetadata:
        """The next offset to be written, with its segment and position."""
        return self._next_offset_metadata

    @property
    def log_end_offset(self) -> int:
        """The offset the next appended record will get."""
        return self._next_offset_metadata.message_offset

    # ---- roll, flush ----------------------------------------------------------------------------

    def _maybe_roll(self, messages_size: int, append_info: LogAppendInfo) -> LogSegment:
        segment = self.active_segment
        now = self.time.milliseconds()
        max_timestamp_in_messages = append_info.max_timestamp
        max_offset_in_messages = append_info.last_offset
        roll_params = RollParams.from_config(self.config, append_info, messages_size, now)
        if segment.should_roll(roll_params):
            self.debug(
                f"Rolling new log segment (log_size = {segment.size}/{self.config.segment_size}}}, "
                f"offset_index_size = {segment.offset_index.entries}/{segment.offset_index.max_entries}, "
                f"time_index_size = {segment.time_index.entries}/{segment.time_index.max_entries}, "
                f"inactive_time_ms = {segment.time_waited_for_roll(now, max_timestamp_in_messages)}/"
                f"{self.config.max_segment_ms - segment.roll_jitter_ms})."
            )
            # Before v2 the first offset is unknown without decompression; last offset - Int.MaxValue is a
            # lower bound of it that keeps the new segment able to index the batch.
            if append_info.first_offset is not None:
                roll_offset = append_info.first_offset.message_offset
            else:
                roll_offset = max_offset_in_messages - INT32_MAX
            return self.roll(roll_offset)
        return segment

    def roll(self, expected_next_offset: int | None = None) -> LogSegment:
        """Start a new active segment at max(expected_next_offset, log end offset); the old one is
        flushed asynchronously."""
        with self._maybe_handle_io_exception(
            lambda: f"Error while rolling log segment for {self.topic_partition} in dir {self._dir.parent}"
        ):
            start = self.time.hi_res_clock_ms()
            with self._lock:
                self._check_if_memory_mapped_buffer_closed()
                new_offset = max(expected_next_offset if expected_next_offset is not None else 0, self.log_end_offset)
                new_log_file = log_file(self._dir, new_offset)
                if self._segments.contains(new_offset):
                    active = self.active_segment
                    if active.base_offset == new_offset and active.size == 0:
                        # KAFKA-6388: an empty active segment whose index is "full" asked to roll.
                        self.warn(
                            f"Trying to roll a new log segment with start offset {new_offset} "
                            f"=max(provided offset = {expected_next_offset}, LEO = {self.log_end_offset}) while it "
                            f"already exists and is active with size 0. Size of time index: "
                            f"{active.time_index.entries}, size of offset index: {active.offset_index.entries}."
                        )
                        self._remove_and_delete_segments([active], True, LOG_ROLL)
                    else:
                        raise KafkaException(
                            f"Trying to roll a new log segment for topic partition {self.topic_partition} with start "
                            f"offset {new_offset} =max(provided offset = {expected_next_offset}, LEO = "
                            f"{self.log_end_offset}) while it already exists. Existing segment is "
                            f"{self._segments.get(new_offset)}."
                        )
                elif not self._segments.is_empty() and new_offset < self.active_segment.base_offset:
                    raise KafkaException(
                        f"Trying to roll a new log segment for topic partition {self.topic_partition} with start "
                        f"offset {new_offset} =max(provided offset = {expected_next_offset}, LEO = "
                        f"{self.log_end_offset}) lower than start offset of the active segment {self.active_segment}"
                    )
                else:
                    for file in (
                        new_log_file,
                        offset_index_file(self._dir, new_offset),
                        time_index_file(self._dir, new_offset),
                        transaction_index_file(self._dir, new_offset),
                    ):
                        if file.exists():
                            self.warn(f"Newly rolled segment file {file.absolute()} already exists; deleting it first")
                            file.unlink()
                    last = self._segments.last()
                    if last is not None:
                        last.on_become_inactive_segment()
                # A snapshot at the new segment's base offset lets recovery start from this segment.
                self.producer_state_manager.update_map_end_offset(new_offset)
                self.producer_state_manager.take_snapshot()
                segment = LogSegment.open(
                    self._dir,
                    new_offset,
                    self.config,
                    self.time,
                    init_file_size=self.init_file_size,
                    preallocate=self.config.preallocate,
                )
                self.add_segment(segment)
                # The end offset stays; its segment and position change.
                self._update_log_end_offset(self._next_offset_metadata.message_offset)
                self._scheduler.schedule("flush-log", lambda: self.flush(new_offset), delay_ms=0)
                self.info(f"Rolled new log segment at offset {new_offset} in {self.time.hi_res_clock_ms() - start} ms.")
                return segment

    def _unflushed_messages(self) -> int:
        return self.log_end_offset - self.recovery_point

    def flush(self, offset: int | None = None) -> None:
        """Flush the segments holding offsets below `offset` (default: the log end), which becomes the
        recovery point."""
        if offset is None:
            offset = self.log_end_offset
        with self._maybe_handle_io_exception(
            lambda: (
                f"Error while flushing log for {self.topic_partition} in dir {self._dir.parent} with offset {offset}"
            )
        ):
            if offset > self.recovery_point:
                self.debug(
                    f"Flushing log up to offset {offset}, last flushed: {self.last_flush_time},  current time: "
                    f"{self.time.milliseconds()}, unflushed: {self._unflushed_messages()}"
                )
                for segment in self.log_segments(self.recovery_point, offset):
                    segment.flush()
                with self._lock:
                    self._check_if_memory_mapped_buffer_closed()
                    if offset > self.recovery_point:
                        self.recovery_point = offset
                        self._last_flushed_time = self.time.milliseconds()

    def delete(self) -> None:
        """Delete the log directory and everything in it, now."""
        with self._maybe_handle_io_exception(
            lambda: f"Error while deleting log for {self.topic_partition} in dir {self._dir.parent}"
        ):
            with self._lock:
                self._check_if_memory_mapped_buffer_closed()
                self.producer_expire_check.cancel(True)
                self._remove_and_delete_segments(self.log_segments(), False, LOG_DELETION)
                if self.leader_epoch_cache is not None:
                    self.leader_epoch_cache.clear()
                delete_recursive(self._dir)
                # The files are gone with the directory.
                self._is_memory_mapped_buffer_closed = True

    def take_producer_snapshot(self) -> None:
        """Snapshot the producer state now."""
        with self._lock:
            self._check_if_memory_mapped_buffer_closed()
            self.producer_state_manager.take_snapshot()

    @property
    def latest_producer_snapshot_offset(self) -> int | None:
        """Offset of the newest producer snapshot."""
        with self._lock:
            return self.producer_state_manager.latest_snapshot_offset

    @property
    def oldest_producer_snapshot_offset(self) -> int | None:
        """Offset of the oldest producer snapshot."""
        with self._lock:
            return self.producer_state_manager.oldest_snapshot_offset

    @property
    def latest_producer_state_end_offset(self) -> int:
        """Where the producer state is complete up to."""
        with self._lock:
            return self.producer_state_manager.map_end_offset

    # ---- truncation -----------------------------------------------------------------------------

    def truncate_to(self, target_offset: int) -> bool:
        """Remove every offset >= `target_offset`; True if anything was removed."""
        with self._maybe_handle_io_exception(
            lambda: (
                f"Error while truncating log to offset {target_offset} for {self.topic_partition} in dir "
                f"{self._dir.parent}"
            )
        ):
            if target_offset < 0:
                raise ValueError(
                    f"Cannot truncate partition {self.topic_partition} to a negative offset ({target_offset})."
                )
            if target_offset >= self.log_end_offset:
                self.info(
                    f"Truncating to {target_offset} has no effect as the largest offset in the log is "
                    f"{self.log_end_offset - 1}"
                )
                # The epoch cache may hold an entry of ours the leader never saw: truncate it anyway.
                with self._lock:
                    if self.leader_epoch_cache is not None:
                        self.leader_epoch_cache.truncate_from_end(self.log_end_offset)
                return False
            self.info(f"Truncating to offset {target_offset}")
            with self._lock:
                self._check_if_memory_mapped_buffer_closed()
                first = self._segments.first()
                assert first is not None
                if first.base_offset > target_offset:
                    self.truncate_fully_and_start_at(target_offset)
                else:
                    deletable = [s for s in self._segments.values() if s.base_offset > target_offset]
                    self._remove_and_delete_segments(deletable, True, LOG_TRUNCATION)
                    self.active_segment.truncate_to(target_offset)
                    if self.leader_epoch_cache is not None:
                        self.leader_epoch_cache.truncate_from_end(target_offset)
                    self._complete_truncation(min(target_offset, self.log_start_offset), target_offset)
                return True

    def truncate_fully_and_start_at(self, new_offset: int) -> None:
        """Delete all data and start the log over at `new_offset`."""
        with self._maybe_handle_io_exception(
            lambda: f"Error while truncating the entire log for {self.topic_partition} in dir {self._dir.parent}"
        ):
            self.debug(f"Truncate and start at offset {new_offset}")
            with self._lock:
                self._check_if_memory_mapped_buffer_closed()
                self._remove_and_delete_segments(self.log_segments(), True, LOG_TRUNCATION)
                self.add_segment(
                    LogSegment.open(
                        self._dir,
                        new_offset,
                        self.config,
                        self.time,
                        init_file_size=self.init_file_size,
                        preallocate=self.config.preallocate,
                    )
                )
                if self.leader_epoch_cache is not None:
                    self.leader_epoch_cache.clear_and_flush()
                self.producer_state_manager.truncate_fully_and_start_at(new_offset)
                self._complete_truncation(new_offset, new_offset)

    def _complete_truncation(self, start_offset: int, end_offset: int) -> None:
        self.log_start_offset = start_offset
        active = self.active_segment
        self._next_offset_metadata = LogOffsetMetadata(end_offset, active.base_offset, active.size)
        self.recovery_point = min(self.recovery_point, end_offset)
        self._rebuild_producer_state(end_offset, False, self.producer_state_manager)
        self.update_high_watermark(min(self.high_watermark, end_offset))

    # ---- segments -------------------------------------------------------------------------------

    @property
    def last_flush_time(self) -> int:
        """When the log was last flushed (ms)."""
        return self._last_flushed_time

    @property
    def active_segment(self) -> LogSegment:
        """The segment taking appends."""
        segment = self._segments.last()
        if segment is None:
            raise KafkaException(f"Log for {self.topic_partition} has no segments")
        return segment

    def log_segments(self, from_offset: int | None = None, to_offset: int | None = None) -> list[LogSegment]:
        """All segments oldest first; with bounds, those from the one holding `from_offset` up to the
        one holding `to_offset - 1`."""
        if from_offset is None and to_offset is None:
            return self._segments.values()
        assert from_offset is not None and to_offset is not None
        if from_offset == to_offset:
            return []
        if to_offset < from_offset:
            raise ValueError(
                f"Invalid log segment range: requested segments in {self.topic_partition} from offset {from_offset} "
                f"which is greater than limit offset {to_offset}"
            )
        with self._lock:
            floor = self._segments.floor_key(from_offset)
            return self._segments.range_values(floor, to_offset)

    def non_active_log_segments_from(self, from_offset: int) -> list[LogSegment]:
        """Segments from the one holding `from_offset`, excluding the active one."""
        with self._lock:
            active = self.active_segment
            if from_offset > active.base_offset:
                return []
            return self.log_segments(from_offset, active.base_offset)

    def __str__(self) -> str:
        return (
            f"Log(dir={self._dir}, topic={self.topic_partition.topic}, partition={self.topic_partition.partition}, "
            f"highWatermark={self.high_watermark}, lastStableOffset={self.last_stable_offset}, "
            f"logStartOffset={self.log_start_offset}, logEndOffset={self.log_end_offset})"
        )

    def _remove_and_delete_segments(
        self, segments: Iterable[LogSegment], async_delete: bool, reason: SegmentDeletionReason
    ) -> None:
        """Take segments out of the map, rename their files to .deleted, and delete them (now or after
        `file.delete.delay.ms`, so that readers of the old files are not disturbed)."""
        to_delete = list(segments)
        if not to_delete:
            return
        with self._lock:
            reason.log_reason(self, to_delete)
            for segment in to_delete:
                self._segments.remove(segment.base_offset)
            self._delete_segment_files(to_delete, async_delete)

    def _delete_segment_files(
        self, segments: list[LogSegment], async_delete: bool, delete_producer_state_snapshots: bool = True
    ) -> None:
        for segment in segments:
            segment.change_file_suffixes("", DELETED_FILE_SUFFIX)

        def delete_segments() -> None:
            self.info(f"Deleting segment files {_segments_str(segments)}")
            with self._maybe_handle_io_exception(
                lambda: f"Error while deleting segments for {self.topic_partition} in dir {self._dir.parent}"
            ):
                for segment in segments:
                    segment.delete_if_exists()
                    if delete_producer_state_snapshots:
                        self.producer_state_manager.remove_and_delete_snapshot(segment.base_offset)

        if async_delete:
            self._scheduler.schedule("delete-file", delete_segments, delay_ms=self.config.file_delete_delay_ms)
        else:
            delete_segments()

    def replace_segments(
        self, new_segments: list[LogSegment], old_segments: list[LogSegment], is_recovered_swap_file: bool = False
    ) -> None:
        """Swap `new_segments` (written with the .cleaned suffix) in for `old_segments`, crash-safely:
        .cleaned -> .swap (highest offset first), add the new ones, rename the old ones .deleted and
        delete them asynchronously, then drop the .swap suffix. A crash at any step is completed or
        undone by the next load."""
        with self._lock:
            sorted_new_segments = sorted(new_segments, key=lambda s: s.base_offset)
            # Old segments already removed (e.g. by retention) are not deleted twice.
            sorted_old_segments = sorted(
                (s for s in old_segments if self._segments.contains(s.base_offset)), key=lambda s: s.base_offset
            )
            self._check_if_memory_mapped_buffer_closed()
            if not is_recovered_swap_file:
                for segment in reversed(sorted_new_segments):
                    segment.change_file_suffixes(CLEANED_FILE_SUFFIX, SWAP_FILE_SUFFIX)
            for segment in reversed(sorted_new_segments):
                self.add_segment(segment)
            new_segment_base_offsets = {s.base_offset for s in sorted_new_segments}
            for segment in sorted_old_segments:
                if segment.base_offset != sorted_new_segments[0].base_offset:
                    self._segments.remove(segment.base_offset)
                # The producer snapshot of a replaced base offset stays for its new segment.
                self._delete_segment_files(
                    [segment], True, delete_producer_state_snapshots=segment.base_offset not in new_segment_base_offsets
                )
            for segment in sorted_new_segments:
                segment.change_file_suffixes(SWAP_FILE_SUFFIX, "")

    def get_first_batch_timestamp_for_segments(self, segments: Iterable[LogSegment]) -> list[int]:
        """Each segment's first batch timestamp (the caller keeps the segments from being deleted)."""
        return [segment.get_first_batch_timestamp() for segment in segments]

    def add_segment(self, segment: LogSegment) -> LogSegment | None:
        """Put `segment` in the map, replacing one with the same base offset (returned)."""
        return self._segments.put(segment)

    def _maybe_handle_io_exception(self, msg: Callable[[], str]) -> _IOExceptionGuard:
        """Turn an OSError into an offline log directory and a KafkaStorageException."""
        self._check_for_log_dir_failure()
        return _IOExceptionGuard(self, msg)

    def _log_dir_failed(self, message: str, e: OSError) -> KafkaStorageException:
        """Marks the log directory offline after `e` and returns the KafkaStorageException to raise."""
        self._log_dir_offline = True
        self._log_dir_failure_channel.maybe_add_offline_log_dir(self._parent_dir, message, e)
        return KafkaStorageException(message)

    def retry_on_offset_overflow(self, fn: Callable[[], Any]) -> Any:
        """Run `fn`, splitting a segment whose offsets overflow its index and trying again."""
        while True:
            try:
                return fn()
            except LogSegmentOffsetOverflowException as e:
                self.info(f"Caught segment overflow error: {e}. Split segment and retry.")
                self.split_overflowed_segment(e.segment)

    def split_overflowed_segment(self, segment: LogSegment) -> list[LogSegment]:
        """Split a (pre-KAFKA-5413) segment whose offsets do not fit its index into segments that fit,
        swapping them in crash-safely as the cleaner does."""
        if not is_log_file(segment.log.file()):
            raise ValueError(f"requirement failed: Cannot split file {segment.log.file().absolute()}")
        if not segment.has_overflow():
            raise ValueError("requirement failed: Split operation is only permitted for segments with overflow")
        self.info(f"Splitting overflowed segment {segment}")
        new_segments: list[LogSegment] = []
        try:
            position = 0
            source_records = segment.log
            while position < source_records.size_in_bytes():
                first_batch = next(iter(source_records.batches_from(source_records.start + position)))
                new_segment = create_new_cleaned_segment(self, first_batch.base_offset())
                new_segments.append(new_segment)
                bytes_appended = new_segment.append_from_file(source_records, position)
                if bytes_appended == 0:
                    raise RuntimeError(f"Failed to append records from position {position} in {segment}")
                position += bytes_appended
            total_size_of_new_segments = 0
            for split_segment in new_segments:
                split_segment.on_become_inactive_segment()
                split_segment.flush()
                split_segment.set_last_modified(segment.last_modified)
                total_size_of_new_segments += split_segment.log.size_in_bytes()
            if total_size_of_new_segments != segment.log.size_in_bytes():
                raise RuntimeError(
                    "Inconsistent segment sizes after split before: "
                    f"{segment.log.size_in_bytes()} after: {total_size_of_new_segments}"
                )
            self.info(f"Replacing overflowed segment {segment} with split segments {_segments_str(new_segments)}")
            self.replace_segments(new_segments, [segment])
            return new_segments
        except Exception:
            for split_segment in new_segments:
                split_segment.close()
                split_segment.delete_if_exists()
            raise

    # ---- companion ------------------------------------------------------------------------------

    @staticmethod
    def log_delete_dir_name(topic_partition: TopicPartition) -> str:
        """`topic-partition.<uuid>-delete`, the topic cut so that the name stays within 255 characters."""
        unique_id = uuid.uuid4().hex
        suffix = f"-{topic_partition.partition}.{unique_id}{DELETE_DIR_SUFFIX}"
        prefix_length = min(len(topic_partition.topic), 255 - len(suffix))
        return f"{topic_partition.topic[:prefix_length]}{suffix}"

    @staticmethod
    def log_future_dir_name(topic_partition: TopicPartition) -> str:
        """`topic-partition.<uuid>-future`."""
        return f"{Log.log_dir_name(topic_partition)}.{uuid.uuid4().hex}{FUTURE_DIR_SUFFIX}"

    @staticmethod
    def log_dir_name(topic_partition: TopicPartition) -> str:
        """`topic-partition`."""
        return f"{topic_partition.topic}-{topic_partition.partition}"

    @staticmethod
    def size_in_bytes(segments: Iterable[LogSegment]) -> int:
        """Total size of `segments`."""
        return sum(segment.size for segment in segments)

    @staticmethod
    def parse_topic_partition_name(dir: Path | None) -> TopicPartition:
        """The partition a log directory belongs to, from `topic-partition`,
        `topic-partition.<uuid>-delete` or `topic-partition.<uuid>-future`; KafkaException otherwise."""
        if dir is None:
            raise KafkaException("dir should not be null")
        dir = Path(dir)

        def exception() -> KafkaException:
            return KafkaException(
                f"Found directory {dir.absolute()}, '{dir.name}' is not in the form of topic-partition or "
                "topic-partition.uniqueId-delete (if marked for deletion).\n"
                "Kafka's log directories (and children) should only contain Kafka topic data."
            )

        dir_name = dir.name
        if not dir_name or "-" not in dir_name:
            raise exception()
        if (dir_name.endswith(DELETE_DIR_SUFFIX) and not DELETE_DIR_PATTERN.match(dir_name)) or (
            dir_name.endswith(FUTURE_DIR_SUFFIX) and not FUTURE_DIR_PATTERN.match(dir_name)
        ):
            raise exception()
        if dir_name.endswith(DELETE_DIR_SUFFIX) or dir_name.endswith(FUTURE_DIR_SUFFIX):
            name = dir_name[: dir_name.rindex(".")]
        else:
            name = dir_name
        index = name.rfind("-")
        topic = name[:index]
        partition_string = name[index + 1 :]
        if not topic or not partition_string:
            raise exception()
        try:
            partition = parse_int(partition_string)
        except ValueError:
            raise exception() from None
        return TopicPartition(topic, partition)


def create_new_cleaned_segment(log: Log, base_offset: int) -> LogSegment:
    """A new empty segment with the .cleaned suffix in `log`'s directory (Kafka's LogCleaner.createNewCleanedSegment).

    # PORT: Kafka keeps this on `object LogCleaner`; it lives here so that Log's segment split can use it
    without importing the cleaner (which imports Log). kafka.log.log_cleaner re-exports it.
    """
    delete_segment_files_if_exist(log.dir, base_offset, CLEANED_FILE_SUFFIX)
    return LogSegment.open(
        log.dir,
        base_offset,
        log.config,
        Time.SYSTEM,
        file_suffix=CLEANED_FILE_SUFFIX,
        init_file_size=log.init_file_size,
        preallocate=log.config.preallocate,
    )


def _load_producers_from_records(producer_state_manager: ProducerStateManager, records: Records) -> None:
    loaded_producers: dict[int, ProducerAppendInfo] = {}
    completed_txns: list[CompletedTxn] = []
    for batch in records.batches():
        if batch.has_producer_id():
            maybe_completed_txn = _update_producers(
                producer_state_manager, batch, loaded_producers, None, Replication()
            )
            if maybe_completed_txn is not None:
                completed_txns.append(maybe_completed_txn)
    for append_info in loaded_producers.values():
        producer_state_manager.update(append_info)
    for completed_txn in completed_txns:
        producer_state_manager.complete_txn(completed_txn)


def _update_producers(
    producer_state_manager: ProducerStateManager,
    batch: RecordBatch,
    producers: dict[int, ProducerAppendInfo],
    first_offset_metadata: LogOffsetMetadata | None,
    origin: AppendOrigin,
) -> CompletedTxn | None:
    producer_id = batch.producer_id()
    append_info = producers.get(producer_id)
    if append_info is None:
        append_info = producer_state_manager.prepare_update(producer_id, origin)
        producers[producer_id] = append_info
    return append_info.append(batch, first_offset_metadata)


class _IOExceptionGuard:
    """The context of Log._maybe_handle_io_exception: an OSError leaving it marks the log directory offline and is
    raised again as a KafkaStorageException (caused by it); other exceptions pass.

    # PORT: a slotted context manager instead of a generator-based one (contextlib.contextmanager): every append
    # (leader and follower) and every follower's log start offset update enters one, and the generator's context
    # manager costs several Python calls more each time; what it does is the same.
    """

    __slots__ = ("_log", "_msg")

    def __init__(self, log: Log, msg: Callable[[], str]) -> None:
        self._log = log
        self._msg = msg

    def __enter__(self) -> None:
        return None

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: Any) -> Literal[False]:
        if isinstance(exc, OSError):
            raise self._log._log_dir_failed(self._msg(), exc) from exc
        return False
