"""Port of clients/src/main/java/org/apache/kafka/common/protocol/types/Type.java and utils/ByteUtils.java.

The primitive types of the Kafka protocol as small, fast functions over a buffer and a position:
each `read_*` takes `(buf, pos)` and returns `(value, new_pos)`; each `write_*` appends to a
`bytearray`. Generated message code calls these and precompiled `struct.Struct`s directly.

Every reader checks a length against the bytes at hand before it slices or allocates, and fails
with `SchemaException` on truncated data, negative lengths or malformed varints. The message layer
turns that (and `struct.error` from fixed-size reads) into Kafka's InvalidRequestException.

# PORT: Java reads strings with a replacing UTF-8 decoder; so do we (`errors="replace"`).
"""

from __future__ import annotations

import struct
import uuid as _uuid
from typing import Final

from kafka.common.errors import KafkaException

INT16: Final = struct.Struct(">h")
INT32: Final = struct.Struct(">i")
INT64: Final = struct.Struct(">q")

Buffer = bytes | bytearray | memoryview


class SchemaException(KafkaException):
    """Data that does not follow the schema: truncated, a bad length, a malformed varint."""


def _underflow(what: str, need: int, pos: int, buf: Buffer) -> SchemaException:
    return SchemaException(f"Error reading {what}: needs {need} bytes at position {pos}, buffer has {len(buf)}")


# ---- varints (protobuf encoding) ----------------------------------------------------------------


def read_unsigned_varint(buf: Buffer, pos: int) -> tuple[int, int]:
    """An unsigned 32-bit varint; more than five bytes is malformed, as in Java."""
    value = 0
    shift = 0
    end = len(buf)
    while True:
        if pos >= end:
            raise _underflow("unsigned varint", 1, pos, buf)
        b = buf[pos]
        pos += 1
        value |= (b & 0x7F) << shift
        if b < 0x80:
            return value, pos
        shift += 7
        if shift > 28:
            raise SchemaException("Varint is too long, the most significant bit in the 5th byte is set")


def read_unsigned_varlong(buf: Buffer, pos: int) -> tuple[int, int]:
    value = 0
    shift = 0
    end = len(buf)
    while True:
        if pos >= end:
            raise _underflow("unsigned varlong", 1, pos, buf)
        b = buf[pos]
        pos += 1
        value |= (b & 0x7F) << shift
        if b < 0x80:
            return value, pos
        shift += 7
        if shift > 63:
            raise SchemaException("Varlong is too long, most significant bit in the 10th byte is set")


def write_unsigned_varint(out: bytearray, value: int) -> None:
    value &= 0xFFFFFFFF
    while value > 0x7F:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)


def size_of_unsigned_varint(value: int) -> int:
    value &= 0xFFFFFFFF
    n = 1
    while value > 0x7F:
        value >>= 7
        n += 1
    return n


# ---- length-prefixed -----------------------------------------------------------------------------


def _take(buf: Buffer, pos: int, n: int, what: str) -> int:
    """Checks that n bytes are there at pos and returns the end position."""
    if n < 0:
        raise SchemaException(f"Error reading {what}: negative length {n}")
    end = pos + n
    if end > len(buf):
        raise _underflow(what, n, pos, buf)
    return end


def _decode(buf: Buffer, pos: int, end: int) -> str:
    return str(buf[pos:end], "utf-8", "replace")


def read_string(buf: Buffer, pos: int) -> tuple[str, int]:
    (n,) = INT16.unpack_from(buf, pos)
    pos += 2
    if n < 0:
        raise SchemaException(f"Error reading string: non-nullable string has length {n}")
    end = _take(buf, pos, n, "string")
    return _decode(buf, pos, end), end


def read_nullable_string(buf: Buffer, pos: int) -> tuple[str | None, int]:
    (n,) = INT16.unpack_from(buf, pos)
    pos += 2
    if n == -1:
        return None, pos
    end = _take(buf, pos, n, "nullable string")
    return _decode(buf, pos, end), end


def read_compact_string(buf: Buffer, pos: int) -> tuple[str, int]:
    n, pos = read_unsigned_varint(buf, pos)
    if n == 0:
        raise SchemaException("Error reading compact string: non-nullable string is null")
    end = _take(buf, pos, n - 1, "compact string")
    return _decode(buf, pos, end), end


def read_compact_nullable_string(buf: Buffer, pos: int) -> tuple[str | None, int]:
    n, pos = read_unsigned_varint(buf, pos)
    if n == 0:
        return None, pos
    end = _take(buf, pos, n - 1, "compact nullable string")
    return _decode(buf, pos, end), end


def read_bytes(buf: Buffer, pos: int) -> tuple[bytes, int]:
    (n,) = INT32.unpack_from(buf, pos)
    pos += 4
    if n < 0:
        raise SchemaException(f"Error reading bytes: non-nullable bytes has length {n}")
    end = _take(buf, pos, n, "bytes")
    return bytes(buf[pos:end]), end


def read_nullable_bytes(buf: Buffer, pos: int) -> tuple[bytes | None, int]:
    (n,) = INT32.unpack_from(buf, pos)
    pos += 4
    if n == -1:
        return None, pos
    end = _take(buf, pos, n, "nullable bytes")
    return bytes(buf[pos:end]), end


