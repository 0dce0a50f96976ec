"""Port of clients/src/main/java/org/apache/kafka/common/record/MemoryRecords.java (Kafka 3.7).

Record batches in memory: the records field of a Produce request or Fetch response, or batches
being built. MemoryRecords wraps a memoryview of the bytes without copying them; iterating batches
reads only their prefixes, and a batch's header fields are read in place.

# PORT: Java wraps a ByteBuffer; here a memoryview over bytes, bytearray or a slice of a larger
buffer (e.g. a request frame received with recv_into). The broker patches batches in place
(offsets, leader epoch, LogAppendTime), which needs a writable view, such as one over a bytearray.
"""

from __future__ import annotations

import logging
import time as _time
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator
from enum import Enum
from typing import TYPE_CHECKING, ClassVar

from kafka.common.record.abstract_records import AbstractRecords, IterableView
from kafka.common.record.byte_buffer_log_input_stream import INT32_MAX, ByteBufferLogInputStream
from kafka.common.record.compression_type import CompressionType
from kafka.common.record.converted_records import ConvertedRecords
from kafka.common.record.default_record_batch import RECORD_BATCH_OVERHEAD, DefaultRecordBatch
from kafka.common.record.end_transaction_marker import EndTransactionMarker
from kafka.common.record.memory_records_builder import MemoryRecordsBuilder
from kafka.common.record.mutable_record_batch import MutableRecordBatch
from kafka.common.record.record_batch import (
    CURRENT_MAGIC_VALUE,
    MAGIC_VALUE_V2,
    NO_PARTITION_LEADER_EPOCH,
    NO_PRODUCER_EPOCH,
    NO_PRODUCER_ID,
    NO_SEQUENCE,
    NO_TIMESTAMP,
    RecordBatch,
)
from kafka.common.record.record_batch_iterator import RecordBatchIterator
from kafka.common.record.records import HEADER_SIZE_UP_TO_MAGIC
from kafka.common.record.records_util import Time, down_convert
from kafka.common.record.timestamp_type import TimestampType

if TYPE_CHECKING:
    from kafka.common.record.record import Record
    from kafka.common.record.simple_record import SimpleRecord

Buffer = bytes | bytearray | memoryview

_log = logging.getLogger("org.apache.kafka.common.record.MemoryRecords")


def _now_ms() -> int:
    return _time.time_ns() // 1_000_000


def _as_byte_view(buffer: Buffer) -> memoryview:
    view = buffer if isinstance(buffer, memoryview) else memoryview(buffer)
    if view.format != "B" or view.ndim != 1:
        view = view.cast("B")
    return view


