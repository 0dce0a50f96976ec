"""Port of clients/src/main/java/org/apache/kafka/common/record/AbstractLegacyRecordBatch.java (Kafka 3.7).

For magic 0 and 1, a "batch" is one shallow message with its log overhead (offset, size): either a
plain message, which is its own single record, or a compressed wrapper whose value holds inner
messages. Inner offsets are absolute for magic 0; for magic 1 they are relative, and the wrapper's
offset is the absolute offset of the last inner message.
"""

from __future__ import annotations

import struct
from abc import abstractmethod
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Final

from kafka.common.errors import CorruptRecordException, InvalidRecordException
from kafka.common.record.abstract_record_batch import AbstractRecordBatch
from kafka.common.record.compression_type import CompressionType, decompression_limit
from kafka.common.record.file_log_input_stream import FileChannelRecordBatch
from kafka.common.record.legacy_record import (
    ATTRIBUTES_OFFSET,
    CRC_OFFSET,
    RECORD_OVERHEAD_V0,
    RECORD_OVERHEAD_V1,
    TIMESTAMP_OFFSET,
    LegacyRecord,
)
from kafka.common.record.mutable_record_batch import MutableRecordBatch
from kafka.common.record.record import EMPTY_HEADERS, Record
from kafka.common.record.record_batch import (
    MAGIC_VALUE_V0,
    MAGIC_VALUE_V1,
    NO_PARTITION_LEADER_EPOCH,
    NO_PRODUCER_EPOCH,
    NO_PRODUCER_ID,
    NO_SEQUENCE,
    RecordBatch,
)
from kafka.common.record.records import LOG_OVERHEAD, OFFSET_OFFSET

if TYPE_CHECKING:
    from kafka.common.record.record_header import Header
    from kafka.common.record.timestamp_type import TimestampType

_OFFSET_SIZE: Final = struct.Struct(">qi")
_INT64: Final = struct.Struct(">q")
_INT8: Final = struct.Struct(">b")
_UINT32: Final = struct.Struct(">I")


def write_header(out: bytearray, offset: int, size: int) -> None:
    """Append a log overhead (offset, size) to `out`."""
    out += _OFFSET_SIZE.pack(offset, size)


def legacy_record_overhead(magic: int) -> int:
    """The least a message of this magic can occupy (magics above 1 are laid out like magic 1)."""
    return RECORD_OVERHEAD_V0 if magic == MAGIC_VALUE_V0 else RECORD_OVERHEAD_V1


class AbstractLegacyRecordBatch(AbstractRecordBatch, Record):
    """A shallow magic 0/1 entry: a batch and, when uncompressed, also its only record."""

    __slots__ = ()

    @abstractmethod
    def offset(self) -> int:
        """The entry's offset (the last inner offset for a compressed wrapper)."""

    @abstractmethod
    def outer_record(self) -> LegacyRecord:
        """The shallow message."""

    def last_offset(self) -> int:
        """The entry's offset."""
        return self.offset()

    def is_valid(self) -> bool:
        """The shallow message's CRC check."""
        return self.outer_record().is_valid()

    def ensure_valid(self) -> None:
        """Check the shallow message's size and CRC."""
        self.outer_record().ensure_valid()

    def key_size(self) -> int:
        """Key length of the shallow message."""
        return self.outer_record().key_size()

    def has_key(self) -> bool:
        """True when the shallow message has a key."""
        return self.outer_record().has_key()

    def key(self) -> bytes | None:
        """The key bytes, or None."""
        key = self.outer_record().key()
        return None if key is None else bytes(key)

    def value_size(self) -> int:
        """Value length of the shallow message."""
        return self.outer_record().value_size()

    def has_value(self) -> bool:
        """True when the value is not null."""
        return not self.outer_record().has_null_value()

    def value(self) -> bytes | None:
        """The value bytes, or None."""
        value = self.outer_record().value()
        return None if value is None else bytes(value)

    def headers(self) -> Sequence[Header]:
        """Legacy messages have no headers."""
        return EMPTY_HEADERS

    def has_magic(self, magic: int) -> bool:
        """True when the message has exactly this magic."""
        return magic == self.outer_record().magic()

    def has_timestamp_type(self, timestamp_type: TimestampType) -> bool:
        """True when the message's timestamp type is `timestamp_type`."""
        return self.outer_record().timestamp_type() is timestamp_type

    def checksum(self) -> int:
        """The message CRC."""
        return self.outer_record().checksum()

    def max_timestamp(self) -> int:
        """The message timestamp (the wrapper's is the max of its inner messages)."""
        return self.timestamp()

    def timestamp(self) -> int:
        """The message timestamp."""
        return self.outer_record().timestamp()

    def timestamp_type(self) -> TimestampType:
        """The message timestamp type."""
        return self.outer_record().timestamp_type()

    def base_offset(self) -> int:
        """The first record's offset; decompresses a wrapper to find it."""
        return next(iter(self)).offset()

    def magic(self) -> int:
        """The message magic."""
        return self.outer_record().magic()

    def compression_type(self) -> CompressionType:
        """The message codec."""
        return self.outer_record().compression_type()

    def size_in_bytes(self) -> int:
        """Message size plus log overhead."""
        return self.outer_record().size_in_bytes() + LOG_OVERHEAD

    def count_or_null(self) -> int | None:
        """Unknown without decompressing."""
        return None

    def __repr__(self) -> str:
        return f"LegacyRecordBatch(offset={self.offset()}, {self.outer_record()!r})"

    def write_to(self, buffer: bytearray) -> None:
        """Append the log overhead and the message to `buffer`."""
        outer = self.outer_record()
        write_header(buffer, self.offset(), outer.size_in_bytes())
        buffer += outer.buffer()

    def producer_id(self) -> int:
        """Always -1."""
        return NO_PRODUCER_ID

    def producer_epoch(self) -> int:
        """Always -1."""
        return NO_PRODUCER_EPOCH

    def has_producer_id(self) -> bool:
        """Always False."""
        return False

    def sequence(self) -> int:
        """Always -1."""
        return NO_SEQUENCE

    def base_sequence(self) -> int:
        """Always -1."""
        return NO_SEQUENCE

    def last_sequence(self) -> int:
        """Always -1."""
        return NO_SEQUENCE

    def is_transactional(self) -> bool:
        """Always False."""
        return False

    def partition_leader_epoch(self) -> int:
        """Always -1."""
        return NO_PARTITION_LEADER_EPOCH

    def is_control_batch(self) -> bool:
        """Always False."""
        return False

    def delete_horizon_ms(self) -> int | None:
        """Always None."""
        return None

    def __iter__(self) -> Iterator[Record]:
        """The inner messages of a wrapper (decompressed on first use), else this entry itself."""
        if self.is_compressed():
            return _deep_records(self, False)
        return iter((self,))

    def streaming_iterator(self) -> Iterator[Record]:
        """Same as iterating the batch."""
        return iter(self)


