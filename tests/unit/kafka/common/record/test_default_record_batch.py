"""Tests for DefaultRecordBatch and DefaultRecord: header fields, broker-side patching, CRC."""

from __future__ import annotations

import struct

import crc32c
import pytest
from hypothesis import given
from hypothesis import strategies as st

from kafka.common.errors import CorruptRecordException, InvalidRecordException
from kafka.common.record.compression_type import CompressionType
from kafka.common.record.default_record import (
    DefaultRecord,
    decrement_sequence,
    increment_sequence,
    read_varint,
    read_varlong,
    size_of_varint,
    size_of_varlong,
    varint_bytes,
    varlong_bytes,
)
from kafka.common.record.default_record_batch import DefaultRecordBatch
from kafka.common.record.memory_records import MemoryRecords
from kafka.common.record.memory_records_builder import MemoryRecordsBuilder
from kafka.common.record.partial_default_record import PartialDefaultRecord
from kafka.common.record.record_header import RecordHeader
from kafka.common.record.timestamp_type import TimestampType


def _batch(codec: CompressionType = CompressionType.NONE, n: int = 3, **kwargs: object) -> DefaultRecordBatch:
    """A writable v2 batch of `n` records (a bytearray copy of the builder's output)."""
    builder = MemoryRecordsBuilder(compression_type=codec, base_offset=0, **kwargs)  # type: ignore[arg-type]
    for i in range(n):
        builder.append(1000 + i, b"key%d" % i, b"value%d" % i, [RecordHeader("h", b"%d" % i)])
    return DefaultRecordBatch(bytearray(builder.build().buffer()))


def test_attribute_bits() -> None:
    """Codec bits 0-2, timestamp type bit 3, transactional bit 4, control bit 5, delete horizon bit 6."""
    batch = _batch(CompressionType.LZ4, producer_id=1, producer_epoch=0, base_sequence=0, is_transactional=True)
    assert batch.attributes() == 0x03 | 0x10
    lat = _batch(CompressionType.ZSTD, timestamp_type=TimestampType.LOG_APPEND_TIME, log_append_time=5)
    assert lat.attributes() == 0x04 | 0x08
    assert lat.timestamp_type() is TimestampType.LOG_APPEND_TIME
    horizon = _batch(delete_horizon_ms=77)
    assert horizon.attributes() == 0x40 and horizon.delete_horizon_ms() == 77
    assert _batch().delete_horizon_ms() is None


def test_unknown_codec_id_is_corrupt() -> None:
    """Codec ids 5-7 in the attributes raise CorruptRecordException from compression_type()."""
    batch = _batch()
    struct.pack_into(">h", batch.buffer(), 21, 0x07)
    with pytest.raises(CorruptRecordException, match="Unknown compression type id: 7"):
        batch.compression_type()
    assert "unknown(7)" in repr(batch)


def test_ensure_valid_detects_any_flipped_byte_in_the_crc_range() -> None:
    """Flipping any byte from the attributes to the end breaks the CRC32C check."""
    batch = _batch(CompressionType.GZIP)
    batch.ensure_valid()
    raw = bytes(batch.buffer())
    for i in range(21, len(raw)):
        damaged = bytearray(raw)
        damaged[i] ^= 0x01
        assert not DefaultRecordBatch(damaged).is_valid()
        with pytest.raises(CorruptRecordException, match="Record is corrupt"):
            DefaultRecordBatch(damaged).ensure_valid()


def test_crc_is_crc32c_from_attributes_to_end() -> None:
    """The stored checksum equals crc32c over bytes 21..end."""
    batch = _batch()
    raw = bytes(batch.buffer())
    assert batch.checksum() == crc32c.crc32c(raw[21:]) == struct.unpack_from(">I", raw, 17)[0]


