"""Tests for MemoryRecordsBuilder: round trips across formats and codecs, and Java's rules."""

from __future__ import annotations

import struct
from dataclasses import dataclass

import crc32c
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kafka.common.record.abstract_legacy_record_batch import ByteBufferLegacyRecordBatch
from kafka.common.record.compression_type import CompressionType
from kafka.common.record.control_record_type import ControlRecordType
from kafka.common.record.default_record_batch import DefaultRecordBatch
from kafka.common.record.end_transaction_marker import EndTransactionMarker
from kafka.common.record.memory_records import MemoryRecords
from kafka.common.record.memory_records_builder import MemoryRecordsBuilder
from kafka.common.record.record_header import RecordHeader
from kafka.common.record.simple_record import SimpleRecord
from kafka.common.record.timestamp_type import TimestampType

CODECS = CompressionType.values()
LOG_APPEND_TIME = 1_700_000_000_123


@dataclass
class Spec:
    """One generated batch: format, codec, timestamps and records."""

    magic: int
    codec: CompressionType
    timestamp_type: TimestampType
    base_offset: int
    offsets: list[int]
    records: list[tuple[int, bytes | None, bytes | None, list[RecordHeader]]]
    producer: tuple[int, int, int] | None
    transactional: bool


headers_st = st.lists(
    st.builds(RecordHeader, st.text(max_size=8), st.none() | st.binary(max_size=8)),
    max_size=3,
)


@st.composite
def batch_specs(draw: st.DrawFn) -> Spec:
    """Batches of every magic and codec, with null keys/values, headers (v2), gaps in offsets."""
    magic = draw(st.sampled_from([0, 1, 2]))
    codecs = CODECS if magic == 2 else [c for c in CODECS if c is not CompressionType.ZSTD]
    codec = draw(st.sampled_from(codecs))
    timestamp_type = draw(st.sampled_from([TimestampType.CREATE_TIME, TimestampType.LOG_APPEND_TIME]))
    base_offset = draw(st.integers(0, 2**40))
    n = draw(st.integers(1, 12))
    gaps = draw(st.lists(st.integers(1, 5 if magic == 2 else 3), min_size=n, max_size=n))
    offsets = []
    offset = base_offset
    for i, gap in enumerate(gaps):
        if i:
            offset += gap
        offsets.append(offset)
    records = []
    for _ in range(n):
        timestamp = draw(st.just(-1) | st.integers(0, 2**42))
        key = draw(st.none() | st.binary(max_size=20))
        value = draw(st.none() | st.binary(max_size=60))
        headers = draw(headers_st) if magic == 2 else []
        records.append((timestamp, key, value, headers))
    producer = None
    transactional = False
    if magic == 2 and draw(st.booleans()):
        producer = (draw(st.integers(0, 2**40)), draw(st.integers(0, 32767)), draw(st.integers(0, 2**31 - 1)))
        transactional = draw(st.booleans())
    return Spec(magic, codec, timestamp_type, base_offset, offsets, records, producer, transactional)


def _build(spec: Spec) -> MemoryRecords:
    pid, epoch, seq = spec.producer if spec.producer else (-1, -1, -1)
    builder = MemoryRecordsBuilder(
        magic=spec.magic,
        compression_type=spec.codec,
        timestamp_type=spec.timestamp_type,
        base_offset=spec.base_offset,
        log_append_time=LOG_APPEND_TIME if spec.timestamp_type is TimestampType.LOG_APPEND_TIME else -1,
        producer_id=pid,
        producer_epoch=epoch,
        base_sequence=seq,
        is_transactional=spec.transactional,
    )
    for offset, (timestamp, key, value, headers) in zip(spec.offsets, spec.records):
        builder.append_with_offset(offset, timestamp, key, value, headers)
    return builder.build()