def _deep_records(wrapper_entry: AbstractLegacyRecordBatch, ensure_matching_magic: bool) -> Iterator[Record]:
    """Decompress a wrapper and yield its inner messages with absolute offsets."""
    wrapper_record = wrapper_entry.outer_record()
    wrapper_magic = wrapper_record.magic()
    if wrapper_magic != MAGIC_VALUE_V0 and wrapper_magic != MAGIC_VALUE_V1:
        raise InvalidRecordException(f"Invalid wrapper magic found in legacy deep record iterator {wrapper_magic}")
    compression_type = wrapper_record.compression_type()
    if compression_type is CompressionType.ZSTD:
        raise InvalidRecordException(
            f"Invalid wrapper compressionType found in legacy deep record iterator {wrapper_magic}"
        )
    wrapper_value = wrapper_record.value()
    if wrapper_value is None:
        raise InvalidRecordException(f"Found invalid compressed record set with null value (magic = {wrapper_magic})")
    data = memoryview(
        compression_type.decompress(wrapper_value, wrapper_magic, decompression_limit(len(wrapper_value)))
    )
    last_offset_from_wrapper = wrapper_entry.last_offset()
    timestamp_from_wrapper = wrapper_record.timestamp()
    wrapper_timestamp_type = wrapper_record.timestamp_type()

    inner: list[tuple[int, LegacyRecord]] = []
    n = len(data)
    pos = 0
    while n - pos >= LOG_OVERHEAD:
        offset, size = _OFFSET_SIZE.unpack_from(data, pos)
        if size < RECORD_OVERHEAD_V0:
            raise CorruptRecordException(f"Record size is less than the minimum record overhead ({RECORD_OVERHEAD_V0})")
        start = pos + LOG_OVERHEAD
        if size > n - start:
            # A trailing partial message ends the set, as Java's stream reader does.
            break
        magic = _INT8.unpack_from(data, start + 4)[0]
        if size < legacy_record_overhead(magic):
            raise CorruptRecordException(f"Record size {size} is less than the minimum overhead for magic {magic}")
        if ensure_matching_magic and magic != wrapper_magic:
            raise InvalidRecordException(
                f"Compressed message magic {magic} does not match wrapper magic {wrapper_magic}"
            )
        body = data[start : start + size]
        if magic == MAGIC_VALUE_V1:
            record = LegacyRecord(body, timestamp_from_wrapper, wrapper_timestamp_type)
        else:
            record = LegacyRecord(body)
        inner.append((offset, record))
        pos = start + size
    if not inner:
        raise InvalidRecordException("Found invalid compressed record set with no inner records")

    absolute_base_offset = -1
    if wrapper_magic == MAGIC_VALUE_V1:
        if last_offset_from_wrapper == 0:
            absolute_base_offset = 0
        else:
            last_inner_offset = inner[-1][0]
            if last_offset_from_wrapper < last_inner_offset:
                raise InvalidRecordException(
                    "Found invalid wrapper offset in compressed v1 message set, wrapper offset "
                    f"'{last_offset_from_wrapper}' is less than the last inner message offset "
                    f"'{last_inner_offset}' and it is not zero."
                )
            absolute_base_offset = last_offset_from_wrapper - last_inner_offset

    for offset, record in inner:
        if wrapper_magic == MAGIC_VALUE_V1:
            offset = absolute_base_offset + offset
        entry = BasicLegacyRecordBatch(offset, record)
        if entry.is_compressed():
            raise InvalidRecordException("Inner messages must not be compressed")
        yield entry


