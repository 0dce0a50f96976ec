"""Port of clients/src/main/java/org/apache/kafka/common/record/LegacyRecord.java (Kafka 3.7).

A message of the old formats (magic 0 and 1), without the 12-byte log overhead that precedes it in
a message set. Big-endian:

    crc: uint32           (CRC32 of everything after this field)
    magic: int8           (0 or 1)
    attributes: int8      (bits 0-2 codec, bit 3 timestamp type for magic 1)
    timestamp: int64      (magic 1 only)
    key: int32 length (-1 = null) + bytes
    value: int32 length (-1 = null) + bytes

A compressed message set is one such wrapper message whose value is the compressed inner messages.
Keys and values are returned as zero-copy memoryviews of the message buffer.
"""

from __future__ import annotations

import struct
import zlib
from typing import Final

from kafka.common.errors import CorruptRecordException
from kafka.common.record.compression_type import CompressionType
from kafka.common.record.record_batch import MAGIC_VALUE_V0, MAGIC_VALUE_V1, NO_TIMESTAMP
from kafka.common.record.timestamp_type import TimestampType

Buffer = bytes | bytearray | memoryview

CRC_OFFSET: Final = 0
CRC_LENGTH: Final = 4
MAGIC_OFFSET: Final = CRC_OFFSET + CRC_LENGTH
MAGIC_LENGTH: Final = 1
ATTRIBUTES_OFFSET: Final = MAGIC_OFFSET + MAGIC_LENGTH
ATTRIBUTES_LENGTH: Final = 1
TIMESTAMP_OFFSET: Final = ATTRIBUTES_OFFSET + ATTRIBUTES_LENGTH
TIMESTAMP_LENGTH: Final = 8
KEY_SIZE_OFFSET_V0: Final = ATTRIBUTES_OFFSET + ATTRIBUTES_LENGTH
KEY_SIZE_OFFSET_V1: Final = TIMESTAMP_OFFSET + TIMESTAMP_LENGTH
KEY_SIZE_LENGTH: Final = 4
KEY_OFFSET_V0: Final = KEY_SIZE_OFFSET_V0 + KEY_SIZE_LENGTH
KEY_OFFSET_V1: Final = KEY_SIZE_OFFSET_V1 + KEY_SIZE_LENGTH
VALUE_SIZE_LENGTH: Final = 4
HEADER_SIZE_V0: Final = CRC_LENGTH + MAGIC_LENGTH + ATTRIBUTES_LENGTH
HEADER_SIZE_V1: Final = CRC_LENGTH + MAGIC_LENGTH + ATTRIBUTES_LENGTH + TIMESTAMP_LENGTH
RECORD_OVERHEAD_V0: Final = HEADER_SIZE_V0 + KEY_SIZE_LENGTH + VALUE_SIZE_LENGTH
RECORD_OVERHEAD_V1: Final = HEADER_SIZE_V1 + KEY_SIZE_LENGTH + VALUE_SIZE_LENGTH

COMPRESSION_CODEC_MASK: Final = 0x07
TIMESTAMP_TYPE_MASK: Final = 0x08

_INT32: Final = struct.Struct(">i")
_UINT32: Final = struct.Struct(">I")
_INT64: Final = struct.Struct(">q")
_INT8: Final = struct.Struct(">b")
_MAGIC_ATTRIBUTES: Final = struct.Struct(">bb")
_MAGIC_ATTRIBUTES_TIMESTAMP: Final = struct.Struct(">bbq")
_NULL_LENGTH: Final = _INT32.pack(-1)
_CODECS: Final = CompressionType.values()