@given(spec=batch_specs())
@settings(max_examples=200, deadline=None)
def test_round_trip_every_format_and_codec(spec: Spec) -> None:
    """Whatever is appended comes back: offsets, timestamps, keys, values, headers and header fields."""
    records = _build(spec)
    batches = list(records.batches())
    compressed_legacy = spec.magic < 2 and spec.codec is not CompressionType.NONE
    expected_batches = 1 if spec.magic == 2 or compressed_legacy else len(spec.records)
    assert len(batches) == expected_batches
    for batch in batches:
        batch.ensure_valid()
        assert batch.magic() == spec.magic
        assert batch.compression_type() is (
            spec.codec if spec.magic == 2 or compressed_legacy else CompressionType.NONE
        )
    decoded = list(records.records())
    assert [r.offset() for r in decoded] == spec.offsets
    assert [(r.key(), r.value()) for r in decoded] == [(k, v) for _, k, v, _ in spec.records]
    assert [list(r.headers()) for r in decoded] == [h for *_, h in spec.records]
    if spec.magic == 0:
        expected_ts = [-1] * len(spec.records)
    elif spec.timestamp_type is TimestampType.LOG_APPEND_TIME:
        expected_ts = [LOG_APPEND_TIME] * len(spec.records)
    else:
        expected_ts = [t for t, *_ in spec.records]
    assert [r.timestamp() for r in decoded] == expected_ts
    last = batches[-1]
    assert last.last_offset() == spec.offsets[-1]
    assert batches[0].base_offset() == spec.offsets[0]
    if spec.magic == 2:
        batch = batches[0]
        assert isinstance(batch, DefaultRecordBatch)
        assert batch.count() == len(spec.records)
        assert batch.timestamp_type() is spec.timestamp_type
        assert batch.max_timestamp() == max(expected_ts)
        assert batch.is_transactional() is spec.transactional
        if spec.producer:
            pid, epoch, seq = spec.producer
            assert (batch.producer_id(), batch.producer_epoch(), batch.base_sequence()) == (pid, epoch, seq)
            deltas = [o - spec.base_offset for o in spec.offsets]
            assert [r.sequence() for r in decoded] == [(seq + d) % 2**31 for d in deltas]
        else:
            assert [r.sequence() for r in decoded] == [-1] * len(spec.records)
    # Rebuilding from the decoded records reproduces the same bytes.
    assert _build(spec) == records


def test_builder_writes_java_v2_header_layout() -> None:
    """A one-record v2 batch has Java's exact bytes (header fields, CRC32C, varint record)."""
    builder = MemoryRecordsBuilder(base_offset=5, partition_leader_epoch=7)
    builder.append(1000, b"k", b"v")
    raw = bytes(builder.build().buffer())
    # length 8 (zig-zag 0x10), attributes, timestamp delta 0, offset delta 0, key "k", value "v", no headers
    expected_record = bytes.fromhex("10000000026b027600")
    assert raw[:8] == (5).to_bytes(8, "big")
    assert int.from_bytes(raw[8:12], "big") == len(raw) - 12
    assert int.from_bytes(raw[12:16], "big") == 7
    assert raw[16] == 2
    assert raw[21:23] == b"\x00\x00"
    assert int.from_bytes(raw[27:35], "big") == 1000 == int.from_bytes(raw[35:43], "big")
    assert raw[43:51] == b"\xff" * 8 and raw[51:53] == b"\xff\xff" and raw[53:57] == b"\xff" * 4
    assert int.from_bytes(raw[57:61], "big") == 1
    assert raw[61:] == expected_record


def test_empty_builder_builds_empty_records() -> None:
    """Closing a builder with no records yields MemoryRecords.EMPTY."""
    assert MemoryRecordsBuilder().build() is MemoryRecords.EMPTY


def test_offsets_must_increase() -> None:
    """Appending an offset not above the previous one is rejected."""
    builder = MemoryRecordsBuilder()
    builder.append_with_offset(3, 1, None, b"a")
    with pytest.raises(ValueError, match="monotonically"):
        builder.append_with_offset(3, 1, None, b"b")


def test_invalid_timestamps_and_headers_are_rejected() -> None:
    """Negative timestamps other than -1, and headers before magic 2, are rejected."""
    with pytest.raises(ValueError, match="negative timestamp"):
        MemoryRecordsBuilder().append(-5, None, b"a")
    with pytest.raises(ValueError, match="does not support record headers"):
        MemoryRecordsBuilder(magic=1).append(1, None, b"a", [RecordHeader("h", b"v")])


def test_legacy_formats_reject_v2_only_features() -> None:
    """Transactions, control batches, zstd and delete horizons need magic 2."""
    with pytest.raises(ValueError, match="Transactional"):
        MemoryRecordsBuilder(magic=1, is_transactional=True)
    with pytest.raises(ValueError, match="Control"):
        MemoryRecordsBuilder(magic=0, is_control_batch=True)
    with pytest.raises(ValueError, match="ZStandard"):
        MemoryRecordsBuilder(magic=1, compression_type=CompressionType.ZSTD)
    with pytest.raises(ValueError, match="Delete horizon"):
        MemoryRecordsBuilder(magic=1, delete_horizon_ms=5)


def test_producer_state_is_validated_on_close() -> None:
    """Transactional batches need a producer id; producer ids need an epoch and a sequence."""
    builder = MemoryRecordsBuilder(is_transactional=True)
    builder.append(1, None, b"a")
    with pytest.raises(ValueError, match="valid producer ID"):
        builder.build()
    builder = MemoryRecordsBuilder(producer_id=5, producer_epoch=-1, base_sequence=0)
    builder.append(1, None, b"a")
    with pytest.raises(ValueError, match="producer epoch"):
        builder.build()


