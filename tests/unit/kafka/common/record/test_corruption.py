"""Corrupt, truncated and hostile record data: only CorruptRecordException or InvalidRecordException escape.

Each damaged input is read the way the broker reads records: split into batches, header fields,
ensure_valid(), then every record with its key, value and headers. Damaged batches are tried both
as they are (the CRC catches them) and with the CRC recomputed, so the record decoders and the
decompressors see the damage too.
"""

from __future__ import annotations

import struct
import tracemalloc
import zlib

import crc32c
import pytest

from kafka.common.errors import CorruptRecordException, InvalidRecordException
from kafka.common.record.abstract_legacy_record_batch import ByteBufferLegacyRecordBatch
from kafka.common.record.compression_type import CompressionType
from kafka.common.record.default_record import varint_bytes
from kafka.common.record.default_record_batch import DefaultRecordBatch
from kafka.common.record.legacy_record import LegacyRecord
from kafka.common.record.memory_records import MemoryRecords
from kafka.common.record.memory_records_builder import MemoryRecordsBuilder
from kafka.common.record.record_header import RecordHeader
from kafka.common.record.timestamp_type import TimestampType

TYPED = (CorruptRecordException, InvalidRecordException)


def _sample_batch(magic: int, codec: CompressionType) -> bytes:
    builder = MemoryRecordsBuilder(
        magic=magic,
        compression_type=codec,
        timestamp_type=TimestampType.CREATE_TIME,
        base_offset=3,
        producer_id=7 if magic == 2 else -1,
        producer_epoch=1 if magic == 2 else -1,
        base_sequence=0 if magic == 2 else -1,
    )
    headers = [RecordHeader("trace", b"abc")] if magic == 2 else []
    builder.append(1000, b"key-1", b"value-one", headers)
    builder.append(1001, None, b"value-two" * 3, headers)
    builder.append(1005, b"k3", None, [])
    return bytes(builder.build().buffer())


SAMPLES = [
    (magic, codec)
    for magic in (0, 1, 2)
    for codec in CompressionType.values()
    if not (magic < 2 and codec is CompressionType.ZSTD)
]


def _fix_crc(data: bytearray) -> None:
    """Recompute the outer checksum of a single batch so that only the damage remains."""
    if len(data) < 17:
        return
    magic = data[16]
    if magic == 2 and len(data) >= 21:
        struct.pack_into(">I", data, 17, crc32c.crc32c(bytes(data[21:])))
    elif magic in (0, 1) and len(data) >= 16:
        struct.pack_into(">I", data, 12, zlib.crc32(bytes(data[16:])) & 0xFFFFFFFF)


def _read_everything(data: bytes | bytearray) -> int:
    """Read `data` as the broker would; returns the number of records decoded. Raises only TYPED."""
    decoded = 0
    records = MemoryRecords.readable_records(data)
    try:
        batches = list(records.batches())
    except TYPED:
        return decoded
    for batch in batches:
        try:
            batch.size_in_bytes()
            batch.magic()
            batch.last_offset()
            batch.max_timestamp()
            batch.timestamp_type()
            batch.is_transactional()
            batch.producer_id()
            batch.count_or_null()
            batch.compression_type()
            batch.is_valid()
            batch.ensure_valid()
        except TYPED:
            pass
        try:
            batch.base_offset()
            for record in batch:
                record.offset()
                record.timestamp()
                record.key()
                record.value()
                record.sequence()
                for header in record.headers():
                    header.key()
                    header.value()
                decoded += 1
        except TYPED:
            pass
    return decoded


def _as_batch(data: bytes | bytearray) -> None:
    """Also read a damaged v2 batch directly as one DefaultRecordBatch, bypassing the size checks."""
    if len(data) >= 61 and data[16] == 2:
        batch = DefaultRecordBatch(bytes(data))
        try:
            batch.ensure_valid()
        except TYPED:
            pass
        try:
            list(batch)
            list(batch.skip_key_value_iterator())
        except TYPED:
            pass


@pytest.mark.parametrize(("magic", "codec"), SAMPLES, ids=lambda x: str(x))
def test_every_truncation_raises_only_typed_exceptions(magic: int, codec: CompressionType) -> None:
    """Every prefix of a batch, as is and with its size and CRC fixed to match, fails only with typed errors."""
    whole = _sample_batch(magic, codec)
    assert _read_everything(whole) == 3
    for cut in range(len(whole)):
        prefix = bytearray(whole[:cut])
        # An incomplete batch is not returned (an uncompressed v0/v1 set is one batch per message).
        assert _read_everything(prefix) < 3
        if cut >= 17:
            struct.pack_into(">i", prefix, 8, cut - 12)
            _fix_crc(prefix)
            _read_everything(prefix)
            _as_batch(prefix)


