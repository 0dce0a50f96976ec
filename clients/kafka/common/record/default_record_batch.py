"""Port of clients/src/main/java/org/apache/kafka/common/record/DefaultRecordBatch.java (Kafka 3.7).

The v2 record batch (magic 2). Its 61-byte header, big-endian:

    baseOffset: int64
    length: int32                 (bytes after this field)
    partitionLeaderEpoch: int32
    magic: int8                   (2)
    crc: uint32                   (CRC32C of everything from attributes to the end of the batch)
    attributes: int16             (bits 0-2 codec, 3 timestamp type, 4 transactional, 5 control,
                                   6 delete horizon set)
    lastOffsetDelta: int32
    baseTimestamp: int64          (the delete horizon when bit 6 is set)
    maxTimestamp: int64
    producerId: int64
    producerEpoch: int16
    baseSequence: int32
    recordsCount: int32
    records...                    (DefaultRecord, compressed as a whole by the codec)

The CRC starts at the attributes, so the broker can stamp the base offset and the partition leader
epoch without recomputing it. A batch object wraps a memoryview of exactly its bytes: header
accessors read single fields in place and never decode records; records are decoded (and
decompressed) only when the batch is iterated.
"""

from __future__ import annotations

import struct
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Final

import crc32c

from kafka.common.errors import CorruptRecordException, InvalidRecordException
from kafka.common.record import default_record as _dr
from kafka.common.record.abstract_record_batch import AbstractRecordBatch
from kafka.common.record.compression_type import CompressionType, decompression_limit
from kafka.common.record.default_record import DefaultRecord
from kafka.common.record.file_log_input_stream import FileChannelRecordBatch
from kafka.common.record.mutable_record_batch import MutableRecordBatch
from kafka.common.record.record_batch import CURRENT_MAGIC_VALUE, NO_SEQUENCE, NO_TIMESTAMP, RecordBatch
from kafka.common.record.records import LOG_OVERHEAD
from kafka.common.record.timestamp_type import TimestampType

if TYPE_CHECKING:
    from kafka.common.record.record import Record
    from kafka.common.record.record_header import Header
    from kafka.common.record.simple_record import SimpleRecord

Buffer = bytes | bytearray | memoryview

# crc32c releases the GIL for inputs of 32 KiB and more. A batch's CRC takes microseconds (about 20 us for 256 KiB),
# while a thread that gives the GIL up waits until another thread hands it back, up to the switch interval (5 ms)
# when that one is busy: the producer's I/O thread computing a CRC beside an application thread that is busy
# sending spent far longer waiting than computing. The GIL is kept for batches below this size.
_CRC_GIL_RELEASE_MIN_BYTES: Final = 4 * 1024 * 1024


def _crc32c(data: Buffer) -> int:
    """CRC32C of `data`, keeping the GIL unless `data` is large."""
    return crc32c.crc32c(data, gil_release_mode=0 if len(data) < _CRC_GIL_RELEASE_MIN_BYTES else 1)