class MemoryRecords(AbstractRecords):
    """Batches over an in-memory buffer (no copy is made)."""

    __slots__ = ("_batch_list", "_buffer", "_valid_bytes")

    EMPTY: ClassVar[MemoryRecords]

    def __init__(self, buffer: memoryview) -> None:
        if buffer is None:
            raise ValueError("buffer should not be null")
        self._buffer = buffer
        self._valid_bytes = -1
        self._batch_list: tuple[MutableRecordBatch, ...] | None = None

    @classmethod
    def readable_records(cls, buffer: Buffer) -> MemoryRecords:
        """Wrap `buffer` (bytes, bytearray or memoryview) without copying it."""
        return cls(_as_byte_view(buffer))

    def size_in_bytes(self) -> int:
        """The number of bytes wrapped."""
        return len(self._buffer)

    def buffer(self) -> memoryview:
        """The wrapped bytes (no copy)."""
        return self._buffer

    def valid_bytes(self) -> int:
        """Bytes covered by complete batches (a partial batch at the end is excluded)."""
        if self._valid_bytes >= 0:
            return self._valid_bytes
        total = 0
        for batch in self.batches():
            total += batch.size_in_bytes()
        self._valid_bytes = total
        return total

    def down_convert(self, to_magic: int, first_offset: int, time: Time | None = None) -> ConvertedRecords:
        """Convert to `to_magic` for an old consumer."""
        return down_convert(self.batches(), to_magic, first_offset, time)

    def batch_iterator(self) -> Iterator[MutableRecordBatch]:
        """A fresh iterator over the batches; a partial trailing batch is skipped."""
        batch_list = self._batch_list
        if batch_list is not None:
            return iter(batch_list)
        return RecordBatchIterator(ByteBufferLogInputStream(self._buffer, INT32_MAX))

    def batches(self) -> Iterable[MutableRecordBatch]:
        """The batches (re-iterable)."""
        batch_list = self._batch_list
        if batch_list is not None:
            return batch_list
        return IterableView(self.batch_iterator)

    def remember_batches(self, batches: Iterable[MutableRecordBatch]) -> None:
        """Keep `batches`, every batch of a complete walk of these records (one that ended without an error), as
        what later walks return.

        # PORT: Java reads the batch prefixes again on every walk. The broker walks a Produce request's batches
        several times (its size and CRC checks, validation, the epoch cache, producer state); a walk that ended
        without an error would find the same batches again (in-place patches change offsets, epochs and timestamps,
        never a prefix's size or magic), and a batch object keeps nothing but its view of the bytes.
        """
        self._batch_list = tuple(batches)

    def first_batch_size(self) -> int | None:
        """Size of the first batch from its prefix, or None when fewer than 17 bytes are present."""
        if len(self._buffer) < HEADER_SIZE_UP_TO_MAGIC:
            return None
        return ByteBufferLogInputStream(self._buffer, INT32_MAX).next_batch_size()

    def filter_to(
        self,
        partition: object,
        record_filter: RecordFilter,
        destination_buffer: bytearray,
        max_record_batch_size: int,
    ) -> FilterResult:
        """Append the batches and records `record_filter` retains to `destination_buffer` (log cleaner)."""
        return _filter_to(partition, self.batches(), record_filter, destination_buffer, max_record_batch_size)

    def __repr__(self) -> str:
        return f"MemoryRecords(size={self.size_in_bytes()}, buffer={self._buffer!r})"

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, MemoryRecords):
            return NotImplemented
        return self._buffer == other._buffer

    def __hash__(self) -> int:
        return hash(bytes(self._buffer))

    # ---- builders --------------------------------------------------------------------------------

    @staticmethod
    def builder(
        compression_type: CompressionType = CompressionType.NONE,
        timestamp_type: TimestampType = TimestampType.CREATE_TIME,
        base_offset: int = 0,
        magic: int = CURRENT_MAGIC_VALUE,
        log_append_time: int | None = None,
        producer_id: int = NO_PRODUCER_ID,
        producer_epoch: int = NO_PRODUCER_EPOCH,
        base_sequence: int = NO_SEQUENCE,
        is_transactional: bool = False,
        is_control_batch: bool = False,
        partition_leader_epoch: int = NO_PARTITION_LEADER_EPOCH,
        write_limit: int = INT32_MAX,
    ) -> MemoryRecordsBuilder:
        """A builder with Java's defaults; LogAppendTime batches default to the current time.

        # PORT: Java's many builder(ByteBuffer, ...) overloads become one function with keywords.
        """
        if log_append_time is None:
            log_append_time = _now_ms() if timestamp_type is TimestampType.LOG_APPEND_TIME else NO_TIMESTAMP
        return MemoryRecordsBuilder(
            magic=magic,
            compression_type=compression_type,
            timestamp_type=timestamp_type,
            base_offset=base_offset,
            log_append_time=log_append_time,
            producer_id=producer_id,
            producer_epoch=producer_epoch,
            base_sequence=base_sequence,
            is_transactional=is_transactional,
            is_control_batch=is_control_batch,
            partition_leader_epoch=partition_leader_epoch,
            write_limit=write_limit,
        )

    @staticmethod
    def idempotent_builder(
        compression_type: CompressionType, base_offset: int, producer_id: int, producer_epoch: int, base_sequence: int
    ) -> MemoryRecordsBuilder:
        """A builder for an idempotent (non-transactional) producer batch."""
        return MemoryRecords.builder(
            compression_type,
            TimestampType.CREATE_TIME,
            base_offset,
            log_append_time=_now_ms(),
            producer_id=producer_id,
            producer_epoch=producer_epoch,
            base_sequence=base_sequence,
        )

    @staticmethod
    def with_records(
        compression_type: CompressionType,
        *records: SimpleRecord,
        magic: int = CURRENT_MAGIC_VALUE,
        initial_offset: int = 0,
        timestamp_type: TimestampType = TimestampType.CREATE_TIME,
        producer_id: int = NO_PRODUCER_ID,
        producer_epoch: int = NO_PRODUCER_EPOCH,
        base_sequence: int = NO_SEQUENCE,
        partition_leader_epoch: int = NO_PARTITION_LEADER_EPOCH,
        is_transactional: bool = False,
        log_append_time: int | None = None,
    ) -> MemoryRecords:
        """One batch holding `records` at consecutive offsets from `initial_offset` (EMPTY if none).

        # PORT: Java's withRecords overloads become keywords after the records.
        """
        if not records:
            return MemoryRecords.EMPTY
        if log_append_time is None:
            log_append_time = _now_ms() if timestamp_type is TimestampType.LOG_APPEND_TIME else NO_TIMESTAMP
        builder = MemoryRecordsBuilder(
            magic=magic,
            compression_type=compression_type,
            timestamp_type=timestamp_type,
            base_offset=initial_offset,
            log_append_time=log_append_time,
            producer_id=producer_id,
            producer_epoch=producer_epoch,
            base_sequence=base_sequence,
            is_transactional=is_transactional,
            partition_leader_epoch=partition_leader_epoch,
        )
        for record in records:
            builder.append_simple(record)
        return builder.build()

    @staticmethod
    def with_idempotent_records(
        compression_type: CompressionType,
        producer_id: int,
        producer_epoch: int,
        base_sequence: int,
        *records: SimpleRecord,
        magic: int = CURRENT_MAGIC_VALUE,
        initial_offset: int = 0,
        partition_leader_epoch: int = NO_PARTITION_LEADER_EPOCH,
    ) -> MemoryRecords:
        """An idempotent producer batch."""
        return MemoryRecords.with_records(
            compression_type,
            *records,
            magic=magic,
            initial_offset=initial_offset,
            producer_id=producer_id,
            producer_epoch=producer_epoch,
            base_sequence=base_sequence,
            partition_leader_epoch=partition_leader_epoch,
        )

    @staticmethod
    def with_transactional_records(
        compression_type: CompressionType,
        producer_id: int,
        producer_epoch: int,
        base_sequence: int,
        *records: SimpleRecord,
        magic: int = CURRENT_MAGIC_VALUE,
        initial_offset: int = 0,
        partition_leader_epoch: int = NO_PARTITION_LEADER_EPOCH,
    ) -> MemoryRecords:
        """A transactional producer batch."""
        return MemoryRecords.with_records(
            compression_type,
            *records,
            magic=magic,
            initial_offset=initial_offset,
            producer_id=producer_id,
            producer_epoch=producer_epoch,
            base_sequence=base_sequence,
            partition_leader_epoch=partition_leader_epoch,
            is_transactional=True,
        )

    @staticmethod
    def with_end_transaction_marker(
        producer_id: int,
        producer_epoch: int,
        marker: EndTransactionMarker,
        initial_offset: int = 0,
        timestamp: int | None = None,
        partition_leader_epoch: int = NO_PARTITION_LEADER_EPOCH,
    ) -> MemoryRecords:
        """A transactional control batch holding one COMMIT or ABORT marker."""
        buffer = bytearray(RECORD_BATCH_OVERHEAD + EndTransactionMarker.CURRENT_END_TXN_SCHEMA_RECORD_SIZE)
        MemoryRecords.write_end_transactional_marker(
            buffer,
            initial_offset,
            _now_ms() if timestamp is None else timestamp,
            partition_leader_epoch,
            producer_id,
            producer_epoch,
            marker,
        )
        return MemoryRecords.readable_records(buffer)

    @staticmethod
    def write_end_transactional_marker(
        buffer: bytearray,
        initial_offset: int,
        timestamp: int,
        partition_leader_epoch: int,
        producer_id: int,
        producer_epoch: int,
        marker: EndTransactionMarker,
    ) -> None:
        """Write a marker batch over the start of `buffer` (which must be large enough)."""
        builder = MemoryRecordsBuilder(
            magic=CURRENT_MAGIC_VALUE,
            compression_type=CompressionType.NONE,
            timestamp_type=TimestampType.CREATE_TIME,
            base_offset=initial_offset,
            log_append_time=timestamp,
            producer_id=producer_id,
            producer_epoch=producer_epoch,
            base_sequence=NO_SEQUENCE,
            is_transactional=True,
            is_control_batch=True,
            partition_leader_epoch=partition_leader_epoch,
            write_limit=len(buffer),
        )
        builder.append_end_txn_marker(timestamp, marker)
        built = builder.build().buffer()
        buffer[: len(built)] = built


