"""Port of clients/src/main/java/org/apache/kafka/common/record/DefaultRecord.java (Kafka 3.7).

A record of the v2 format (magic 2). On the wire, inside a DefaultRecordBatch:

    length: varint              (size of everything after this field)
    attributes: int8            (unused, always 0)
    timestampDelta: varlong     (relative to the batch base timestamp)
    offsetDelta: varint         (relative to the batch base offset)
    keyLength: varint, key      (-1 for a null key)
    valueLength: varint, value  (-1 for a null value)
    headerCount: varint, then per header: keyLength varint, key (UTF-8), valueLength varint, value

The varint helpers (Java's ByteUtils) live here too: zig-zag encoded, at most 5 bytes for an int
and 10 for a long, as Java reads them.

Decoding reads from a `bytes` object (a batch's record section, copied once or decompressed), so
keys and values come out as `bytes`; every failure is an InvalidRecordException, as in Java.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Final

from kafka.common.errors import InvalidRecordException
from kafka.common.record.record import EMPTY_HEADERS, Record
from kafka.common.record.record_batch import MAGIC_VALUE_V2, NO_SEQUENCE
from kafka.common.record.record_header import Header, RecordHeader, header_key_bytes

if TYPE_CHECKING:
    from kafka.common.record.partial_default_record import PartialDefaultRecord
    from kafka.common.record.timestamp_type import TimestampType

Buffer = bytes | bytearray | memoryview

MAX_RECORD_OVERHEAD: Final = 21
_M32: Final = 0xFFFFFFFF
_M64: Final = 0xFFFFFFFFFFFFFFFF
_MIN64: Final = -(2**63)
_MAX64: Final = 2**63 - 1
_INT32_MAX: Final = 2**31 - 1

# ---- varints (Java's ByteUtils) ------------------------------------------------------------------


def _uvarint(u: int) -> bytes:
    out = bytearray()
    while u >= 0x80:
        out.append((u & 0x7F) | 0x80)
        u >>= 7
    out.append(u)
    return bytes(out)


# Encodings of every unsigned value below 2^14 (all one- and two-byte varints), so that the usual
# lengths and deltas of a record cost one tuple lookup.
_UVARINT_TABLE_SIZE: Final = 1 << 14
_UVARINT_TABLE: Final = tuple(_uvarint(u) for u in range(_UVARINT_TABLE_SIZE))


# Larger values recur too (the lengths of same-sized values, of their records): the last ones are remembered.
_cached_uvarint: Final = functools.lru_cache(maxsize=256)(_uvarint)


def varint_bytes(value: int) -> bytes:
    """The zig-zag varint encoding of the 32-bit int `value`."""
    u = (value << 1) ^ (value >> 31)
    if 0 <= u < _UVARINT_TABLE_SIZE:
        return _UVARINT_TABLE[u]
    return _cached_uvarint(u & _M32)


def varlong_bytes(value: int) -> bytes:
    """The zig-zag varint encoding of the 64-bit long `value` (wrapped to 64 bits as Java would)."""
    u = (value << 1) ^ (value >> 63)
    if 0 <= u < _UVARINT_TABLE_SIZE:
        return _UVARINT_TABLE[u]
    if not _MIN64 <= value <= _MAX64:
        value = ((value - _MIN64) & _M64) + _MIN64
    return _uvarint(((value << 1) ^ (value >> 63)) & _M64)


def write_varint(value: int, out: bytearray) -> None:
    """Append the varint of the int `value` to `out`."""
    out += varint_bytes(value)


def write_varlong(value: int, out: bytearray) -> None:
    """Append the varint of the long `value` to `out`."""
    out += varlong_bytes(value)


def write_unsigned_varint(value: int, out: bytearray) -> None:
    """Append `value` (0 <= value < 2^32) as an unsigned varint."""
    out += _uvarint(value & _M32)


def size_of_varint(value: int) -> int:
    """Bytes needed for the zig-zag varint of the int `value`."""
    u = ((value << 1) ^ (value >> 31)) & _M32
    return (u.bit_length() + 6) // 7 or 1


def size_of_varlong(value: int) -> int:
    """Bytes needed for the zig-zag varint of the long `value`."""
    if not _MIN64 <= value <= _MAX64:
        value = ((value - _MIN64) & _M64) + _MIN64
    u = ((value << 1) ^ (value >> 63)) & _M64
    return (u.bit_length() + 6) // 7 or 1


def size_of_unsigned_varint(value: int) -> int:
    """Bytes needed for `value` as an unsigned varint."""
    return ((value & _M32).bit_length() + 6) // 7 or 1


def read_unsigned_varint(buf: Buffer, pos: int) -> tuple[int, int]:
    """Read an unsigned varint of at most 5 bytes; IndexError when truncated, InvalidRecordException if too long."""
    value = 0
    shift = 0
    while True:
        b = buf[pos]
        pos += 1
        if b < 0x80:
            return (value | (b << shift)) & _M32, pos
        value |= (b & 0x7F) << shift
        shift += 7
        if shift > 28:
            raise InvalidRecordException("Found invalid record structure: varint is too long")


def read_varint(buf: Buffer, pos: int) -> tuple[int, int]:
    """Read a zig-zag varint int at `pos`; returns (value, next position).

    Raises IndexError when the buffer ends first, InvalidRecordException for more than 5 bytes.
    """
    b = buf[pos]
    if b < 0x80:
        return (b >> 1) ^ -(b & 1), pos + 1
    b2 = buf[pos + 1]
    if b2 < 0x80:
        u = (b & 0x7F) | (b2 << 7)
        return (u >> 1) ^ -(u & 1), pos + 2
    u, pos = read_unsigned_varint(buf, pos)
    return (u >> 1) ^ -(u & 1), pos


def read_varlong(buf: Buffer, pos: int) -> tuple[int, int]:
    """Read a zig-zag varint long at `pos`; returns (value, next position).

    Raises IndexError when the buffer ends first, InvalidRecordException for more than 10 bytes.
    """
    b = buf[pos]
    if b < 0x80:
        return (b >> 1) ^ -(b & 1), pos + 1
    value = 0
    shift = 0
    while True:
        b = buf[pos]
        pos += 1
        if b < 0x80:
            value = (value | (b << shift)) & _M64
            return (value >> 1) ^ -(value & 1), pos
        value |= (b & 0x7F) << shift
        shift += 7
        if shift > 63:
            raise InvalidRecordException("Found invalid record structure: varlong is too long")


_NULL_VARINT: Final = varint_bytes(-1)


#: The v2 record writer in C (the optional extension `_default_record_writer`, built from source at install time
#: where a C compiler is found), or None: then DefaultRecord.write_to's Python below writes every record. Called as
#: write_record(out, offset_delta, timestamp_delta, key, value, headers_tail, room), it appends the same bytes as
#: write_to (headers_tail: `_headers_bytes(headers)`, None without headers) and returns their size, or -1 without
#: writing when they are more than `room`, or None for deltas out of an int/long's range (the Python path wraps
#: them). KAFKA_PORT_PURE_PYTHON_WRITER=1 selects the Python writer (the tests run both).
def _load_compiled_writer() -> Callable[..., int | None] | None:
    if os.environ.get("KAFKA_PORT_PURE_PYTHON_WRITER") == "1":
        return None
    try:
        from kafka.common.record import _default_record_writer  # type: ignore[attr-defined]
    except ImportError:
        return None
    write: Callable[..., int | None] = _default_record_writer.write_record
    return write


_compiled_write_record = _load_compiled_writer()
_NO_LIMIT: Final = 2**62
_NULL_VARINT_SIZE_BYTES: Final = 1


def increment_sequence(sequence: int, increment: int) -> int:
    """`sequence + increment`, wrapping from 2^31 - 1 back to 0 as producer sequences do."""
    if sequence > _INT32_MAX - increment:
        return increment - (_INT32_MAX - sequence) - 1
    return sequence + increment


def decrement_sequence(sequence: int, decrement: int) -> int:
    """`sequence - decrement`, wrapping below 0 back to 2^31 - 1."""
    if sequence < decrement:
        return _INT32_MAX - (decrement - sequence) + 1
    return sequence - decrement


def _invalid_structure() -> InvalidRecordException:
    return InvalidRecordException("Found invalid record structure")


class DefaultRecord(Record):
    """A decoded magic-2 record."""

    __slots__ = ("_attributes", "_headers", "_key", "_offset", "_sequence", "_size_in_bytes", "_timestamp", "_value")

    MAX_RECORD_OVERHEAD: Final = MAX_RECORD_OVERHEAD

    def __init__(
        self,
        size_in_bytes: int,
        attributes: int,
        offset: int,
        timestamp: int,
        sequence: int,
        key: bytes | None,
        value: bytes | None,
        headers: Sequence[Header] | None,
    ) -> None:
        self._size_in_bytes = size_in_bytes
        self._attributes = attributes
        self._offset = offset
        self._timestamp = timestamp
        self._sequence = sequence
        self._key = key
        self._value = value
        self._headers = headers

    def offset(self) -> int:
        """The absolute offset."""
        return self._offset

    def sequence(self) -> int:
        """The producer sequence, or -1."""
        return self._sequence

    def size_in_bytes(self) -> int:
        """The encoded size including the length varint."""
        return self._size_in_bytes

    def timestamp(self) -> int:
        """The timestamp (the batch's max timestamp for LogAppendTime batches)."""
        return self._timestamp

    def attributes(self) -> int:
        """The record attributes byte (unused by Kafka)."""
        return self._attributes

    def ensure_valid(self) -> None:
        """Nothing to check: magic-2 records are covered by the batch CRC."""

    def key_size(self) -> int:
        """Key length, -1 if null."""
        return -1 if self._key is None else len(self._key)

    def value_size(self) -> int:
        """Value length, -1 if null."""
        return -1 if self._value is None else len(self._value)

    def has_key(self) -> bool:
        """True when the key is not null."""
        return self._key is not None

    def key(self) -> bytes | None:
        """The key, or None."""
        return self._key

    def has_value(self) -> bool:
        """True when the value is not null."""
        return self._value is not None

    def value(self) -> bytes | None:
        """The value, or None."""
        return self._value

    def headers(self) -> Sequence[Header]:
        """The headers."""
        return self._headers if self._headers is not None else EMPTY_HEADERS

    def has_magic(self, magic: int) -> bool:
        """Magic-2 records fit any batch of magic 2 or later."""
        return magic >= MAGIC_VALUE_V2

    def is_compressed(self) -> bool:
        """A v2 record is never a compressed wrapper."""
        return False

    def has_timestamp_type(self, timestamp_type: TimestampType) -> bool:
        """The timestamp type belongs to the batch, not to a v2 record."""
        return False

    def __repr__(self) -> str:
        return (
            f"DefaultRecord(offset={self._offset}, timestamp={self._timestamp}, "
            f"key={0 if self._key is None else len(self._key)} bytes, "
            f"value={0 if self._value is None else len(self._value)} bytes)"
        )

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, DefaultRecord)
        return (
            self._size_in_bytes == other._size_in_bytes
            and self._attributes == other._attributes
            and self._offset == other._offset
            and self._timestamp == other._timestamp
            and self._sequence == other._sequence
            and self._key == other._key
            and self._value == other._value
            and tuple(self.headers()) == tuple(other.headers())
        )

    def __hash__(self) -> int:
        return hash((self._size_in_bytes, self._offset, self._timestamp, self._sequence, self._key, self._value))

    # ---- writing ---------------------------------------------------------------------------------

    @staticmethod
    def write_to(
        out: bytearray,
        offset_delta: int,
        timestamp_delta: int,
        key: Buffer | None,
        value: Buffer | None,
        headers: Sequence[Header] = EMPTY_HEADERS,
    ) -> int:
        """Append one encoded record to `out`; returns the bytes written."""
        if headers is None:
            raise ValueError("Headers cannot be null")
        compiled = _compiled_write_record
        if compiled is not None:
            written = compiled(
                out, offset_delta, timestamp_delta, key, value, _headers_bytes(headers) if headers else None, _NO_LIMIT
            )
            if written is not None:
                return written
        # The producer's hot path: the varints of small deltas and lengths come from the table, and the
        # value goes into `out` as it is rather than through an intermediate copy of the whole record.
        u = (timestamp_delta << 1) ^ (timestamp_delta >> 63)
        timestamp_bytes = _UVARINT_TABLE[u] if 0 <= u < _UVARINT_TABLE_SIZE else varlong_bytes(timestamp_delta)
        u = (offset_delta << 1) ^ (offset_delta >> 31)
        offset_bytes = _UVARINT_TABLE[u] if 0 <= u < _UVARINT_TABLE_SIZE else varint_bytes(offset_delta)
        # attributes (0), the two deltas, the key and the value's length
        if key is None:
            head = b"".join(
                (
                    b"\x00",
                    timestamp_bytes,
                    offset_bytes,
                    _NULL_VARINT,
                    _NULL_VARINT if value is None else varint_bytes(len(value)),
                )
            )
        else:
            head = b"".join(
                (
                    b"\x00",
                    timestamp_bytes,
                    offset_bytes,
                    varint_bytes(len(key)),
                    key,
                    _NULL_VARINT if value is None else varint_bytes(len(value)),
                )
            )
        tail = _headers_bytes(headers) if headers else b"\x00"
        size = len(head) + len(tail)
        if value is not None:
            size += len(value)
        prefix = varint_bytes(size)
        out += prefix
        out += head
        if value is not None:
            out += value
        out += tail
        return len(prefix) + size

    # ---- sizes -----------------------------------------------------------------------------------

    @staticmethod
    def size_in_bytes_of(
        offset_delta: int, timestamp_delta: int, key: Buffer | None, value: Buffer | None, headers: Sequence[Header]
    ) -> int:
        """Encoded size of a record with these fields, including its length varint.

        # PORT: Java overloads sizeInBytes(...) as a static method; the instance method of that name
        is the record's own size, so the static form is named size_in_bytes_of.
        """
        body = DefaultRecord.size_of_body_in_bytes(
            offset_delta,
            timestamp_delta,
            -1 if key is None else len(key),
            -1 if value is None else len(value),
            headers,
        )
        return body + size_of_varint(body)

    @staticmethod
    def size_of_body_in_bytes(
        offset_delta: int, timestamp_delta: int, key_size: int, value_size: int, headers: Sequence[Header]
    ) -> int:
        """Encoded size of a record body (without its length varint)."""
        size = 1 + size_of_varint(offset_delta) + size_of_varlong(timestamp_delta)
        return size + _size_of(key_size, value_size, headers)

    @staticmethod
    def record_size_upper_bound(key: Buffer | None, value: Buffer | None, headers: Sequence[Header]) -> int:
        """An upper bound on the encoded size of a record with this key, value and headers."""
        return MAX_RECORD_OVERHEAD + _size_of(
            -1 if key is None else len(key), -1 if value is None else len(value), headers
        )

    # ---- reading ---------------------------------------------------------------------------------

    @staticmethod
    def read_from(
        data: bytes,
        pos: int,
        base_offset: int,
        base_timestamp: int,
        base_sequence: int,
        log_append_time: int | None,
    ) -> tuple[DefaultRecord, int]:
        """Decode the record at `data[pos:]`; returns it and the position after it."""
        return _read_record(data, pos, len(data), base_offset, base_timestamp, base_sequence, log_append_time)

    @staticmethod
    def read_partially_from(
        data: bytes,
        pos: int,
        base_offset: int,
        base_timestamp: int,
        base_sequence: int,
        log_append_time: int | None,
    ) -> tuple[PartialDefaultRecord, int]:
        """Decode the record at `data[pos:]` without copying its key, value or headers."""
        return _read_partial_record(data, pos, len(data), base_offset, base_timestamp, base_sequence, log_append_time)


