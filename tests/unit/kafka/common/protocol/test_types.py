"""The protocol's primitive types encode as Kafka's do and refuse malformed input with SchemaException."""

from __future__ import annotations

import pytest

from kafka.common.protocol import types as t


@pytest.mark.parametrize(
    ("value", "encoded"),
    [
        (0, b"\x00"),
        (1, b"\x01"),
        (127, b"\x7f"),
        (128, b"\x80\x01"),
        (300, b"\xac\x02"),
        (2**32 - 1, b"\xff\xff\xff\xff\x0f"),
    ],
)
def test_unsigned_varint_bytes(value: int, encoded: bytes) -> None:
    """Unsigned varints use the protobuf encoding, little-endian groups of seven bits."""
    out = bytearray()
    t.write_unsigned_varint(out, value)
    assert bytes(out) == encoded
    assert t.read_unsigned_varint(encoded, 0) == (value, len(encoded))
    assert t.size_of_unsigned_varint(value) == len(encoded)


def test_malformed_varints_are_schema_errors() -> None:
    """A varint longer than five bytes, or one cut short, is a SchemaException."""
    with pytest.raises(t.SchemaException):
        t.read_unsigned_varint(b"\x80\x80\x80\x80\x80\x01", 0)
    with pytest.raises(t.SchemaException):
        t.read_unsigned_varint(b"\x80\x80", 0)
    with pytest.raises(t.SchemaException):
        t.read_unsigned_varlong(b"\xff" * 11, 0)


def test_strings_and_bytes() -> None:
    """Strings (int16 or compact length) and bytes (int32 or compact) read back, nulls where nullable."""
    for writer, reader, value in [
        (t.write_string, t.read_string, "héllo"),
        (t.write_nullable_string, t.read_nullable_string, None),
        (t.write_compact_string, t.read_compact_string, "x"),
        (t.write_compact_string, t.read_compact_nullable_string, None),
        (t.write_bytes, t.read_bytes, b"\x00\x01"),
        (t.write_bytes, t.read_nullable_bytes, None),
        (t.write_compact_bytes, t.read_compact_bytes, b""),
        (t.write_compact_bytes, t.read_compact_nullable_bytes, None),
    ]:
        out = bytearray()
        writer(out, value)  # type: ignore[operator]
        assert reader(bytes(out), 0) == (value, len(out))


def test_length_beyond_buffer_is_refused() -> None:
    """A length longer than the bytes left, or negative where null is not allowed, is a SchemaException."""
    with pytest.raises(t.SchemaException):
        t.read_string(b"\x00\x05abc", 0)
    with pytest.raises(t.SchemaException):
        t.read_string(b"\xff\xff", 0)
    with pytest.raises(t.SchemaException):
        t.read_bytes(b"\x7f\xff\xff\xff" + b"a" * 10, 0)
    with pytest.raises(t.SchemaException):
        t.read_array_length(b"\x00\x00\x10\x00" + b"a" * 10, 0, False, "x")
    with pytest.raises(t.SchemaException):
        t.read_compact_array_length(b"\x00", 0, False, "x")


def test_invalid_utf8_is_replaced_as_java_does() -> None:
    """Bytes that are not UTF-8 decode with replacement characters, as Java's String constructor does."""
    assert t.read_string(b"\x00\x02\xff\xfe", 0) == ("\ufffd\ufffd", 4)


def test_uuid_prints_as_kafka_does() -> None:
    """Uuids print in URL-safe base64 without padding and parse back; random ones avoid the reserved ids."""
    u = t.Uuid(0x0102030405060708, 0x090A0B0C0D0E0F10)
    assert str(u) == "AQIDBAUGBwgJCgsMDQ4PEA"
    assert t.Uuid.from_string(str(u)) == u
    assert str(t.ZERO_UUID) == "AAAAAAAAAAAAAAAAAAAAAA"
    assert u.most_significant_bits == 0x0102030405060708
    r = t.Uuid.random_uuid()
    assert r not in (t.ZERO_UUID, t.METADATA_TOPIC_ID)
    with pytest.raises(ValueError):
        t.Uuid.from_string("AAAA")
