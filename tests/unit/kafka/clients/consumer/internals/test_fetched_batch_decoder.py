"""Tests of the consumer's batch decoder: for every codec and record shape it returns what the record layer's
record-at-a-time iteration returns (offsets, timestamps, keys, values, sizes, headers, leader epoch), and a
malformed batch gives the same records and then the same error. Every test runs with the compiled loop (when
the optional extension is built) and with the Python loop."""

from __future__ import annotations

import gc
import random
import struct
import weakref
from typing import Any

import pytest

from kafka.clients.consumer.consumer_record import ConsumerRecord
from kafka.clients.consumer.internals import fetched_batch_decoder
from kafka.clients.consumer.internals.fetched_batch_decoder import decode_default_batch, decode_generic_batch
from kafka.common.errors import InvalidRecordException, KafkaException
from kafka.common.record.compression_type import CompressionType
from kafka.common.record.default_record_batch import DefaultRecordBatch
from kafka.common.record.memory_records import MemoryRecords
from kafka.common.record.record_batch import RecordBatch
from kafka.common.record.record_header import RecordHeader
from kafka.common.record.simple_record import SimpleRecord
from kafka.common.record.timestamp_type import TimestampType
from tests.utils import compiled_or_python

TOPIC = "topic"
MAX64 = 2**63 - 1


_COMPILED = fetched_batch_decoder._compiled_decode_records