MemoryRecords.EMPTY = MemoryRecords.readable_records(b"")


# ---- log cleaner filtering -----------------------------------------------------------------------


class BatchRetention(Enum):
    """What to do with a batch before looking at its records."""

    DELETE = "DELETE"  # drop the batch without reading its records
    RETAIN_EMPTY = "RETAIN_EMPTY"  # keep the batch even if no record survives
    DELETE_EMPTY = "DELETE_EMPTY"  # drop the batch if no record survives


class BatchRetentionResult:
    """A batch retention decision and whether the batch is a marker for an empty transaction."""

    __slots__ = ("batch_retention", "contains_marker_for_empty_txn")

    def __init__(self, batch_retention: BatchRetention, contains_marker_for_empty_txn: bool) -> None:
        self.batch_retention = batch_retention
        self.contains_marker_for_empty_txn = contains_marker_for_empty_txn


class RecordFilter(ABC):
    """Decides which batches and records the log cleaner keeps.

    # PORT: Java nests RecordFilter, BatchRetention, BatchRetentionResult and FilterResult in
    MemoryRecords; they are module-level classes of memory_records here.
    """

    def __init__(self, current_time: int, delete_retention_ms: int) -> None:
        self.current_time = current_time
        self.delete_retention_ms = delete_retention_ms

    @abstractmethod
    def check_batch_retention(self, batch: RecordBatch) -> BatchRetentionResult:
        """Decide the fate of `batch` before its records are read."""

    @abstractmethod
    def should_retain_record(self, record_batch: RecordBatch, record: Record) -> bool:
        """Whether `record` survives."""