def test_control_batch_with_end_transaction_marker() -> None:
    """An end-transaction marker batch is transactional, control, and deserialises to the marker."""
    marker = EndTransactionMarker(ControlRecordType.COMMIT, 17)
    records = MemoryRecords.with_end_transaction_marker(
        123, 4, marker, initial_offset=50, timestamp=999, partition_leader_epoch=3
    )
    (batch,) = list(records.batches())
    batch.ensure_valid()
    assert batch.is_control_batch() and batch.is_transactional()
    assert (batch.producer_id(), batch.producer_epoch(), batch.base_offset()) == (123, 4, 50)
    assert batch.partition_leader_epoch() == 3
    (record,) = list(batch)
    assert ControlRecordType.parse(record.key()) is ControlRecordType.COMMIT
    assert EndTransactionMarker.deserialize(record) == marker
    assert record.timestamp() == 999
    assert records.size_in_bytes() == 61 + EndTransactionMarker.CURRENT_END_TXN_SCHEMA_RECORD_SIZE


@pytest.mark.parametrize("control_type,type_code", [(ControlRecordType.ABORT, 0), (ControlRecordType.COMMIT, 1)])
def test_end_transaction_marker_batch_bytes_are_kafkas(control_type: ControlRecordType, type_code: int) -> None:
    """The marker batch a partition leader writes to its segment, byte for byte as Kafka writes it, laid out here by
    hand from Kafka's documented v2 format (DefaultRecordBatch, DefaultRecord, EndTransactionMarker) rather than
    with our builder: 61 bytes of batch header (transactional and control attributes, no sequence) and one 17-byte
    record whose key is (version 0, type) and whose value is (version 0, coordinator epoch)."""
    record_body = (
        b"\x00"  # attributes
        + b"\x00"  # timestamp delta, varint 0
        + b"\x00"  # offset delta, varint 0
        + b"\x08"  # key length 4, zigzag varint
        + struct.pack(">hh", 0, type_code)
        + b"\x0c"  # value length 6
        + struct.pack(">hi", 0, 7)  # version 0, coordinator epoch 7
        + b"\x00"  # no headers
    )
    record = bytes([len(record_body) << 1]) + record_body
    after_crc = (
        struct.pack(">hiqq", 0x30, 0, 1_700_000_000_000, 1_700_000_000_000)  # transactional | control, offset delta 0
        + struct.pack(">qhii", 4242, 3, -1, 1)  # producer id, epoch, no base sequence, one record
        + record
    )
    expected = (
        struct.pack(">qiib", 500, 4 + 1 + 4 + len(after_crc), 9, 2)  # base offset, length, leader epoch, magic
        + struct.pack(">I", crc32c.crc32c(after_crc))
        + after_crc
    )
    records = MemoryRecords.with_end_transaction_marker(
        4242,
        3,
        EndTransactionMarker(control_type, 7),
        initial_offset=500,
        timestamp=1_700_000_000_000,
        partition_leader_epoch=9,
    )
    assert bytes(records.buffer()) == expected
    assert len(expected) == 61 + 17


def test_control_records_only_in_control_batches() -> None:
    """Ordinary records cannot go in control batches, nor control records in ordinary ones."""
    control = MemoryRecordsBuilder(producer_id=1, producer_epoch=0, is_transactional=True, is_control_batch=True)
    with pytest.raises(ValueError, match="Control records"):
        control.append(1, None, b"x")
    plain = MemoryRecordsBuilder()
    with pytest.raises(ValueError, match="Control records"):
        plain.append_control_record_with_offset(0, SimpleRecord(1, ControlRecordType.ABORT.record_key(), b""))


def test_write_limit_and_has_room_for() -> None:
    """has_room_for follows the write limit; the first record always fits."""
    builder = MemoryRecordsBuilder(write_limit=100)
    assert builder.has_room_for(0, None, bytes(500))
    builder.append(0, None, bytes(20))
    assert not builder.has_room_for(0, None, bytes(50))
    assert builder.has_room_for(0, None, bytes(5))
    builder.append(0, None, bytes(100))
    assert builder.is_full()


