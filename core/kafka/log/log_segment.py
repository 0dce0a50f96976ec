"""Port of core/src/main/scala/kafka/log/LogSegment.scala (Kafka 2.8).

One segment of a partition's log: the record batches in `NNN.log` (a FileRecords), with the sparse
offset index `NNN.index`, the time index `NNN.timeindex` and the aborted-transaction index
`NNN.txnindex`, where NNN is the segment's base offset, a lower bound of every offset in it.

Appends write each batch set with one positional write and add an index entry only every
`index.interval.bytes`; reads return a zero-copy FileRecords slice for the network layer to send
with sendfile. Recovery re-reads every batch, checks it, rebuilds the indexes and cuts off a
damaged tail.

Also LogSegmentOffsetOverflowException, which Kafka keeps in kafka.common (core), and the
companion `LogSegment.deleteIfExists(dir, baseOffset, fileSuffix)` as the module function
`delete_if_exists`.

Threading: not thread-safe for writers, as in Kafka; the owning Log calls append, truncate_to,
recover and the file operations under its lock. `read`, `translate_offset`, `read_next_offset` and
`flush` may run on other threads at the same time (fetches); the indexes lock themselves.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from kafka.common.errors import CorruptRecordException, InvalidRecordException, KafkaException
from kafka.common.record.file_records import FileRecords, LogOffsetPosition, TimestampAndOffset
from kafka.common.record.memory_records import MemoryRecords
from kafka.common.record.record_batch import MAGIC_VALUE_V2, NO_TIMESTAMP, RecordBatch
from kafka.common.utils.time import Time
from kafka.log.index_entry import OffsetPosition
from kafka.log.lazy_index import LazyIndex
from kafka.log.log_file_utils import (
    delete_file_if_exists,
    log_file,
    offset_index_file,
    time_index_file,
    transaction_index_file,
)
from kafka.log.log_validator import Replication
from kafka.log.offset_index import OffsetIndex
from kafka.log.time_index import TimeIndex
from kafka.log.transaction_index import AbortedTxn, TransactionIndex, TxnIndexSearchResult
from kafka.metrics.kafka_metrics_group import KafkaMetricsGroup
from kafka.metrics.yammer.timer import Timer
from kafka.server.fetch_data_info import FetchDataInfo
from kafka.server.log_offset_metadata import LogOffsetMetadata
from kafka.utils.core_utils import replace_suffix, scala_option, swallow, try_all
from kafka.utils.logging import Logging
from kafka.utils.time_unit import TimeUnit

if TYPE_CHECKING:
    from kafka.log.producer_state_manager import ProducerStateManager
    from kafka.server.epoch.leader_epoch_file_cache import LeaderEpochFileCache

    # The producer state that recover() rebuilds (the name Log refers to).
    ProducerStateManagerLike = ProducerStateManager

INT64_MIN = -(2**63)
INT64_MAX = 2**63 - 1

# The read buffer used to copy batches from another file (Kafka's GrowableBufferSupplier starts at 1 MiB).
_APPEND_FROM_FILE_BUFFER_SIZE = 1024 * 1024


class LogSegmentOffsetOverflowException(KafkaException):
    """A segment holding an offset that does not fit its indexes' 4-byte relative offsets.

    Only segments written before KAFKA-5413 can hold such offsets; the log splits them.

    # PORT: Kafka keeps this in core's kafka.common package; here `kafka.common` is the clients
    package, so the class lives with the segment it describes.
    """

    def __init__(self, segment: LogSegment, offset: int) -> None:
        super().__init__(f"Detected offset overflow at offset {offset} in segment {segment}")
        self.segment = segment
        self.offset = offset


class SegmentConfig(Protocol):
    """What a segment reads from LogConfig (`segment.index.bytes`, `index.interval.bytes`, jitter)."""

    @property
    def max_index_size(self) -> int: ...

    @property
    def index_interval(self) -> int: ...

    @property
    def random_segment_jitter(self) -> int: ...


class RollParamsLike(Protocol):
    """The fields of Log's RollParams that decide whether to roll."""

    @property
    def max_segment_ms(self) -> int: ...

    @property
    def max_segment_bytes(self) -> int: ...

    @property
    def max_timestamp_in_messages(self) -> int: ...

    @property
    def max_offset_in_messages(self) -> int: ...

    @property
    def messages_size(self) -> int: ...

    @property
    def now(self) -> int: ...


