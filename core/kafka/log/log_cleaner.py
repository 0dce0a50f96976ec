"""Port of core/src/main/scala/kafka/log/LogCleaner.scala (Kafka 2.8).

Log compaction for topics with `cleanup.policy=compact` (or `compact,delete`). A log is a clean
head (already compacted) followed by a dirty tail; the active segment, anything at or past the first
unstable offset and segments younger than `min.compaction.lag.ms` are not cleanable. A pool of
`kafka-log-cleaner-thread-N` threads repeatedly takes the log with the highest dirty ratio (above
`min.cleanable.dirty.ratio`), builds a key => last offset map of its cleanable dirty section
(SkimpyOffsetMap), and recopies its segments, in groups that fit one segment, keeping only the last
record of each key. The copies are written as `.cleaned` files and swapped in by Log.replace_segments.

Tombstones (null values) are kept while their segment is younger than `delete.retention.ms`,
measured back from the last-modified time of the newest clean segment, so that consumers reading
the log have that long to see them. Records of aborted transactions are removed at once;
transaction markers are kept as long as tombstones and until no record of their transaction is
left; the last batch of each live producer is kept (possibly empty) so that its sequence numbers
survive.

Threading: each cleaner thread owns its Cleaner and buffers. Coordination with retention, truncation
and deletion goes through LogCleanerManager's lock and states; while a partition is
LogCleaningInProgress no one else rewrites its segments, so the cleaner reads them without the log's
lock (as Kafka does) and takes it only to swap segments in.

# PORT: the record filter is Kafka 3.7's MemoryRecords.filter_to API with 2.8's decisions: a batch
holding a tombstone that is kept is rewritten with the delete-horizon flag that 3.x writers set
(attribute bit 6, base timestamp = horizon); readers of every version compute the same record
timestamps from it, and this cleaner still decides by segment times as 2.8 does. CleanerConfig
(CleanerConfig.scala), Kafka's Throttler (kafka.utils) and ThreadShutdownException (kafka.common)
are defined here with the cleaner, their only user. LogToClean and PreCleanStats come from
kafka.log.log_cleaner_manager.

Metrics (kafka.log:type=LogCleaner): max-buffer-utilization-percent, cleaner-recopy-percent,
max-clean-time-secs, max-compaction-delay-secs and DeadThreadCount, over the cleaner threads' last runs.
"""

from __future__ import annotations

import heapq
import sys
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Final

from kafka.common.config.config_exception import ConfigException
from kafka.common.errors import CorruptRecordException, KafkaException, KafkaStorageException
from kafka.common.record.control_record_type import ControlRecordType
from kafka.common.record.file_records import FileRecords
from kafka.common.record.memory_records import (
    BatchRetention,
    BatchRetentionResult,
    MemoryRecords,
    RecordFilter,
)
from kafka.common.record.record import Record
from kafka.common.record.record_batch import RecordBatch
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.time import Time
from kafka.log.log import create_new_cleaned_segment
from kafka.log.log_cleaner_manager import (
    LogCleanerManager,
    LogCleaningAbortedException,
    LogCleaningException,
    LogToClean,
    PreCleanStats,
)
from kafka.log.log_dir_failure_channel import LogDirFailureChannel
from kafka.log.log_segment import LogSegment, LogSegmentOffsetOverflowException
from kafka.log.offset_map import OffsetMap, SkimpyOffsetMap
from kafka.log.producer_state_manager import LastRecord
from kafka.log.transaction_index import AbortedTxn, TransactionIndex
from kafka.metrics.kafka_metrics_group import KafkaMetricsGroup
from kafka.utils.logging import Logging
from kafka.utils.pool import Pool
from kafka.utils.shutdownable_thread import ShutdownableThread

if TYPE_CHECKING:
    from kafka.log.log import Log
    from kafka.server.kafka_config import KafkaConfig

__all__ = [
    "Cleaner",
    "CleanerConfig",
    "CleanerStats",
    "LogCleaner",
    "LogToClean",
    "PreCleanStats",
    "ThreadShutdownException",
    "create_new_cleaned_segment",
]

INT32_MAX: Final = 2**31 - 1
INT64_MAX: Final = 2**63 - 1


class ThreadShutdownException(Exception):
    """A cleaner thread noticed it is shutting down in the middle of a cleaning (kafka.common)."""


@dataclass(frozen=True, slots=True)
class CleanerConfig:
    """The log cleaner's settings (log.cleaner.* broker configs).

    # PORT: Kafka's CleanerConfig.scala case class, kept with the cleaner.
    """

    num_threads: int = 1
    dedupe_buffer_size: int = 4 * 1024 * 1024
    dedupe_buffer_load_factor: float = 0.9
    io_buffer_size: int = 1024 * 1024
    max_message_size: int = 32 * 1024 * 1024
    max_io_bytes_per_second: float = sys.float_info.max
    back_off_ms: int = 15 * 1000
    enable_cleaner: bool = True
    hash_algorithm: str = "MD5"