class BasicLegacyRecordBatch(AbstractLegacyRecordBatch):
    """An entry built from an offset and a message (inner messages of a wrapper)."""

    __slots__ = ("_offset", "_record")

    def __init__(self, offset: int, record: LegacyRecord) -> None:
        self._offset = offset
        self._record = record

    def offset(self) -> int:
        """The absolute offset."""
        return self._offset

    def outer_record(self) -> LegacyRecord:
        """The message."""
        return self._record

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, BasicLegacyRecordBatch):
            return NotImplemented
        return self._offset == other._offset and self._record == other._record

    def __hash__(self) -> int:
        return hash((self._offset, self._record))


class ByteBufferLegacyRecordBatch(AbstractLegacyRecordBatch, MutableRecordBatch):
    """An entry over a memoryview of its log overhead and message, patchable in place."""

    __slots__ = ("_buffer", "_record")

    def __init__(self, buffer: bytes | bytearray | memoryview) -> None:
        self._buffer = buffer if isinstance(buffer, memoryview) else memoryview(buffer)
        self._record = LegacyRecord(self._buffer[LOG_OVERHEAD:])

    def buffer(self) -> memoryview:
        """The entry bytes (no copy)."""
        return self._buffer

    def offset(self) -> int:
        """The offset field of the log overhead."""
        return _INT64.unpack_from(self._buffer, OFFSET_OFFSET)[0]

    def outer_record(self) -> LegacyRecord:
        """The shallow message."""
        return self._record

    def set_last_offset(self, offset: int) -> None:
        """Rewrite the offset field (the CRC does not cover it)."""
        _INT64.pack_into(self._buffer, OFFSET_OFFSET, offset)

    def set_max_timestamp(self, timestamp_type: TimestampType, max_timestamp: int) -> None:
        """Set the timestamp type and timestamp of a magic-1 message and recompute its CRC."""
        record = self._record
        if record.magic() == MAGIC_VALUE_V0:
            raise RuntimeError("Cannot set timestamp for a record with magic = 0")
        if record.timestamp_type() is timestamp_type and record.timestamp() == max_timestamp:
            return
        attributes = LegacyRecord.compute_attributes(self.magic(), self.compression_type(), timestamp_type)
        buffer = self._buffer
        _INT8.pack_into(buffer, LOG_OVERHEAD + ATTRIBUTES_OFFSET, attributes)
        _INT64.pack_into(buffer, LOG_OVERHEAD + TIMESTAMP_OFFSET, max_timestamp)
        _UINT32.pack_into(buffer, LOG_OVERHEAD + CRC_OFFSET, record.compute_checksum())

    def set_partition_leader_epoch(self, epoch: int) -> None:
        """Not supported before magic 2: raises RuntimeError (Java: UnsupportedOperationException)."""
        raise RuntimeError("Magic versions prior to 2 do not support partition leader epoch")

    def skip_key_value_iterator(self) -> Iterator[Record]:
        """Legacy messages are small; this is the ordinary iterator."""
        return iter(self)

    def write_to(self, buffer: bytearray) -> None:
        """Append the entry bytes to `buffer`."""
        buffer += self._buffer

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, ByteBufferLegacyRecordBatch):
            return NotImplemented
        return self._buffer == other._buffer

    def __hash__(self) -> int:
        return hash(bytes(self._buffer))


class LegacyFileChannelRecordBatch(FileChannelRecordBatch):
    """A magic 0/1 entry in a log file."""

    __slots__ = ()

    def _to_memory_record_batch(self, buffer: bytes) -> RecordBatch:
        return ByteBufferLegacyRecordBatch(buffer)

    def _header_size(self) -> int:
        return LOG_OVERHEAD + LegacyRecord.header_size(self._magic)

    def base_offset(self) -> int:
        """Needs the whole entry (a wrapper must be decompressed)."""
        return self.load_full_batch().base_offset()

    def delete_horizon_ms(self) -> int | None:
        """Always None."""
        return None

    def last_offset(self) -> int:
        """The offset from the log overhead."""
        return self._offset

    def producer_id(self) -> int:
        """Always -1."""
        return NO_PRODUCER_ID

    def producer_epoch(self) -> int:
        """Always -1."""
        return NO_PRODUCER_EPOCH

    def base_sequence(self) -> int:
        """Always -1."""
        return NO_SEQUENCE

    def last_sequence(self) -> int:
        """Always -1."""
        return NO_SEQUENCE

    def count_or_null(self) -> int | None:
        """Unknown."""
        return None

    def is_transactional(self) -> bool:
        """Always False."""
        return False

    def is_control_batch(self) -> bool:
        """Always False."""
        return False

    def partition_leader_epoch(self) -> int:
        """Always -1."""
        return NO_PARTITION_LEADER_EPOCH