class CompletedTxnLike(Protocol):
    """The fields of Log's CompletedTxn used to index an aborted transaction."""

    @property
    def producer_id(self) -> int: ...

    @property
    def first_offset(self) -> int: ...

    @property
    def last_offset(self) -> int: ...

    @property
    def is_aborted(self) -> bool: ...


_REPLICATION = Replication()


class LogSegment(Logging):
    """A segment: its records file, its three indexes, and the bookkeeping for indexing and rolling."""

    def __init__(
        self,
        log: FileRecords,
        lazy_offset_index: LazyIndex[OffsetIndex],
        lazy_time_index: LazyIndex[TimeIndex],
        txn_index: TransactionIndex,
        base_offset: int,
        index_interval_bytes: int,
        roll_jitter_ms: int,
        time: Time,
    ) -> None:
        self.log = log
        self.lazy_offset_index = lazy_offset_index
        self.lazy_time_index = lazy_time_index
        self.txn_index = txn_index
        self.base_offset = base_offset
        self.index_interval_bytes = index_interval_bytes
        self.roll_jitter_ms = roll_jitter_ms
        self.time = time
        self._created = time.milliseconds()
        # Bytes appended since the last offset index entry.
        self._bytes_since_last_index_entry = 0
        # The timestamp time-based rolling (and the cleaner's max compaction lag) is measured from: the
        # first batch's max timestamp, loaded lazily. Read by the cleaner thread.
        self._rolling_based_timestamp: int | None = None
        # The largest timestamp appended so far and its offset, loaded lazily from the time index.
        self._max_timestamp_so_far: int | None = None
        self._offset_of_max_timestamp_so_far: int | None = None

    @classmethod
    def open(
        cls,
        dir: str | os.PathLike[str],
        base_offset: int,
        config: SegmentConfig,
        time: Time,
        file_already_exists: bool = False,
        init_file_size: int = 0,
        preallocate: bool = False,
        file_suffix: str = "",
    ) -> LogSegment:
        """Open (creating if needed) the segment starting at `base_offset` in `dir`; indexes load lazily."""
        max_index_size = config.max_index_size
        return cls(
            FileRecords.open(
                log_file(dir, base_offset, file_suffix),
                file_already_exists=file_already_exists,
                init_file_size=init_file_size,
                preallocate=preallocate,
            ),
            LazyIndex.for_offset(
                offset_index_file(dir, base_offset, file_suffix), base_offset=base_offset, max_index_size=max_index_size
            ),
            LazyIndex.for_time(
                time_index_file(dir, base_offset, file_suffix), base_offset=base_offset, max_index_size=max_index_size
            ),
            TransactionIndex(base_offset, transaction_index_file(dir, base_offset, file_suffix)),
            base_offset,
            index_interval_bytes=config.index_interval,
            roll_jitter_ms=config.random_segment_jitter,
            time=time,
        )

    @property
    def offset_index(self) -> OffsetIndex:
        """The offset index, mapped on first use."""
        return self.lazy_offset_index.get()

    @property
    def time_index(self) -> TimeIndex:
        """The time index, mapped on first use."""
        return self.lazy_time_index.get()

    def should_roll(self, roll_params: RollParamsLike) -> bool:
        """Whether the next append must go to a new segment.

        It must when the records would not fit in `segment.bytes`, when the segment is non-empty and
        `segment.ms` (less this segment's jitter) has passed, when an index is full, or when the
        append's last offset cannot be stored relative to this segment's base offset.
        """
        reached_roll_ms = (
            self.time_waited_for_roll(roll_params.now, roll_params.max_timestamp_in_messages)
            > roll_params.max_segment_ms - self.roll_jitter_ms
        )
        size = self.size
        return (
            size > roll_params.max_segment_bytes - roll_params.messages_size
            or (size > 0 and reached_roll_ms)
            or self.offset_index.is_full
            or self.time_index.is_full
            or not self.can_convert_to_relative_offset(roll_params.max_offset_in_messages)
        )

    def resize_indexes(self, size: int) -> None:
        """Resize both the offset and the time index files to `size` bytes (rounded to whole entries)."""
        self.offset_index.resize(size)
        self.time_index.resize(size)

    def sanity_check(self, time_index_file_newly_created: bool) -> None:
        """Check the segment's files at load time.

        A missing offset index raises FileNotFoundError (Kafka: NoSuchFileException), on which the log
        rebuilds the segment's indexes. A time index that had to be created is emptied. The transaction
        index is checked here; the offset and time indexes of segments above the recovery point are
        rebuilt by recovery anyway.
        """
        if self.lazy_offset_index.file.exists():
            if time_index_file_newly_created:
                self.time_index.resize(0)
            self.txn_index.sanity_check()
        else:
            raise FileNotFoundError(f"Offset index file {self.lazy_offset_index.file.absolute()} does not exist")

    @property
    def max_timestamp_so_far(self) -> int:
        """The largest timestamp appended to this segment (from the time index until an append sets it)."""
        if self._max_timestamp_so_far is None:
            self._max_timestamp_so_far = self.time_index.last_entry.timestamp
        return self._max_timestamp_so_far

    @max_timestamp_so_far.setter
    def max_timestamp_so_far(self, timestamp: int) -> None:
        self._max_timestamp_so_far = timestamp

    @property
    def offset_of_max_timestamp_so_far(self) -> int:
        """The offset of the batch holding `max_timestamp_so_far`."""
        if self._offset_of_max_timestamp_so_far is None:
            self._offset_of_max_timestamp_so_far = self.time_index.last_entry.offset
        return self._offset_of_max_timestamp_so_far

    @offset_of_max_timestamp_so_far.setter
    def offset_of_max_timestamp_so_far(self, offset: int) -> None:
        self._offset_of_max_timestamp_so_far = offset

    @property
    def size(self) -> int:
        """The size of the segment's log file in bytes."""
        return self.log.size_in_bytes()

    def can_convert_to_relative_offset(self, offset: int) -> bool:
        """Whether `offset` can be indexed relative to this segment's base offset."""
        return self.offset_index.can_append_offset(offset)

    def append(
        self, largest_offset: int, largest_timestamp: int, shallow_offset_of_max_timestamp: int, records: MemoryRecords
    ) -> None:
        """Append `records`, whose last offset is `largest_offset`, adding index entries when due.

        `largest_timestamp` and `shallow_offset_of_max_timestamp` are the largest timestamp in the
        records and the offset of the batch holding it. Raises LogSegmentOffsetOverflowException when
        `largest_offset` does not fit this segment's indexes. Called under the log's lock.
        """
        size_in_bytes = records.size_in_bytes()
        if size_in_bytes > 0:
            physical_position = self.log.size_in_bytes()
            if self.is_trace_enabled():
                self.trace(
                    f"Inserting {size_in_bytes} bytes at end offset {largest_offset} at position {physical_position} "
                    f"with largest timestamp {largest_timestamp} at shallow offset {shallow_offset_of_max_timestamp}"
                )
            if physical_position == 0:
                self._rolling_based_timestamp = largest_timestamp
            self._ensure_offset_in_range(largest_offset)
            appended_bytes = self.log.append(records)
            if self.is_trace_enabled():
                self.trace(f"Appended {appended_bytes} to {self.log.file()} at end offset {largest_offset}")
            if largest_timestamp > self.max_timestamp_so_far:
                self._max_timestamp_so_far = largest_timestamp
                self._offset_of_max_timestamp_so_far = shallow_offset_of_max_timestamp
            if self._bytes_since_last_index_entry > self.index_interval_bytes:
                self.offset_index.append(largest_offset, physical_position)
                self.time_index.maybe_append(self.max_timestamp_so_far, self.offset_of_max_timestamp_so_far)
                self._bytes_since_last_index_entry = 0
            self._bytes_since_last_index_entry += size_in_bytes

    def _ensure_offset_in_range(self, offset: int) -> None:
        if not self.can_convert_to_relative_offset(offset):
            raise LogSegmentOffsetOverflowException(self, offset)

    def _append_chunk_from_file(self, records: FileRecords, position: int, read_buffer: bytearray) -> int:
        """Append as many whole batches from `records` at `position` as fit the buffer (at least one)."""
        bytes_to_append = 0
        max_timestamp = INT64_MIN
        offset_of_max_timestamp = INT64_MIN
        max_offset = INT64_MIN
        capacity = len(read_buffer)
        for batch in records.batches_from(position):
            batch_size = batch.size_in_bytes()
            if not self.can_convert_to_relative_offset(batch.last_offset()):
                break
            if bytes_to_append != 0 and bytes_to_append + batch_size >= capacity:
                break
            if batch.max_timestamp() > max_timestamp:
                max_timestamp = batch.max_timestamp()
                offset_of_max_timestamp = batch.last_offset()
            max_offset = batch.last_offset()
            bytes_to_append += batch_size
        if bytes_to_append > 0:
            # A single batch larger than the buffer is copied with a buffer of its own size.
            buffer = read_buffer if capacity >= bytes_to_append else bytearray(bytes_to_append)
            view = memoryview(buffer)[:bytes_to_append]
            try:
                read = records.read_into(view, position)
                if read != bytes_to_append:
                    raise KafkaException(
                        f"Failed to read {bytes_to_append} bytes at position {position} from {records}: got {read}"
                    )
                self.append(max_offset, max_timestamp, offset_of_max_timestamp, MemoryRecords.readable_records(view))
            finally:
                view.release()
        return bytes_to_append

    def append_from_file(self, records: FileRecords, start: int) -> int:
        """Copy batches from `records` starting at byte `start` until the end, or until an offset would
        overflow this segment's indexes. Returns the bytes appended."""
        position = start
        read_buffer = bytearray(_APPEND_FROM_FILE_BUFFER_SIZE)
        end = start + records.size_in_bytes()
        while position < end:
            bytes_appended = self._append_chunk_from_file(records, position, read_buffer)
            if bytes_appended == 0:
                return position - start
            position += bytes_appended
        return position - start

    def update_txn_index(self, completed_txn: CompletedTxnLike, last_stable_offset: int) -> None:
        """Index `completed_txn` if it was aborted. Called under the log's lock."""
        if completed_txn.is_aborted:
            self.trace(
                f"Writing aborted transaction {completed_txn} to transaction index, last stable offset is "
                f"{last_stable_offset}"
            )
            self.txn_index.append(AbortedTxn.from_completed_txn(completed_txn, last_stable_offset))

    def _update_producer_state(self, producer_state_manager: ProducerStateManagerLike, batch: RecordBatch) -> None:
        if batch.has_producer_id():
            producer_id = batch.producer_id()
            append_info = producer_state_manager.prepare_update(producer_id, origin=_REPLICATION)
            maybe_completed_txn = append_info.append(batch, None)
            producer_state_manager.update(append_info)
            if maybe_completed_txn is not None:
                last_stable_offset = producer_state_manager.last_stable_offset(maybe_completed_txn)
                self.update_txn_index(maybe_completed_txn, last_stable_offset)
                producer_state_manager.complete_txn(maybe_completed_txn)
        producer_state_manager.update_map_end_offset(batch.last_offset() + 1)

    def translate_offset(self, offset: int, starting_file_position: int = 0) -> LogOffsetPosition | None:
        """The position and size of the first batch whose last offset is >= `offset`, or None.

        The scan starts at the index entry for `offset`, or at `starting_file_position` when that is
        further on.
        """
        mapping, next_position = self.offset_index.lookup_with_next_position(offset)
        # PORT: when the entry found is below the offset (its batches end at its offset), the batch sought is
        # after it, and the search is given the next entry's position to spare reading the entry's batch header
        # first (see FileRecords.search_for_offset_with_size): a consumer fetching on from its last batch.
        return self.log.search_for_offset_with_size(
            offset, max(mapping.position, starting_file_position), next_position
        )

    def read(
        self, start_offset: int, max_size: int, max_position: int | None = None, min_one_message: bool = False
    ) -> FetchDataInfo | None:
        """Records from the first batch holding an offset >= `start_offset`, at most `max_size` bytes and
        not past byte `max_position` (default: the segment size).

        With `min_one_message` the first batch is returned whole even when larger than `max_size`.
        Returns None when `start_offset` is beyond the last offset of this segment. The records are a
        FileRecords slice (no bytes are read).
        """
        if max_size < 0:
            raise ValueError(f"Invalid max size {max_size} for log read from segment {self.log}")
        if max_position is None:
            max_position = self.size
        start_offset_and_size = self.translate_offset(start_offset)
        if start_offset_and_size is None:
            return None
        start_position = start_offset_and_size.position
        offset_metadata = LogOffsetMetadata(start_offset, self.base_offset, start_position)
        adjusted_max_size = max(max_size, start_offset_and_size.size) if min_one_message else max_size
        if adjusted_max_size == 0:
            return FetchDataInfo(offset_metadata, MemoryRecords.EMPTY)
        fetch_size = min(max_position - start_position, adjusted_max_size)
        return FetchDataInfo(
            offset_metadata,
            self.log.slice(start_position, fetch_size),
            first_entry_incomplete=adjusted_max_size < start_offset_and_size.size,
        )

    def fetch_upper_bound_offset(self, start_offset_position: OffsetPosition, fetch_size: int) -> int | None:
        """An offset certainly beyond a fetch of `fetch_size` bytes from `start_offset_position`, if indexed."""
        entry = self.offset_index.fetch_upper_bound_offset(start_offset_position, fetch_size)
        return None if entry is None else entry.offset

    def recover(
        self, producer_state_manager: ProducerStateManagerLike, leader_epoch_cache: LeaderEpochFileCache | None = None
    ) -> int:
        """Rebuild the indexes from the log file and cut off everything from the first invalid batch.

        Every batch is checked (CRC and structure); producer state, the transaction index and the
        leader epoch cache are rebuilt from the batches on the way. Returns the number of bytes
        truncated. Raises LogSegmentOffsetOverflowException when a batch's offset does not fit the
        indexes (the log then splits the segment).
        """
        self.offset_index.reset()
        self.time_index.reset()
        self.txn_index.reset()
        valid_bytes = 0
        last_index_entry = 0
        self._max_timestamp_so_far = NO_TIMESTAMP
        try:
            for batch in self.log.batches():
                batch.ensure_valid()
                self._ensure_offset_in_range(batch.last_offset())
                # Batches carry their max timestamp, so records need not be read for it.
                batch_max_timestamp = batch.max_timestamp()
                if batch_max_timestamp > self.max_timestamp_so_far:
                    self._max_timestamp_so_far = batch_max_timestamp
                    self._offset_of_max_timestamp_so_far = batch.last_offset()
                if valid_bytes - last_index_entry > self.index_interval_bytes:
                    self.offset_index.append(batch.last_offset(), valid_bytes)
                    self.time_index.maybe_append(self.max_timestamp_so_far, self.offset_of_max_timestamp_so_far)
                    last_index_entry = valid_bytes
                valid_bytes += batch.size_in_bytes()
                if batch.magic() >= MAGIC_VALUE_V2:
                    if leader_epoch_cache is not None:
                        epoch = batch.partition_leader_epoch()
                        latest_epoch = leader_epoch_cache.latest_epoch()
                        if epoch >= 0 and (latest_epoch is None or epoch > latest_epoch):
                            leader_epoch_cache.assign(epoch, batch.base_offset())
                    self._update_producer_state(producer_state_manager, batch)
        except (CorruptRecordException, InvalidRecordException) as e:
            self.warn(
                f"Found invalid messages in log segment {self.log.file().absolute()} at byte offset {valid_bytes}: "
                f"{e}. {e.__cause__}"
            )
        truncated = self.log.size_in_bytes() - valid_bytes
        if truncated > 0:
            self.debug(
                f"Truncated {truncated} invalid bytes at the end of segment {self.log.file().absolute()} "
                f"during recovery"
            )
        self.log.truncate_to(valid_bytes)
        self.offset_index.trim_to_valid_size()
        # As a normally closed segment does, end the time index with the largest timestamp seen.
        self.time_index.maybe_append(
            self.max_timestamp_so_far, self.offset_of_max_timestamp_so_far, skip_full_check=True
        )
        self.time_index.trim_to_valid_size()
        return truncated

    def _load_largest_timestamp(self) -> None:
        """Set the max timestamp so far from the time index and the batches after its last entry."""
        last_time_index_entry = self.time_index.last_entry
        self._max_timestamp_so_far = last_time_index_entry.timestamp
        self._offset_of_max_timestamp_so_far = last_time_index_entry.offset
        offset_position = self.offset_index.lookup(last_time_index_entry.offset)
        after = self.log.largest_timestamp_after(offset_position.position)
        if after.timestamp > last_time_index_entry.timestamp:
            self._max_timestamp_so_far = after.timestamp
            self._offset_of_max_timestamp_so_far = after.offset

    def has_overflow(self) -> bool:
        """Whether the last batch's last offset does not fit this segment's indexes."""
        next_offset = self.read_next_offset()
        return next_offset > self.base_offset and not self.can_convert_to_relative_offset(next_offset - 1)

    def collect_aborted_txns(self, fetch_offset: int, upper_bound_offset: int) -> TxnIndexSearchResult:
        """The aborted transactions of this segment overlapping [fetch_offset, upper_bound_offset)."""
        return self.txn_index.collect_aborted_txns(fetch_offset, upper_bound_offset)

    def __str__(self) -> str:
        return (
            f"LogSegment(baseOffset={self.base_offset}, size={self.size}, lastModifiedTime={self.last_modified}, "
            f"largestRecordTimestamp={scala_option(self.largest_record_timestamp)})"
        )

    __repr__ = __str__

    def truncate_to(self, offset: int) -> int:
        """Remove the records and index entries with offsets >= `offset`; returns the log bytes removed.

        Nothing changes when `offset` is beyond the segment. The indexes get their full preallocated
        size back, since a truncated segment becomes the active one.
        """
        # Translate first, while the index still has its entries to shorten the scan.
        mapping = self.translate_offset(offset)
        self.offset_index.truncate_to(offset)
        self.time_index.truncate_to(offset)
        self.txn_index.truncate_to(offset)
        self.offset_index.resize(self.offset_index.max_index_size)
        self.time_index.resize(self.time_index.max_index_size)
        bytes_truncated = 0 if mapping is None else self.log.truncate_to(mapping.position)
        if self.log.size_in_bytes() == 0:
            self._created = self.time.milliseconds()
            self._rolling_based_timestamp = None
        self._bytes_since_last_index_entry = 0
        if self.max_timestamp_so_far >= 0:
            self._load_largest_timestamp()
        return bytes_truncated

    def read_next_offset(self) -> int:
        """The offset the next appended record would get: one past the last batch (reads the log's tail).

        # PORT: a method rather than Scala's parameterless `readNextOffset`, since it reads the file.
        """
        fetch_data = self.read(self.offset_index.last_offset, self.log.size_in_bytes())
        if fetch_data is None:
            return self.base_offset
        next_offset = self.base_offset
        found = False
        for batch in fetch_data.records.batches():
            next_offset = batch.next_offset()
            found = True
        return next_offset if found else self.base_offset

    def flush(self) -> None:
        """Force the log and the indexes to disk, timed by LogFlushStats' LogFlushRateAndTimeMs."""
        start_ns = self.time.nanoseconds()
        try:
            self.log.flush()
            self.offset_index.flush()
            self.time_index.flush()
            self.txn_index.flush()
        finally:
            LogFlushStats.log_flush_timer().update(self.time.nanoseconds() - start_ns, TimeUnit.NANOSECONDS)

    def update_parent_dir(self, dir: str | os.PathLike[str]) -> None:
        """Point every file at `dir` (after the partition directory was renamed)."""
        self.log.update_parent_dir(dir)
        self.lazy_offset_index.update_parent_dir(dir)
        self.lazy_time_index.update_parent_dir(dir)
        self.txn_index.update_parent_dir(dir)

    def change_file_suffixes(self, old_suffix: str, new_suffix: str) -> None:
        """Rename all four files from `old_suffix` to `new_suffix` (e.g. "" to ".deleted"); OSError to the caller."""
        self.log.rename_to(replace_suffix(str(self.log.file()), old_suffix, new_suffix))
        self.lazy_offset_index.rename_to(replace_suffix(str(self.lazy_offset_index.file), old_suffix, new_suffix))
        self.lazy_time_index.rename_to(replace_suffix(str(self.lazy_time_index.file), old_suffix, new_suffix))
        self.txn_index.rename_to(replace_suffix(str(self.txn_index.file), old_suffix, new_suffix))

    def has_suffix(self, suffix: str) -> bool:
        """Whether all four file names end with `suffix`.

        # PORT: from Kafka 3.x's LogSegment (2.8's Log checks the names itself).
        """
        return (
            self.log.file().name.endswith(suffix)
            and self.lazy_offset_index.file.name.endswith(suffix)
            and self.lazy_time_index.file.name.endswith(suffix)
            and self.txn_index.file.name.endswith(suffix)
        )

    def on_become_inactive_segment(self) -> None:
        """When a new segment is rolled: record the final largest timestamp and trim the files."""
        self.time_index.maybe_append(
            self.max_timestamp_so_far, self.offset_of_max_timestamp_so_far, skip_full_check=True
        )
        self.offset_index.trim_to_valid_size()
        self.time_index.trim_to_valid_size()
        self.log.trim()

    def _load_first_batch_timestamp(self) -> None:
        if self._rolling_based_timestamp is None:
            for batch in self.log.batches():
                self._rolling_based_timestamp = batch.max_timestamp()
                break

    def time_waited_for_roll(self, now: int, message_timestamp: int) -> int:
        """How long this segment has been waiting to roll.

        Measured from the first batch's timestamp to `message_timestamp` when the first batch has a
        timestamp, else from the segment's creation to `now` (wall clock).
        """
        self._load_first_batch_timestamp()
        t = self._rolling_based_timestamp
        if t is not None and t >= 0:
            return message_timestamp - t
        return now - self._created

    def get_first_batch_timestamp(self) -> int:
        """The first batch's timestamp, or Long.MaxValue when it has none."""
        self._load_first_batch_timestamp()
        t = self._rolling_based_timestamp
        if t is not None and t >= 0:
            return t
        return INT64_MAX

    def find_offset_by_timestamp(self, timestamp: int, starting_offset: int | None = None) -> TimestampAndOffset | None:
        """The first record at or after `starting_offset` (default: the base offset) whose timestamp is
        >= `timestamp`.

        None when every record is before `starting_offset` or older than `timestamp`.
        """
        if starting_offset is None:
            starting_offset = self.base_offset
        timestamp_offset = self.time_index.lookup(timestamp)
        position = self.offset_index.lookup(max(timestamp_offset.offset, starting_offset)).position
        return self.log.search_for_timestamp(timestamp, position, starting_offset)

    def close(self) -> None:
        """Write the final time index entry, then close the indexes and files; errors are logged, not raised."""
        if self._max_timestamp_so_far is not None or self._offset_of_max_timestamp_so_far is not None:
            swallow(
                lambda: self.time_index.maybe_append(
                    self.max_timestamp_so_far, self.offset_of_max_timestamp_so_far, skip_full_check=True
                ),
                self,
            )
        swallow(self.lazy_offset_index.close, self)
        swallow(self.lazy_time_index.close, self)
        swallow(self.log.close, self)
        swallow(self.txn_index.close, self)

    def close_handlers(self) -> None:
        """Close the files without writing anything (the disk may have failed)."""
        swallow(self.lazy_offset_index.close_handler, self)
        swallow(self.lazy_time_index.close_handler, self)
        swallow(self.log.close_handlers, self)
        swallow(self.txn_index.close, self)

    def delete_if_exists(self) -> None:
        """Delete the segment's four files; every deletion is tried, the first error is raised."""

        def delete(do_delete: Callable[[], bool], file_type: str, file: Path, log_if_missing: bool) -> None:
            try:
                if do_delete():
                    self.info(f"Deleted {file_type} {file.absolute()}.")
                elif log_if_missing:
                    self.info(f"Failed to delete {file_type} {file.absolute()} because it does not exist.")
            except OSError as e:
                raise OSError(f"Delete of {file_type} {file.absolute()} failed.") from e

        try_all(
            [
                lambda: delete(self.log.delete_if_exists, "log", self.log.file(), True),
                lambda: delete(
                    self.lazy_offset_index.delete_if_exists, "offset index", self.lazy_offset_index.file, True
                ),
                lambda: delete(self.lazy_time_index.delete_if_exists, "time index", self.lazy_time_index.file, True),
                lambda: delete(self.txn_index.delete_if_exists, "transaction index", self.txn_index.file, False),
            ]
        )

    @property
    def last_modified(self) -> int:
        """The log file's modification time in milliseconds (0 if the file is gone, as Java's File.lastModified)."""
        try:
            return os.stat(self.log.file()).st_mtime_ns // 1_000_000
        except OSError:
            return 0

    @property
    def largest_record_timestamp(self) -> int | None:
        """The largest record timestamp, or None when no record has one."""
        t = self.max_timestamp_so_far
        return t if t >= 0 else None

    @property
    def largest_timestamp(self) -> int:
        """The largest record timestamp, or the file's modification time when no record has one."""
        t = self.max_timestamp_so_far
        return t if t >= 0 else self.last_modified

    def set_last_modified(self, ms: int) -> None:
        """Set the modification time of the log, offset index and time index files (Scala's `lastModified_=`)."""
        ns = ms * 1_000_000
        for f in (self.log.file(), self.lazy_offset_index.file, self.lazy_time_index.file):
            os.utime(f, ns=(ns, ns))


def delete_if_exists(dir: str | os.PathLike[str], base_offset: int, file_suffix: str = "") -> None:
    """Delete the four files of the segment at `base_offset` in `dir`, if present.

    # PORT: Kafka's `LogSegment.deleteIfExists(dir, baseOffset, fileSuffix)` on the companion object;
    a module function here, since the class already has the instance method of that name.
    """
    delete_file_if_exists(offset_index_file(dir, base_offset, file_suffix))
    delete_file_if_exists(time_index_file(dir, base_offset, file_suffix))
    delete_file_if_exists(transaction_index_file(dir, base_offset, file_suffix))
    delete_file_if_exists(log_file(dir, base_offset, file_suffix))


class LogFlushStats(KafkaMetricsGroup):
    """Kafka's `object LogFlushStats` (kafka.log:type=LogFlushStats): the timer of segment flushes."""

    _timer: Timer | None = None

    @classmethod
    def log_flush_timer(cls) -> Timer:
        timer = cls._timer
        if timer is None:
            timer = cls._timer = cls().new_timer("LogFlushRateAndTimeMs", TimeUnit.MILLISECONDS, TimeUnit.SECONDS)
        return timer
