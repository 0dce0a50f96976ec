"""Tests of kafka.common.serialization, after clients/src/test/java/org/apache/kafka/common/serialization/
SerializationTest.java (Kafka 3.7)."""

from __future__ import annotations

import re
import struct
import uuid
from typing import Any

import pytest

from kafka.common.errors import SerializationException
from kafka.common.serialization.boolean_deserializer import BooleanDeserializer
from kafka.common.serialization.boolean_serializer import BooleanSerializer
from kafka.common.serialization.byte_array_deserializer import ByteArrayDeserializer
from kafka.common.serialization.byte_array_serializer import ByteArraySerializer
from kafka.common.serialization.bytes_deserializer import BytesDeserializer
from kafka.common.serialization.bytes_serializer import BytesSerializer
from kafka.common.serialization.deserializer import Deserializer
from kafka.common.serialization.double_deserializer import DoubleDeserializer
from kafka.common.serialization.double_serializer import DoubleSerializer
from kafka.common.serialization.float_deserializer import FloatDeserializer
from kafka.common.serialization.float_serializer import FloatSerializer
from kafka.common.serialization.integer_deserializer import IntegerDeserializer
from kafka.common.serialization.integer_serializer import IntegerSerializer
from kafka.common.serialization.long_deserializer import LongDeserializer
from kafka.common.serialization.long_serializer import LongSerializer
from kafka.common.serialization.serializer import Serializer
from kafka.common.serialization.short_deserializer import ShortDeserializer
from kafka.common.serialization.short_serializer import ShortSerializer
from kafka.common.serialization.string_deserializer import StringDeserializer
from kafka.common.serialization.string_serializer import StringSerializer
from kafka.common.serialization.uuid_deserializer import UUIDDeserializer
from kafka.common.serialization.uuid_serializer import UUIDSerializer
from kafka.common.serialization.void_deserializer import VoidDeserializer
from kafka.common.serialization.void_serializer import VoidSerializer

TOPIC = "tp"

ROUND_TRIPS: list[tuple[Serializer[Any], Deserializer[Any], list[Any]]] = [
    (StringSerializer(), StringDeserializer(), ["my string", "", "ünïcødé ✓"]),
    (ShortSerializer(), ShortDeserializer(), [0, 1, -1, 32767, -32768]),
    (IntegerSerializer(), IntegerDeserializer(), [423412424, -41243432, 2**31 - 1, -(2**31)]),
    (LongSerializer(), LongDeserializer(), [922337203685477580, -922337203685477581, 2**63 - 1, -(2**63)]),
    (FloatSerializer(), FloatDeserializer(), [5678567.0, 0.0, -1.5]),
    (DoubleSerializer(), DoubleDeserializer(), [5678567.12312312, 0.0, -5678567.12341238]),
    (ByteArraySerializer(), ByteArrayDeserializer(), [b"my string", b""]),
    (BytesSerializer(), BytesDeserializer(), [b"my string", b"\x00\xff"]),
    (UUIDSerializer(), UUIDDeserializer(), [uuid.uuid4(), uuid.UUID("00000000-0000-0000-0000-000000000000")]),
    (BooleanSerializer(), BooleanDeserializer(), [True, False]),
]


@pytest.mark.parametrize(("serializer", "deserializer", "values"), ROUND_TRIPS)
def test_round_trip(serializer: Serializer[Any], deserializer: Deserializer[Any], values: list[Any]) -> None:
    """Every built-in serde gives back the value it was given."""
    for value in values:
        assert deserializer.deserialize(TOPIC, serializer.serialize(TOPIC, value)) == value


@pytest.mark.parametrize(("serializer", "deserializer", "values"), ROUND_TRIPS)
def test_null_stays_null(serializer: Serializer[Any], deserializer: Deserializer[Any], values: list[Any]) -> None:
    """A null key or value serializes to None and deserializes back to None."""
    assert serializer.serialize(TOPIC, None) is None
    assert deserializer.deserialize(TOPIC, None) is None


def test_fixed_width_encodings_are_java_big_endian() -> None:
    """Numbers are written in Java's big-endian DataOutput layout."""
    assert IntegerSerializer().serialize(TOPIC, 1) == b"\x00\x00\x00\x01"
    assert LongSerializer().serialize(TOPIC, -2) == b"\xff" * 7 + b"\xfe"
    assert ShortSerializer().serialize(TOPIC, 258) == b"\x01\x02"
    assert DoubleSerializer().serialize(TOPIC, 1.0) == struct.pack(">d", 1.0)
    assert FloatSerializer().serialize(TOPIC, 1.0) == b"\x3f\x80\x00\x00"
    assert UUIDSerializer().serialize(TOPIC, uuid.UUID(int=1)) == b"00000000-0000-0000-0000-000000000001"