class FilterResult:
    """What filter_to read, kept and wrote."""

    __slots__ = (
        "bytes_read",
        "bytes_retained",
        "max_offset",
        "max_timestamp",
        "messages_read",
        "messages_retained",
        "output_buffer",
        "shallow_offset_of_max_timestamp",
    )

    def __init__(self, output_buffer: bytearray) -> None:
        self.output_buffer = output_buffer
        self.messages_read = 0
        self.bytes_read = 0
        self.messages_retained = 0
        self.bytes_retained = 0
        self.max_offset = -1
        self.max_timestamp = NO_TIMESTAMP
        self.shallow_offset_of_max_timestamp = -1

    def _update_retained_batch_metadata_for_batch(
        self, retained_batch: RecordBatch, num_messages_in_batch: int, header_only: bool
    ) -> None:
        bytes_retained = RECORD_BATCH_OVERHEAD if header_only else retained_batch.size_in_bytes()
        self._update_retained_batch_metadata(
            retained_batch.max_timestamp(),
            retained_batch.last_offset(),
            retained_batch.last_offset(),
            num_messages_in_batch,
            bytes_retained,
        )

    def _update_retained_batch_metadata(
        self,
        max_timestamp: int,
        shallow_offset_of_max_timestamp: int,
        max_offset: int,
        messages_retained: int,
        bytes_retained: int,
    ) -> None:
        if max_timestamp != NO_TIMESTAMP and shallow_offset_of_max_timestamp < 0:
            raise ValueError(f"shallowOffset undefined for maximum timestamp {max_timestamp}")
        if max_offset < 0:
            raise ValueError("maxOffset undefined")
        if max_timestamp > self.max_timestamp:
            self.max_timestamp = max_timestamp
            self.shallow_offset_of_max_timestamp = shallow_offset_of_max_timestamp
        self.max_offset = max(max_offset, self.max_offset)
        self.messages_retained += messages_retained
        self.bytes_retained += bytes_retained