class Throttler(Logging):
    """Sleeps just enough to keep an observed byte rate under `desired_rate_per_sec` (kafka.utils.Throttler).

    # PORT: kept here with its only user; Kafka's metric meter is left to the metrics port.
    """

    logger_name = "kafka.utils.Throttler"

    def __init__(
        self,
        desired_rate_per_sec: float,
        check_interval_ms: int = 100,
        throttle_down: bool = True,
        time: Time = Time.SYSTEM,
    ) -> None:
        self.desired_rate_per_sec = desired_rate_per_sec
        self.check_interval_ms = check_interval_ms
        self.throttle_down = throttle_down
        self._time = time
        self._lock = threading.Lock()
        self._period_start_ns = time.nanoseconds()
        self._observed_so_far = 0.0

    def maybe_throttle(self, observed: float) -> None:
        """Account for `observed` bytes and sleep if the rate since the last check is too high."""
        with self._lock:
            self._observed_so_far += observed
            now = self._time.nanoseconds()
            elapsed_ns = now - self._period_start_ns
            if elapsed_ns <= self.check_interval_ms * 1_000_000 or self._observed_so_far <= 0:
                return
            elapsed_sec = elapsed_ns / 1e9
            rate_in_secs = self._observed_so_far / elapsed_sec
            if self.throttle_down == (rate_in_secs > self.desired_rate_per_sec):
                desired_rate_ms = self.desired_rate_per_sec / 1000.0
                elapsed_ms = elapsed_ns // 1_000_000
                sleep_time = round(self._observed_so_far / desired_rate_ms - elapsed_ms)
                if sleep_time > 0:
                    self.trace(
                        f"Natural rate is {rate_in_secs} per second but desired rate is {self.desired_rate_per_sec}, "
                        f"sleeping for {sleep_time} ms to compensate."
                    )
                    self._time.sleep(sleep_time)
            self._period_start_ns = self._time.nanoseconds()
            self._observed_so_far = 0.0


class CleanerStats:
    """Counters of one cleaning run."""

    def __init__(self, time: Time = Time.SYSTEM) -> None:
        self._time = time
        self.start_time = time.milliseconds()
        self.map_complete_time = -1
        self.end_time = -1
        self.bytes_read = 0
        self.bytes_written = 0
        self.map_bytes_read = 0
        self.map_messages_read = 0
        self.messages_read = 0
        self.invalid_messages_read = 0
        self.messages_written = 0
        self.buffer_utilization = 0.0

    def read_messages(self, messages_read: int, bytes_read: int) -> None:
        """Records and bytes read while recopying."""
        self.messages_read += messages_read
        self.bytes_read += bytes_read

    def invalid_message(self) -> None:
        """A record without a key was found (and dropped)."""
        self.invalid_messages_read += 1

    def recopy_messages(self, messages_written: int, bytes_written: int) -> None:
        """Records and bytes kept."""
        self.messages_written += messages_written
        self.bytes_written += bytes_written

    def index_messages_read(self, size: int) -> None:
        """Records read while building the offset map."""
        self.map_messages_read += size

    def index_bytes_read(self, size: int) -> None:
        """Bytes read while building the offset map."""
        self.map_bytes_read += size

    def index_done(self) -> None:
        """The offset map is built."""
        self.map_complete_time = self._time.milliseconds()

    def all_done(self) -> None:
        """The run is over."""
        self.end_time = self._time.milliseconds()

    @property
    def elapsed_secs(self) -> float:
        """Duration of the run."""
        return (self.end_time - self.start_time) / 1000.0

    @property
    def elapsed_index_secs(self) -> float:
        """Duration of the offset map building."""
        return (self.map_complete_time - self.start_time) / 1000.0


class AbortedTransactionMetadata:
    """An aborted transaction met while cleaning, and the last of its batches seen."""

    def __init__(self, aborted_txn: AbortedTxn) -> None:
        self.aborted_txn = aborted_txn
        self.last_observed_batch_offset: int | None = None

    def __repr__(self) -> str:
        return f"(txn: {self.aborted_txn}, lastOffset: {self.last_observed_batch_offset})"


class CleanedTransactionMetadata:
    """Transaction state carried through a cleaning: which transactions are open (committed or aborted)
    at the current position, and the aborted ones still to be indexed in the cleaned segment."""

    def __init__(self) -> None:
        self._ongoing_committed_txns: set[int] = set()
        self._ongoing_aborted_txns: dict[int, AbortedTransactionMetadata] = {}
        # Aborted transactions by first offset (a min-heap).
        self._aborted_transactions: list[tuple[int, int, AbortedTxn]] = []
        self._seq = 0
        # Where the retained aborted transactions of the cleaned segment are written.
        self.cleaned_index: TransactionIndex | None = None

    def add_aborted_transactions(self, aborted_transactions: Iterable[AbortedTxn]) -> None:
        """Add aborted transactions (from the transaction index) to be met in offset order."""
        for txn in aborted_transactions:
            heapq.heappush(self._aborted_transactions, (txn.first_offset, self._seq, txn))
            self._seq += 1

    def on_control_batch_read(self, control_batch: RecordBatch) -> bool:
        """Account for a control batch; True if it may be discarded."""
        self._consume_aborted_txns_up_to(control_batch.last_offset())
        control_record = next(iter(control_batch), None)
        if control_record is None:
            # An empty control batch was cleaned already.
            return True
        control_type = ControlRecordType.parse(control_record.key())
        producer_id = control_batch.producer_id()
        if control_type is ControlRecordType.ABORT:
            aborted = self._ongoing_aborted_txns.pop(producer_id, None)
            # Kept while a batch of the transaction is kept (a producer's last batch may be).
            if aborted is not None and aborted.last_observed_batch_offset is not None:
                if self.cleaned_index is not None:
                    self.cleaned_index.append(aborted.aborted_txn)
                return False
            return True
        if control_type is ControlRecordType.COMMIT:
            # Discardable when no batch of the transaction was met.
            if producer_id in self._ongoing_committed_txns:
                self._ongoing_committed_txns.discard(producer_id)
                return False
            return True
        return False

    def _consume_aborted_txns_up_to(self, offset: int) -> None:
        while self._aborted_transactions and self._aborted_transactions[0][0] <= offset:
            _, _, aborted_txn = heapq.heappop(self._aborted_transactions)
            self._ongoing_aborted_txns.setdefault(aborted_txn.producer_id, AbortedTransactionMetadata(aborted_txn))

    def on_batch_read(self, batch: RecordBatch) -> bool:
        """Account for a data batch; True if it belongs to an aborted transaction (discardable)."""
        self._consume_aborted_txns_up_to(batch.last_offset())
        if batch.is_transactional():
            aborted = self._ongoing_aborted_txns.get(batch.producer_id())
            if aborted is not None:
                aborted.last_observed_batch_offset = batch.last_offset()
                return True
            self._ongoing_committed_txns.add(batch.producer_id())
            return False
        return False