@pytest.fixture(autouse=True, params=["compiled", "python"])
def loop(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """The decoder's record loop: the compiled one (skipped where the extension is not built) or Python's."""
    return compiled_or_python(
        request, monkeypatch, _COMPILED, "_fetched_batch_decoder", (fetched_batch_decoder, "_compiled_decode_records")
    )


def _batch(records: MemoryRecords) -> RecordBatch:
    (batch,) = list(records.batches())
    return batch


def _default_batch(records: MemoryRecords) -> DefaultRecordBatch:
    batch = _batch(records)
    assert isinstance(batch, DefaultRecordBatch)
    return batch


def _fields(record: ConsumerRecord[Any, Any]) -> tuple[Any, ...]:
    return (
        record.topic,
        record.partition,
        record.offset,
        record.timestamp,
        record.timestamp_type,
        record.key,
        record.value,
        record.serialized_key_size,
        record.serialized_value_size,
        [(h.key(), h.value()) for h in record.headers],
        record.leader_epoch,
    )


def _expected(batch: RecordBatch, min_offset: int = 0) -> tuple[list[tuple[Any, ...]], BaseException | None]:
    """The records (as field tuples) the record layer's iteration gives, and the error it ends with."""
    out: list[tuple[Any, ...]] = []
    epoch = batch.partition_leader_epoch()
    try:
        for r in batch:
            if r.offset() < min_offset:
                continue
            key, value = r.key(), r.value()
            out.append(
                (
                    TOPIC,
                    3,
                    r.offset(),
                    r.timestamp(),
                    batch.timestamp_type(),
                    key,
                    value,
                    -1 if key is None else len(key),
                    -1 if value is None else len(value),
                    [(h.key(), h.value()) for h in r.headers()],
                    None if epoch == -1 else epoch,
                )
            )
    except KafkaException as e:
        return out, e
    return out, None


def _mixed_records(seed: int, n: int = 200) -> list[SimpleRecord]:
    """Records of every shape: null and empty keys and values, values needing 1- to 3-byte length varints,
    timestamps spread widely (varlong deltas of several bytes) and headers on some."""
    rnd = random.Random(seed)
    out = []
    timestamp = 1_700_000_000_000
    for i in range(n):
        timestamp += rnd.choice([0, 1, 70, 9000, 3_000_000])
        key = rnd.choice([None, b"", b"k%d" % i, bytes(rnd.randrange(256) for _ in range(rnd.choice([63, 64, 200])))])
        value = rnd.choice([None, b"", b"v" * rnd.choice([1, 63, 64, 100, 8191, 8192, 20_000])])
        headers = [] if i % 5 else [RecordHeader(f"h{i}", b"x" * (i % 3)), RecordHeader("n", None)]
        out.append(SimpleRecord(timestamp, key, value, headers))
    return out


@pytest.mark.parametrize("compression", list(CompressionType.values()), ids=lambda c: c.name)
def test_decode_matches_record_iteration_for_every_codec(compression: CompressionType) -> None:
    """Every field of every record equals what the record layer reads, for each codec."""
    batch = _default_batch(
        MemoryRecords.with_records(compression, *_mixed_records(7), initial_offset=1000, partition_leader_epoch=4)
    )
    records, error = decode_default_batch(batch, TOPIC, 3, 0)
    expected, expected_error = _expected(batch)
    assert error is None and expected_error is None
    assert [_fields(r) for r in records] == expected
    assert len(records) == 200 and records[0].leader_epoch == 4


def test_decode_small_records_without_headers() -> None:
    """The common producer batch (no key, equal values, close timestamps) decodes to the same records."""
    records = [SimpleRecord(1_700_000_000_000 + i // 50, None, b"x" * 100) for i in range(1500)]
    batch = _default_batch(MemoryRecords.with_records(CompressionType.NONE, *records, initial_offset=5))
    decoded, error = decode_default_batch(batch, TOPIC, 3, 0)
    assert error is None
    assert [_fields(r) for r in decoded] == _expected(batch)[0]
    assert decoded[-1].offset == 1504 and decoded[0].leader_epoch is None


def test_compiled_records_are_left_to_reference_counting(loop: str) -> None:
    """The compiled loop's records hold only strings, ints, bytes and None: the cycle collector does not track them
    (they are freed by reference counting), and they behave as any record, headers added later included."""
    records = [SimpleRecord(1_700_000_000_000, None, b"x" * 10) for _ in range(3)]
    batch = _default_batch(MemoryRecords.with_records(CompressionType.NONE, *records))
    decoded, error = decode_default_batch(batch, TOPIC, 3, 0)
    assert error is None and len(decoded) == 3
    assert [gc.is_tracked(r) for r in decoded] == [loop != "compiled"] * 3
    decoded[0].headers.add(RecordHeader("h", b"v"))
    assert [(h.key(), h.value()) for h in decoded[0].headers] == [("h", b"v")]
    assert decoded[0].value == b"x" * 10 and decoded[2].offset == 2
    freed = weakref.ref(decoded[0].headers)
    del decoded
    assert freed() is None


def test_a_batch_read_where_it_lies_in_the_response(loop: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A batch over a memoryview of the response (as fetched): the same records as from a copy, keys and values are
    bytes of their own, records with headers among them (read by the Python code after the compiled loop stops)."""
    records = [
        SimpleRecord(
            1_700_000_000_000 + i, b"k%d" % i if i % 2 else None, b"v" * i, [RecordHeader("h", b"x")] * (i % 3 == 0)
        )
        for i in range(30)
    ]
    raw = bytes(MemoryRecords.with_records(CompressionType.NONE, *records, initial_offset=7).buffer())
    response = bytearray(b"\0" * 10 + raw)
    batch = DefaultRecordBatch(memoryview(response)[10:])
    decoded, error = decode_default_batch(batch, TOPIC, 3, 8)
    assert error is None
    expected, _ = decode_default_batch(DefaultRecordBatch(raw), TOPIC, 3, 8)
    monkeypatch.setattr(fetched_batch_decoder, "_compiled_decode_records", None)
    python_loop, _ = decode_default_batch(DefaultRecordBatch(raw), TOPIC, 3, 8)
    assert [_fields(r) for r in decoded] == [_fields(r) for r in expected] == [_fields(r) for r in python_loop]
    assert len(decoded) == 29 and decoded[0].offset == 8
    assert all(type(r.value) is bytes and (r.key is None or type(r.key) is bytes) for r in decoded)
    response[10:] = b"\xff" * len(raw)  # the buffer reused for the next response: the records keep their bytes
    assert [_fields(r) for r in decoded] == [_fields(r) for r in python_loop]


def test_log_append_time_gives_the_batch_timestamp() -> None:
    """With LogAppendTime, every record's timestamp is the batch's max timestamp, typed LOG_APPEND_TIME."""
    batch = _default_batch(
        MemoryRecords.with_records(
            CompressionType.NONE,
            SimpleRecord(10, b"a", b"1"),
            SimpleRecord(20, b"b", b"2", [RecordHeader("h", b"v")]),
            timestamp_type=TimestampType.LOG_APPEND_TIME,
            log_append_time=123_456,
        )
    )
    records, error = decode_default_batch(batch, TOPIC, 3, 0)
    assert error is None
    assert [(r.timestamp, r.timestamp_type) for r in records] == [(123_456, TimestampType.LOG_APPEND_TIME)] * 2
    assert [_fields(r) for r in records] == _expected(batch)[0]


def test_timestamps_near_the_long_limit() -> None:
    """A base timestamp near the largest long is decoded by the record layer's path, with the same result."""
    batch = _default_batch(
        MemoryRecords.with_records(CompressionType.NONE, *[SimpleRecord(MAX64 - 5 + i, None, b"v") for i in range(5)])
    )
    records, error = decode_default_batch(batch, TOPIC, 3, 0)
    assert error is None
    assert [r.timestamp for r in records] == [MAX64 - 5 + i for i in range(5)]
    assert [_fields(r) for r in records] == _expected(batch)[0]


def test_records_before_min_offset_are_dropped() -> None:
    """Only records at or after the fetch offset are returned, also when offsets have gaps (compaction)."""
    builder = MemoryRecords.builder(base_offset=10)
    for offset in (10, 11, 14, 15, 20):
        builder.append_with_offset(offset, 1, None, b"v%d" % offset)
    batch = _default_batch(builder.build())
    records, error = decode_default_batch(batch, TOPIC, 3, 14)
    assert error is None
    assert [r.offset for r in records] == [14, 15, 20]
    assert [_fields(r) for r in records] == _expected(batch, 14)[0]


def test_empty_batch_decodes_to_nothing() -> None:
    """A batch with a zero count (all records compacted away) gives no records and no error."""
    builder = MemoryRecords.builder(base_offset=10)
    builder.append(1, None, b"v")
    raw = bytearray(bytes(builder.build().buffer()))
    struct.pack_into(">i", raw, DefaultRecordBatch.RECORDS_COUNT_OFFSET, 0)
    records, error = decode_default_batch(DefaultRecordBatch(bytes(raw)), TOPIC, 3, 0)
    assert records == [] and error is None


# A record of `_corrupt`'s batch: length, attributes, timestamp delta, offset delta, null key, value length,
# 7 value bytes, header count.
_RECORD_SIZE = 14


def _corrupt(kind: str) -> DefaultRecordBatch:
    records = [SimpleRecord(1000 + i, None, b"value-%d" % i) for i in range(4)]
    raw = bytearray(bytes(MemoryRecords.with_records(CompressionType.NONE, *records).buffer()))
    assert len(raw) == DefaultRecordBatch.RECORDS_OFFSET + 4 * _RECORD_SIZE
    count_at = DefaultRecordBatch.RECORDS_COUNT_OFFSET
    if kind == "count too large":
        struct.pack_into(">i", raw, count_at, 5)
    elif kind == "count too small":
        struct.pack_into(">i", raw, count_at, 3)
    elif kind == "record size too large":
        # The third record's length varint (each record is 14 bytes here) claims more than the batch holds.
        raw[DefaultRecordBatch.RECORDS_OFFSET + 2 * _RECORD_SIZE] = 0x7E
    elif kind == "record size too small":
        raw[DefaultRecordBatch.RECORDS_OFFSET + 2 * _RECORD_SIZE] = 0x14
    elif kind == "bad header count":
        # The last byte of the second record is its header count: 2 headers that are not there.
        raw[DefaultRecordBatch.RECORDS_OFFSET + 2 * _RECORD_SIZE - 1] = 0x04
    return DefaultRecordBatch(bytes(raw))


@pytest.mark.parametrize(
    "kind", ["count too large", "count too small", "record size too large", "record size too small", "bad header count"]
)
def test_malformed_batch_gives_records_then_the_same_error(kind: str) -> None:
    """A malformed record ends the list: the records before it come back and the error is the record layer's."""
    batch = _corrupt(kind)
    records, error = decode_default_batch(batch, TOPIC, 3, 0)
    expected, expected_error = _expected(batch)
    assert expected_error is not None and error is not None
    assert type(error) is type(expected_error) and str(error) == str(expected_error)
    assert isinstance(error, InvalidRecordException)
    assert [_fields(r) for r in records] == expected


@pytest.mark.parametrize("magic", [0, 1])
@pytest.mark.parametrize("compression", [CompressionType.NONE, CompressionType.GZIP], ids=lambda c: c.name)
def test_generic_decode_of_old_formats(magic: int, compression: CompressionType) -> None:
    """Magic 0 and 1 batches are read through their own iterators, from the fetch offset on."""
    mr = MemoryRecords.with_records(
        compression, *[SimpleRecord(1000 + i, b"k", b"v%d" % i) for i in range(3)], magic=magic
    )
    got = []
    for batch in mr.batches():
        records, error = decode_generic_batch(batch, TOPIC, 3, 1, True)
        assert error is None
        got += records
    assert [(r.offset, r.value) for r in got] == [(1, b"v1"), (2, b"v2")]
    assert got[0].timestamp_type is (TimestampType.NO_TIMESTAMP_TYPE if magic == 0 else TimestampType.CREATE_TIME)


def test_generic_decode_checks_old_record_crcs() -> None:
    """With check.crcs, a magic 1 record whose checksum does not match is an error naming its offset; without it
    the record is returned."""
    raw = bytearray(
        bytes(MemoryRecords.with_records(CompressionType.NONE, SimpleRecord(1, b"k", b"v"), magic=1).buffer())
    )
    raw[-1] ^= 0xFF
    batch = _batch(MemoryRecords.readable_records(bytes(raw)))
    records, error = decode_generic_batch(batch, TOPIC, 3, 0, True)
    assert records == []
    assert isinstance(error, KafkaException) and "Record for partition topic-3 at offset 0 is invalid" in str(error)
    records, error = decode_generic_batch(batch, TOPIC, 3, 0, False)
    assert error is None and [r.offset for r in records] == [0]


def test_randomly_damaged_batches_decode_alike_in_both_loops(loop: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Bytes of a batch's record section overwritten at random: the compiled loop returns the records the Python
    loop returns and then the same error (it must leave to the record layer whatever it does not expect)."""
    if loop != "compiled":
        pytest.skip("compares the compiled loop with the Python loop")
    rnd = random.Random(11)
    records = [
        SimpleRecord(
            1_700_000_000_000 + i * rnd.choice([0, 1, 90, 20_000]),
            None if i % 7 == 0 else b"k%d" % i,
            b"v" * rnd.choice([0, 5, 100, 200]),
            [RecordHeader("h", b"x")] if i % 9 == 0 else [],
        )
        for i in range(40)
    ]
    clean = bytes(MemoryRecords.with_records(CompressionType.NONE, *records).buffer())
    for _ in range(1000):
        raw = bytearray(clean)
        for _ in range(rnd.choice([1, 2, 4])):
            at = rnd.randrange(DefaultRecordBatch.RECORDS_OFFSET, len(raw))
            raw[at] = rnd.choice([0, 1, 0x7F, 0x80, 0xFF, rnd.randrange(256)])
        batch = DefaultRecordBatch(bytes(raw))
        decoded, error = decode_default_batch(batch, TOPIC, 3, 0)
        monkeypatch.setattr(fetched_batch_decoder, "_compiled_decode_records", None)
        expected, expected_error = decode_default_batch(batch, TOPIC, 3, 0)
        monkeypatch.setattr(fetched_batch_decoder, "_compiled_decode_records", _COMPILED)
        assert [_fields(r) for r in decoded] == [_fields(r) for r in expected]
        assert type(error) is type(expected_error) and str(error) == str(expected_error)