def _filter_to(
    partition: object,
    batches: Iterable[MutableRecordBatch],
    record_filter: RecordFilter,
    destination: bytearray,
    max_record_batch_size: int,
) -> FilterResult:
    result = FilterResult(destination)
    for batch in batches:
        retention_result = record_filter.check_batch_retention(batch)
        contains_marker_for_empty_txn = retention_result.contains_marker_for_empty_txn
        batch_retention = retention_result.batch_retention
        result.bytes_read += batch.size_in_bytes()
        if batch_retention is BatchRetention.DELETE:
            continue
        batch_magic = batch.magic()
        retained: list[Record] = []
        write_original_batch = True
        contains_tombstones = False
        max_offset = -1
        for record in batch.streaming_iterator():
            result.messages_read += 1
            if record_filter.should_retain_record(batch, record):
                if not record.has_magic(batch_magic):
                    write_original_batch = False
                max_offset = max(max_offset, record.offset())
                retained.append(record)
                if not record.has_value():
                    contains_tombstones = True
            else:
                write_original_batch = False
        if retained:
            need_to_set_delete_horizon = (
                batch_magic >= MAGIC_VALUE_V2
                and (contains_tombstones or contains_marker_for_empty_txn)
                and batch.delete_horizon_ms() is None
            )
            if write_original_batch and not need_to_set_delete_horizon:
                batch.write_to(destination)
                result._update_retained_batch_metadata_for_batch(batch, len(retained), False)
            else:
                if need_to_set_delete_horizon:
                    delete_horizon_ms = record_filter.current_time + record_filter.delete_retention_ms
                else:
                    existing = batch.delete_horizon_ms()
                    delete_horizon_ms = NO_TIMESTAMP if existing is None else existing
                builder = _build_retained_records(batch, retained, delete_horizon_ms)
                records = builder.build()
                filtered_batch_size = records.size_in_bytes()
                destination += records.buffer()
                if filtered_batch_size > batch.size_in_bytes() and filtered_batch_size > max_record_batch_size:
                    _log.warning(
                        "Record batch from %s with last offset %s exceeded max record batch size %s after cleaning "
                        "(new size is %s). Consumers with version earlier than 0.10.1.0 may need to increase their "
                        "fetch sizes.",
                        partition,
                        batch.last_offset(),
                        max_record_batch_size,
                        filtered_batch_size,
                    )
                info = builder.info()
                result._update_retained_batch_metadata(
                    info.max_timestamp,
                    info.shallow_offset_of_max_timestamp,
                    max_offset,
                    len(retained),
                    filtered_batch_size,
                )
        elif batch_retention is BatchRetention.RETAIN_EMPTY:
            if batch_magic < MAGIC_VALUE_V2:
                raise RuntimeError("Empty batches are only supported for magic v2 and above")
            position = len(destination)
            destination += bytes(RECORD_BATCH_OVERHEAD)
            DefaultRecordBatch.write_empty_header(
                destination,
                position,
                batch_magic,
                batch.producer_id(),
                batch.producer_epoch(),
                batch.base_sequence(),
                batch.base_offset(),
                batch.last_offset(),
                batch.partition_leader_epoch(),
                batch.timestamp_type(),
                batch.max_timestamp(),
                batch.is_transactional(),
                batch.is_control_batch(),
            )
            result._update_retained_batch_metadata_for_batch(batch, 0, True)
    return result


def _build_retained_records(
    original_batch: RecordBatch, retained: list[Record], delete_horizon_ms: int
) -> MemoryRecordsBuilder:
    magic = original_batch.magic()
    timestamp_type = original_batch.timestamp_type()
    log_append_time = (
        original_batch.max_timestamp() if timestamp_type is TimestampType.LOG_APPEND_TIME else NO_TIMESTAMP
    )
    base_offset = original_batch.base_offset() if magic >= MAGIC_VALUE_V2 else retained[0].offset()
    builder = MemoryRecordsBuilder(
        magic=magic,
        compression_type=original_batch.compression_type(),
        timestamp_type=timestamp_type,
        base_offset=base_offset,
        log_append_time=log_append_time,
        producer_id=original_batch.producer_id(),
        producer_epoch=original_batch.producer_epoch(),
        base_sequence=original_batch.base_sequence(),
        is_transactional=original_batch.is_transactional(),
        is_control_batch=original_batch.is_control_batch(),
        partition_leader_epoch=original_batch.partition_leader_epoch(),
        delete_horizon_ms=delete_horizon_ms,
    )
    for record in retained:
        builder.append_record(record)
    if magic >= MAGIC_VALUE_V2:
        builder.override_last_offset(original_batch.last_offset())
    return builder