@pytest.mark.parametrize(
    ("deserializer", "data", "message"),
    [
        (IntegerDeserializer(), b"\x00\x00\x01", "Size of data received by IntegerDeserializer is not 4"),
        (LongDeserializer(), b"\x00" * 7, "Size of data received by LongDeserializer is not 8"),
        (ShortDeserializer(), b"\x00", "Size of data received by ShortDeserializer is not 2"),
        (DoubleDeserializer(), b"\x00" * 4, "Size of data received by Deserializer is not 8"),
        (FloatDeserializer(), b"\x00" * 8, "Size of data received by Deserializer is not 4"),
        (BooleanDeserializer(), b"\x00\x01", "Size of data received by BooleanDeserializer is not 1"),
        (BooleanDeserializer(), b"\xff", "Unexpected byte received by BooleanDeserializer: -1"),
        (UUIDDeserializer(), b"not-a-uuid", "Error parsing data into UUID"),
    ],
)
def test_malformed_data_is_a_serialization_exception(
    deserializer: Deserializer[Any], data: bytes, message: str
) -> None:
    """Data of the wrong size or form is refused with Java's message."""
    with pytest.raises(SerializationException, match=message):
        deserializer.deserialize(TOPIC, data)


def test_wrong_type_is_a_type_error() -> None:
    """A value of the wrong type is a TypeError (the producer turns it into a SerializationException)."""
    with pytest.raises(TypeError):
        IntegerSerializer().serialize(TOPIC, "1")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        StringSerializer().serialize(TOPIC, b"bytes")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        IntegerSerializer().serialize(TOPIC, True)


def test_out_of_range_integer_is_refused() -> None:
    """An int that does not fit Java's type is refused rather than truncated."""
    with pytest.raises(SerializationException):
        IntegerSerializer().serialize(TOPIC, 2**31)
    with pytest.raises(SerializationException):
        ShortSerializer().serialize(TOPIC, -(2**15) - 1)


def test_string_encoding_is_configurable_per_key_and_value() -> None:
    """key./value.serializer.encoding win over serializer.encoding, as in Java."""
    text = "Ünïcödé"
    serializer = StringSerializer()
    serializer.configure({"serializer.encoding": "UTF-16", "key.serializer.encoding": "ISO-8859-1"}, True)
    assert serializer.serialize(TOPIC, text) == text.encode("latin-1")
    serializer = StringSerializer()
    serializer.configure({"serializer.encoding": "UTF-16"}, False)
    deserializer = StringDeserializer()
    deserializer.configure({"value.deserializer.encoding": "UTF-16"}, False)
    encoded = serializer.serialize(TOPIC, text)
    assert encoded == text.encode("utf-16")
    assert deserializer.deserialize(TOPIC, encoded) == text


def test_unknown_encoding_is_a_serialization_exception() -> None:
    """An encoding Python does not know is reported as Java reports an unsupported one."""
    serializer = StringSerializer()
    serializer.configure({"serializer.encoding": "no-such-charset"}, False)
    with pytest.raises(SerializationException, match="unsupported encoding no-such-charset"):
        serializer.serialize(TOPIC, "x")


def test_void_serdes() -> None:
    """Void keys and values are always null; bytes given to the VoidDeserializer are refused."""
    serializer: Serializer[None] = VoidSerializer()
    assert serializer.serialize(TOPIC, None) is None
    deserializer: Deserializer[None] = VoidDeserializer()
    assert deserializer.deserialize(TOPIC, None) is None
    with pytest.raises(ValueError, match=re.escape("Data should be null for a VoidDeserializer.")):
        VoidDeserializer().deserialize(TOPIC, b"x")


def test_memoryview_input_is_read_as_bytes() -> None:
    """Deserializers take a memoryview of a record's bytes (Java's ByteBuffer variant)."""
    view = memoryview(b"\x00\x00\x00\x07hello")
    assert IntegerDeserializer().deserialize(TOPIC, view[:4]) == 7
    assert StringDeserializer().deserialize(TOPIC, view[4:]) == "hello"
    assert ByteArrayDeserializer().deserialize(TOPIC, view[4:]) == b"hello"