def read_compact_bytes(buf: Buffer, pos: int) -> tuple[bytes, int]:
    n, pos = read_unsigned_varint(buf, pos)
    if n == 0:
        raise SchemaException("Error reading compact bytes: non-nullable bytes is null")
    end = _take(buf, pos, n - 1, "compact bytes")
    return bytes(buf[pos:end]), end


def read_compact_nullable_bytes(buf: Buffer, pos: int) -> tuple[bytes | None, int]:
    n, pos = read_unsigned_varint(buf, pos)
    if n == 0:
        return None, pos
    end = _take(buf, pos, n - 1, "compact nullable bytes")
    return bytes(buf[pos:end]), end


def read_array_length(buf: Buffer, pos: int, nullable: bool, what: str) -> tuple[int, int]:
    """An int32 array length; -1 is null (only where nullable). The count is bounded by the bytes left,
    since every element takes at least one byte, so that no length makes us allocate past the input."""
    (n,) = INT32.unpack_from(buf, pos)
    pos += 4
    if n < 0:
        if n == -1 and nullable:
            return -1, pos
        raise SchemaException(f"Error reading array {what}: length {n}")
    if n > len(buf) - pos:
        raise SchemaException(f"Error reading array {what}: length {n} exceeds the {len(buf) - pos} bytes left")
    return n, pos


def read_compact_array_length(buf: Buffer, pos: int, nullable: bool, what: str) -> tuple[int, int]:
    n, pos = read_unsigned_varint(buf, pos)
    n -= 1
    if n < 0:
        if nullable:
            return -1, pos
        raise SchemaException(f"Error reading array {what}: non-nullable field was serialized as null")
    if n > len(buf) - pos:
        raise SchemaException(f"Error reading array {what}: length {n} exceeds the {len(buf) - pos} bytes left")
    return n, pos


def read_uuid(buf: Buffer, pos: int) -> tuple[Uuid, int]:
    end = _take(buf, pos, 16, "uuid")
    return Uuid.from_bytes(bytes(buf[pos:end])), end


def write_string(out: bytearray, value: str) -> None:
    data = value.encode("utf-8")
    if len(data) > 0x7FFF:
        raise SchemaException(f"String length {len(data)} is larger than the maximum string length")
    out += INT16.pack(len(data))
    out += data


def write_nullable_string(out: bytearray, value: str | None) -> None:
    if value is None:
        out += b"\xff\xff"
    else:
        write_string(out, value)


def write_compact_string(out: bytearray, value: str | None) -> None:
    if value is None:
        out.append(0)
        return
    data = value.encode("utf-8")
    if len(data) > 0x7FFF:
        raise SchemaException(f"String length {len(data)} is larger than the maximum string length")
    write_unsigned_varint(out, len(data) + 1)
    out += data


def write_bytes(out: bytearray, value: Buffer | None) -> None:
    if value is None:
        out += b"\xff\xff\xff\xff"
    else:
        out += INT32.pack(len(value))
        out += value


def write_compact_bytes(out: bytearray, value: Buffer | None) -> None:
    if value is None:
        out.append(0)
    else:
        write_unsigned_varint(out, len(value) + 1)
        out += value


class Uuid:
    """Port of clients/src/main/java/org/apache/kafka/common/Uuid.java: 128 bits, shown in URL-safe
    base64 without padding, as Kafka prints topic ids."""

    __slots__ = ("_bytes",)

    def __init__(self, most_significant_bits: int = 0, least_significant_bits: int = 0) -> None:
        self._bytes = struct.pack(">qq", most_significant_bits, least_significant_bits)

    @classmethod
    def from_bytes(cls, data: bytes) -> Uuid:
        u = cls.__new__(cls)
        u._bytes = data
        return u

    @classmethod
    def random_uuid(cls) -> Uuid:
        """A random version-4 uuid that is neither ZERO_UUID nor METADATA_TOPIC_ID, nor starts with '-'."""
        while True:
            u = cls.from_bytes(_uuid.uuid4().bytes)
            if u not in (ZERO_UUID, METADATA_TOPIC_ID) and not str(u).startswith("-"):
                return u

    @classmethod
    def from_string(cls, text: str) -> Uuid:
        import base64

        if len(text) > 24:
            raise ValueError(f"Input string with prefix `{text[:24]}` is too long to be decoded as a base64 UUID")
        data = base64.urlsafe_b64decode(text + "==")
        if len(data) != 16:
            raise ValueError(f"Input string `{text}` decoded as {len(data)} bytes, which is not equal to 16")
        return cls.from_bytes(data)

    @property
    def most_significant_bits(self) -> int:
        return int(struct.unpack(">q", self._bytes[:8])[0])

    @property
    def least_significant_bits(self) -> int:
        return int(struct.unpack(">q", self._bytes[8:])[0])

    def to_bytes(self) -> bytes:
        return self._bytes

    def __str__(self) -> str:
        import base64

        return base64.urlsafe_b64encode(self._bytes).decode("ascii").rstrip("=")

    def __repr__(self) -> str:
        return f"Uuid({self})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Uuid) and other._bytes == self._bytes

    def __hash__(self) -> int:
        return hash(self._bytes)


ZERO_UUID: Final = Uuid(0, 0)
ONE_UUID: Final = Uuid(0, 1)
METADATA_TOPIC_ID: Final = ONE_UUID