def _headers_bytes(headers: Sequence[Header]) -> bytes:
    """The encoded header count and headers of a record."""
    parts: list[Buffer] = [varint_bytes(len(headers))]
    for header in headers:
        key_bytes = header_key_bytes(header)
        parts.append(varint_bytes(len(key_bytes)))
        parts.append(key_bytes)
        header_value = header.value()
        if header_value is None:
            parts.append(_NULL_VARINT)
        else:
            parts.append(varint_bytes(len(header_value)))
            parts.append(header_value)
    return b"".join(parts)


def _size_of(key_size: int, value_size: int, headers: Sequence[Header]) -> int:
    size = _NULL_VARINT_SIZE_BYTES if key_size < 0 else size_of_varint(key_size) + key_size
    size += _NULL_VARINT_SIZE_BYTES if value_size < 0 else size_of_varint(value_size) + value_size
    if headers is None:
        raise ValueError("Headers cannot be null")
    size += size_of_varint(len(headers))
    for header in headers:
        key_length = len(header_key_bytes(header))
        size += size_of_varint(key_length) + key_length
        header_value = header.value()
        if header_value is None:
            size += _NULL_VARINT_SIZE_BYTES
        else:
            size += size_of_varint(len(header_value)) + len(header_value)
    return size


def _read_record(
    data: bytes,
    pos: int,
    limit: int,
    base_offset: int,
    base_timestamp: int,
    base_sequence: int,
    log_append_time: int | None,
) -> tuple[DefaultRecord, int]:
    """Decode one record from `data[pos:limit]`; every failure is an InvalidRecordException."""
    try:
        b = data[pos]
        if b < 0x80:
            size = (b >> 1) ^ -(b & 1)
            p = pos + 1
        else:
            size, p = read_varint(data, pos)
    except IndexError:
        raise InvalidRecordException("Incorrect declared batch size, premature EOF reached") from None
    if size < 0 or size > limit - p:
        raise InvalidRecordException(
            f"Invalid record size: expected {size} bytes in record payload, but instead the buffer has only "
            f"{limit - p} remaining bytes."
        )
    end = p + size
    try:
        attributes = data[p]
        if attributes > 127:
            attributes -= 256
        p += 1
        b = data[p]
        if b < 0x80:
            timestamp_delta = (b >> 1) ^ -(b & 1)
            p += 1
        else:
            timestamp_delta, p = read_varlong(data, p)
        if log_append_time is not None:
            timestamp = log_append_time
        else:
            timestamp = base_timestamp + timestamp_delta
            if not _MIN64 <= timestamp <= _MAX64:
                timestamp = ((timestamp - _MIN64) & _M64) + _MIN64
        b = data[p]
        if b < 0x80:
            offset_delta = (b >> 1) ^ -(b & 1)
            p += 1
        else:
            offset_delta, p = read_varint(data, p)
        sequence = increment_sequence(base_sequence, offset_delta) if base_sequence >= 0 else NO_SEQUENCE

        b = data[p]
        if b < 0x80:
            key_size = (b >> 1) ^ -(b & 1)
            p += 1
        else:
            key_size, p = read_varint(data, p)
        key: bytes | None
        if key_size < 0:
            key = None
        else:
            if key_size > end - p:
                raise _invalid_structure()
            key = data[p : p + key_size]
            p += key_size

        b = data[p]
        if b < 0x80:
            value_size = (b >> 1) ^ -(b & 1)
            p += 1
        else:
            value_size, p = read_varint(data, p)
        value: bytes | None
        if value_size < 0:
            value = None
        else:
            if value_size > end - p:
                raise _invalid_structure()
            value = data[p : p + value_size]
            p += value_size

        b = data[p]
        if b < 0x80:
            num_headers = (b >> 1) ^ -(b & 1)
            p += 1
        else:
            num_headers, p = read_varint(data, p)
        headers: Sequence[Header]
        if num_headers == 0:
            headers = EMPTY_HEADERS
        else:
            if num_headers < 0:
                raise InvalidRecordException(f"Found invalid number of record headers {num_headers}")
            if num_headers > end - p:
                raise InvalidRecordException(
                    f"Found invalid number of record headers. {num_headers} is larger than the remaining size "
                    "of the buffer"
                )
            header_list: list[Header] = []
            for _ in range(num_headers):
                header_key_size, p = read_varint(data, p)
                if header_key_size < 0:
                    raise InvalidRecordException(f"Invalid negative header key size {header_key_size}")
                if header_key_size > end - p:
                    raise _invalid_structure()
                header_key = data[p : p + header_key_size]
                p += header_key_size
                header_value_size, p = read_varint(data, p)
                header_value: bytes | None
                if header_value_size < 0:
                    header_value = None
                else:
                    if header_value_size > end - p:
                        raise _invalid_structure()
                    header_value = data[p : p + header_value_size]
                    p += header_value_size
                header_list.append(RecordHeader(header_key, header_value))
            headers = header_list
    except IndexError:
        raise _invalid_structure() from None
    if p != end:
        raise InvalidRecordException(
            f"Invalid record size: expected to read {size} bytes in record payload, but instead read {p - (end - size)}"
        )
    record = DefaultRecord(end - pos, attributes, base_offset + offset_delta, timestamp, sequence, key, value, headers)
    return record, end