def test_set_last_offset_patches_base_offset_without_touching_crc() -> None:
    """Assigning offsets rewrites only the base offset; the batch stays valid."""
    batch = _batch(n=3)
    crc = batch.checksum()
    batch.set_last_offset(1002)
    assert (batch.base_offset(), batch.last_offset()) == (1000, 1002)
    assert batch.checksum() == crc
    batch.ensure_valid()
    assert [r.offset() for r in batch] == [1000, 1001, 1002]


def test_set_partition_leader_epoch_keeps_crc() -> None:
    """The leader epoch precedes the CRC range: stamping it keeps the stored CRC valid."""
    batch = _batch(CompressionType.SNAPPY)
    crc = batch.checksum()
    batch.set_partition_leader_epoch(42)
    assert batch.partition_leader_epoch() == 42
    assert batch.checksum() == crc
    batch.ensure_valid()


def test_set_max_timestamp_log_append_time_recomputes_crc() -> None:
    """LogAppendTime stamping sets bit 3 and the max timestamp, recomputes the CRC, and records follow."""
    batch = _batch(CompressionType.LZ4)
    old_crc = batch.checksum()
    batch.set_max_timestamp(TimestampType.LOG_APPEND_TIME, 5_000_000)
    batch.ensure_valid()
    assert batch.checksum() != old_crc
    assert batch.timestamp_type() is TimestampType.LOG_APPEND_TIME
    assert batch.max_timestamp() == 5_000_000
    assert batch.compression_type() is CompressionType.LZ4
    assert [r.timestamp() for r in batch] == [5_000_000] * 3


def test_set_max_timestamp_is_a_no_op_when_unchanged() -> None:
    """Setting the same type and timestamp leaves the bytes untouched."""
    batch = _batch()
    before = bytes(batch.buffer())
    batch.set_max_timestamp(TimestampType.CREATE_TIME, batch.max_timestamp())
    assert bytes(batch.buffer()) == before


def test_setters_need_a_writable_buffer() -> None:
    """A batch over read-only bytes refuses in-place patching with TypeError."""
    batch = DefaultRecordBatch(bytes(_batch().buffer()))
    with pytest.raises(TypeError):
        batch.set_partition_leader_epoch(1)


def test_header_fields_are_read_without_decompressing() -> None:
    """Header accessors work on a batch whose compressed payload is garbage."""
    batch = _batch(CompressionType.ZSTD, producer_id=9, producer_epoch=3, base_sequence=100)
    raw = bytearray(batch.buffer())
    raw[61:] = b"\x00" * (len(raw) - 61)
    garbage = DefaultRecordBatch(raw)
    assert garbage.count() == 3
    assert (garbage.base_offset(), garbage.last_offset(), garbage.max_timestamp()) == (0, 2, 1002)
    assert (garbage.producer_id(), garbage.producer_epoch(), garbage.base_sequence()) == (9, 3, 100)
    assert garbage.last_sequence() == 102
    with pytest.raises(CorruptRecordException):
        list(garbage)


def test_sequences_wrap_at_int_max() -> None:
    """Record sequences wrap from 2^31 - 1 to 0, as producers number them."""
    batch = _batch(n=3, producer_id=1, producer_epoch=0, base_sequence=2**31 - 2)
    assert [r.sequence() for r in batch] == [2**31 - 2, 2**31 - 1, 0]
    assert batch.last_sequence() == 0
    assert increment_sequence(2**31 - 1, 1) == 0
    assert decrement_sequence(0, 1) == 2**31 - 1
    assert decrement_sequence(10, 3) == 7


def test_skip_key_value_iterator_gives_sizes_only() -> None:
    """The partial iterator returns offsets, timestamps and sizes without keys or values."""
    batch = _batch(CompressionType.GZIP)
    partial = list(batch.skip_key_value_iterator())
    assert all(isinstance(r, PartialDefaultRecord) for r in partial)
    assert [(r.offset(), r.timestamp(), r.key_size(), r.value_size()) for r in partial] == [
        (0, 1000, 4, 6),
        (1, 1001, 4, 6),
        (2, 1002, 4, 6),
    ]
    assert [r.size_in_bytes() for r in partial] == [r.size_in_bytes() for r in batch]
    with pytest.raises(RuntimeError):
        partial[0].key()


