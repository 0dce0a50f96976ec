"""Tests for LegacyRecord and AbstractLegacyRecordBatch (magic 0 and 1 message sets)."""

from __future__ import annotations

import struct
import zlib

import pytest

from kafka.common.errors import CorruptRecordException, InvalidRecordException
from kafka.common.record.abstract_legacy_record_batch import (
    BasicLegacyRecordBatch,
    ByteBufferLegacyRecordBatch,
    write_header,
)
from kafka.common.record.compression_type import CompressionType
from kafka.common.record.legacy_record import LegacyRecord
from kafka.common.record.memory_records import MemoryRecords
from kafka.common.record.memory_records_builder import MemoryRecordsBuilder
from kafka.common.record.timestamp_type import TimestampType


def test_v0_message_layout() -> None:
    """A magic-0 message is crc, magic, attributes, key, value, with CRC32 over all but the crc."""
    record = LegacyRecord.create(0, -1, b"key", b"value")
    raw = bytes(record.buffer())
    assert raw[4:] == b"\x00\x00" + struct.pack(">i", 3) + b"key" + struct.pack(">i", 5) + b"value"
    assert struct.unpack_from(">I", raw, 0)[0] == zlib.crc32(raw[4:]) == record.checksum()
    assert (record.magic(), record.timestamp(), record.timestamp_type()) == (0, -1, TimestampType.NO_TIMESTAMP_TYPE)
    assert (bytes(record.key() or b""), bytes(record.value() or b"")) == (b"key", b"value")
    record.ensure_valid()


def test_v1_message_layout_and_null_fields() -> None:
    """A magic-1 message carries a timestamp; null key and value are length -1."""
    record = LegacyRecord.create(1, 1234, None, None, CompressionType.NONE, TimestampType.LOG_APPEND_TIME)
    raw = bytes(record.buffer())
    assert raw[4:6] == b"\x01\x08"
    assert struct.unpack_from(">qii", raw, 6) == (1234, -1, -1)
    assert record.key() is None and record.value() is None and record.has_null_value()
    assert record.timestamp_type() is TimestampType.LOG_APPEND_TIME
    assert record.size_in_bytes() == LegacyRecord.RECORD_OVERHEAD_V1


def test_static_checksum_matches_written_crc() -> None:
    """compute_checksum_for gives the CRC that write() stores."""
    out = bytearray()
    crc = LegacyRecord.write(out, 1, 77, b"k", b"v")
    assert crc == LegacyRecord.compute_checksum_for(1, 0, 77, b"k", b"v") == LegacyRecord(bytes(out)).checksum()


def test_key_length_beyond_the_message_is_corrupt() -> None:
    """A key length larger than the message raises CorruptRecordException, not an index error."""
    raw = bytearray(LegacyRecord.create(0, -1, b"key", b"value").buffer())
    struct.pack_into(">i", raw, 6, 2**31 - 1)
    record = LegacyRecord(raw)
    with pytest.raises(CorruptRecordException):
        record.key()
    with pytest.raises(CorruptRecordException):
        record.value_size()


def test_too_small_message_fails_validation() -> None:
    """ensure_valid rejects messages below the v0 overhead."""
    with pytest.raises(CorruptRecordException, match="too small"):
        LegacyRecord(b"\x00" * 10).ensure_valid()


def _entry(magic: int, offset: int, timestamp: int = 5) -> ByteBufferLegacyRecordBatch:
    message = LegacyRecord.create(magic, timestamp if magic else -1, b"k", b"v")
    out = bytearray()
    write_header(out, offset, message.size_in_bytes())
    out += message.buffer()
    return ByteBufferLegacyRecordBatch(out)


def test_shallow_entry_is_its_own_record() -> None:
    """An uncompressed entry iterates to itself, with Kafka's legacy defaults for v2-only fields."""
    entry = _entry(1, 42)
    assert list(entry) == [entry]
    assert (entry.offset(), entry.base_offset(), entry.last_offset(), entry.count_or_null()) == (42, 42, 42, None)
    assert (entry.producer_id(), entry.producer_epoch(), entry.base_sequence()) == (-1, -1, -1)
    assert entry.partition_leader_epoch() == -1 and not entry.is_control_batch() and not entry.is_transactional()
    assert entry.key() == b"k" and entry.value() == b"v" and list(entry.headers()) == []


def test_set_last_offset_and_log_append_time_on_v1() -> None:
    """The broker rewrites the offset and stamps LogAppendTime on a v1 message, keeping its CRC valid."""
    entry = _entry(1, 0)
    entry.set_last_offset(900)
    entry.set_max_timestamp(TimestampType.LOG_APPEND_TIME, 123456)
    entry.ensure_valid()
    assert (entry.offset(), entry.timestamp(), entry.timestamp_type()) == (900, 123456, TimestampType.LOG_APPEND_TIME)


