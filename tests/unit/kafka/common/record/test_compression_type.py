"""Tests for kafka.common.record.compression_type: framing, interop and bounded decompression."""

from __future__ import annotations

import gzip
import os
import struct
import tracemalloc
import zlib

import cramjam
import lz4.block
import lz4.frame
import pytest
import zstandard
from hypothesis import given, settings
from hypothesis import strategies as st

from kafka.common.errors import CorruptRecordException
from kafka.common.record.compression_type import (
    MIN_DECOMPRESSION_LIMIT,
    XERIAL_SNAPPY_MAGIC,
    CompressionType,
    decompression_limit,
    xxhash32,
)

CODECS = CompressionType.values()
COMPRESSED = [c for c in CODECS if c is not CompressionType.NONE]


def _sample(n: int) -> bytes:
    """Half random, half zeros: compressible but not trivially."""
    return os.urandom(n // 2) + bytes(n - n // 2)


def test_ids_and_names_match_kafka() -> None:
    """Each codec has Kafka's attribute id and config name, and lookups by both work."""
    assert [(c.id, c.name) for c in CODECS] == [(0, "none"), (1, "gzip"), (2, "snappy"), (3, "lz4"), (4, "zstd")]
    for c in CODECS:
        assert CompressionType.for_id(c.id) is c
        assert CompressionType.for_name(c.name) is c
        assert str(c) == c.name


def test_unknown_id_and_name_are_rejected() -> None:
    """Ids 5-7 and unknown names raise ValueError, as Java raises IllegalArgumentException."""
    with pytest.raises(ValueError):
        CompressionType.for_id(5)
    with pytest.raises(ValueError):
        CompressionType.for_name("brotli")


@pytest.mark.parametrize("codec", CODECS, ids=str)
@pytest.mark.parametrize("size", [0, 1, 100, 65536, 65537, 200_000])
@pytest.mark.parametrize("magic", [0, 1, 2])
def test_round_trip_every_codec(codec: CompressionType, size: int, magic: int) -> None:
    """compress then decompress gives the input back for every codec, size and magic."""
    data = _sample(size)
    assert codec.decompress(codec.compress(data, magic), magic) == data


@given(data=st.binary(max_size=3000), magic=st.sampled_from([0, 1, 2]))
@settings(max_examples=60, deadline=None)
def test_round_trip_random_data(data: bytes, magic: int) -> None:
    """Arbitrary payloads survive compression with every codec."""
    for codec in CODECS:
        assert codec.decompress(codec.compress(data, magic), magic) == data


def test_xxhash32_matches_lz4_frame_header_checksums() -> None:
    """Our xxHash32 gives the header checksum bytes lz4 itself writes."""
    for kwargs in ({}, {"content_checksum": True}, {"block_checksum": True}, {"store_size": False}):
        frame = lz4.frame.compress(b"abc", block_size=lz4.frame.BLOCKSIZE_MAX64KB, **kwargs)
        flg = frame[4]
        descriptor_end = 6 + (8 if flg & 0x08 else 0)
        assert frame[descriptor_end] == (xxhash32(frame[4:descriptor_end]) >> 8) & 0xFF


def test_xxhash32_known_values() -> None:
    """xxHash32 of well-known inputs equals the reference implementation's values."""
    assert xxhash32(b"") == 0x02CC5D05
    assert xxhash32(b"a") == 0x550D7456
    assert xxhash32(b"Nobody inspects the spammish repetition") == 0xE2293B2F


def test_lz4_writes_kafka_frame_header() -> None:
    """LZ4 output starts like KafkaLZ4BlockOutputStream's: magic, FLG 0x60, BD 0x40 (64 KB), HC."""
    frame = CompressionType.LZ4.compress(b"hello", 2)
    assert frame[:7] == bytes.fromhex("04224d18604082")
    assert frame[-4:] == b"\x00\x00\x00\x00"


def test_lz4_uses_independent_64k_blocks_and_raw_blocks_for_incompressible_data() -> None:
    """Incompressible input is stored in raw blocks (high bit set) of at most 64 KB."""
    data = os.urandom(70_000)
    frame = CompressionType.LZ4.compress(data, 2)
    first = struct.unpack_from("<I", frame, 7)[0]
    assert first == 0x80000000 | 65536
    second = struct.unpack_from("<I", frame, 7 + 4 + 65536)[0]
    assert second == 0x80000000 | (70_000 - 65536)


def test_lz4_magic0_uses_the_broken_header_checksum() -> None:
    """Magic 0 frames carry the old checksum over magic+FLG+BD; they decode for magic 0 only."""
    frame = CompressionType.LZ4.compress(b"payload" * 10, 0)
    assert frame[6] == (xxhash32(frame[0:6]) >> 8) & 0xFF
    assert frame[6] != (xxhash32(frame[4:6]) >> 8) & 0xFF
    assert CompressionType.LZ4.decompress(frame, 0) == b"payload" * 10
    with pytest.raises(CorruptRecordException, match="descriptor"):
        CompressionType.LZ4.decompress(frame, 2)


def test_lz4_accepts_frames_written_by_python_lz4_with_options() -> None:
    """Content size, content checksum, block checksums and linked blocks all decode."""
    data = _sample(300_000)
    for kwargs in (
        {"store_size": True},
        {"content_checksum": True},
        {"block_checksum": True},
        {"block_linked": True, "block_size": lz4.frame.BLOCKSIZE_MAX64KB},
        {"block_size": lz4.frame.BLOCKSIZE_MAX4MB},
    ):
        assert CompressionType.LZ4.decompress(lz4.frame.compress(data, **kwargs), 2) == data


def test_lz4_block_checksum_mismatch_is_corrupt() -> None:
    """A flipped byte in a checksummed block fails the block checksum."""
    frame = bytearray(lz4.frame.compress(b"x" * 1000 + os.urandom(1000), block_checksum=True, store_size=False))
    frame[12] ^= 0xFF
    with pytest.raises(CorruptRecordException):
        CompressionType.LZ4.decompress(bytes(frame), 2)


def test_lz4_missing_end_mark_is_corrupt() -> None:
    """A frame cut before its end mark is corrupt (Java: stream ended prematurely)."""
    frame = CompressionType.LZ4.compress(b"abc" * 100, 2)
    with pytest.raises(CorruptRecordException, match="prematurely"):
        CompressionType.LZ4.decompress(frame[:-4], 2)


def test_lz4_rejects_block_larger_than_declared_maximum() -> None:
    """A block size above the BD maximum is corrupt and nothing is allocated for it."""
    frame = bytes.fromhex("04224d18604082") + struct.pack("<I", 0x7FFFFFFF) + b"\x00" * 16
    with pytest.raises(CorruptRecordException, match="exceeded max"):
        CompressionType.LZ4.decompress(frame, 2)


def test_snappy_writes_xerial_framing_in_32k_chunks() -> None:
    """Snappy output is snappy-java's stream: magic, versions 1/1, then [int32 length][raw] per 32 KB."""
    data = _sample(100_000)
    out = CompressionType.SNAPPY.compress(data, 2)
    assert out[:16] == XERIAL_SNAPPY_MAGIC + struct.pack(">ii", 1, 1)
    pos = 16
    chunks = []
    while pos < len(out):
        (length,) = struct.unpack_from(">i", out, pos)
        chunks.append(bytes(cramjam.snappy.decompress_raw(out[pos + 4 : pos + 4 + length])))
        pos += 4 + length
    assert [len(c) for c in chunks] == [32768, 32768, 32768, 100_000 - 3 * 32768]
    assert b"".join(chunks) == data


def test_snappy_reads_raw_snappy_without_framing() -> None:
    """Data without the xerial header is read as one raw snappy block, as snappy-java does."""
    data = _sample(5000)
    assert CompressionType.SNAPPY.decompress(bytes(cramjam.snappy.compress_raw(data)), 2) == data


def test_snappy_reads_concatenated_xerial_streams() -> None:
    """A second xerial header in place of a chunk length starts a new stream."""
    a, b = _sample(1000), _sample(2000)
    joined = CompressionType.SNAPPY.compress(a, 2) + CompressionType.SNAPPY.compress(b, 2)
    assert CompressionType.SNAPPY.decompress(joined, 2) == a + b


def test_snappy_oversized_preamble_is_rejected_before_allocation() -> None:
    """A raw block claiming 2 GB fails at once, without the codec allocating for it."""
    claim = bytes((0xFF, 0xFF, 0xFF, 0xFF, 0x07))  # 2^31 - 1
    with pytest.raises(CorruptRecordException, match="exceeds the limit"):
        CompressionType.SNAPPY.decompress(claim + b"\x00" * 10, 2)
    framed = XERIAL_SNAPPY_MAGIC + struct.pack(">iii", 1, 1, 15) + claim + b"\x00" * 10
    with pytest.raises(CorruptRecordException, match="exceeds the limit"):
        CompressionType.SNAPPY.decompress(framed, 2)


def test_snappy_chunk_length_beyond_the_data_is_corrupt() -> None:
    """A chunk length larger than the remaining stream is corrupt."""
    framed = XERIAL_SNAPPY_MAGIC + struct.pack(">iii", 1, 1, 1 << 30) + b"\x00" * 10
    with pytest.raises(CorruptRecordException, match="does not fit"):
        CompressionType.SNAPPY.decompress(framed, 2)


def test_gzip_writes_java_style_header_and_standard_stream() -> None:
    """Gzip output has GZIPOutputStream's header and is readable by Python's gzip module."""
    data = _sample(50_000)
    out = CompressionType.GZIP.compress(data, 2)
    assert out[:10] == bytes.fromhex("1f8b08000000000000ff")
    assert gzip.decompress(out) == data


def test_gzip_reads_multiple_members_and_ignores_trailing_garbage() -> None:
    """Concatenated members decode as one stream; non-gzip bytes after a member are ignored."""
    a, b = b"first" * 10, b"second" * 10
    assert CompressionType.GZIP.decompress(gzip.compress(a) + gzip.compress(b), 2) == a + b
    assert CompressionType.GZIP.decompress(gzip.compress(a) + b"garbage-after-member", 2) == a


def test_gzip_truncated_stream_is_corrupt() -> None:
    """A gzip stream cut short is corrupt."""
    out = gzip.compress(_sample(10_000))
    with pytest.raises(CorruptRecordException):
        CompressionType.GZIP.decompress(out[: len(out) // 2], 2)


def test_zstd_writes_streaming_frames_without_content_size() -> None:
    """Zstd output is a frame without content size, like zstd-jni's ZstdOutputStream."""
    out = CompressionType.ZSTD.compress(b"hello zstd" * 100, 2)
    assert zstandard.get_frame_parameters(out).content_size == zstandard.CONTENTSIZE_UNKNOWN


def test_zstd_reads_multiple_frames_and_skippable_frames() -> None:
    """Concatenated frames decode in order; skippable frames are skipped."""
    a, b = _sample(10_000), _sample(5000)
    skippable = struct.pack("<II", 0x184D2A50, 3) + b"abc"
    data = zstandard.ZstdCompressor().compress(a) + skippable + CompressionType.ZSTD.compress(b, 2)
    assert CompressionType.ZSTD.decompress(data, 2) == a + b


def test_zstd_truncated_frame_is_corrupt() -> None:
    """Every strict prefix of a zstd frame is rejected as corrupt."""
    out = CompressionType.ZSTD.compress(_sample(3000), 2)
    for cut in range(len(out)):
        with pytest.raises(CorruptRecordException):
            CompressionType.ZSTD.decompress(out[:cut], 2)


def _zstd_rle_bomb(blocks: int) -> bytes:
    """A hand-made zstd frame of `blocks` RLE blocks, each expanding 4 bytes into 128 KB of zeros."""
    header = struct.pack("<I", 0xFD2FB528) + bytes((0x00, 7 << 3))  # no content size, 128 KB window
    body = bytearray()
    for i in range(blocks):
        last = 1 if i == blocks - 1 else 0
        body += (last | (1 << 1) | ((128 * 1024) << 3)).to_bytes(3, "little") + b"\x00"
    return header + bytes(body)


def test_zstd_rle_frames_decode_when_within_the_limit() -> None:
    """The hand-made RLE frame is valid zstd: a small one decodes to its zeros."""
    assert CompressionType.ZSTD.decompress(_zstd_rle_bomb(4), 2) == bytes(4 * 128 * 1024)


def test_zstd_bomb_is_rejected_before_decompressing() -> None:
    """A ~1 KB frame expanding to 32 MB exceeds the limit and fails without allocating its output."""
    bomb = _zstd_rle_bomb(256)
    assert len(bomb) * 2048 < MIN_DECOMPRESSION_LIMIT < 256 * 128 * 1024
    tracemalloc.start()
    try:
        with pytest.raises(CorruptRecordException, match="exceeds the limit"):
            CompressionType.ZSTD.decompress(bomb, 2)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 4 * 1024 * 1024


def test_gzip_bomb_stops_at_the_limit() -> None:
    """Gzip output is cut off at max_size + 1 bytes: a bomb fails without inflating fully."""
    bomb = zlib.compress(bytes(8 * 1024 * 1024), 9, wbits=31)
    tracemalloc.start()
    try:
        with pytest.raises(CorruptRecordException, match="exceeds the limit"):
            CompressionType.GZIP.decompress(bomb, 2, max_size=1024 * 1024)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 4 * 1024 * 1024


@pytest.mark.parametrize("codec", COMPRESSED, ids=str)
def test_explicit_max_size_is_enforced_for_every_codec(codec: CompressionType) -> None:
    """Output one byte over max_size fails for every codec; exactly max_size succeeds."""
    data = bytes(100_000)
    compressed = codec.compress(data, 2)
    assert codec.decompress(compressed, 2, max_size=100_000) == data
    with pytest.raises(CorruptRecordException):
        codec.decompress(compressed, 2, max_size=99_999)


def test_decompression_limit_has_floor_ratio_and_ceiling() -> None:
    """The limit is at least 16 MB, 2048x the input beyond that, and at most 2^31 - 1."""
    assert decompression_limit(10) == MIN_DECOMPRESSION_LIMIT
    assert decompression_limit(100_000) == 100_000 * 2048
    assert decompression_limit(1 << 30) == 2**31 - 1


@pytest.mark.parametrize("codec", COMPRESSED, ids=str)
@given(garbage=st.binary(max_size=300))
@settings(max_examples=150, deadline=None)
def test_garbage_input_only_raises_corrupt_record(codec: CompressionType, garbage: bytes) -> None:
    """Random bytes either decode or raise CorruptRecordException, never another exception."""
    try:
        codec.decompress(garbage, 2)
    except CorruptRecordException:
        pass


@pytest.mark.parametrize("codec", COMPRESSED, ids=str)
def test_flipped_bytes_only_raise_corrupt_record(codec: CompressionType) -> None:
    """Flipping each byte of a valid payload in turn never leaks an untyped exception."""
    valid = codec.compress(_sample(600), 2)
    outcomes = set()
    for i in range(len(valid)):
        damaged = bytearray(valid)
        damaged[i] ^= 0x5A
        try:
            codec.decompress(bytes(damaged), 2)
            outcomes.add("decoded")
        except CorruptRecordException:
            outcomes.add("corrupt")
    assert "corrupt" in outcomes


def test_lz4_block_api_bound_is_per_block() -> None:
    """A compressed LZ4 block expanding past its 64 KB maximum is rejected by the block decoder."""
    block = lz4.block.compress(bytes(200_000), store_size=False)
    frame = bytes.fromhex("04224d18604082") + struct.pack("<I", len(block)) + block + b"\x00" * 4
    with pytest.raises(CorruptRecordException):
        CompressionType.LZ4.decompress(frame, 2)


def test_zstd_compressed_block_bomb_stops_at_the_limit() -> None:
    """Zstd made of compressed blocks is fed block by block and fails once past max_size."""
    bomb = zstandard.ZstdCompressor(write_content_size=False).compress(bytes(8 * 1024 * 1024))
    tracemalloc.start()
    try:
        with pytest.raises(CorruptRecordException, match="exceeds the limit"):
            CompressionType.ZSTD.decompress(bomb, 2, max_size=1024 * 1024)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 4 * 1024 * 1024


def test_zstd_declared_content_size_over_the_limit_is_rejected() -> None:
    """A frame whose header declares more content than allowed fails before decompression."""
    frame = zstandard.ZstdCompressor(write_content_size=True).compress(bytes(200_000))
    with pytest.raises(CorruptRecordException, match="exceeds the limit"):
        CompressionType.ZSTD.decompress(frame, 2, max_size=100_000)