def _rewrite(batch: DefaultRecordBatch, count: int | None = None, records: bytes | None = None) -> DefaultRecordBatch:
    """Rebuild `batch` with a different count or record section, CRC fixed."""
    raw = bytearray(batch.buffer()[:61]) + (records if records is not None else batch.buffer()[61:])
    struct.pack_into(">i", raw, 8, len(raw) - 12)
    if count is not None:
        struct.pack_into(">i", raw, 57, count)
    struct.pack_into(">I", raw, 17, crc32c.crc32c(bytes(raw[21:])))
    return DefaultRecordBatch(raw)


def test_record_count_mismatches_are_invalid() -> None:
    """Too high a count, too low a count and a negative count raise InvalidRecordException."""
    batch = _batch(n=3)
    with pytest.raises(InvalidRecordException, match="premature EOF"):
        list(_rewrite(batch, count=4))
    with pytest.raises(InvalidRecordException, match="still remaining"):
        list(_rewrite(batch, count=2))
    with pytest.raises(InvalidRecordException, match="invalid record count"):
        list(_rewrite(batch, count=-1))
    assert list(_rewrite(batch, count=0)) == []


def test_huge_record_count_does_not_allocate() -> None:
    """A count of 2^31 - 1 over three records fails after the data runs out, allocating nothing large."""
    with pytest.raises(InvalidRecordException):
        list(_rewrite(_batch(n=3), count=2**31 - 1))


def test_record_length_larger_than_the_batch_is_invalid() -> None:
    """A record claiming more bytes than remain is rejected before slicing."""
    bad = varint_bytes(2**30) + b"\x00" * 10
    with pytest.raises(InvalidRecordException, match="Invalid record size"):
        list(_rewrite(_batch(n=1), count=1, records=bad))


def test_equality_and_hash_follow_bytes() -> None:
    """Batches with the same bytes are equal and hash alike; a patched batch differs."""
    a, b = _batch(), _batch()
    assert a == b and hash(a) == hash(b)
    b.set_partition_leader_epoch(3)
    assert a != b


def test_repr_has_kafka_fields() -> None:
    """repr shows magic, offsets, sequences, flags, codec, timestamp type and crc like Java's toString."""
    text = repr(_batch())
    assert text.startswith("RecordBatch(magic=2, offsets=[0, 2], sequence=[-1, -1], isTransactional=False")
    assert "compression=none, timestampType=CreateTime, crc=" in text


def test_write_empty_header() -> None:
    """An empty header written for the cleaner is a valid 61-byte batch with no records."""
    out = bytearray(61)
    DefaultRecordBatch.write_empty_header(
        out, 0, 2, 5, 1, 10, 100, 110, 4, TimestampType.CREATE_TIME, 1234, True, False
    )
    batch = DefaultRecordBatch(out)
    batch.ensure_valid()
    assert (batch.base_offset(), batch.last_offset(), batch.count(), batch.max_timestamp()) == (100, 110, 0, 1234)
    assert (batch.producer_id(), batch.is_transactional(), batch.partition_leader_epoch()) == (5, True, 4)
    assert list(batch) == []


def test_write_header_validates_magic_and_timestamp() -> None:
    """Magic below 2 and negative base timestamps other than -1 are refused."""
    args = (0, 0, 61, 1, CompressionType.NONE, TimestampType.CREATE_TIME, 0, 0, -1, -1, -1, False, False, False, -1, 0)
    with pytest.raises(ValueError, match="magic"):
        DefaultRecordBatch.write_header(bytearray(61), 0, *args)
    args2 = (
        0,
        0,
        61,
        2,
        CompressionType.NONE,
        TimestampType.CREATE_TIME,
        -5,
        0,
        -1,
        -1,
        -1,
        False,
        False,
        False,
        -1,
        0,
    )
    with pytest.raises(ValueError, match="timestamp"):
        DefaultRecordBatch.write_header(bytearray(61), 0, *args2)