BASE_OFFSET_OFFSET: Final = 0
BASE_OFFSET_LENGTH: Final = 8
LENGTH_OFFSET: Final = BASE_OFFSET_OFFSET + BASE_OFFSET_LENGTH
LENGTH_LENGTH: Final = 4
PARTITION_LEADER_EPOCH_OFFSET: Final = LENGTH_OFFSET + LENGTH_LENGTH
PARTITION_LEADER_EPOCH_LENGTH: Final = 4
MAGIC_OFFSET: Final = PARTITION_LEADER_EPOCH_OFFSET + PARTITION_LEADER_EPOCH_LENGTH
MAGIC_LENGTH: Final = 1
CRC_OFFSET: Final = MAGIC_OFFSET + MAGIC_LENGTH
CRC_LENGTH: Final = 4
ATTRIBUTES_OFFSET: Final = CRC_OFFSET + CRC_LENGTH
ATTRIBUTE_LENGTH: Final = 2
LAST_OFFSET_DELTA_OFFSET: Final = ATTRIBUTES_OFFSET + ATTRIBUTE_LENGTH
LAST_OFFSET_DELTA_LENGTH: Final = 4
BASE_TIMESTAMP_OFFSET: Final = LAST_OFFSET_DELTA_OFFSET + LAST_OFFSET_DELTA_LENGTH
BASE_TIMESTAMP_LENGTH: Final = 8
MAX_TIMESTAMP_OFFSET: Final = BASE_TIMESTAMP_OFFSET + BASE_TIMESTAMP_LENGTH
MAX_TIMESTAMP_LENGTH: Final = 8
PRODUCER_ID_OFFSET: Final = MAX_TIMESTAMP_OFFSET + MAX_TIMESTAMP_LENGTH
PRODUCER_ID_LENGTH: Final = 8
PRODUCER_EPOCH_OFFSET: Final = PRODUCER_ID_OFFSET + PRODUCER_ID_LENGTH
PRODUCER_EPOCH_LENGTH: Final = 2
BASE_SEQUENCE_OFFSET: Final = PRODUCER_EPOCH_OFFSET + PRODUCER_EPOCH_LENGTH
BASE_SEQUENCE_LENGTH: Final = 4
RECORDS_COUNT_OFFSET: Final = BASE_SEQUENCE_OFFSET + BASE_SEQUENCE_LENGTH
RECORDS_COUNT_LENGTH: Final = 4
RECORDS_OFFSET: Final = RECORDS_COUNT_OFFSET + RECORDS_COUNT_LENGTH
RECORD_BATCH_OVERHEAD: Final = RECORDS_OFFSET

COMPRESSION_CODEC_MASK: Final = 0x07
TRANSACTIONAL_FLAG_MASK: Final = 0x10
CONTROL_FLAG_MASK: Final = 0x20
DELETE_HORIZON_FLAG_MASK: Final = 0x40
TIMESTAMP_TYPE_MASK: Final = 0x08

_INT64: Final = struct.Struct(">q")
_INT32: Final = struct.Struct(">i")
_UINT32: Final = struct.Struct(">I")
_INT16: Final = struct.Struct(">h")
_INT8: Final = struct.Struct(">b")
# The whole header in one go, CRC included (as unsigned).
_HEADER: Final = struct.Struct(">qiibIhiqqqhii")

_CODECS: Final = CompressionType.values()


def compute_attributes(
    compression_type: CompressionType,
    timestamp_type: TimestampType,
    is_transactional: bool,
    is_control: bool,
    is_delete_horizon_set: bool,
) -> int:
    """The attributes field for a v2 batch with these properties."""
    if timestamp_type is TimestampType.NO_TIMESTAMP_TYPE:
        raise ValueError("Timestamp type must be provided to compute attributes for message format v2 and above")
    attributes = TRANSACTIONAL_FLAG_MASK if is_transactional else 0
    if is_control:
        attributes |= CONTROL_FLAG_MASK
    if compression_type.id > 0:
        attributes |= COMPRESSION_CODEC_MASK & compression_type.id
    if timestamp_type is TimestampType.LOG_APPEND_TIME:
        attributes |= TIMESTAMP_TYPE_MASK
    if is_delete_horizon_set:
        attributes |= DELETE_HORIZON_FLAG_MASK
    return attributes


