"""Tests for MemoryRecords: zero-copy wrapping, batch iteration, filtering and down-conversion."""

from __future__ import annotations

import pytest

from kafka.common.errors import CorruptRecordException, UnsupportedCompressionTypeException
from kafka.common.record.compression_type import CompressionType
from kafka.common.record.control_record_type import ControlRecordType
from kafka.common.record.default_record_batch import DefaultRecordBatch
from kafka.common.record.end_transaction_marker import EndTransactionMarker
from kafka.common.record.memory_records import (
    BatchRetention,
    BatchRetentionResult,
    MemoryRecords,
    RecordFilter,
)
from kafka.common.record.record import Record
from kafka.common.record.record_batch import RecordBatch
from kafka.common.record.simple_record import SimpleRecord


def _v2(offset: int, *values: bytes, codec: CompressionType = CompressionType.NONE) -> bytes:
    records = [SimpleRecord(1000 + i, b"k%d" % i, v) for i, v in enumerate(values)]
    return bytes(MemoryRecords.with_records(codec, *records, initial_offset=offset).buffer())


def test_readable_records_wraps_without_copying() -> None:
    """readable_records keeps a view: changes to the caller's bytearray show through buffer()."""
    raw = bytearray(_v2(0, b"a"))
    records = MemoryRecords.readable_records(raw)
    view = records.buffer()
    assert isinstance(view, memoryview) and view.obj is raw
    raw[12] = 0x7F
    assert records.buffer()[12] == 0x7F
    assert records.size_in_bytes() == len(raw)


def test_readable_records_accepts_slices_of_a_larger_buffer() -> None:
    """A memoryview slice of a request frame is used as is, and its batches are views of it."""
    frame = bytearray(b"HEADER" + _v2(5, b"x", b"y") + b"TRAILER")
    view = memoryview(frame)[6:-7]
    records = MemoryRecords.readable_records(view)
    (batch,) = list(records.batches())
    assert isinstance(batch, DefaultRecordBatch)
    batch.set_last_offset(101)
    assert [r.offset() for r in records.records()] == [100, 101]
    assert frame[:6] == b"HEADER" and frame[-7:] == b"TRAILER"


def test_equality_is_by_content() -> None:
    """MemoryRecords over equal bytes from different buffers are equal; EMPTY equals empty bytes."""
    raw = _v2(0, b"a")
    assert MemoryRecords.readable_records(raw) == MemoryRecords.readable_records(bytearray(raw))
    assert MemoryRecords.readable_records(memoryview(raw)) != MemoryRecords.readable_records(_v2(1, b"a"))
    assert MemoryRecords.EMPTY == MemoryRecords.readable_records(b"")
    assert MemoryRecords.EMPTY.size_in_bytes() == 0 and list(MemoryRecords.EMPTY.batches()) == []


def test_batches_over_mixed_formats_and_a_partial_tail() -> None:
    """Batches of magic 0, 1 and 2 iterate in order; a trailing partial batch is left out."""
    v0 = bytes(MemoryRecords.with_records(CompressionType.NONE, SimpleRecord(value=b"a"), magic=0).buffer())
    v1 = bytes(
        MemoryRecords.with_records(
            CompressionType.GZIP, SimpleRecord(5, value=b"b"), magic=1, initial_offset=1
        ).buffer()
    )
    v2 = _v2(2, b"c", b"d")
    raw = v0 + v1 + v2 + v2[:30]
    records = MemoryRecords.readable_records(raw)
    assert [b.magic() for b in records.batches()] == [0, 1, 2]
    assert [r.value() for r in records.records()] == [b"a", b"b", b"c", b"d"]
    assert records.valid_bytes() == len(raw) - 30
    assert records.first_batch_size() == len(v0)
    last = records.last_batch()
    assert last is not None and last.last_offset() == 3
    assert not records.has_matching_magic(2)
    assert MemoryRecords.readable_records(v2).has_matching_magic(2)
    # records() and batches() can be iterated again
    assert len(list(records.records())) == len(list(records.records())) == 4


def test_first_batch_size_needs_the_magic() -> None:
    """With fewer than 17 bytes the first batch size is unknown."""
    assert MemoryRecords.readable_records(_v2(0, b"a")[:16]).first_batch_size() is None


def test_bad_prefixes_raise_corrupt_record() -> None:
    """Sizes below 14, unknown magics and short v2 sizes raise CorruptRecordException on iteration."""
    good = bytearray(_v2(0, b"a"))
    for offset, value in ((8, b"\x00\x00\x00\x05"), (16, b"\x07"), (16, b"\xff"), (8, b"\x00\x00\x00\x20")):
        bad = bytearray(good)
        bad[offset : offset + len(value)] = value
        with pytest.raises(CorruptRecordException):
            list(MemoryRecords.readable_records(bad).batches())


class _DropKeys(RecordFilter):
    """Keeps records whose key is not in `drop`; deletes or retains empty batches as told."""

    def __init__(self, drop: set[bytes], retention: BatchRetention = BatchRetention.DELETE_EMPTY) -> None:
        super().__init__(current_time=10_000, delete_retention_ms=500)
        self.drop = drop
        self.retention = retention

    def check_batch_retention(self, batch: RecordBatch) -> BatchRetentionResult:
        return BatchRetentionResult(self.retention, False)

    def should_retain_record(self, record_batch: RecordBatch, record: Record) -> bool:
        return record.key() not in self.drop


