"""Tests of the producer's one-pass append (MemoryRecordsBuilder.append_if_room) and of DefaultRecord.write_to's
encoding: both must write exactly what Java's hasRoomFor + append and DefaultRecord.writeTo write. Every test runs
with the compiled record writer (when the optional extension `_default_record_writer` is built) and with the Python
one."""

from __future__ import annotations

import random

import pytest

from kafka.common.record import default_record
from kafka.common.record.compression_type import CompressionType
from kafka.common.record.default_record import DefaultRecord, varint_bytes, varlong_bytes
from kafka.common.record.memory_records import MemoryRecords
from kafka.common.record.memory_records_builder import MemoryRecordsBuilder
from kafka.common.record.record_batch import MAGIC_VALUE_V1, MAGIC_VALUE_V2, NO_TIMESTAMP
from kafka.common.record.record_header import Header, RecordHeader
from kafka.common.record.simple_record import SimpleRecord
from kafka.common.record.timestamp_type import TimestampType
from tests.utils import compiled_or_python

Record = tuple[int, bytes | None, bytes | None, tuple[Header, ...]]
BASE_TIMESTAMP = 1_700_000_000_000

_COMPILED = default_record._compiled_write_record


@pytest.fixture(autouse=True, params=["compiled", "python"])
def writer(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """The record writer: the compiled one (skipped where the extension is not built) or Python's."""
    return compiled_or_python(
        request, monkeypatch, _COMPILED, "_default_record_writer", (default_record, "_compiled_write_record")
    )


def _records(seed: int, count: int) -> list[Record]:
    """Records with every shape the encoder distinguishes: null and empty keys and values, lengths on both sides
    of the varint table, headers with null values, timestamps going back and far forward."""
    rng = random.Random(seed)
    records: list[Record] = []
    for i in range(count):
        key = rng.choice([None, b"", b"k%d" % i, rng.randbytes(rng.randrange(8300, 9000))])
        value = rng.choice([None, b"", rng.randbytes(rng.randrange(1, 200)), rng.randbytes(rng.randrange(8000, 20000))])
        headers: tuple[Header, ...] = ()
        if rng.random() < 0.3:
            headers = tuple(
                RecordHeader(f"h{j}", rng.choice([None, b"", rng.randbytes(rng.randrange(1, 40))]))
                for j in range(rng.randrange(1, 4))
            )
        timestamp = BASE_TIMESTAMP + rng.choice([0, i, -5, 10_000 + i, 2**40])
        records.append((timestamp, key, value, headers))
    return records


def _build_java_way(builder: MemoryRecordsBuilder, records: list[Record]) -> tuple[list[bool], bytes]:
    taken = []
    for timestamp, key, value, headers in records:
        fits = builder.has_room_for(timestamp, key, value, headers)
        if fits:
            builder.append(timestamp, key, value, headers)
        taken.append(fits)
    return taken, bytes(builder.build().buffer())


def _build_in_one_pass(builder: MemoryRecordsBuilder, records: list[Record]) -> tuple[list[bool], bytes]:
    taken = [builder.append_if_room(timestamp, key, value, headers) for timestamp, key, value, headers in records]
    return taken, bytes(builder.build().buffer())


@pytest.mark.parametrize("compression", [CompressionType.NONE, CompressionType.GZIP, CompressionType.LZ4])
@pytest.mark.parametrize("write_limit", [200, 30_000, 150_000, 1 << 24])
def test_append_if_room_writes_what_has_room_for_and_append_write(
    compression: CompressionType, write_limit: int
) -> None:
    """append_if_room takes the same records as has_room_for + append and the built batches are byte-identical."""
    records = _records(seed=write_limit, count=60)
    java = _build_java_way(MemoryRecords.builder(compression, write_limit=write_limit), records)
    ours = _build_in_one_pass(MemoryRecords.builder(compression, write_limit=write_limit), records)
    assert ours == java
    assert ours[0][0] is True  # the first record always fits


def test_append_if_room_refusal_leaves_the_batch_unchanged() -> None:
    """A record that does not fit is taken back: the bytes, the count and the size estimate are as before."""
    builder = MemoryRecords.builder(CompressionType.NONE, write_limit=300)
    assert builder.append_if_room(BASE_TIMESTAMP, b"k", b"v" * 100)
    assert builder.append_if_room(BASE_TIMESTAMP + 1, b"k", b"v" * 100)
    before = (bytes(builder.buffer()), builder.num_records(), builder.estimated_size_in_bytes())
    assert not builder.append_if_room(BASE_TIMESTAMP + 2, b"k", b"v" * 100)
    assert (bytes(builder.buffer()), builder.num_records(), builder.estimated_size_in_bytes()) == before
    records = list(builder.build().records())
    assert [(r.offset(), r.value()) for r in records] == [(0, b"v" * 100), (1, b"v" * 100)]


def test_append_if_room_returns_false_once_full_or_closed() -> None:
    """A full batch and a batch closed for appends take nothing more, as has_room_for says."""
    builder = MemoryRecords.builder(CompressionType.NONE, write_limit=100)
    assert builder.append_if_room(BASE_TIMESTAMP, None, b"x" * 200)  # the first record fits whatever its size
    assert builder.is_full()
    assert not builder.append_if_room(BASE_TIMESTAMP, None, b"y")
    other = MemoryRecords.builder(CompressionType.NONE)
    assert other.append_if_room(BASE_TIMESTAMP, None, b"x")
    other.close_for_record_appends()
    assert not other.append_if_room(BASE_TIMESTAMP, None, b"y")


def test_append_if_room_rejects_a_negative_timestamp_as_append_does() -> None:
    """An invalid timestamp fails with append's error and leaves nothing behind."""
    builder = MemoryRecords.builder(CompressionType.NONE)
    assert builder.append_if_room(BASE_TIMESTAMP, None, b"x")
    before = bytes(builder.buffer())
    with pytest.raises(ValueError, match="Invalid negative timestamp -5"):
        builder.append_if_room(-5, None, b"y")
    assert bytes(builder.buffer()) == before
    assert builder.append_if_room(NO_TIMESTAMP, None, b"z")
    assert [r.timestamp() for r in builder.build().records()] == [BASE_TIMESTAMP, NO_TIMESTAMP]


def test_append_if_room_on_a_legacy_batch_matches_the_two_calls() -> None:
    """Magic v1 batches go through has_room_for and append themselves: same records, same bytes."""
    records = [(BASE_TIMESTAMP + i, b"k", b"v" * (i * 10), ()) for i in range(30)]

    def builder() -> MemoryRecordsBuilder:
        return MemoryRecordsBuilder(MAGIC_VALUE_V1, CompressionType.NONE, TimestampType.CREATE_TIME, write_limit=2000)

    assert _build_in_one_pass(builder(), records) == _build_java_way(builder(), records)  # type: ignore[arg-type]


def _reference_record(
    offset_delta: int, timestamp_delta: int, key: bytes | None, value: bytes | None, headers: tuple[Header, ...]
) -> bytes:
    """The v2 record layout written field by field, the way the format describes it."""
    body = bytearray(b"\x00")
    body += varlong_bytes(timestamp_delta)
    body += varint_bytes(offset_delta)
    for field in (key, value):
        if field is None:
            body += varint_bytes(-1)
        else:
            body += varint_bytes(len(field)) + field
    body += varint_bytes(len(headers))
    for header in headers:
        header_key = header.key().encode()
        body += varint_bytes(len(header_key)) + header_key
        header_value = header.value()
        body += varint_bytes(-1) if header_value is None else varint_bytes(len(header_value)) + header_value
    return varint_bytes(len(body)) + bytes(body)


@pytest.mark.parametrize(
    ("offset_delta", "timestamp_delta"),
    [
        (0, 0),
        (63, -1),
        (64, 8191),
        (8192, -8193),
        (2**31 - 1, 2**40),
        (5, -(2**62)),
        (-(2**31), 2**63 - 1),
        (1, -(2**63)),
        # Out of an int's and a long's range: wrapped as Java's casts would (the compiled writer leaves these
        # to the Python one).
        (2**31, 2**63),
        (-(2**31) - 1, -(2**63) - 1),
    ],
)
def test_write_to_writes_the_v2_record_layout(offset_delta: int, timestamp_delta: int) -> None:
    """write_to appends the record exactly as laid out field by field, and returns its size, which
    size_in_bytes_of predicts, for deltas and lengths on both sides of the one- and two-byte varints."""
    for timestamp, key, value, headers in _records(seed=offset_delta, count=25):
        del timestamp
        out = bytearray(b"prefix")
        written = DefaultRecord.write_to(out, offset_delta, timestamp_delta, key, value, headers)
        expected = _reference_record(offset_delta, timestamp_delta, key, value, headers)
        assert bytes(out) == b"prefix" + expected
        assert written == len(expected)
        assert written == DefaultRecord.size_in_bytes_of(offset_delta, timestamp_delta, key, value, headers)


def test_write_to_refuses_null_headers() -> None:
    """Null headers are an error, as in Java."""
    with pytest.raises(ValueError, match="Headers cannot be null"):
        DefaultRecord.write_to(bytearray(), 0, 0, None, b"v", None)  # type: ignore[arg-type]


def test_records_appended_in_one_pass_read_back() -> None:
    """What append_if_room wrote reads back as the records given, at consecutive offsets."""
    records = _records(seed=7, count=40)
    builder = MemoryRecords.builder(CompressionType.NONE, base_offset=100)
    assert all(builder.append_if_room(*record) for record in records)
    built = MemoryRecords.readable_records(builder.build().buffer())
    batch = next(iter(built.batches()))
    assert batch.magic() == MAGIC_VALUE_V2 and batch.is_valid()
    read = [SimpleRecord(r.timestamp(), r.key(), r.value(), tuple(r.headers())) for r in batch]
    expected = [SimpleRecord(t, k, v, h) for t, k, v, h in records]
    assert read == expected
    assert [r.offset() for r in batch] == list(range(100, 140))


def test_write_to_takes_any_buffer_for_key_and_value() -> None:
    """bytearray and memoryview keys and values are written as the same bytes would be."""
    expected = bytearray()
    DefaultRecord.write_to(expected, 3, 7, b"key", b"value", (RecordHeader("h", b"1"),))
    out = bytearray()
    DefaultRecord.write_to(out, 3, 7, bytearray(b"key"), memoryview(b"value"), (RecordHeader("h", b"1"),))
    assert out == expected


def test_write_to_refuses_a_str_value() -> None:
    """A value that is not bytes-like is a TypeError."""
    with pytest.raises(TypeError):
        DefaultRecord.write_to(bytearray(), 0, 0, None, "text", ())  # type: ignore[arg-type]


@pytest.mark.parametrize("compression", [CompressionType.NONE, CompressionType.GZIP])
@pytest.mark.parametrize("magic", [MAGIC_VALUE_V1, MAGIC_VALUE_V2])
def test_append_if_room_sized_returns_the_growth_of_the_estimated_size(
    compression: CompressionType, magic: int
) -> None:
    """append_if_room_sized returns what estimated_size_in_bytes() grew by (what the accumulator measured with two
    calls), or -1 with nothing appended."""
    builder = MemoryRecordsBuilder(magic, compression, TimestampType.CREATE_TIME, write_limit=40_000)
    refused = 0
    for timestamp, key, value, headers in _records(seed=11, count=60):
        if magic != MAGIC_VALUE_V2:
            headers = ()
        before = builder.estimated_size_in_bytes()
        records_before = builder.num_records()
        grown = builder.append_if_room_sized(timestamp, key, value, headers)
        assert grown == (-1 if builder.num_records() == records_before else builder.estimated_size_in_bytes() - before)
        if grown < 0:
            refused += 1
            assert builder.estimated_size_in_bytes() == before
    assert refused > 0


def test_write_to_appends_to_a_bytearray_subclass() -> None:
    """Any bytearray takes the record (the compiled writer leaves other kinds to the Python one)."""

    class Out(bytearray):
        pass

    expected = bytearray()
    DefaultRecord.write_to(expected, 1, 2, b"k", b"v", ())
    out = Out()
    assert DefaultRecord.write_to(out, 1, 2, b"k", b"v", ()) == len(expected)
    assert out == expected