class DefaultRecordBatch(AbstractRecordBatch, MutableRecordBatch):
    """A magic-2 batch over a memoryview of exactly its bytes.

    The in-place setters need a writable view (e.g. over a bytearray); over `bytes` they raise
    TypeError.
    """

    __slots__ = ("_buffer",)

    RECORD_BATCH_OVERHEAD: Final = RECORD_BATCH_OVERHEAD
    RECORDS_OFFSET: Final = RECORDS_OFFSET
    CRC_OFFSET: Final = CRC_OFFSET
    LAST_OFFSET_DELTA_OFFSET: Final = LAST_OFFSET_DELTA_OFFSET
    RECORDS_COUNT_OFFSET: Final = RECORDS_COUNT_OFFSET

    def __init__(self, buffer: Buffer) -> None:
        self._buffer = buffer if isinstance(buffer, memoryview) else memoryview(buffer)

    def buffer(self) -> memoryview:
        """The batch bytes (no copy)."""
        return self._buffer

    # ---- header fields ---------------------------------------------------------------------------

    def magic(self) -> int:
        """The magic byte."""
        return _INT8.unpack_from(self._buffer, MAGIC_OFFSET)[0]

    def header_fields(self) -> tuple[int, int, int, int, int, int, int, int, int, int, int, int, int]:
        """Every header field in one read, as stored: (base offset, length, partition leader epoch, magic, CRC,
        attributes (the whole short), last offset delta, base timestamp, max timestamp, producer id, producer epoch,
        base sequence, records count). The batch must be at least RECORD_BATCH_OVERHEAD bytes long (struct.error
        otherwise), as every batch from a log input stream is.

        # PORT: Java reads each field on its own; a caller needing most of them (the broker's append checks) reads
        them here once.
        """
        return _HEADER.unpack_from(self._buffer, 0)

    def ensure_valid(self) -> None:
        """Raise CorruptRecordException when the batch is too small or its CRC32C does not match."""
        size = self.size_in_bytes() if len(self._buffer) >= LOG_OVERHEAD else len(self._buffer)
        if size < RECORD_BATCH_OVERHEAD or len(self._buffer) < RECORD_BATCH_OVERHEAD:
            raise CorruptRecordException(
                f"Record batch is corrupt (the size {size} is smaller than the minimum allowed overhead "
                f"{RECORD_BATCH_OVERHEAD})"
            )
        stored = self.checksum()
        computed = self.compute_checksum()
        if stored != computed:
            raise CorruptRecordException(f"Record is corrupt (stored crc = {stored}, computed crc = {computed})")

    def base_timestamp(self) -> int:
        """The timestamp the record deltas are relative to (or the delete horizon)."""
        return _INT64.unpack_from(self._buffer, BASE_TIMESTAMP_OFFSET)[0]

    def max_timestamp(self) -> int:
        """The max timestamp field."""
        return _INT64.unpack_from(self._buffer, MAX_TIMESTAMP_OFFSET)[0]

    def timestamp_type(self) -> TimestampType:
        """CreateTime or LogAppendTime, from attribute bit 3."""
        if self._attributes() & TIMESTAMP_TYPE_MASK:
            return TimestampType.LOG_APPEND_TIME
        return TimestampType.CREATE_TIME

    def base_offset(self) -> int:
        """The offset of the first record."""
        return _INT64.unpack_from(self._buffer, BASE_OFFSET_OFFSET)[0]

    def last_offset(self) -> int:
        """The offset of the last record: base offset plus last offset delta."""
        return self.base_offset() + self.last_offset_delta()

    def producer_id(self) -> int:
        """The producer id, or -1."""
        return _INT64.unpack_from(self._buffer, PRODUCER_ID_OFFSET)[0]

    def producer_epoch(self) -> int:
        """The producer epoch, or -1."""
        return _INT16.unpack_from(self._buffer, PRODUCER_EPOCH_OFFSET)[0]

    def base_sequence(self) -> int:
        """The sequence of the first record, or -1."""
        return _INT32.unpack_from(self._buffer, BASE_SEQUENCE_OFFSET)[0]

    def last_offset_delta(self) -> int:
        """The last offset delta field."""
        return _INT32.unpack_from(self._buffer, LAST_OFFSET_DELTA_OFFSET)[0]

    def last_sequence(self) -> int:
        """The sequence of the last record, or -1."""
        base_sequence = self.base_sequence()
        if base_sequence == NO_SEQUENCE:
            return NO_SEQUENCE
        return _dr.increment_sequence(base_sequence, self.last_offset_delta())

    def compression_type(self) -> CompressionType:
        """The codec from attribute bits 0-2; CorruptRecordException for ids 5-7."""
        codec_id = self._attributes() & COMPRESSION_CODEC_MASK
        if codec_id < len(_CODECS):
            return _CODECS[codec_id]
        raise CorruptRecordException(f"Unknown compression type id: {codec_id}")

    def size_in_bytes(self) -> int:
        """The batch size: the length field plus the 12-byte log overhead."""
        return LOG_OVERHEAD + _INT32.unpack_from(self._buffer, LENGTH_OFFSET)[0]

    def count(self) -> int:
        """The records count field."""
        return _INT32.unpack_from(self._buffer, RECORDS_COUNT_OFFSET)[0]

    def count_or_null(self) -> int | None:
        """The records count field."""
        return self.count()

    def write_to(self, buffer: bytearray) -> None:
        """Append the batch bytes to `buffer`."""
        buffer += self._buffer

    def is_transactional(self) -> bool:
        """Attribute bit 4."""
        return bool(self._attributes() & TRANSACTIONAL_FLAG_MASK)

    def has_delete_horizon_ms(self) -> bool:
        """Attribute bit 6: the base timestamp holds the delete horizon."""
        return bool(self._attributes() & DELETE_HORIZON_FLAG_MASK)

    def delete_horizon_ms(self) -> int | None:
        """The delete horizon (the base timestamp) when attribute bit 6 is set, else None."""
        if self.has_delete_horizon_ms():
            return self.base_timestamp()
        return None

    def is_control_batch(self) -> bool:
        """Attribute bit 5."""
        return bool(self._attributes() & CONTROL_FLAG_MASK)

    def partition_leader_epoch(self) -> int:
        """The partition leader epoch field."""
        return _INT32.unpack_from(self._buffer, PARTITION_LEADER_EPOCH_OFFSET)[0]

    def _attributes(self) -> int:
        # Java reads the short and keeps its low byte.
        return _INT16.unpack_from(self._buffer, ATTRIBUTES_OFFSET)[0] & 0xFF

    def attributes(self) -> int:
        """The low byte of the attributes field."""
        return self._attributes()

    def checksum(self) -> int:
        """The stored CRC32C."""
        return _UINT32.unpack_from(self._buffer, CRC_OFFSET)[0]

    def is_valid(self) -> bool:
        """True when the batch is large enough and its CRC32C matches."""
        return self.size_in_bytes() >= RECORD_BATCH_OVERHEAD and self.checksum() == self.compute_checksum()

    def compute_checksum(self) -> int:
        """CRC32C of the bytes from the attributes to the end of the buffer."""
        return _crc32c(self._buffer[ATTRIBUTES_OFFSET:])

    # ---- in-place setters (broker side) ----------------------------------------------------------

    def set_last_offset(self, offset: int) -> None:
        """Make `offset` the last offset by rewriting the base offset; the CRC does not cover it."""
        _INT64.pack_into(self._buffer, BASE_OFFSET_OFFSET, offset - self.last_offset_delta())

    def set_max_timestamp(self, timestamp_type: TimestampType, max_timestamp: int) -> None:
        """Set the timestamp type and max timestamp (LogAppendTime stamping) and recompute the CRC."""
        if self.timestamp_type() is timestamp_type and self.max_timestamp() == max_timestamp:
            return
        attributes = compute_attributes(
            self.compression_type(),
            timestamp_type,
            self.is_transactional(),
            self.is_control_batch(),
            self.has_delete_horizon_ms(),
        )
        buffer = self._buffer
        _INT16.pack_into(buffer, ATTRIBUTES_OFFSET, attributes)
        _INT64.pack_into(buffer, MAX_TIMESTAMP_OFFSET, max_timestamp)
        _UINT32.pack_into(buffer, CRC_OFFSET, self.compute_checksum())

    def set_partition_leader_epoch(self, epoch: int) -> None:
        """Stamp the partition leader epoch; it precedes the CRC'd region, so the CRC is unchanged."""
        _INT32.pack_into(self._buffer, PARTITION_LEADER_EPOCH_OFFSET, epoch)

    # ---- records ---------------------------------------------------------------------------------

    def records_data(self) -> bytes:
        """The uncompressed record section (decompressed, bounded, when the batch is compressed)."""
        body = self._buffer[RECORDS_OFFSET:]
        compression_type = self.compression_type()
        if compression_type is CompressionType.NONE:
            return bytes(body)
        return compression_type.decompress(body, self.magic(), decompression_limit(len(body)))

    def _records(self, partial: bool) -> Iterator[Record]:
        if len(self._buffer) < RECORD_BATCH_OVERHEAD:
            raise CorruptRecordException(
                f"Record batch is corrupt (only {len(self._buffer)} bytes, less than the {RECORD_BATCH_OVERHEAD}-byte "
                "header)"
            )
        count = self.count()
        if count == 0:
            return
        if count < 0:
            raise InvalidRecordException(f"Found invalid record count {count} in magic v{self.magic()} batch")
        header = _HEADER.unpack_from(self._buffer, 0)
        base_offset = header[0]
        attributes = header[5] & 0xFF
        base_timestamp = header[7]
        log_append_time = header[8] if attributes & TIMESTAMP_TYPE_MASK else None
        base_sequence = header[11]
        data = self.records_data()
        limit = len(data)
        read = _dr._read_partial_record if partial else _dr._read_record
        pos = 0
        last = count - 1
        for i in range(count):
            record, pos = read(data, pos, limit, base_offset, base_timestamp, base_sequence, log_append_time)
            if i == last and pos != limit:
                raise InvalidRecordException("Incorrect declared batch size, records still remaining in file")
            yield record

    def __iter__(self) -> Iterator[Record]:
        """Iterate the records, decompressing the batch on first use."""
        return self._records(False)

    def streaming_iterator(self) -> Iterator[Record]:
        """Iterate the records, decompressing the batch on first use."""
        return self._records(False)

    def skip_key_value_iterator(self) -> Iterator[Record]:
        """Iterate PartialDefaultRecords (no keys, values or headers materialised)."""
        return self._records(True)

    # ---- identity --------------------------------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, DefaultRecordBatch):
            return NotImplemented
        return self._buffer == other._buffer

    def __hash__(self) -> int:
        return hash(bytes(self._buffer))

    def __repr__(self) -> str:
        try:
            compression: object = self.compression_type()
        except CorruptRecordException:
            compression = f"unknown({self._attributes() & COMPRESSION_CODEC_MASK})"
        return (
            f"RecordBatch(magic={self.magic()}, offsets=[{self.base_offset()}, {self.last_offset()}], "
            f"sequence=[{self.base_sequence()}, {self.last_sequence()}], "
            f"isTransactional={self.is_transactional()}, isControlBatch={self.is_control_batch()}, "
            f"compression={compression}, timestampType={self.timestamp_type()}, crc={self.checksum()})"
        )

    # ---- writing headers -------------------------------------------------------------------------

    @staticmethod
    def write_empty_header(
        buffer: bytearray | memoryview,
        position: int,
        magic: int,
        producer_id: int,
        producer_epoch: int,
        base_sequence: int,
        base_offset: int,
        last_offset: int,
        partition_leader_epoch: int,
        timestamp_type: TimestampType,
        timestamp: int,
        is_transactional: bool,
        is_control_record: bool,
    ) -> None:
        """Write a batch header with no records at `buffer[position:position + 61]`."""
        DefaultRecordBatch.write_header(
            buffer,
            position,
            base_offset,
            last_offset - base_offset,
            RECORD_BATCH_OVERHEAD,
            magic,
            CompressionType.NONE,
            timestamp_type,
            NO_TIMESTAMP,
            timestamp,
            producer_id,
            producer_epoch,
            base_sequence,
            is_transactional,
            is_control_record,
            False,
            partition_leader_epoch,
            0,
        )

    @staticmethod
    def write_header(
        buffer: bytearray | memoryview,
        position: int,
        base_offset: int,
        last_offset_delta: int,
        size_in_bytes: int,
        magic: int,
        compression_type: CompressionType,
        timestamp_type: TimestampType,
        base_timestamp: int,
        max_timestamp: int,
        producer_id: int,
        epoch: int,
        sequence: int,
        is_transactional: bool,
        is_control_batch: bool,
        is_delete_horizon_set: bool,
        partition_leader_epoch: int,
        num_records: int,
    ) -> None:
        """Write the header of a batch whose records already sit in `buffer` after `position + 61`.

        The CRC covers `buffer[position + 21 : position + size_in_bytes]`.
        """
        if magic < CURRENT_MAGIC_VALUE:
            raise ValueError(f"Invalid magic value {magic}")
        if base_timestamp < 0 and base_timestamp != NO_TIMESTAMP:
            raise ValueError(f"Invalid message timestamp {base_timestamp}")
        attributes = compute_attributes(
            compression_type, timestamp_type, is_transactional, is_control_batch, is_delete_horizon_set
        )
        _HEADER.pack_into(
            buffer,
            position,
            base_offset,
            size_in_bytes - LOG_OVERHEAD,
            partition_leader_epoch,
            magic,
            0,
            attributes,
            last_offset_delta,
            base_timestamp,
            max_timestamp,
            producer_id,
            epoch,
            sequence,
            num_records,
        )
        view = buffer if isinstance(buffer, memoryview) else memoryview(buffer)
        try:
            crc = _crc32c(view[position + ATTRIBUTES_OFFSET : position + size_in_bytes])
        finally:
            if view is not buffer:
                view.release()
        _UINT32.pack_into(buffer, position + CRC_OFFSET, crc)

    # ---- sizes -----------------------------------------------------------------------------------

    @staticmethod
    def size_in_bytes_of_records(base_offset: int, records: Iterable[Record]) -> int:
        """Size of a v2 batch holding `records` (0 when there are none).

        # PORT: Java's static sizeInBytes(long, Iterable<Record>); renamed next to the instance method.
        """
        size = 0
        base_timestamp: int | None = None
        for record in records:
            if base_timestamp is None:
                base_timestamp = record.timestamp()
                size = RECORD_BATCH_OVERHEAD
            size += DefaultRecord.size_in_bytes_of(
                record.offset() - base_offset,
                record.timestamp() - base_timestamp,
                record.key(),
                record.value(),
                record.headers(),
            )
        return size

    @staticmethod
    def size_in_bytes_of_simple_records(records: Iterable[SimpleRecord]) -> int:
        """Size of a v2 batch holding `records` at consecutive offsets (0 when there are none)."""
        size = 0
        offset_delta = 0
        base_timestamp: int | None = None
        for record in records:
            if base_timestamp is None:
                base_timestamp = record.timestamp()
                size = RECORD_BATCH_OVERHEAD
            size += DefaultRecord.size_in_bytes_of(
                offset_delta, record.timestamp() - base_timestamp, record.key(), record.value(), record.headers()
            )
            offset_delta += 1
        return size

    @staticmethod
    def estimate_batch_size_upper_bound(key: Buffer | None, value: Buffer | None, headers: Sequence[Header]) -> int:
        """An upper bound on the size of a batch holding one record like this."""
        return RECORD_BATCH_OVERHEAD + DefaultRecord.record_size_upper_bound(key, value, headers)

    increment_sequence = staticmethod(_dr.increment_sequence)
    decrement_sequence = staticmethod(_dr.decrement_sequence)


