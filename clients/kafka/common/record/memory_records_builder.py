"""Port of clients/src/main/java/org/apache/kafka/common/record/MemoryRecordsBuilder.java (Kafka 3.7).

Builds one record batch: a v2 DefaultRecordBatch, or for magic 0/1 either a plain message set or a
single compressed wrapper message. Records are appended with increasing offsets; `build()` writes
the batch header (offsets, timestamps, producer state, CRC) and returns MemoryRecords.

# PORT: Java writes into a caller's ByteBuffer through a (compressing) output stream. Here the
builder owns a bytearray: uncompressed records go straight into it after a header placeholder;
records of a compressed batch are gathered uncompressed and compressed in one call when appends
close. `build()` returns MemoryRecords over a memoryview of that bytearray (no copy).
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from kafka.common.record import default_record as _default_record
from kafka.common.record.abstract_legacy_record_batch import write_header as write_legacy_header
from kafka.common.record.abstract_records import AbstractRecords
from kafka.common.record.compression_type import CompressionType
from kafka.common.record.control_record_type import ControlRecordType
from kafka.common.record.default_record import DefaultRecord, _headers_bytes
from kafka.common.record.default_record_batch import RECORD_BATCH_OVERHEAD, DefaultRecordBatch
from kafka.common.record.legacy_record import LegacyRecord
from kafka.common.record.record import EMPTY_HEADERS
from kafka.common.record.record_batch import (
    MAGIC_VALUE_V0,
    MAGIC_VALUE_V1,
    MAGIC_VALUE_V2,
    NO_PARTITION_LEADER_EPOCH,
    NO_PRODUCER_EPOCH,
    NO_PRODUCER_ID,
    NO_SEQUENCE,
    NO_TIMESTAMP,
)
from kafka.common.record.records import LOG_OVERHEAD
from kafka.common.record.timestamp_type import TimestampType

if TYPE_CHECKING:
    from kafka.common.record.end_transaction_marker import EndTransactionMarker
    from kafka.common.record.memory_records import MemoryRecords
    from kafka.common.record.record import Record
    from kafka.common.record.record_header import Header
    from kafka.common.record.simple_record import SimpleRecord

Buffer = bytes | bytearray | memoryview

COMPRESSION_RATE_ESTIMATION_FACTOR: Final = 1.05
INT32_MAX: Final = 2**31 - 1
_OFFSET_SIZE: Final = struct.Struct(">qi")


@dataclass(frozen=True, slots=True)
class RecordsInfo:
    """The max timestamp of a built batch and the shallow offset the log indexes it under."""

    max_timestamp: int
    shallow_offset_of_max_timestamp: int


class MemoryRecordsBuilder:
    """Appends records into one batch. Not thread-safe (the producer holds a lock around it)."""

    def __init__(
        self,
        magic: int = MAGIC_VALUE_V2,
        compression_type: CompressionType = CompressionType.NONE,
        timestamp_type: TimestampType = TimestampType.CREATE_TIME,
        base_offset: int = 0,
        log_append_time: int = NO_TIMESTAMP,
        producer_id: int = NO_PRODUCER_ID,
        producer_epoch: int = NO_PRODUCER_EPOCH,
        base_sequence: int = NO_SEQUENCE,
        is_transactional: bool = False,
        is_control_batch: bool = False,
        partition_leader_epoch: int = NO_PARTITION_LEADER_EPOCH,
        write_limit: int = INT32_MAX,
        delete_horizon_ms: int = NO_TIMESTAMP,
    ) -> None:
        if magic > MAGIC_VALUE_V0 and timestamp_type is TimestampType.NO_TIMESTAMP_TYPE:
            raise ValueError("TimestampType must be set for magic >= 0")
        if magic < MAGIC_VALUE_V2:
            if is_transactional:
                raise ValueError(f"Transactional records are not supported for magic {magic}")
            if is_control_batch:
                raise ValueError(f"Control records are not supported for magic {magic}")
            if compression_type is CompressionType.ZSTD:
                raise ValueError(f"ZStandard compression is not supported for magic {magic}")
            if delete_horizon_ms != NO_TIMESTAMP:
                raise ValueError(f"Delete horizon timestamp is not supported for magic {magic}")
        if magic not in (MAGIC_VALUE_V0, MAGIC_VALUE_V1, MAGIC_VALUE_V2):
            raise ValueError(f"Invalid magic value {magic}")
        self._magic = magic
        self._timestamp_type = timestamp_type
        self._compression_type = compression_type
        self._base_offset = base_offset
        self._log_append_time = log_append_time
        self._producer_id = producer_id
        self._producer_epoch = producer_epoch
        self._base_sequence = base_sequence
        self._is_transactional = is_transactional
        self._is_control_batch = is_control_batch
        self._delete_horizon_ms = delete_horizon_ms
        self._partition_leader_epoch = partition_leader_epoch
        self._write_limit = write_limit
        self._batch_header_size_in_bytes = AbstractRecords.record_batch_header_size_in_bytes(magic, compression_type)
        self._estimated_compression_ratio = 1.0
        self._actual_compression_ratio = 1.0
        self._num_records = 0
        self._uncompressed_records_size_in_bytes = 0
        self._max_timestamp = NO_TIMESTAMP
        self._offset_of_max_timestamp = -1
        self._last_offset: int | None = None
        self._base_timestamp: int | None = delete_horizon_ms if self.has_delete_horizon_ms() else None
        self._built_records: MemoryRecords | None = None
        self._aborted = False
        # The batch bytes: a header placeholder, then the records (or the compressed records).
        self._out = bytearray(self._batch_header_size_in_bytes)
        # Where appended records go: the output itself, or a staging area when compressing.
        self._append_stream: bytearray | None = self._out if compression_type is CompressionType.NONE else bytearray()

    # ---- accessors -------------------------------------------------------------------------------

    def buffer(self) -> memoryview:
        """The bytes written so far (the whole batch once built)."""
        return memoryview(self._out)

    def compression_ratio(self) -> float:
        """Compressed over uncompressed record bytes, known once built."""
        return self._actual_compression_ratio

    def compression_type(self) -> CompressionType:
        """The batch codec."""
        return self._compression_type

    def is_control_batch(self) -> bool:
        """True for a control batch."""
        return self._is_control_batch

    def is_transactional(self) -> bool:
        """True for a transactional batch."""
        return self._is_transactional

    def has_delete_horizon_ms(self) -> bool:
        """True when a delete horizon is set on a v2 batch."""
        return self._magic >= MAGIC_VALUE_V2 and self._delete_horizon_ms >= 0

    def magic(self) -> int:
        """The batch magic."""
        return self._magic

    def producer_id(self) -> int:
        """The producer id."""
        return self._producer_id

    def producer_epoch(self) -> int:
        """The producer epoch."""
        return self._producer_epoch

    def base_sequence(self) -> int:
        """The base sequence."""
        return self._base_sequence

    def num_records(self) -> int:
        """Records appended so far."""
        return self._num_records

    def uncompressed_bytes_written(self) -> int:
        """Header size plus the uncompressed size of the appended records."""
        return self._uncompressed_records_size_in_bytes + self._batch_header_size_in_bytes

    def info(self) -> RecordsInfo:
        """The batch's max timestamp and the offset a time index entry would point at."""
        last_offset = self._last_offset if self._last_offset is not None else -1
        shallow_is_last = self._compression_type is not CompressionType.NONE or self._magic >= MAGIC_VALUE_V2
        if self._timestamp_type is TimestampType.LOG_APPEND_TIME:
            return RecordsInfo(self._log_append_time, last_offset if shallow_is_last else self._base_offset)
        if self._max_timestamp == NO_TIMESTAMP:
            return RecordsInfo(NO_TIMESTAMP, last_offset)
        return RecordsInfo(self._max_timestamp, last_offset if shallow_is_last else self._offset_of_max_timestamp)

    # ---- lifecycle -------------------------------------------------------------------------------

    def build(self) -> MemoryRecords:
        """Close the batch and return it."""
        if self._aborted:
            raise RuntimeError("Attempting to build an aborted record batch")
        self.close()
        assert self._built_records is not None
        return self._built_records

    def set_producer_state(
        self, producer_id: int, producer_epoch: int, base_sequence: int, is_transactional: bool
    ) -> None:
        """Set the producer fields before the batch is closed."""
        if self.is_closed():
            raise RuntimeError(
                "Trying to set producer state of an already closed batch. This indicates a bug on the client."
            )
        self._producer_id = producer_id
        self._producer_epoch = producer_epoch
        self._base_sequence = base_sequence
        self._is_transactional = is_transactional

    def override_last_offset(self, last_offset: int) -> None:
        """Use `last_offset` in the header instead of the last appended offset (log cleaner)."""
        if self._built_records is not None:
            raise RuntimeError("Cannot override the last offset after the records have been built")
        self._last_offset = last_offset

    def close_for_record_appends(self) -> None:
        """Stop accepting records; compresses the staged records of a compressed batch."""
        stream = self._append_stream
        if stream is None:
            return
        self._append_stream = None
        if stream is not self._out:
            self._out += self._compression_type.compress(stream, self._magic)

    def abort(self) -> None:
        """Discard the batch."""
        self.close_for_record_appends()
        del self._out[:]
        self._aborted = True

    def reopen_and_rewrite_producer_state(
        self, producer_id: int, producer_epoch: int, base_sequence: int, is_transactional: bool
    ) -> None:
        """Allow close() to rewrite the header with new producer state (producer retries)."""
        if self._aborted:
            raise RuntimeError("Should not reopen a batch which is already aborted.")
        self._built_records = None
        self._producer_id = producer_id
        self._producer_epoch = producer_epoch
        self._base_sequence = base_sequence
        self._is_transactional = is_transactional

    def close(self) -> None:
        """Close appends and write the header; idempotent."""
        from kafka.common.record.memory_records import MemoryRecords

        if self._aborted:
            raise RuntimeError("Cannot close MemoryRecordsBuilder as it has already been aborted")
        if self._built_records is not None:
            return
        self._validate_producer_state()
        self.close_for_record_appends()
        if self._num_records == 0:
            del self._out[:]
            self._built_records = MemoryRecords.EMPTY
            return
        if self._magic > MAGIC_VALUE_V1:
            written = self._write_default_batch_header()
            self._actual_compression_ratio = written / self._uncompressed_records_size_in_bytes
        elif self._compression_type is not CompressionType.NONE:
            written = self._write_legacy_compressed_wrapper_header()
            self._actual_compression_ratio = written / self._uncompressed_records_size_in_bytes
        self._built_records = MemoryRecords.readable_records(memoryview(self._out))

    def _validate_producer_state(self) -> None:
        if self._is_transactional and self._producer_id == NO_PRODUCER_ID:
            raise ValueError("Cannot write transactional messages without a valid producer ID")
        if self._producer_id != NO_PRODUCER_ID:
            if self._producer_epoch == NO_PRODUCER_EPOCH:
                raise ValueError("Invalid negative producer epoch")
            if self._base_sequence < 0 and not self._is_control_batch:
                raise ValueError("Invalid negative sequence number used")
            if self._magic < MAGIC_VALUE_V2:
                raise ValueError(f"Idempotent messages are not supported for magic {self._magic}")

    def _write_default_batch_header(self) -> int:
        self._ensure_open_for_record_batch_write()
        out = self._out
        size = len(out)
        assert self._last_offset is not None and self._base_timestamp is not None
        max_timestamp = (
            self._log_append_time if self._timestamp_type is TimestampType.LOG_APPEND_TIME else self._max_timestamp
        )
        DefaultRecordBatch.write_header(
            out,
            0,
            self._base_offset,
            self._last_offset - self._base_offset,
            size,
            self._magic,
            self._compression_type,
            self._timestamp_type,
            self._base_timestamp,
            max_timestamp,
            self._producer_id,
            self._producer_epoch,
            self._base_sequence,
            self._is_transactional,
            self._is_control_batch,
            self.has_delete_horizon_ms(),
            self._partition_leader_epoch,
            self._num_records,
        )
        return size - RECORD_BATCH_OVERHEAD

    def _write_legacy_compressed_wrapper_header(self) -> int:
        self._ensure_open_for_record_batch_write()
        out = self._out
        wrapper_size = len(out) - LOG_OVERHEAD
        written_compressed = wrapper_size - LegacyRecord.record_overhead(self._magic)
        assert self._last_offset is not None
        _OFFSET_SIZE.pack_into(out, 0, self._last_offset, wrapper_size)
        timestamp = (
            self._log_append_time if self._timestamp_type is TimestampType.LOG_APPEND_TIME else self._max_timestamp
        )
        LegacyRecord.write_compressed_record_header(
            out, LOG_OVERHEAD, self._magic, wrapper_size, timestamp, self._compression_type, self._timestamp_type
        )
        return written_compressed

    # ---- appending -------------------------------------------------------------------------------

    def _append_with_offset(
        self,
        offset: int,
        is_control_record: bool,
        timestamp: int,
        key: Buffer | None,
        value: Buffer | None,
        headers: Sequence[Header],
    ) -> None:
        if is_control_record != self._is_control_batch:
            raise ValueError("Control records can only be appended to control batches")
        last_offset = self._last_offset
        if last_offset is not None and offset <= last_offset:
            raise ValueError(
                f"Illegal offset {offset} following previous offset {last_offset} "
                "(Offsets must increase monotonically)."
            )
        if timestamp < 0 and timestamp != NO_TIMESTAMP:
            raise ValueError(f"Invalid negative timestamp {timestamp}")
        if self._magic < MAGIC_VALUE_V2 and headers:
            raise ValueError(f"Magic v{self._magic} does not support record headers")
        if self._base_timestamp is None:
            self._base_timestamp = timestamp
        if self._magic > MAGIC_VALUE_V1:
            self._append_default_record(offset, timestamp, key, value, headers)
        else:
            self._append_legacy_record(offset, timestamp, key, value)

    def append_with_offset(
        self,
        offset: int,
        timestamp: int,
        key: Buffer | None,
        value: Buffer | None,
        headers: Sequence[Header] = EMPTY_HEADERS,
    ) -> None:
        """Append a record at an explicit offset (greater than the previous one)."""
        self._append_with_offset(offset, False, timestamp, key, value, headers)

    def append_simple_with_offset(self, offset: int, record: SimpleRecord) -> None:
        """Append a SimpleRecord at an explicit offset."""
        self._append_with_offset(offset, False, record.timestamp(), record.key(), record.value(), record.headers())

    def append_control_record_with_offset(self, offset: int, record: SimpleRecord) -> None:
        """Append a control record (its key names a known control type) at an explicit offset."""
        type_id = ControlRecordType.parse_type_id(record.key())
        if ControlRecordType.from_type_id(type_id) is ControlRecordType.UNKNOWN:
            raise ValueError(f"Cannot append record with unknown control record type {type_id}")
        self._append_with_offset(offset, True, record.timestamp(), record.key(), record.value(), record.headers())

    def append(
        self, timestamp: int, key: Buffer | None, value: Buffer | None, headers: Sequence[Header] = EMPTY_HEADERS
    ) -> None:
        """Append a record at the next offset."""
        self._append_with_offset(self._next_sequential_offset(), False, timestamp, key, value, headers)

    def append_if_room(
        self, timestamp: int, key: Buffer | None, value: Buffer | None, headers: Sequence[Header] = EMPTY_HEADERS
    ) -> bool:
        """Appends a record at the next offset if `has_room_for` allows it; False (nothing written) if not.

        # PORT: Java's producer calls hasRoomFor and then append, sizing the record twice. This does both
        with one encoding (append_if_room_sized).
        """
        return self.append_if_room_sized(timestamp, key, value, headers) >= 0

    def append_if_room_sized(
        self, timestamp: int, key: Buffer | None, value: Buffer | None, headers: Sequence[Header] = EMPTY_HEADERS
    ) -> int:
        """append_if_room, returning how much estimated_size_in_bytes() grew, or -1 when nothing was appended.

        # PORT: the producer's hot path (ProducerBatch.try_append): Java calls hasRoomFor, append and, in the
        accumulator, estimatedSizeInBytes before and after. For the common case of a v2 data batch that already
        has records, the record is encoded once and taken back when it does not fit (or, with the compiled writer,
        not written); the checks, their order and the bytes are those of the separate calls, and anything else
        goes through them.
        """
        stream = self._append_stream
        last_offset = self._last_offset
        base_timestamp = self._base_timestamp
        if (
            stream is None
            or self._num_records == 0
            or self._magic != MAGIC_VALUE_V2
            or self._is_control_batch
            or last_offset is None
            or base_timestamp is None
            or (timestamp < 0 and timestamp != NO_TIMESTAMP)
        ):
            if not self.has_room_for(timestamp, key, value, headers):
                return -1
            before = self.estimated_size_in_bytes()
            self.append(timestamp, key, value, headers)
            return self.estimated_size_in_bytes() - before
        uncompressed = self._compression_type is CompressionType.NONE
        if uncompressed:
            estimated = self._batch_header_size_in_bytes + self._uncompressed_records_size_in_bytes
        else:
            estimated = self._estimated_bytes_written()
        write_limit = self._write_limit
        if write_limit <= estimated:
            return -1
        offset = last_offset + 1
        base_offset = self._base_offset
        compiled = _default_record._compiled_write_record
        written = (
            None
            if compiled is None
            else compiled(
                stream,
                offset - base_offset,
                timestamp - base_timestamp,
                key,
                value,
                _headers_bytes(headers) if headers else None,
                write_limit - estimated,
            )
        )
        if written is not None:
            if written < 0:
                return -1
            size = written
        else:
            size = DefaultRecord.write_to(stream, offset - base_offset, timestamp - base_timestamp, key, value, headers)
            if write_limit < estimated + size:
                del stream[len(stream) - size :]
                return -1
        if self._num_records == INT32_MAX or offset - base_offset > INT32_MAX:
            self._record_written(offset, timestamp, size)  # raises
        self._num_records += 1
        self._uncompressed_records_size_in_bytes += size
        self._last_offset = offset
        if timestamp > self._max_timestamp:
            self._max_timestamp = timestamp
            self._offset_of_max_timestamp = offset
        if uncompressed:
            return size
        return self._estimated_bytes_written() - estimated

    def append_simple(self, record: SimpleRecord) -> None:
        """Append a SimpleRecord at the next offset."""
        self.append_simple_with_offset(self._next_sequential_offset(), record)

    def append_record(self, record: Record) -> None:
        """Append an existing record at its own offset (control records into control batches)."""
        self._append_with_offset(
            record.offset(), self._is_control_batch, record.timestamp(), record.key(), record.value(), record.headers()
        )

    def append_record_with_offset(self, offset: int, record: Record) -> None:
        """Append an existing record's fields at `offset`."""
        self._append_with_offset(offset, False, record.timestamp(), record.key(), record.value(), record.headers())

    def append_legacy_record_with_offset(self, offset: int, record: LegacyRecord) -> None:
        """Append a legacy message's fields at `offset`."""
        self._append_with_offset(offset, False, record.timestamp(), record.key(), record.value(), EMPTY_HEADERS)

    def append_legacy_record(self, record: LegacyRecord) -> None:
        """Append a legacy message's fields at the next offset."""
        self.append_legacy_record_with_offset(self._next_sequential_offset(), record)

    def _append_control_record(self, timestamp: int, type_: ControlRecordType, value: bytes) -> None:
        self._append_with_offset(
            self._next_sequential_offset(), True, timestamp, type_.record_key(), value, EMPTY_HEADERS
        )

    def append_end_txn_marker(self, timestamp: int, marker: EndTransactionMarker) -> None:
        """Append a COMMIT/ABORT marker to a transactional control batch."""
        if self._producer_id == NO_PRODUCER_ID:
            raise ValueError("End transaction marker requires a valid producerId")
        if not self._is_transactional:
            raise ValueError("End transaction marker depends on batch transactional flag being enabled")
        self._append_control_record(timestamp, marker.control_type(), marker.serialize_value())

    def append_unchecked_with_offset(self, offset: int, record: LegacyRecord | SimpleRecord) -> None:
        """Append without the offset and timestamp checks (down-conversion and tools)."""
        if isinstance(record, LegacyRecord):
            stream = self._ensure_open_for_record_append()
            size = record.size_in_bytes()
            write_legacy_header(stream, self._to_inner_offset(offset), size)
            stream += record.buffer()
            self._record_written(offset, record.timestamp(), size + LOG_OVERHEAD)
            return
        if self._magic >= MAGIC_VALUE_V2:
            stream = self._ensure_open_for_record_append()
            timestamp = record.timestamp()
            if self._base_timestamp is None:
                self._base_timestamp = timestamp
            size = DefaultRecord.write_to(
                stream,
                offset - self._base_offset,
                timestamp - self._base_timestamp,
                record.key(),
                record.value(),
                record.headers(),
            )
            self._record_written(offset, timestamp, size)
        else:
            legacy = LegacyRecord.create(self._magic, record.timestamp(), record.key(), record.value())
            self.append_unchecked_with_offset(offset, legacy)

    def _append_default_record(
        self, offset: int, timestamp: int, key: Buffer | None, value: Buffer | None, headers: Sequence[Header]
    ) -> None:
        stream = self._ensure_open_for_record_append()
        assert self._base_timestamp is not None
        size = DefaultRecord.write_to(
            stream, offset - self._base_offset, timestamp - self._base_timestamp, key, value, headers
        )
        self._record_written(offset, timestamp, size)

    def _append_legacy_record(self, offset: int, timestamp: int, key: Buffer | None, value: Buffer | None) -> int:
        stream = self._ensure_open_for_record_append()
        if self._timestamp_type is TimestampType.LOG_APPEND_TIME:
            timestamp = self._log_append_time
        size = LegacyRecord.record_size_of(self._magic, key, value)
        write_legacy_header(stream, self._to_inner_offset(offset), size)
        crc = LegacyRecord.write(stream, self._magic, timestamp, key, value, CompressionType.NONE, self._timestamp_type)
        self._record_written(offset, timestamp, size + LOG_OVERHEAD)
        return crc

    def _to_inner_offset(self, offset: int) -> int:
        if self._magic > MAGIC_VALUE_V0 and self._compression_type is not CompressionType.NONE:
            return offset - self._base_offset
        return offset

    def _record_written(self, offset: int, timestamp: int, size: int) -> None:
        if self._num_records == INT32_MAX:
            raise ValueError(f"Maximum number of records per batch exceeded, max records: {INT32_MAX}")
        if offset - self._base_offset > INT32_MAX:
            raise ValueError(f"Maximum offset delta exceeded, base offset: {self._base_offset}, last offset: {offset}")
        self._num_records += 1
        self._uncompressed_records_size_in_bytes += size
        self._last_offset = offset
        if self._magic > MAGIC_VALUE_V0 and timestamp > self._max_timestamp:
            self._max_timestamp = timestamp
            self._offset_of_max_timestamp = offset

    def _ensure_open_for_record_append(self) -> bytearray:
        stream = self._append_stream
        if stream is None:
            raise RuntimeError("Tried to append a record, but MemoryRecordsBuilder is closed for record appends")
        return stream

    def _ensure_open_for_record_batch_write(self) -> None:
        if self.is_closed():
            raise RuntimeError("Tried to write record batch header, but MemoryRecordsBuilder is closed")
        if self._aborted:
            raise RuntimeError("Tried to write record batch header, but MemoryRecordsBuilder is aborted")

    # ---- size estimates --------------------------------------------------------------------------

    def _estimated_bytes_written(self) -> int:
        if self._compression_type is CompressionType.NONE:
            return self._batch_header_size_in_bytes + self._uncompressed_records_size_in_bytes
        return self._batch_header_size_in_bytes + int(
            self._uncompressed_records_size_in_bytes
            * self._estimated_compression_ratio
            * COMPRESSION_RATE_ESTIMATION_FACTOR
        )

    def set_estimated_compression_ratio(self, estimated_compression_ratio: float) -> None:
        """The ratio used to estimate the compressed size before the batch is built."""
        self._estimated_compression_ratio = estimated_compression_ratio

    def has_room_for(
        self, timestamp: int, key: Buffer | None, value: Buffer | None, headers: Sequence[Header] = EMPTY_HEADERS
    ) -> bool:
        """Whether one more such record fits the write limit (the first record always fits)."""
        if self.is_full():
            return False
        if self._num_records == 0:
            return True
        if self._magic < MAGIC_VALUE_V2:
            record_size = LOG_OVERHEAD + LegacyRecord.record_size_of(self._magic, key, value)
        else:
            next_offset_delta = 0 if self._last_offset is None else self._last_offset - self._base_offset + 1
            timestamp_delta = 0 if self._base_timestamp is None else timestamp - self._base_timestamp
            record_size = DefaultRecord.size_in_bytes_of(next_offset_delta, timestamp_delta, key, value, headers)
        return self._write_limit >= self._estimated_bytes_written() + record_size

    def is_closed(self) -> bool:
        """True once built."""
        return self._built_records is not None

    def is_full(self) -> bool:
        """True when closed for appends or past the write limit."""
        if self._append_stream is None:
            return True
        if self._num_records == 0:
            return False
        if self._compression_type is CompressionType.NONE:
            return self._write_limit <= self._batch_header_size_in_bytes + self._uncompressed_records_size_in_bytes
        return self._write_limit <= self._estimated_bytes_written()

    def estimated_size_in_bytes(self) -> int:
        """The built size, or an estimate before that."""
        if self._built_records is not None:
            return self._built_records.size_in_bytes()
        if self._compression_type is CompressionType.NONE:
            return self._batch_header_size_in_bytes + self._uncompressed_records_size_in_bytes
        return self._estimated_bytes_written()

    def _next_sequential_offset(self) -> int:
        return self._base_offset if self._last_offset is None else self._last_offset + 1
