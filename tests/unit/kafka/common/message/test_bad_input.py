"""Malformed bytes never escape the message decoders as anything but InvalidRequestException, and never make
them allocate more than the bytes at hand."""

from __future__ import annotations

import struct
import tracemalloc

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kafka.common.errors import InvalidRequestException
from kafka.common.message import ApiMessageType
from kafka.common.message.spec import load_spec
from tests.unit.kafka.common.message import message_values

# Messages with every kind of field between them: arrays of structs, tagged fields, uuids, strings, bytes.
SAMPLES = [
    ("MetadataRequest", 12),
    ("MetadataResponse", 12),
    ("FetchRequest", 15),
    ("JoinGroupRequest", 9),
    ("CreateTopicsRequest", 7),
    ("ApiVersionsResponse", 3),
    ("DescribeConfigsResponse", 4),
    ("LeaderAndIsrRequest", 7),
    ("OffsetCommitRequest", 2),
    ("SyncGroupRequest", 5),
]


def _cls(name: str):  # type: ignore[no-untyped-def]
    spec = load_spec(name)
    mt = ApiMessageType.from_api_key(spec.api_key)  # type: ignore[arg-type]
    return mt.request_class if spec.kind == "request" else mt.response_class


@pytest.mark.parametrize(("name", "version"), SAMPLES)
def test_every_truncation_is_an_invalid_request(name: str, version: int) -> None:
    """Cutting a valid encoding at every byte gives InvalidRequestException (or a shorter valid message)."""
    raw = message_values.filled(name, version).write(version)
    cls = _cls(name)
    for cut in range(len(raw)):
        try:
            cls().read(raw[:cut], version)
        except InvalidRequestException:
            continue


@pytest.mark.parametrize(("name", "version"), SAMPLES)
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_corrupted_bytes_give_only_the_typed_error(name: str, version: int, data: st.DataObject) -> None:
    """Random byte flips and random bytes decode or fail with InvalidRequestException, nothing else."""
    raw = bytearray(message_values.filled(name, version).write(version))
    for _ in range(data.draw(st.integers(1, 4))):
        i = data.draw(st.integers(0, len(raw) - 1))
        raw[i] = data.draw(st.integers(0, 255))
    cls = _cls(name)
    try:
        cls().read(bytes(raw), version)
    except InvalidRequestException:
        pass
    junk = data.draw(st.binary(max_size=64))
    try:
        cls().read(junk, version)
    except InvalidRequestException:
        pass


@pytest.mark.parametrize(
    ("name", "version", "payload"),
    [
        # ProduceRequest v3: transactional id null, acks, timeout, then a topic array claiming 2^31-1 entries.
        ("ProduceRequest", 3, b"\xff\xff" + b"\x00\x01" + b"\x00\x00\x03\xe8" + struct.pack(">i", 2**31 - 1)),
        # A string length of 32767 with 3 bytes behind it.
        ("MetadataRequest", 1, struct.pack(">i", 1) + struct.pack(">h", 32767) + b"abc"),
        # Bytes (SASL token) claiming 2 GB.
        ("SaslAuthenticateRequest", 0, struct.pack(">i", 2**31 - 1) + b"x" * 90),
        # Compact array length as a maximal varint.
        ("MetadataRequest", 9, b"\xff\xff\xff\xff\x0f" + b"\x00" * 95),
        # Records of 2^31-1 bytes inside a produce request.
        (
            "ProduceRequest",
            3,
            b"\xff\xff\x00\x01\x00\x00\x03\xe8\x00\x00\x00\x01\x00\x01t\x00\x00\x00\x01\x00\x00\x00\x00"
            + struct.pack(">i", 2**31 - 1)
            + b"r" * 60,
        ),
        # A negative array length other than -1.
        ("MetadataRequest", 1, struct.pack(">i", -7)),
        # A varint that never ends.
        ("MetadataRequest", 9, b"\x80" * 100),
    ],
)
def test_huge_lengths_do_not_allocate(name: str, version: int, payload: bytes) -> None:
    """A length far beyond the frame fails fast with InvalidRequestException and allocates next to nothing."""
    cls = _cls(name)
    tracemalloc.start()
    try:
        with pytest.raises(InvalidRequestException):
            cls().read(payload, version)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 1_000_000


def test_unknown_version_is_unsupported() -> None:
    """Reading at a version the message does not have raises UnsupportedVersionException, not a decode error."""
    from kafka.common.errors import UnsupportedVersionException

    with pytest.raises(UnsupportedVersionException):
        _cls("ProduceRequest")().read(b"", 11)
    with pytest.raises(UnsupportedVersionException):
        _cls("ProduceRequest")().read(b"", -1)