class DefaultFileChannelRecordBatch(FileChannelRecordBatch):
    """A magic-2 batch in a log file: header fields are read from the 61-byte header only."""

    __slots__ = ()

    def _to_memory_record_batch(self, buffer: bytes) -> RecordBatch:
        return DefaultRecordBatch(buffer)

    def _header_size(self) -> int:
        return RECORD_BATCH_OVERHEAD

    def _header(self) -> DefaultRecordBatch:
        batch = self._load_batch_header()
        assert isinstance(batch, DefaultRecordBatch)
        return batch

    def base_offset(self) -> int:
        """The offset read from the log overhead."""
        return self._offset

    def last_offset(self) -> int:
        """Base offset plus the header's last offset delta."""
        return self._header().last_offset()

    def producer_id(self) -> int:
        """From the header."""
        return self._header().producer_id()

    def producer_epoch(self) -> int:
        """From the header."""
        return self._header().producer_epoch()

    def base_sequence(self) -> int:
        """From the header."""
        return self._header().base_sequence()

    def last_sequence(self) -> int:
        """From the header."""
        return self._header().last_sequence()

    def count_or_null(self) -> int | None:
        """From the header."""
        return self._header().count_or_null()

    def is_transactional(self) -> bool:
        """From the header."""
        return self._header().is_transactional()

    def delete_horizon_ms(self) -> int | None:
        """From the header."""
        return self._header().delete_horizon_ms()

    def is_control_batch(self) -> bool:
        """From the header."""
        return self._header().is_control_batch()

    def partition_leader_epoch(self) -> int:
        """From the header."""
        return self._header().partition_leader_epoch()