def test_size_estimates_match_built_sizes() -> None:
    """size_in_bytes_of_records and the record size functions agree with what the builder writes."""
    batch = _batch(n=4)
    records = list(batch)
    assert DefaultRecordBatch.size_in_bytes_of_records(batch.base_offset(), records) == batch.size_in_bytes()
    for r in records:
        assert r.size_in_bytes() == DefaultRecord.size_in_bytes_of(
            r.offset(), r.timestamp() - 1000, r.key(), r.value(), r.headers()
        )
        assert r.size_in_bytes() <= DefaultRecord.record_size_upper_bound(r.key(), r.value(), r.headers())


@given(st.integers(-(2**31), 2**31 - 1))
def test_varint_round_trip(value: int) -> None:
    """Zig-zag varints of ints decode to themselves and have the predicted size."""
    encoded = varint_bytes(value)
    assert read_varint(encoded, 0) == (value, len(encoded))
    assert size_of_varint(value) == len(encoded) <= 5


@given(st.integers(-(2**63), 2**63 - 1))
def test_varlong_round_trip(value: int) -> None:
    """Zig-zag varints of longs decode to themselves and have the predicted size."""
    encoded = varlong_bytes(value)
    assert read_varlong(encoded, 0) == (value, len(encoded))
    assert size_of_varlong(value) == len(encoded) <= 10


def test_overlong_varints_are_invalid() -> None:
    """Six-byte varints and eleven-byte varlongs are rejected as Java rejects them."""
    with pytest.raises(InvalidRecordException):
        read_varint(b"\xff" * 5 + b"\x01", 0)
    with pytest.raises(InvalidRecordException):
        read_varlong(b"\xff" * 10 + b"\x01", 0)
    assert read_varint(b"\xff\xff\xff\xff\x0f", 0) == (-(2**31), 5)


def test_read_only_memory_records_share_the_buffer() -> None:
    """Batches from MemoryRecords are views of the caller's buffer: patching shows through."""
    raw = bytearray(_batch().buffer())
    records = MemoryRecords.readable_records(raw)
    (batch,) = list(records.batches())
    batch.set_partition_leader_epoch(99)
    assert struct.unpack_from(">i", raw, 12)[0] == 99


def test_header_fields_are_the_accessors() -> None:
    """header_fields reads every header field at once, each as its accessor reads it (attributes as the stored
    short), also after the broker's in-place patches."""
    batches = [
        _batch(),
        _batch(CompressionType.GZIP, n=5, partition_leader_epoch=3),
        _batch(CompressionType.LZ4, producer_id=9, producer_epoch=2, base_sequence=2**31 - 2, is_transactional=True),
        _batch(CompressionType.ZSTD, timestamp_type=TimestampType.LOG_APPEND_TIME, log_append_time=5),
        _batch(delete_horizon_ms=77),
    ]
    patched = _batch(n=2)
    patched.set_last_offset(41)
    patched.set_partition_leader_epoch(12)
    patched.set_max_timestamp(TimestampType.LOG_APPEND_TIME, 99)
    for batch in [*batches, patched]:
        assert batch.header_fields() == (
            batch.base_offset(),
            batch.size_in_bytes() - 12,
            batch.partition_leader_epoch(),
            batch.magic(),
            batch.checksum(),
            struct.unpack_from(">h", batch.buffer(), 21)[0],
            batch.last_offset_delta(),
            batch.base_timestamp(),
            batch.max_timestamp(),
            batch.producer_id(),
            batch.producer_epoch(),
            batch.base_sequence(),
            batch.count(),
        )
    assert patched.header_fields()[0] == 40 and patched.header_fields()[8] == 99