class _LogCleanerFilter(RecordFilter):
    """Kafka's anonymous RecordFilter of Cleaner.cleanInto."""

    def __init__(
        self,
        cleaner: Cleaner,
        current_time: int,
        delete_retention_ms: int,
        offset_map: OffsetMap,
        retain_deletes_and_txn_markers: bool,
        transaction_metadata: CleanedTransactionMetadata,
        last_records_of_active_producers: dict[int, LastRecord],
        stats: CleanerStats,
    ) -> None:
        super().__init__(current_time, delete_retention_ms)
        self._cleaner = cleaner
        self._map = offset_map
        self._retain_deletes_and_txn_markers = retain_deletes_and_txn_markers
        self._transaction_metadata = transaction_metadata
        self._last_records_of_active_producers = last_records_of_active_producers
        self._stats = stats
        self._discard_batch_records = False

    def check_batch_retention(self, batch: RecordBatch) -> BatchRetentionResult:
        # Markers follow the tombstone retention, and never go before their transaction's records.
        self._discard_batch_records = _should_discard_batch(
            batch, self._transaction_metadata, self._retain_deletes_and_txn_markers
        )

        def is_batch_last_record_of_producer() -> bool:
            # A live producer's last batch keeps its sequence (or, for a marker, its epoch).
            last_record = self._last_records_of_active_producers.get(batch.producer_id())
            if last_record is None:
                return False
            if last_record.last_data_offset is not None:
                return batch.last_offset() == last_record.last_data_offset
            return batch.is_control_batch() and batch.producer_epoch() == last_record.producer_epoch

        if batch.has_producer_id() and is_batch_last_record_of_producer():
            retention = BatchRetention.RETAIN_EMPTY
        elif self._discard_batch_records:
            retention = BatchRetention.DELETE
        else:
            retention = BatchRetention.DELETE_EMPTY
        return BatchRetentionResult(retention, False)

    def should_retain_record(self, record_batch: RecordBatch, record: Record) -> bool:
        if self._discard_batch_records:
            # Only kept for the producer's sequence; its records go.
            return False
        return self._cleaner.should_retain_record(
            self._map, self._retain_deletes_and_txn_markers, record_batch, record, self._stats
        )


def _should_discard_batch(
    batch: RecordBatch, transaction_metadata: CleanedTransactionMetadata, retain_txn_markers: bool
) -> bool:
    if batch.is_control_batch():
        can_discard_control_batch = transaction_metadata.on_control_batch_read(batch)
        return can_discard_control_batch and not retain_txn_markers
    return transaction_metadata.on_batch_read(batch)