def test_filter_to_copies_untouched_batches_and_rebuilds_filtered_ones() -> None:
    """Whole batches are copied byte for byte; filtered batches are rebuilt keeping the last offset."""
    kept = _v2(0, b"a", b"b")
    filtered = _v2(2, b"c", b"d", b"e", codec=CompressionType.LZ4)
    records = MemoryRecords.readable_records(kept + filtered)
    out = bytearray()
    result = records.filter_to("topic-0", _DropKeys({b"k1"}), out, 1 << 20)
    batches = list(MemoryRecords.readable_records(out).batches())
    assert [[r.offset() for r in b] for b in batches] == [[0], [2, 4]]
    assert [b.last_offset() for b in batches] == [1, 4]
    assert batches[1].compression_type() is CompressionType.LZ4
    for b in batches:
        b.ensure_valid()
    assert (result.messages_read, result.messages_retained, result.max_offset) == (5, 3, 4)
    assert result.bytes_read == len(kept) + len(filtered)
    assert result.bytes_retained == len(out)

    untouched = bytearray()
    MemoryRecords.readable_records(kept).filter_to("t", _DropKeys(set()), untouched, 1 << 20)
    assert bytes(untouched) == kept


def test_filter_to_sets_delete_horizon_for_tombstones() -> None:
    """A retained tombstone makes the cleaner set the batch's delete horizon."""
    raw = bytes(MemoryRecords.with_records(CompressionType.NONE, SimpleRecord(1, b"k", None)).buffer())
    out = bytearray()
    MemoryRecords.readable_records(raw).filter_to("t", _DropKeys(set()), out, 1 << 20)
    (batch,) = list(MemoryRecords.readable_records(out).batches())
    assert batch.delete_horizon_ms() == 10_500


def test_filter_to_retain_empty_writes_a_header_only_batch() -> None:
    """RETAIN_EMPTY keeps a 61-byte header for a batch whose records were all removed."""
    raw = bytes(
        MemoryRecords.with_transactional_records(CompressionType.NONE, 5, 0, 0, SimpleRecord(1, b"k", b"v")).buffer()
    )
    out = bytearray()
    result = MemoryRecords.readable_records(raw).filter_to(
        "t", _DropKeys({b"k"}, BatchRetention.RETAIN_EMPTY), out, 100
    )
    (batch,) = list(MemoryRecords.readable_records(out).batches())
    batch.ensure_valid()
    assert len(out) == 61 and batch.producer_id() == 5 and batch.is_transactional()
    assert result.messages_retained == 0 and result.bytes_retained == 61


def test_down_convert_v2_to_v1_and_v0() -> None:
    """Down-conversion rewrites v2 batches as v1/v0 messages, dropping control batches."""
    data = _v2(10, b"a", b"b", codec=CompressionType.GZIP)
    marker = MemoryRecords.with_end_transaction_marker(1, 0, EndTransactionMarker(ControlRecordType.ABORT, 0), 12)
    records = MemoryRecords.readable_records(data + bytes(marker.buffer()))
    for magic in (1, 0):
        converted = records.down_convert(magic, 0)
        out = converted.records()
        assert {b.magic() for b in out.batches()} == {magic}
        assert [(r.offset(), r.value()) for r in out.records()] == [(10, b"a"), (11, b"b")]
        assert converted.record_conversion_stats().num_records_converted() == 2


def test_down_convert_drops_uncompressed_records_before_first_offset() -> None:
    """Uncompressed records below first_offset are dropped when converting to v1."""
    converted = MemoryRecords.readable_records(_v2(10, b"a", b"b", b"c")).down_convert(1, 11)
    assert [r.offset() for r in converted.records().records()] == [11, 12]


def test_down_convert_zstd_below_v2_is_unsupported() -> None:
    """Zstd batches cannot be converted for pre-v2 consumers."""
    records = MemoryRecords.readable_records(_v2(0, b"a", codec=CompressionType.ZSTD))
    with pytest.raises(UnsupportedCompressionTypeException):
        records.down_convert(1, 0)


def test_down_convert_keeps_batches_already_old_enough() -> None:
    """Batches at or below the target magic are copied unchanged."""
    v1 = bytes(MemoryRecords.with_records(CompressionType.NONE, SimpleRecord(3, value=b"z"), magic=1).buffer())
    converted = MemoryRecords.readable_records(v1).down_convert(2, 0)
    assert bytes(converted.records().buffer()) == v1
    assert converted.record_conversion_stats().num_records_converted() == 0


def test_remembered_batches_are_what_later_walks_return() -> None:
    """remember_batches keeps a complete walk's batches: batches() and batch_iterator() return those objects
    (patches made through them are in the bytes) instead of reading the prefixes again."""
    data = bytearray()
    for offset in range(3):
        data += MemoryRecords.with_records(
            CompressionType.NONE, SimpleRecord(1, b"k", b"v%d" % offset), initial_offset=offset
        ).buffer()
    records = MemoryRecords.readable_records(data)
    walked = list(records.batches())
    assert len(walked) == 3 and not any(a is b for a, b in zip(walked, records.batches(), strict=True))
    records.remember_batches(walked)
    assert all(a is b for a, b in zip(walked, records.batches(), strict=True))
    assert all(a is b for a, b in zip(walked, records.batch_iterator(), strict=True))
    assert records.first_batch() is walked[0] and records.last_batch() is walked[2]
    walked[1].set_last_offset(50)
    assert [b.last_offset() for b in MemoryRecords.readable_records(data).batches()] == [0, 50, 2]
    assert [bytes(r.value() or b"") for r in records.records()] == [b"v0", b"v1", b"v2"]