def test_info_reports_max_timestamp_and_shallow_offset() -> None:
    """info() gives the max timestamp and, for uncompressed v1, the offset of the record holding it."""
    v1 = MemoryRecordsBuilder(magic=1, base_offset=10)
    for ts in (5, 50, 7):
        v1.append(ts, None, b"x")
    v1.build()
    assert (v1.info().max_timestamp, v1.info().shallow_offset_of_max_timestamp) == (50, 11)
    v2 = MemoryRecordsBuilder(base_offset=10)
    for ts in (5, 50, 7):
        v2.append(ts, None, b"x")
    v2.build()
    assert (v2.info().max_timestamp, v2.info().shallow_offset_of_max_timestamp) == (50, 12)


def test_override_last_offset_and_delete_horizon() -> None:
    """The log cleaner's overrides land in the header: last offset delta and delete horizon."""
    builder = MemoryRecordsBuilder(base_offset=100, delete_horizon_ms=5555)
    builder.append_with_offset(101, 6000, b"k", None)
    builder.override_last_offset(110)
    (batch,) = list(builder.build().batches())
    assert isinstance(batch, DefaultRecordBatch)
    assert batch.last_offset() == 110
    assert batch.delete_horizon_ms() == 5555
    assert batch.base_timestamp() == 5555
    (record,) = list(batch)
    assert record.timestamp() == 6000 and record.offset() == 101


def test_abort_and_reopen() -> None:
    """An aborted builder cannot build; reopening rewrites the producer state in the same bytes."""
    aborted = MemoryRecordsBuilder()
    aborted.append(1, None, b"a")
    aborted.abort()
    with pytest.raises(RuntimeError):
        aborted.build()
    builder = MemoryRecordsBuilder(producer_id=1, producer_epoch=1, base_sequence=1)
    builder.append(1, None, b"a")
    first = builder.build()
    builder.reopen_and_rewrite_producer_state(9, 2, 40, False)
    second = builder.build()
    (batch,) = list(second.batches())
    batch.ensure_valid()
    assert (batch.producer_id(), batch.producer_epoch(), batch.base_sequence()) == (9, 2, 40)
    assert first.size_in_bytes() == second.size_in_bytes()


def test_compressed_v1_wrapper_uses_relative_inner_offsets() -> None:
    """A compressed magic-1 set stores inner offsets from 0 and the wrapper holds the last absolute offset."""
    builder = MemoryRecordsBuilder(magic=1, compression_type=CompressionType.GZIP, base_offset=1000)
    for i in range(3):
        builder.append_with_offset(1000 + 2 * i, 10 + i, None, b"v%d" % i)
    records = builder.build()
    (wrapper,) = list(records.batches())
    assert isinstance(wrapper, ByteBufferLegacyRecordBatch)
    assert wrapper.last_offset() == 1004
    assert wrapper.max_timestamp() == 12
    inner_set = CompressionType.GZIP.decompress(wrapper.value() or b"", 1)
    assert [int.from_bytes(inner_set[p : p + 8], "big") for p in (0, 12 + 24, 2 * (12 + 24))] == [0, 2, 4]
    assert [r.offset() for r in records.records()] == [1000, 1002, 1004]


def test_compressed_v0_wrapper_keeps_absolute_inner_offsets() -> None:
    """A compressed magic-0 set stores absolute inner offsets."""
    builder = MemoryRecordsBuilder(magic=0, compression_type=CompressionType.SNAPPY, base_offset=7)
    builder.append(0, b"k", b"v")
    builder.append(0, b"k", b"w")
    (wrapper,) = list(builder.build().batches())
    assert isinstance(wrapper, ByteBufferLegacyRecordBatch)
    inner_set = CompressionType.SNAPPY.decompress(wrapper.value() or b"", 0)
    assert int.from_bytes(inner_set[0:8], "big") == 7
    assert [r.offset() for r in wrapper] == [7, 8]


def test_with_records_helpers() -> None:
    """with_records, with_idempotent_records and with_transactional_records set their header fields."""
    plain = MemoryRecords.with_records(CompressionType.LZ4, SimpleRecord(1, b"a", b"b"), initial_offset=3)
    idem = MemoryRecords.with_idempotent_records(CompressionType.NONE, 7, 1, 10, SimpleRecord(value=b"x"))
    txn = MemoryRecords.with_transactional_records(CompressionType.ZSTD, 7, 1, 10, SimpleRecord(value=b"x"))
    assert MemoryRecords.with_records(CompressionType.NONE) is MemoryRecords.EMPTY
    (b1,) = list(plain.batches())
    (b2,) = list(idem.batches())
    (b3,) = list(txn.batches())
    assert (b1.base_offset(), b1.compression_type(), b1.has_producer_id()) == (3, CompressionType.LZ4, False)
    assert (b2.producer_id(), b2.base_sequence(), b2.is_transactional()) == (7, 10, False)
    assert (b3.producer_id(), b3.compression_type(), b3.is_transactional()) == (7, CompressionType.ZSTD, True)