def _skip_sized(data: bytes, p: int, end: int) -> tuple[int, int]:
    size, p = read_varint(data, p)
    if size > 0:
        if size > end - p:
            raise InvalidRecordException(
                f"Reached end of input stream before skipping all bytes. Remaining bytes:{size - (end - p)}"
            )
        p += size
    return size, p


def _read_partial_record(
    data: bytes,
    pos: int,
    limit: int,
    base_offset: int,
    base_timestamp: int,
    base_sequence: int,
    log_append_time: int | None,
) -> tuple[PartialDefaultRecord, int]:
    from kafka.common.record.partial_default_record import PartialDefaultRecord

    try:
        size, p = read_varint(data, pos)
    except IndexError:
        raise InvalidRecordException("Incorrect declared batch size, premature EOF reached") from None
    if size < 0 or size > limit - p:
        raise InvalidRecordException(
            f"Invalid record size: expected {size} bytes in record payload, but the record payload reached EOF."
        )
    end = p + size
    try:
        attributes = data[p]
        if attributes > 127:
            attributes -= 256
        p += 1
        timestamp_delta, p = read_varlong(data, p)
        timestamp = log_append_time if log_append_time is not None else base_timestamp + timestamp_delta
        offset_delta, p = read_varint(data, p)
        sequence = increment_sequence(base_sequence, offset_delta) if base_sequence >= 0 else NO_SEQUENCE
        key_size, p = _skip_sized(data, p, end)
        value_size, p = _skip_sized(data, p, end)
        num_headers, p = read_varint(data, p)
        if num_headers < 0:
            raise InvalidRecordException(f"Found invalid number of record headers {num_headers}")
        if num_headers > end - p:
            raise _invalid_structure()
        for _ in range(num_headers):
            header_key_size, p = _skip_sized(data, p, end)
            if header_key_size < 0:
                raise InvalidRecordException(f"Invalid negative header key size {header_key_size}")
            _, p = _skip_sized(data, p, end)
    except IndexError:
        raise _invalid_structure() from None
    if p != end:
        raise InvalidRecordException(
            f"Invalid record size: expected to read {size} bytes in record payload, but instead read {p - (end - size)}"
        )
    record = PartialDefaultRecord(
        end - pos, attributes, base_offset + offset_delta, timestamp, sequence, key_size, value_size
    )
    return record, end