def test_v0_cannot_take_timestamps_or_leader_epochs() -> None:
    """Magic 0 refuses timestamps; magic < 2 refuses partition leader epochs."""
    entry = _entry(0, 0)
    with pytest.raises(RuntimeError, match="magic = 0"):
        entry.set_max_timestamp(TimestampType.LOG_APPEND_TIME, 1)
    with pytest.raises(RuntimeError, match="leader epoch"):
        entry.set_partition_leader_epoch(1)


def test_log_append_time_wrapper_overrides_inner_timestamps() -> None:
    """Inner v1 messages of a LogAppendTime wrapper report the wrapper's timestamp."""
    builder = MemoryRecordsBuilder(
        magic=1,
        compression_type=CompressionType.GZIP,
        timestamp_type=TimestampType.LOG_APPEND_TIME,
        log_append_time=8888,
    )
    builder.append(1, None, b"a")
    builder.append(2, None, b"b")
    (wrapper,) = list(builder.build().batches())
    assert wrapper.timestamp_type() is TimestampType.LOG_APPEND_TIME
    assert [(r.timestamp(), r.has_timestamp_type(TimestampType.LOG_APPEND_TIME)) for r in wrapper] == [
        (8888, True),
        (8888, True),
    ]


def _wrapper(magic: int, wrapper_offset: int, inner: bytes, codec: CompressionType = CompressionType.GZIP) -> bytes:
    out = bytearray()
    LegacyRecord.write(out, magic, 10 if magic else -1, None, codec.compress(inner, magic), codec)
    framed = bytearray()
    write_header(framed, wrapper_offset, len(out))
    return bytes(framed + out)


def _inner(entries: list[tuple[int, LegacyRecord]]) -> bytes:
    out = bytearray()
    for offset, record in entries:
        write_header(out, offset, record.size_in_bytes())
        out += record.buffer()
    return bytes(out)


def test_nested_compression_is_invalid() -> None:
    """An inner message that is itself compressed raises InvalidRecordException."""
    inner_compressed = LegacyRecord.create(1, 1, None, b"zz", CompressionType.GZIP)
    data = _wrapper(1, 0, _inner([(0, inner_compressed)]))
    (wrapper,) = list(MemoryRecords.readable_records(data).batches())
    with pytest.raises(InvalidRecordException, match="must not be compressed"):
        list(wrapper)


def test_wrapper_offset_below_last_inner_offset_is_invalid() -> None:
    """A v1 wrapper offset smaller than its last relative inner offset is rejected."""
    plain = LegacyRecord.create(1, 1, None, b"x")
    data = _wrapper(1, 3, _inner([(0, plain), (5, plain)]))
    (wrapper,) = list(MemoryRecords.readable_records(data).batches())
    with pytest.raises(InvalidRecordException, match="wrapper offset"):
        list(wrapper)


def test_wrapper_offset_zero_keeps_inner_offsets() -> None:
    """A v1 wrapper at offset 0 (as producers send it) leaves inner offsets as written."""
    plain = LegacyRecord.create(1, 1, None, b"x")
    data = _wrapper(1, 0, _inner([(0, plain), (1, plain)]))
    (wrapper,) = list(MemoryRecords.readable_records(data).batches())
    assert [r.offset() for r in wrapper] == [0, 1]


def test_wrapper_with_null_value_or_zstd_is_invalid() -> None:
    """A compressed wrapper with a null value, or with zstd, is rejected as Java's deep iterator does."""
    out = bytearray()
    LegacyRecord.write(out, 1, 1, None, None, CompressionType.GZIP)
    framed = bytearray()
    write_header(framed, 0, len(out))
    (wrapper,) = list(MemoryRecords.readable_records(bytes(framed + out)).batches())
    with pytest.raises(InvalidRecordException, match="null value"):
        list(wrapper)
    plain = LegacyRecord.create(1, 1, None, b"x")
    zstd = _wrapper(1, 0, _inner([(0, plain)]), CompressionType.ZSTD)
    (wrapper,) = list(MemoryRecords.readable_records(zstd).batches())
    with pytest.raises(InvalidRecordException, match="compressionType"):
        list(wrapper)


def test_trailing_partial_inner_message_is_ignored() -> None:
    """A cut-off last inner message ends the inner set, as Java's inner stream reader does."""
    plain = LegacyRecord.create(0, -1, None, b"x")
    inner = _inner([(0, plain), (1, plain)])
    (wrapper,) = list(MemoryRecords.readable_records(_wrapper(0, 1, inner[:-3])).batches())
    assert [r.offset() for r in wrapper] == [0]


def test_basic_entries_compare_by_offset_and_message() -> None:
    """Inner entries are equal when their offsets and messages are."""
    message = LegacyRecord.create(1, 3, b"a", b"b")
    assert BasicLegacyRecordBatch(1, message) == BasicLegacyRecordBatch(1, LegacyRecord(bytes(message.buffer())))
    assert BasicLegacyRecordBatch(1, message) != BasicLegacyRecordBatch(2, message)