@pytest.mark.parametrize(("magic", "codec"), SAMPLES, ids=lambda x: str(x))
def test_every_flipped_byte_raises_only_typed_exceptions(magic: int, codec: CompressionType) -> None:
    """Flipping each byte (raw, and with the CRC recomputed) never leaks an untyped exception."""
    whole = _sample_batch(magic, codec)
    crc_caught = 0
    for i in range(len(whole)):
        for mask in (0x01, 0x80, 0xFF):
            damaged = bytearray(whole)
            damaged[i] ^= mask
            if _read_everything(damaged) == 0 and i >= 21:
                crc_caught += 1
            _fix_crc(damaged)
            _read_everything(damaged)
            _as_batch(damaged)
    assert crc_caught > 0


def _v2_with_records(records: bytes, count: int) -> bytearray:
    header = bytearray(_sample_batch(2, CompressionType.NONE)[:61])
    data = header + records
    struct.pack_into(">i", data, 8, len(data) - 12)
    struct.pack_into(">i", data, 57, count)
    _fix_crc(data)
    return data


@pytest.mark.parametrize(
    "record",
    [
        varint_bytes(2**31 - 1) + b"\x00" * 20,  # record length far beyond the batch
        varint_bytes(-5) + b"\x00" * 20,  # negative record length
        varint_bytes(12) + b"\x00\x00\x00" + varint_bytes(2**31 - 1) + b"\x00" * 8,  # huge key length
        varint_bytes(12) + b"\x00\x00\x00\x01\x01" + varint_bytes(2**31 - 1) + b"\x00" * 6,  # huge header count
        varint_bytes(8) + b"\x00\x00\x00\x01\x01\x02" + varint_bytes(-7) + b"\x00",  # negative header key
        varint_bytes(12) + b"\x00" + b"\xff" * 11,  # overlong varlong timestamp
        varint_bytes(6) + b"\x00\x00\xff\xff\xff\xff",  # varint running off the record
    ],
)
def test_hostile_lengths_in_v2_records_are_invalid_without_allocating(record: bytes) -> None:
    """Huge or negative lengths inside a CRC-valid batch raise InvalidRecordException and allocate little."""
    data = _v2_with_records(record, 1)
    tracemalloc.start()
    try:
        (batch,) = list(MemoryRecords.readable_records(data).batches())
        batch.ensure_valid()
        with pytest.raises(InvalidRecordException):
            list(batch)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 1024 * 1024


def test_hostile_batch_size_does_not_allocate() -> None:
    """A batch size of 2^31 - 1 in a 100-byte buffer yields no batch and allocates nothing large."""
    data = bytearray(_sample_batch(2, CompressionType.NONE)[:100])
    struct.pack_into(">i", data, 8, 2**31 - 1)
    tracemalloc.start()
    try:
        assert list(MemoryRecords.readable_records(data).batches()) == []
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 1024 * 1024


def test_hostile_legacy_lengths_are_corrupt() -> None:
    """A legacy message whose key or value length overruns it raises CorruptRecordException."""
    good = bytearray(_sample_batch(1, CompressionType.NONE))
    first_size = struct.unpack_from(">i", good, 8)[0]
    first = good[: 12 + first_size]
    for offset in (12 + LegacyRecord.KEY_SIZE_OFFSET_V1, 12 + LegacyRecord.KEY_OFFSET_V1 + 5):
        bad = bytearray(first)
        struct.pack_into(">i", bad, offset, 2**31 - 1)
        _fix_crc(bad)
        (entry,) = list(MemoryRecords.readable_records(bad).batches())
        assert isinstance(entry, ByteBufferLegacyRecordBatch)
        entry.ensure_valid()
        with pytest.raises(CorruptRecordException):
            entry.key()
            entry.value()


def test_compressed_bomb_inside_a_batch_is_corrupt() -> None:
    """A CRC-valid v2 batch whose zstd payload expands past the limit fails with CorruptRecordException."""
    header = struct.pack("<I", 0xFD2FB528) + bytes((0x00, 7 << 3))
    blocks = b"".join(
        ((1 if i == 255 else 0) | (1 << 1) | ((128 * 1024) << 3)).to_bytes(3, "little") + b"\x00" for i in range(256)
    )
    data = _v2_with_records(header + blocks, 1)
    struct.pack_into(">h", data, 21, CompressionType.ZSTD.id)
    _fix_crc(data)
    (batch,) = list(MemoryRecords.readable_records(data).batches())
    batch.ensure_valid()
    with pytest.raises(CorruptRecordException, match="exceeds the limit"):
        list(batch)