class Cleaner(Logging):
    """Cleans one log at a time with its own offset map and I/O buffers (one per cleaner thread)."""

    logger_name = "kafka.log.LogCleaner"

    def __init__(
        self,
        id: int,
        offset_map: OffsetMap,
        io_buffer_size: int,
        max_io_buffer_size: int,
        dup_buffer_load_factor: float,
        throttler: Throttler,
        time: Time,
        check_done: Callable[[TopicPartition], None],
    ) -> None:
        self.id = id
        self.offset_map = offset_map
        self.io_buffer_size = io_buffer_size
        self.max_io_buffer_size = max_io_buffer_size
        self.dup_buffer_load_factor = dup_buffer_load_factor
        self._throttler = throttler
        self._time = time
        self._check_done = check_done
        self.log_ident = f"Cleaner {id}: "
        self._read_buffer = bytearray(io_buffer_size)
        self._write_buffer_capacity = io_buffer_size
        if not offset_map.slots * dup_buffer_load_factor > 1:
            raise ValueError(
                "requirement failed: offset map is too small to fit in even a single message, so log cleaning will "
                "never make progress. You can increase log.cleaner.dedupe.buffer.size or decrease log.cleaner.threads"
            )

    def clean(self, cleanable: LogToClean) -> tuple[int, CleanerStats]:
        """Clean the log; returns the first offset not cleaned and the statistics."""
        # Tombstones older than delete.retention.ms before the newest clean segment may go.
        clean_segments = cleanable.log.log_segments(0, cleanable.first_dirty_offset)
        if clean_segments:
            delete_horizon_ms = clean_segments[-1].last_modified - cleanable.log.config.delete_retention_ms
        else:
            delete_horizon_ms = 0
        return self.do_clean(cleanable, delete_horizon_ms)

    def do_clean(self, cleanable: LogToClean, delete_horizon_ms: int) -> tuple[int, CleanerStats]:
        """Clean with the given tombstone horizon (segments last modified at or before it lose tombstones)."""
        self.info(f"Beginning cleaning of log {cleanable.log.name}.")
        log = cleanable.log
        stats = CleanerStats(self._time)
        self.info(f"Building offset map for {cleanable.log.name}...")
        upper_bound_offset = cleanable.first_uncleanable_offset
        self.build_offset_map(log, cleanable.first_dirty_offset, upper_bound_offset, self.offset_map, stats)
        end_offset = self.offset_map.latest_offset + 1
        stats.index_done()
        cleanable_segments = log.log_segments(0, cleanable.first_uncleanable_offset)
        cleanable_horizon_ms = cleanable_segments[-1].last_modified if cleanable_segments else 0
        self.info(
            f"Cleaning log {log.name} (cleaning prior to {_date(cleanable_horizon_ms)}, discarding tombstones prior "
            f"to {_date(delete_horizon_ms)})..."
        )
        transaction_metadata = CleanedTransactionMetadata()
        grouped_segments = self.group_segments_by_size(
            log.log_segments(0, end_offset),
            log.config.segment_size,
            log.config.max_index_size,
            cleanable.first_uncleanable_offset,
        )
        for group in grouped_segments:
            self.clean_segments(log, group, self.offset_map, delete_horizon_ms, stats, transaction_metadata)
        stats.buffer_utilization = self.offset_map.utilization
        stats.all_done()
        return end_offset, stats

    def clean_segments(
        self,
        log: Log,
        segments: list[LogSegment],
        offset_map: OffsetMap,
        delete_horizon_ms: int,
        stats: CleanerStats,
        transaction_metadata: CleanedTransactionMetadata,
    ) -> None:
        """Clean a group of segments into one `.cleaned` segment and swap it in."""
        cleaned = create_new_cleaned_segment(log, segments[0].base_offset)
        transaction_metadata.cleaned_index = cleaned.txn_index
        try:
            last_records_of_active_producers = log.last_records_of_active_producers()
            for index, current_segment in enumerate(segments):
                next_segment = segments[index + 1] if index + 1 < len(segments) else None
                # The transaction index of the new segment needs the aborts of the whole range.
                start_offset = current_segment.base_offset
                upper_bound_offset = (
                    next_segment.base_offset if next_segment is not None else current_segment.read_next_offset()
                )
                transaction_metadata.add_aborted_transactions(
                    log.collect_aborted_transactions(start_offset, upper_bound_offset)
                )
                retain_deletes_and_txn_markers = current_segment.last_modified > delete_horizon_ms
                self.info(
                    f"Cleaning {current_segment} in log {log.name} into {cleaned.base_offset} with deletion horizon "
                    f"{delete_horizon_ms}, {'retaining' if retain_deletes_and_txn_markers else 'discarding'} deletes."
                )
                try:
                    self.clean_into(
                        log.topic_partition,
                        current_segment.log,
                        cleaned,
                        offset_map,
                        retain_deletes_and_txn_markers,
                        log.config.max_message_size,
                        log.config.delete_retention_ms,
                        transaction_metadata,
                        last_records_of_active_producers,
                        stats,
                    )
                except LogSegmentOffsetOverflowException as e:
                    # Split the segment and start this cleaning over later.
                    self.info(f"Caught segment overflow error during cleaning: {e}")
                    log.split_overflowed_segment(current_segment)
                    raise LogCleaningAbortedException() from e
            cleaned.on_become_inactive_segment()
            # The copy reaches the disk before it replaces the originals.
            cleaned.flush()
            cleaned.set_last_modified(segments[-1].last_modified)
            self.info(f"Swapping in cleaned segment {cleaned} for segment(s) {segments} in log {log}")
            log.replace_segments([cleaned], segments)
        except (LogCleaningAbortedException, ThreadShutdownException):
            # PORT: Kafka deletes the copy on abort only; on shutdown it is left for the next load to
            # remove. Both remove it here, which also releases its files at once.
            try:
                cleaned.delete_if_exists()
            except OSError as delete_exception:
                self.warn(f"Failed to delete cleaned segment {cleaned}: {delete_exception}")
            raise

    def clean_into(
        self,
        topic_partition: TopicPartition,
        source_records: FileRecords,
        dest: LogSegment,
        offset_map: OffsetMap,
        retain_deletes_and_txn_markers: bool,
        max_log_message_size: int,
        delete_retention_ms: int,
        transaction_metadata: CleanedTransactionMetadata,
        last_records_of_active_producers: dict[int, LastRecord],
        stats: CleanerStats,
    ) -> None:
        """Copy the records of `source_records` that `offset_map` does not supersede into `dest`."""
        log_cleaner_filter = _LogCleanerFilter(
            self,
            self._time.milliseconds(),
            delete_retention_ms,
            offset_map,
            retain_deletes_and_txn_markers,
            transaction_metadata,
            last_records_of_active_producers,
            stats,
        )
        position = 0
        while position < source_records.size_in_bytes():
            self._check_done(topic_partition)
            read = source_records.read_into(self._read_buffer, position)
            records = MemoryRecords.readable_records(memoryview(self._read_buffer)[:read])
            self._throttler.maybe_throttle(records.size_in_bytes())
            output = bytearray()
            result = records.filter_to(topic_partition, log_cleaner_filter, output, max_log_message_size)
            stats.read_messages(result.messages_read, result.bytes_read)
            stats.recopy_messages(result.messages_retained, result.bytes_retained)
            position += result.bytes_read
            if output:
                # The cleaned segment is not visible to others until it is swapped in.
                dest.append(
                    result.max_offset,
                    result.max_timestamp,
                    result.shallow_offset_of_max_timestamp,
                    MemoryRecords.readable_records(output),
                )
                self._throttler.maybe_throttle(len(output))
            # Bytes were read but no whole batch: the buffer is too small for the next batch.
            if read > 0 and result.bytes_read == 0:
                self._grow_buffers_or_fail(source_records, position, max_log_message_size, records)
        self.restore_buffers()

    def _grow_buffers_or_fail(
        self, source_records: FileRecords, position: int, max_log_message_size: int, memory_records: MemoryRecords
    ) -> None:
        if len(self._read_buffer) >= max_log_message_size:
            # A batch may exceed max.message.bytes (compressed topics, a lowered limit): grow to its size.
            next_batch_size = memory_records.first_batch_size()
            log_desc = f"log segment {source_records.file()} at position {position}"
            if next_batch_size is None:
                raise RuntimeError(f"Could not determine next batch size for {log_desc}")
            if next_batch_size <= 0:
                raise RuntimeError(f"Invalid batch size {next_batch_size} for {log_desc}")
            if next_batch_size <= len(self._read_buffer):
                raise RuntimeError(
                    f"Batch size {next_batch_size} < buffer size {len(self._read_buffer)}, but not processed for "
                    f"{log_desc}"
                )
            bytes_left = source_records.size_in_bytes() - position
            if next_batch_size > bytes_left:
                raise CorruptRecordException(
                    f"Log segment may be corrupt, batch size {next_batch_size} > {bytes_left} bytes left in segment "
                    f"for {log_desc}"
                )
            max_size = next_batch_size
        else:
            max_size = max_log_message_size
        self.grow_buffers(max_size)

    def should_retain_record(
        self, offset_map: OffsetMap, retain_deletes: bool, batch: RecordBatch, record: Record, stats: CleanerStats
    ) -> bool:
        """Keep a record that is past the map, or is its key's latest and is not a tombstone past its time."""
        if record.offset() > offset_map.latest_offset:
            return True
        if record.has_key():
            key = record.key()
            assert key is not None
            found_offset = offset_map.get(key)
            latest_offset_for_key = record.offset() >= found_offset
            is_retained_value = record.has_value() or retain_deletes
            return latest_offset_for_key and is_retained_value
        stats.invalid_message()
        return False

    def grow_buffers(self, max_log_message_size: int) -> None:
        """Double the I/O buffers, up to the largest message size."""
        max_buffer_size = max(max_log_message_size, self.max_io_buffer_size)
        if len(self._read_buffer) >= max_buffer_size or self._write_buffer_capacity >= max_buffer_size:
            raise RuntimeError(f"This log contains a message larger than maximum allowable size of {max_buffer_size}.")
        new_size = min(len(self._read_buffer) * 2, max_buffer_size)
        self.info(f"Growing cleaner I/O buffers from {len(self._read_buffer)} bytes to {new_size} bytes.")
        self._read_buffer = bytearray(new_size)
        self._write_buffer_capacity = new_size

    def restore_buffers(self) -> None:
        """Shrink the I/O buffers back to their configured size."""
        if len(self._read_buffer) > self.io_buffer_size:
            self._read_buffer = bytearray(self.io_buffer_size)
        if self._write_buffer_capacity > self.io_buffer_size:
            self._write_buffer_capacity = self.io_buffer_size

    @property
    def read_buffer_size(self) -> int:
        """Current size of the read buffer."""
        return len(self._read_buffer)

    def group_segments_by_size(
        self, segments: Iterable[LogSegment], max_size: int, max_index_size: int, first_uncleanable_offset: int
    ) -> list[list[LogSegment]]:
        """Consecutive segments grouped so that each group's data and indexes fit one segment."""
        grouped: list[list[LogSegment]] = []
        segs = list(segments)
        while segs:
            group = [segs[0]]
            log_size = segs[0].size
            index_size = segs[0].offset_index.size_in_bytes
            time_index_size = segs[0].time_index.size_in_bytes
            segs = segs[1:]
            while (
                segs
                and log_size + segs[0].size <= max_size
                and index_size + segs[0].offset_index.size_in_bytes <= max_index_size
                and time_index_size + segs[0].time_index.size_in_bytes <= max_index_size
                and _last_offset_for_first_segment(segs, first_uncleanable_offset) - group[-1].base_offset <= INT32_MAX
            ):
                group.append(segs[0])
                log_size += segs[0].size
                index_size += segs[0].offset_index.size_in_bytes
                time_index_size += segs[0].time_index.size_in_bytes
                segs = segs[1:]
            grouped.append(group)
        return grouped

    def build_offset_map(self, log: Log, start: int, end: int, offset_map: OffsetMap, stats: CleanerStats) -> None:
        """Map each key of [start, end) to its last offset (as far as the map's capacity allows)."""
        offset_map.clear()
        dirty = log.log_segments(start, end)
        next_segment_start_offsets = [s.base_offset for s in dirty[1:]] + ([end] if dirty else [])
        self.info(f"Building offset map for log {log.name} for {len(dirty)} segments in offset range [{start}, {end}).")
        transaction_metadata = CleanedTransactionMetadata()
        transaction_metadata.add_aborted_transactions(log.collect_aborted_transactions(start, end))
        # At least load factor * slots keys fit; more when the dirty section repeats keys.
        for index, (segment, next_segment_start_offset) in enumerate(zip(dirty, next_segment_start_offsets)):
            self._check_done(log.topic_partition)
            full = self._build_offset_map_for_segment(
                log.topic_partition,
                segment,
                offset_map,
                start,
                next_segment_start_offset,
                log.config.max_message_size,
                transaction_metadata,
                stats,
            )
            if full:
                self.debug(
                    f"Offset map is full, {index} segments fully mapped, segment with base offset "
                    f"{segment.base_offset} is partially mapped"
                )
                break
        self.info(f"Offset map for log {log.name} complete.")

    def _build_offset_map_for_segment(
        self,
        topic_partition: TopicPartition,
        segment: LogSegment,
        offset_map: OffsetMap,
        start_offset: int,
        next_segment_start_offset: int,
        max_log_message_size: int,
        transaction_metadata: CleanedTransactionMetadata,
        stats: CleanerStats,
    ) -> bool:
        """Add the segment's keys to the map; True if the map filled up."""
        position = segment.offset_index.lookup(start_offset).position
        max_desired_map_size = int(offset_map.slots * self.dup_buffer_load_factor)
        while position < segment.log.size_in_bytes():
            self._check_done(topic_partition)
            try:
                read = segment.log.read_into(self._read_buffer, position)
            except Exception as e:
                raise KafkaException(
                    f"Failed to read from segment {segment} of partition {topic_partition} while loading offset map"
                ) from e
            records = MemoryRecords.readable_records(memoryview(self._read_buffer)[:read])
            self._throttler.maybe_throttle(records.size_in_bytes())
            start_position = position
            for batch in records.batches():
                if batch.is_control_batch():
                    transaction_metadata.on_control_batch_read(batch)
                    stats.index_messages_read(1)
                else:
                    is_aborted = transaction_metadata.on_batch_read(batch)
                    if is_aborted:
                        # No keys of aborted transactions go in the map.
                        stats.index_messages_read(batch.count_or_null() or 0)
                    else:
                        for record in batch.streaming_iterator():
                            if record.has_key() and record.offset() >= start_offset:
                                if offset_map.size < max_desired_map_size:
                                    key = record.key()
                                    assert key is not None
                                    offset_map.put(key, record.offset())
                                else:
                                    return True
                            stats.index_messages_read(1)
                if batch.last_offset() >= start_offset:
                    offset_map.update_latest_offset(batch.last_offset())
            bytes_read = records.valid_bytes()
            position += bytes_read
            stats.index_bytes_read(bytes_read)
            # Not one whole batch was read: the buffer is too small.
            if position == start_position:
                self._grow_buffers_or_fail(segment.log, position, max_log_message_size, records)
        # Offsets may have gaps: the map covers the segment up to the next one.
        offset_map.update_latest_offset(next_segment_start_offset - 1)
        self.restore_buffers()
        return False