class LegacyRecord:
    """A magic 0/1 message over a memoryview of exactly its bytes.

    A message decoded from a compressed v1 wrapper carries the wrapper's timestamp and timestamp
    type: with LogAppendTime the wrapper's timestamp overrides the inner one.
    """

    __slots__ = ("_buffer", "_wrapper_record_timestamp", "_wrapper_record_timestamp_type")

    CRC_OFFSET: Final = CRC_OFFSET
    MAGIC_OFFSET: Final = MAGIC_OFFSET
    ATTRIBUTES_OFFSET: Final = ATTRIBUTES_OFFSET
    TIMESTAMP_OFFSET: Final = TIMESTAMP_OFFSET
    KEY_SIZE_OFFSET_V0: Final = KEY_SIZE_OFFSET_V0
    KEY_SIZE_OFFSET_V1: Final = KEY_SIZE_OFFSET_V1
    KEY_OFFSET_V0: Final = KEY_OFFSET_V0
    KEY_OFFSET_V1: Final = KEY_OFFSET_V1
    HEADER_SIZE_V0: Final = HEADER_SIZE_V0
    HEADER_SIZE_V1: Final = HEADER_SIZE_V1
    RECORD_OVERHEAD_V0: Final = RECORD_OVERHEAD_V0
    RECORD_OVERHEAD_V1: Final = RECORD_OVERHEAD_V1
    NO_TIMESTAMP: Final = NO_TIMESTAMP

    def __init__(
        self,
        buffer: Buffer,
        wrapper_record_timestamp: int | None = None,
        wrapper_record_timestamp_type: TimestampType | None = None,
    ) -> None:
        self._buffer = buffer if isinstance(buffer, memoryview) else memoryview(buffer)
        self._wrapper_record_timestamp = wrapper_record_timestamp
        self._wrapper_record_timestamp_type = wrapper_record_timestamp_type

    def compute_checksum(self) -> int:
        """CRC32 of everything after the CRC field."""
        return zlib.crc32(self._buffer[MAGIC_OFFSET:]) & 0xFFFFFFFF

    def checksum(self) -> int:
        """The stored CRC32."""
        return self._read(_UINT32, CRC_OFFSET)

    def is_valid(self) -> bool:
        """True when the message is large enough and its CRC matches."""
        return self.size_in_bytes() >= RECORD_OVERHEAD_V0 and self.checksum() == self.compute_checksum()

    def wrapper_record_timestamp(self) -> int | None:
        """The timestamp inherited from a compressed wrapper, if any."""
        return self._wrapper_record_timestamp

    def wrapper_record_timestamp_type(self) -> TimestampType | None:
        """The timestamp type inherited from a compressed wrapper, if any."""
        return self._wrapper_record_timestamp_type

    def ensure_valid(self) -> None:
        """Raise CorruptRecordException when the message is too small or its CRC does not match."""
        size = self.size_in_bytes()
        if size < RECORD_OVERHEAD_V0:
            raise CorruptRecordException(
                f"Record is corrupt (crc could not be retrieved as the record is too small, size = {size})"
            )
        stored = self.checksum()
        computed = self.compute_checksum()
        if stored != computed:
            raise CorruptRecordException(f"Record is corrupt (stored crc = {stored}, computed crc = {computed})")

    def size_in_bytes(self) -> int:
        """The message size."""
        return len(self._buffer)

    def _read(self, codec: struct.Struct, offset: int) -> int:
        try:
            return codec.unpack_from(self._buffer, offset)[0]
        except struct.error:
            raise CorruptRecordException(
                f"Record is corrupt (a field at {offset} lies past the end of the {len(self._buffer)}-byte message)"
            ) from None

    def _key_size_offset(self) -> int:
        return KEY_SIZE_OFFSET_V0 if self.magic() == MAGIC_VALUE_V0 else KEY_SIZE_OFFSET_V1

    def key_size(self) -> int:
        """The key length, -1 for null."""
        return self._read(_INT32, self._key_size_offset())

    def has_key(self) -> bool:
        """True when the key is not null."""
        return self.key_size() >= 0

    def _value_size_offset(self) -> int:
        base = KEY_OFFSET_V0 if self.magic() == MAGIC_VALUE_V0 else KEY_OFFSET_V1
        return base + max(0, self.key_size())

    def value_size(self) -> int:
        """The value length, -1 for null."""
        return self._read(_INT32, self._value_size_offset())

    def has_null_value(self) -> bool:
        """True when the value is null."""
        return self.value_size() < 0

    def magic(self) -> int:
        """The magic byte."""
        return self._read(_INT8, MAGIC_OFFSET)

    def attributes(self) -> int:
        """The attributes byte."""
        return self._read(_INT8, ATTRIBUTES_OFFSET)

    def timestamp(self) -> int:
        """The timestamp: -1 for magic 0, the wrapper's for LogAppendTime wrappers, else the field."""
        if self.magic() == MAGIC_VALUE_V0:
            return NO_TIMESTAMP
        if (
            self._wrapper_record_timestamp_type is TimestampType.LOG_APPEND_TIME
            and self._wrapper_record_timestamp is not None
        ):
            return self._wrapper_record_timestamp
        return self._read(_INT64, TIMESTAMP_OFFSET)

    def timestamp_type(self) -> TimestampType:
        """The timestamp type (NoTimestampType for magic 0)."""
        return LegacyRecord.timestamp_type_for(self.magic(), self._wrapper_record_timestamp_type, self.attributes())

    def compression_type(self) -> CompressionType:
        """The codec from attribute bits 0-2; CorruptRecordException for ids 5-7."""
        codec_id = self.attributes() & COMPRESSION_CODEC_MASK
        if codec_id < len(_CODECS):
            return _CODECS[codec_id]
        raise CorruptRecordException(f"Unknown compression type id: {codec_id}")

    def _size_delimited(self, size_offset: int) -> memoryview | None:
        size = self._read(_INT32, size_offset)
        if size < 0:
            return None
        start = size_offset + 4
        if size > len(self._buffer) - start:
            raise CorruptRecordException(
                f"Record is corrupt (a field of {size} bytes at {start} overruns the {len(self._buffer)}-byte message)"
            )
        return self._buffer[start : start + size]

    def value(self) -> memoryview | None:
        """The value bytes (a view of the message), or None."""
        return self._size_delimited(self._value_size_offset())

    def key(self) -> memoryview | None:
        """The key bytes (a view of the message), or None."""
        return self._size_delimited(self._key_size_offset())

    def buffer(self) -> memoryview:
        """The message bytes."""
        return self._buffer

    def __repr__(self) -> str:
        try:
            key = self.key()
            value = self.value()
            key_len = 0 if key is None else len(key)
            value_len = 0 if value is None else len(value)
            if self.magic() > 0:
                return (
                    f"Record(magic={self.magic()}, attributes={self.attributes()}, "
                    f"compression={self.compression_type()}, crc={self.checksum()}, "
                    f"{self.timestamp_type()}={self.timestamp()}, key={key_len} bytes, value={value_len} bytes)"
                )
            return (
                f"Record(magic={self.magic()}, attributes={self.attributes()}, compression={self.compression_type()}, "
                f"crc={self.checksum()}, key={key_len} bytes, value={value_len} bytes)"
            )
        except CorruptRecordException:
            return f"Record(corrupt, {len(self._buffer)} bytes)"

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if type(other) is not LegacyRecord:
            return NotImplemented
        assert isinstance(other, LegacyRecord)
        return self._buffer == other._buffer

    def __hash__(self) -> int:
        return hash(bytes(self._buffer))

    # ---- building --------------------------------------------------------------------------------

    @staticmethod
    def create(
        magic: int,
        timestamp: int,
        key: Buffer | None,
        value: Buffer | None,
        compression_type: CompressionType = CompressionType.NONE,
        timestamp_type: TimestampType = TimestampType.CREATE_TIME,
    ) -> LegacyRecord:
        """A new message with these fields."""
        out = bytearray()
        LegacyRecord.write(out, magic, timestamp, key, value, compression_type, timestamp_type)
        return LegacyRecord(bytes(out))

    @staticmethod
    def write_compressed_record_header(
        buffer: bytearray | memoryview,
        position: int,
        magic: int,
        record_size: int,
        timestamp: int,
        compression_type: CompressionType,
        timestamp_type: TimestampType,
    ) -> None:
        """Write a wrapper message header at `position` whose value (already in place) ends at record_size.

        The wrapper has a null key; its value length is `record_size` minus the message overhead.
        """
        value_size = record_size - LegacyRecord.record_overhead(magic)
        attributes = LegacyRecord.compute_attributes(magic, compression_type, timestamp_type)
        if magic > MAGIC_VALUE_V0:
            _MAGIC_ATTRIBUTES_TIMESTAMP.pack_into(buffer, position + MAGIC_OFFSET, magic, attributes, timestamp)
        else:
            _MAGIC_ATTRIBUTES.pack_into(buffer, position + MAGIC_OFFSET, magic, attributes)
        key_offset = LegacyRecord.key_offset(magic)
        _INT32.pack_into(buffer, position + key_offset - KEY_SIZE_LENGTH, -1)
        _INT32.pack_into(buffer, position + key_offset, value_size)
        view = buffer if isinstance(buffer, memoryview) else memoryview(buffer)
        try:
            crc = zlib.crc32(view[position + MAGIC_OFFSET : position + record_size]) & 0xFFFFFFFF
        finally:
            if view is not buffer:
                view.release()
        _UINT32.pack_into(buffer, position + CRC_OFFSET, crc)

    @staticmethod
    def write(
        out: bytearray,
        magic: int,
        timestamp: int,
        key: Buffer | None,
        value: Buffer | None,
        compression_type: CompressionType = CompressionType.NONE,
        timestamp_type: TimestampType = TimestampType.CREATE_TIME,
    ) -> int:
        """Append a message to `out`; returns its CRC."""
        attributes = LegacyRecord.compute_attributes(magic, compression_type, timestamp_type)
        return LegacyRecord.write_with_attributes(out, magic, attributes, timestamp, key, value)

    @staticmethod
    def write_with_attributes(
        out: bytearray, magic: int, attributes: int, timestamp: int, key: Buffer | None, value: Buffer | None
    ) -> int:
        """Append a message with explicit attributes to `out`; returns its CRC."""
        if magic != MAGIC_VALUE_V0 and magic != MAGIC_VALUE_V1:
            raise ValueError(f"Invalid magic value {magic}")
        if timestamp < 0 and timestamp != NO_TIMESTAMP:
            raise ValueError(f"Invalid message timestamp {timestamp}")
        if attributes > 127:
            attributes -= 256
        parts: list[Buffer] = [
            _MAGIC_ATTRIBUTES_TIMESTAMP.pack(magic, attributes, timestamp)
            if magic > MAGIC_VALUE_V0
            else _MAGIC_ATTRIBUTES.pack(magic, attributes)
        ]
        if key is None:
            parts.append(_NULL_LENGTH)
        else:
            parts.append(_INT32.pack(len(key)))
            parts.append(key)
        if value is None:
            parts.append(_NULL_LENGTH)
        else:
            parts.append(_INT32.pack(len(value)))
            parts.append(value)
        body = b"".join(parts)
        crc = zlib.crc32(body) & 0xFFFFFFFF
        out += _UINT32.pack(crc)
        out += body
        return crc

    @staticmethod
    def record_size(magic: int, key_size: int, value_size: int) -> int:
        """Size of a message with a key and value of these sizes (a null counts as 0)."""
        return LegacyRecord.record_overhead(magic) + key_size + value_size

    @staticmethod
    def record_size_of(magic: int, key: Buffer | None, value: Buffer | None) -> int:
        """Size of a message with this key and value."""
        return LegacyRecord.record_size(magic, 0 if key is None else len(key), 0 if value is None else len(value))

    @staticmethod
    def compute_attributes(magic: int, compression_type: CompressionType, timestamp_type: TimestampType) -> int:
        """The attributes byte for a message of `magic`."""
        attributes = 0
        if compression_type.id > 0:
            attributes |= COMPRESSION_CODEC_MASK & compression_type.id
        if magic > MAGIC_VALUE_V0:
            if timestamp_type is TimestampType.NO_TIMESTAMP_TYPE:
                raise ValueError("Timestamp type must be provided to compute attributes for message format v1")
            if timestamp_type is TimestampType.LOG_APPEND_TIME:
                attributes |= TIMESTAMP_TYPE_MASK
        return attributes

    @staticmethod
    def compute_checksum_for(
        magic: int, attributes: int, timestamp: int, key: Buffer | None, value: Buffer | None
    ) -> int:
        """The CRC32 a message with these fields would carry.

        # PORT: Java's static computeChecksum(...) overload; renamed next to the instance method.
        """
        crc = zlib.crc32(_MAGIC_ATTRIBUTES.pack(magic, attributes - 256 if attributes > 127 else attributes))
        if magic > MAGIC_VALUE_V0:
            crc = zlib.crc32(_INT64.pack(timestamp), crc)
        for field in (key, value):
            if field is None:
                crc = zlib.crc32(_NULL_LENGTH, crc)
            else:
                crc = zlib.crc32(_INT32.pack(len(field)), crc)
                crc = zlib.crc32(field, crc)
        return crc & 0xFFFFFFFF

    @staticmethod
    def record_overhead(magic: int) -> int:
        """Fixed bytes of a message of `magic`."""
        if magic == 0:
            return RECORD_OVERHEAD_V0
        if magic == 1:
            return RECORD_OVERHEAD_V1
        raise ValueError(f"Invalid magic used in LegacyRecord: {magic}")

    @staticmethod
    def header_size(magic: int) -> int:
        """Bytes before the key length of a message of `magic`."""
        if magic == 0:
            return HEADER_SIZE_V0
        if magic == 1:
            return HEADER_SIZE_V1
        raise ValueError(f"Invalid magic used in LegacyRecord: {magic}")

    @staticmethod
    def key_offset(magic: int) -> int:
        """Where the key bytes start in a message of `magic`."""
        if magic == 0:
            return KEY_OFFSET_V0
        if magic == 1:
            return KEY_OFFSET_V1
        raise ValueError(f"Invalid magic used in LegacyRecord: {magic}")

    @staticmethod
    def timestamp_type_for(
        magic: int, wrapper_record_timestamp_type: TimestampType | None, attributes: int
    ) -> TimestampType:
        """The timestamp type of a message of `magic` with `attributes`, as seen inside a wrapper.

        # PORT: Java's static timestampType(...) overload; renamed next to the instance method.
        """
        if magic == 0:
            return TimestampType.NO_TIMESTAMP_TYPE
        if wrapper_record_timestamp_type is not None:
            return wrapper_record_timestamp_type
        if attributes & TIMESTAMP_TYPE_MASK == 0:
            return TimestampType.CREATE_TIME
        return TimestampType.LOG_APPEND_TIME