def _last_offset_for_first_segment(segs: list[LogSegment], first_uncleanable_offset: int) -> int:
    """An upper bound of the last offset of segs[0]: the next segment's base offset - 1, else the first
    uncleanable offset - 1 (reading the segment's real end would cost a scan)."""
    if len(segs) > 1:
        return segs[1].base_offset - 1
    return first_uncleanable_offset - 1


def _date(ms: int) -> str:
    """A time as java.util.Date prints it; times beyond what datetime holds print as milliseconds."""
    try:
        return datetime.fromtimestamp(ms / 1000).strftime("%a %b %d %H:%M:%S %Y")
    except (ValueError, OverflowError, OSError):
        return f"{ms} ms"


class CleanerThread(ShutdownableThread):
    """`kafka-log-cleaner-thread-N`: cleans the filthiest log, or backs off when none is dirty enough."""

    logger_name = "kafka.log.LogCleaner"

    def __init__(self, log_cleaner: LogCleaner, thread_id: int) -> None:
        super().__init__(f"kafka-log-cleaner-thread-{thread_id}", is_interruptible=False)
        self._log_cleaner = log_cleaner
        config = log_cleaner._config
        if config.dedupe_buffer_size / config.num_threads > INT32_MAX:
            self.warn(
                "Cannot use more than 2G of cleaner buffer space per cleaner thread, ignoring excess buffer space..."
            )
        self.cleaner = Cleaner(
            thread_id,
            SkimpyOffsetMap(
                int(min(config.dedupe_buffer_size // config.num_threads, INT32_MAX)), config.hash_algorithm
            ),
            config.io_buffer_size // config.num_threads // 2,
            config.max_message_size,
            config.dedupe_buffer_load_factor,
            log_cleaner._throttler,
            log_cleaner._time,
            self._check_done,
        )
        self.last_stats = CleanerStats()
        self.last_pre_clean_stats = PreCleanStats()

    def _check_done(self, topic_partition: TopicPartition) -> None:
        if not self.is_running:
            raise ThreadShutdownException()
        self._log_cleaner.cleaner_manager.check_cleaning_aborted(topic_partition)

    def do_work(self) -> None:
        cleaned = self._try_clean_filthiest_log()
        if not cleaned:
            self.pause(self._log_cleaner._config.back_off_ms / 1000.0)

    def _try_clean_filthiest_log(self) -> bool:
        try:
            return self._clean_filthiest_log()
        except LogCleaningException as e:
            self.warn(
                f"Unexpected exception thrown when cleaning log {e.log}. Marking its partition "
                f"({e.log.topic_partition}) as uncleanable",
                e,
            )
            self._log_cleaner.cleaner_manager.mark_partition_uncleanable(e.log.parent_dir, e.log.topic_partition)
            return False

    def _clean_filthiest_log(self) -> bool:
        manager = self._log_cleaner.cleaner_manager
        pre_clean_stats = PreCleanStats()
        cleanable = manager.grab_filthiest_compacted_log(self._log_cleaner._time, pre_clean_stats)
        cleaned = False
        if cleanable is not None:
            self.last_pre_clean_stats = pre_clean_stats
            try:
                self._clean_log(cleanable)
                cleaned = True
            except ThreadShutdownException:
                raise
            except Exception as e:
                raise LogCleaningException(cleanable.log, str(e), e) from e
        deletable = manager.deletable_logs()
        try:
            for _, log in deletable:
                try:
                    log.delete_old_segments()
                except ThreadShutdownException:
                    raise
                except Exception as e:
                    raise LogCleaningException(log, str(e), e) from e
        finally:
            manager.done_deleting([tp for tp, _ in deletable])
        return cleaned

    def _clean_log(self, cleanable: LogToClean) -> None:
        start_offset = cleanable.first_dirty_offset
        end_offset = start_offset
        try:
            next_dirty_offset, cleaner_stats = self.cleaner.clean(cleanable)
            end_offset = next_dirty_offset
            self.record_stats(self.cleaner.id, cleanable.log.name, start_offset, end_offset, cleaner_stats)
        except LogCleaningAbortedException:
            pass  # aborted on request: the partition is paused or being deleted
        except KafkaStorageException:
            pass  # the directory is offline already
        except OSError as e:
            log_directory = cleanable.log.parent_dir
            msg = f"Failed to clean up log for {cleanable.topic_partition} in dir {log_directory} due to IOException"
            self._log_cleaner.log_dir_failure_channel.maybe_add_offline_log_dir(log_directory, msg, e)
        finally:
            self._log_cleaner.cleaner_manager.done_cleaning(
                cleanable.topic_partition, cleanable.log.parent_dir_file, end_offset
            )

    def record_stats(self, id: int, name: str, from_offset: int, to_offset: int, stats: CleanerStats) -> None:
        """Log the statistics of one cleaning run."""
        self.last_stats = stats

        def mb(b: float) -> float:
            return b / (1024 * 1024)

        elapsed = max(stats.elapsed_secs, 1e-9)
        elapsed_index = max(stats.elapsed_index_secs, 1e-9)
        elapsed_clean = max(stats.elapsed_secs - stats.elapsed_index_secs, 1e-9)
        message = (
            f"\n\tLog cleaner thread {id} cleaned log {name} (dirty section = [{from_offset}, {to_offset}])\n"
            f"\t{mb(stats.bytes_read):,.1f} MB of log processed in {stats.elapsed_secs:,.1f} seconds "
            f"({mb(stats.bytes_read) / elapsed:,.1f} MB/sec).\n"
            f"\tIndexed {mb(stats.map_bytes_read):,.1f} MB in {stats.elapsed_index_secs:.1f} seconds "
            f"({mb(stats.map_bytes_read) / elapsed_index:,.1f} Mb/sec, "
            f"{100 * stats.elapsed_index_secs / elapsed:.1f}% of total time)\n"
            f"\tBuffer utilization: {100 * stats.buffer_utilization:.1f}%\n"
            f"\tCleaned {mb(stats.bytes_read):,.1f} MB in {stats.elapsed_secs - stats.elapsed_index_secs:.1f} seconds "
            f"({mb(stats.bytes_read) / elapsed_clean:,.1f} Mb/sec, "
            f"{100 * (stats.elapsed_secs - stats.elapsed_index_secs) / elapsed:.1f}% of total time)\n"
            f"\tStart size: {mb(stats.bytes_read):,.1f} MB ({stats.messages_read:,d} messages)\n"
            f"\tEnd size: {mb(stats.bytes_written):,.1f} MB ({stats.messages_written:,d} messages)\n"
            f"\t{100.0 * (1.0 - stats.bytes_written / max(stats.bytes_read, 1)):.1f}% size reduction "
            f"({100.0 * (1.0 - stats.messages_written / max(stats.messages_read, 1)):.1f}% fewer messages)\n"
        )
        self.info(message)
        if self.last_pre_clean_stats.delayed_partitions > 0:
            self.info(
                f"\tCleanable partitions: {self.last_pre_clean_stats.cleanable_partitions}, Delayed partitions: "
                f"{self.last_pre_clean_stats.delayed_partitions}, max delay: "
                f"{self.last_pre_clean_stats.max_compaction_delay_ms}"
            )
        if stats.invalid_messages_read > 0:
            self.warn(f"\tFound {stats.invalid_messages_read} invalid messages during compaction.")


class LogCleaner(Logging, KafkaMetricsGroup):
    """The cleaner threads and the shared cleaning state of the broker's compacted logs."""

    logger_name = "kafka.log.LogCleaner"

    RECONFIGURABLE_CONFIGS: ClassVar[frozenset[str]] = frozenset(
        {
            "log.cleaner.threads",
            "log.cleaner.dedupe.buffer.size",
            "log.cleaner.io.buffer.load.factor",
            "log.cleaner.io.buffer.size",
            "message.max.bytes",
            "log.cleaner.io.max.bytes.per.second",
            "log.cleaner.backoff.ms",
        }
    )

    def __init__(
        self,
        initial_config: CleanerConfig,
        log_dirs: Iterable[Path],
        logs: Pool[TopicPartition, Log],
        log_dir_failure_channel: LogDirFailureChannel,
        time: Time = Time.SYSTEM,
    ) -> None:
        self._config = initial_config
        self.log_dirs = [Path(d) for d in log_dirs]
        self.logs = logs
        self.log_dir_failure_channel = log_dir_failure_channel
        self._time = time
        self.cleaner_manager = LogCleanerManager(self.log_dirs, logs, log_dir_failure_channel)
        self._throttler = Throttler(initial_config.max_io_bytes_per_second, 300, True, time)
        self.cleaners: list[CleanerThread] = []
        self.new_gauge(
            "max-buffer-utilization-percent",
            lambda: self._max_over_cleaner_threads(lambda t: t.last_stats.buffer_utilization) * 100,
        )
        self.new_gauge("cleaner-recopy-percent", self._cleaner_recopy_percent)
        self.new_gauge(
            "max-clean-time-secs", lambda: self._max_over_cleaner_threads(lambda t: t.last_stats.elapsed_secs)
        )
        self.new_gauge(
            "max-compaction-delay-secs",
            lambda: (
                self._max_over_cleaner_threads(lambda t: float(t.last_pre_clean_stats.max_compaction_delay_ms)) / 1000
            ),
        )
        self.new_gauge("DeadThreadCount", lambda: self.dead_thread_count)

    def _max_over_cleaner_threads(self, f: Callable[[CleanerThread], float]) -> int:
        """The largest value of `f` over the cleaner threads, as a whole number (0 without threads)."""
        return int(max((f(t) for t in list(self.cleaners)), default=0.0))

    def _cleaner_recopy_percent(self) -> int:
        stats = [t.last_stats for t in list(self.cleaners)]
        recopy_rate = sum(s.bytes_written for s in stats) / max(sum(s.bytes_read for s in stats), 1)
        return int(100 * recopy_rate)

    @property
    def dead_thread_count(self) -> int:
        """Cleaner threads that died of an error."""
        return sum(1 for t in self.cleaners if t.is_thread_failed)

    def startup(self) -> None:
        """Start the cleaner threads."""
        self.info("Starting the log cleaner")
        for i in range(self._config.num_threads):
            cleaner = CleanerThread(self, i)
            self.cleaners.append(cleaner)
            cleaner.start()

    def shutdown(self) -> None:
        """Stop the cleaner threads (each finishes or aborts its current cleaning)."""
        self.info("Shutting down the log cleaner.")
        for cleaner in self.cleaners:
            cleaner.initiate_shutdown()
        for cleaner in self.cleaners:
            cleaner.await_shutdown()
        self.cleaners.clear()

    def reconfigurable_configs(self) -> frozenset[str]:
        """The broker configs this component can change at run time."""
        return LogCleaner.RECONFIGURABLE_CONFIGS

    def validate_reconfiguration(self, new_config: KafkaConfig) -> None:
        """ConfigException if the thread count would drop below 1, halve, or more than double."""
        num_threads = LogCleaner.cleaner_config(new_config).num_threads
        current_threads = self._config.num_threads
        if num_threads < 1:
            raise ConfigException("Log cleaner threads should be at least 1")
        if num_threads < current_threads / 2:
            raise ConfigException(
                f"Log cleaner threads cannot be reduced to less than half the current value {current_threads}"
            )
        if num_threads > current_threads * 2:
            raise ConfigException(
                f"Log cleaner threads cannot be increased to more than double the current value {current_threads}"
            )

    def reconfigure(self, old_config: KafkaConfig, new_config: KafkaConfig) -> None:
        """Restart the cleaner threads with the new settings."""
        self._config = LogCleaner.cleaner_config(new_config)
        self.shutdown()
        self.startup()

    def abort_cleaning(self, topic_partition: TopicPartition) -> None:
        """Abort any cleaning of the partition, waiting until it stopped."""
        self.cleaner_manager.abort_cleaning(topic_partition)

    def update_checkpoints(self, data_dir: Path, partition_to_remove: TopicPartition | None = None) -> None:
        """Rewrite the directory's cleaner checkpoint (dropping a removed partition)."""
        self.cleaner_manager.update_checkpoints(data_dir, partition_to_remove=partition_to_remove)

    def alter_checkpoint_dir(self, topic_partition: TopicPartition, source_log_dir: Path, dest_log_dir: Path) -> None:
        """Move the partition's checkpoint to another directory."""
        self.cleaner_manager.alter_checkpoint_dir(topic_partition, source_log_dir, dest_log_dir)

    def handle_log_dir_failure(self, dir: str) -> None:
        """Stop cleaning logs in the failed directory."""
        self.cleaner_manager.handle_log_dir_failure(dir)

    def maybe_truncate_checkpoint(self, data_dir: Path, topic_partition: TopicPartition, offset: int) -> None:
        """Lower the partition's checkpoint to `offset` after a truncation."""
        self.cleaner_manager.maybe_truncate_checkpoint(data_dir, topic_partition, offset)

    def abort_and_pause_cleaning(self, topic_partition: TopicPartition) -> None:
        """Abort and pause the partition's cleaning, waiting until it stopped."""
        self.cleaner_manager.abort_and_pause_cleaning(topic_partition)

    def resume_cleaning(self, topic_partitions: Iterable[TopicPartition]) -> None:
        """Undo one pause of each partition."""
        self.cleaner_manager.resume_cleaning(topic_partitions)

    def await_cleaned(self, topic_partition: TopicPartition, offset: int, max_wait_ms: int = 60000) -> bool:
        """Wait (real time, at most `max_wait_ms`) until the partition is cleaned up to `offset`."""

        def is_cleaned() -> bool:
            cleaned = self.cleaner_manager.all_cleaner_checkpoints().get(topic_partition)
            return cleaned is not None and cleaned >= offset

        remaining_wait_ms = max_wait_ms
        while not is_cleaned() and remaining_wait_ms > 0:
            sleep_time = min(100, remaining_wait_ms)
            Time.SYSTEM.sleep(sleep_time)
            remaining_wait_ms -= sleep_time
        return is_cleaned()

    def pause_cleaning_for_non_compacted_partitions(self) -> list[tuple[TopicPartition, Log]]:
        """The non-compacted logs the retention task may work on, paused for it."""
        return self.cleaner_manager.pause_cleaning_for_non_compacted_partitions()

    @property
    def current_config(self) -> CleanerConfig:
        """The cleaner's settings."""
        return self._config

    @property
    def cleaner_count(self) -> int:
        """How many cleaner threads run."""
        return len(self.cleaners)

    @staticmethod
    def cleaner_config(config: Any) -> CleanerConfig:
        """The cleaner settings of a KafkaConfig."""
        return CleanerConfig(
            num_threads=config.log_cleaner_threads,
            dedupe_buffer_size=config.log_cleaner_dedupe_buffer_size,
            dedupe_buffer_load_factor=config.log_cleaner_dedupe_buffer_load_factor,
            io_buffer_size=config.log_cleaner_io_buffer_size,
            max_message_size=config.message_max_bytes,
            max_io_bytes_per_second=config.log_cleaner_io_max_bytes_per_second,
            back_off_ms=config.log_cleaner_backoff_ms,
            enable_cleaner=config.log_cleaner_enable,
        )

    @staticmethod
    def create_new_cleaned_segment(log: Log, base_offset: int) -> LogSegment:
        """An empty `.cleaned` segment at `base_offset` in `log`'s directory."""
        return create_new_cleaned_segment(log, base_offset)
