"""Port of clients/src/main/java/org/apache/kafka/common/record/CompressionType.java (Kafka 3.7).

The codecs a record batch can be compressed with, and the framing each one uses on the wire:

- GZIP: a standard gzip stream, written as Java's GZIPOutputStream does (zlib level 6, no file
  name, mtime 0, OS byte 255); concatenated members are read as one stream.
- SNAPPY: the xerial snappy-java stream framing that Java clients write (magic `\\x82SNAPPY\\x00`,
  two big-endian int32 versions, then chunks of `[int32 length][raw snappy]` over 32 KiB of input).
  Data without that header is read as one plain raw snappy block, as snappy-java does.
- LZ4: the LZ4 frame format with independent 64 KiB blocks and no checksums, as Kafka's
  KafkaLZ4BlockOutputStream writes it. Magic 0 messages used a header checksum computed over the
  frame magic too (a pre-0.10 bug): it is written for magic 0 and not checked on read for magic 0.
- ZSTD: standard zstd frames at level 3, streaming (no content size), as zstd-jni writes them.

# PORT: Java's wrapForInput/wrapForOutput return streams; Kafka's record code only ever compresses
a whole batch body at once and reads one to its end, so here each codec is a pair of whole-buffer
functions, `compress(data, magic)` and `decompress(data, magic, max_size)`. The helpers that live
in Java's org.apache.kafka.common.compress package (KafkaLZ4BlockInput/OutputStream, SnappyFactory,
ZstdFactory) are folded into this module.

# PORT: decompression is bounded. Java streams the records and so never holds a whole batch, but a
hostile record length can still make it allocate. Here every decoder stops and raises
CorruptRecordException as soon as the output would exceed `max_size` (see `decompression_limit`),
and it never allocates more than that bound plus one codec block. Any decoding failure is a
CorruptRecordException (Java raises a KafkaException wrapping an IOException).
"""

from __future__ import annotations

import struct
import zlib
from typing import ClassVar, Final

from kafka.common.errors import CorruptRecordException

Buffer = bytes | bytearray | memoryview

_MAGIC_VALUE_V0: Final = 0

#: A batch may always decompress to at least this many bytes, whatever its compressed size.
MIN_DECOMPRESSION_LIMIT: Final = 16 * 1024 * 1024
#: Beyond the floor, a batch may expand at most this many times its compressed size. gzip cannot
#: exceed ~1032x, lz4 ~255x and snappy ~22x by construction, so only zstd (or a forged length)
#: can hit this; the floor keeps legitimate highly compressible batches working.
MAX_COMPRESSION_RATIO: Final = 2048
#: Hard ceiling, Java's largest array.
MAX_DECOMPRESSED_SIZE: Final = 2**31 - 1


def decompression_limit(compressed_size: int) -> int:
    """The most bytes a compressed payload of `compressed_size` bytes may decompress to."""
    return min(MAX_DECOMPRESSED_SIZE, max(MIN_DECOMPRESSION_LIMIT, compressed_size * MAX_COMPRESSION_RATIO))


def _too_large(limit: int) -> CorruptRecordException:
    return CorruptRecordException(
        f"Decompressed record data exceeds the limit of {limit} bytes; the batch is corrupt or hostile"
    )


# ---- xxHash32 (LZ4 frame header and block checksums) ---------------------------------------------

_P1: Final = 2654435761
_P2: Final = 2246822519
_P3: Final = 3266489917
_P4: Final = 668265263
_P5: Final = 374761393
_M32: Final = 0xFFFFFFFF
_U32LE: Final = struct.Struct("<I")
_STRIPE: Final = struct.Struct("<IIII")


def _rotl(x: int, r: int) -> int:
    return ((x << r) | (x >> (32 - r))) & _M32


def xxhash32(data: Buffer, seed: int = 0) -> int:
    """xxHash32 of `data`, as the LZ4 frame format uses it (only small or rare inputs go here)."""
    n = len(data)
    i = 0
    if n >= 16:
        v1 = (seed + _P1 + _P2) & _M32
        v2 = (seed + _P2) & _M32
        v3 = seed & _M32
        v4 = (seed - _P1) & _M32
        limit = n - 16
        while i <= limit:
            a, b, c, d = _STRIPE.unpack_from(data, i)
            v1 = (_rotl((v1 + a * _P2) & _M32, 13) * _P1) & _M32
            v2 = (_rotl((v2 + b * _P2) & _M32, 13) * _P1) & _M32
            v3 = (_rotl((v3 + c * _P2) & _M32, 13) * _P1) & _M32
            v4 = (_rotl((v4 + d * _P2) & _M32, 13) * _P1) & _M32
            i += 16
        h = (_rotl(v1, 1) + _rotl(v2, 7) + _rotl(v3, 12) + _rotl(v4, 18)) & _M32
    else:
        h = (seed + _P5) & _M32
    h = (h + n) & _M32
    while i + 4 <= n:
        h = (_rotl((h + _U32LE.unpack_from(data, i)[0] * _P3) & _M32, 17) * _P4) & _M32
        i += 4
    while i < n:
        h = (_rotl((h + data[i] * _P5) & _M32, 11) * _P1) & _M32
        i += 1
    h ^= h >> 15
    h = (h * _P2) & _M32
    h ^= h >> 13
    h = (h * _P3) & _M32
    h ^= h >> 16
    return h


# ---- LZ4 frame (KafkaLZ4BlockOutputStream / KafkaLZ4BlockInputStream) -----------------------------

LZ4_MAGIC: Final = 0x184D2204
_LZ4_MAGIC_BYTES: Final = _U32LE.pack(LZ4_MAGIC)
_LZ4_INCOMPRESSIBLE_MASK: Final = 0x80000000
_LZ4_BLOCK_SIZE: Final = 64 * 1024
# FLG: version 01, independent blocks, no block/content checksum, no content size.
_LZ4_FLG: Final = 0x60
# BD: maximum block size code 4 (64 KiB).
_LZ4_BD: Final = 0x40
_LZ4_HEADER: Final = _LZ4_MAGIC_BYTES + bytes((_LZ4_FLG, _LZ4_BD, (xxhash32(bytes((_LZ4_FLG, _LZ4_BD))) >> 8) & 0xFF))
# Magic 0 messages: the header checksum also covered the four magic bytes.
_LZ4_HEADER_BROKEN_HC: Final = _LZ4_MAGIC_BYTES + bytes(
    (_LZ4_FLG, _LZ4_BD, (xxhash32(_LZ4_MAGIC_BYTES + bytes((_LZ4_FLG, _LZ4_BD))) >> 8) & 0xFF)
)
_LZ4_END_MARK: Final = b"\x00\x00\x00\x00"


def _lz4_compress(data: Buffer, magic: int) -> bytes:
    import lz4.block  # each codec's library is loaded when a batch first needs it

    view = memoryview(data)
    parts: list[bytes | memoryview] = [_LZ4_HEADER_BROKEN_HC if magic == _MAGIC_VALUE_V0 else _LZ4_HEADER]
    pack = _U32LE.pack
    for start in range(0, len(view), _LZ4_BLOCK_SIZE):
        block = view[start : start + _LZ4_BLOCK_SIZE]
        compressed = lz4.block.compress(block, store_size=False)
        if len(compressed) >= len(block):
            parts.append(pack(len(block) | _LZ4_INCOMPRESSIBLE_MASK))
            parts.append(block)
        else:
            parts.append(pack(len(compressed)))
            parts.append(compressed)
    parts.append(_LZ4_END_MARK)
    return b"".join(parts)


def _lz4_decompress(data: Buffer, magic: int, limit: int) -> bytes:
    import lz4.block

    view = memoryview(data)
    n = len(view)
    if n < 7:
        raise CorruptRecordException("LZ4 stream ended prematurely")
    if _U32LE.unpack_from(view, 0)[0] != LZ4_MAGIC:
        raise CorruptRecordException("LZ4 stream unsupported (invalid magic bytes)")
    flg = view[4]
    bd = view[5]
    if flg & 0x03:
        raise CorruptRecordException("LZ4 frame: reserved bits must be 0")
    if (flg >> 6) & 0x03 != 1:
        raise CorruptRecordException(f"LZ4 frame: version {(flg >> 6) & 0x03} is unsupported")
    if bd & 0x8F:
        raise CorruptRecordException("LZ4 frame: reserved block descriptor bits must be 0")
    block_size_code = (bd >> 4) & 0x07
    if block_size_code < 4:
        raise CorruptRecordException("LZ4 frame: block size value must be between 4 and 7")
    max_block = 1 << (2 * block_size_code + 8)
    independent = bool(flg & 0x20)
    block_checksum = bool(flg & 0x10)
    content_size = bool(flg & 0x08)
    content_checksum = bool(flg & 0x04)
    pos = 6
    if content_size:
        # Java skips the content size; so do we.
        pos += 8
    if pos >= n:
        raise CorruptRecordException("LZ4 stream ended prematurely")
    if magic != _MAGIC_VALUE_V0 and view[pos] != (xxhash32(view[4:pos]) >> 8) & 0xFF:
        raise CorruptRecordException("LZ4 stream frame descriptor corrupted")
    pos += 1
    out: list[bytes | memoryview] = []
    total = 0
    history: bytes | memoryview = b""
    while True:
        if n - pos < 4:
            raise CorruptRecordException("LZ4 stream ended prematurely")
        size = _U32LE.unpack_from(view, pos)[0]
        pos += 4
        compressed = not (size & _LZ4_INCOMPRESSIBLE_MASK)
        size &= ~_LZ4_INCOMPRESSIBLE_MASK
        if size == 0:
            # End mark; a content checksum may follow, which Java skips unverified.
            if content_checksum and n - pos < 4:
                raise CorruptRecordException("LZ4 stream ended prematurely")
            break
        if size > max_block:
            raise CorruptRecordException(f"LZ4 block size {size} exceeded max: {max_block}")
        if n - pos < size:
            raise CorruptRecordException("LZ4 stream ended prematurely")
        raw = view[pos : pos + size]
        block: bytes | memoryview
        if compressed:
            try:
                if independent:
                    block = lz4.block.decompress(raw, uncompressed_size=max_block)
                else:
                    # PORT: Java rejects linked blocks; we accept them (python-lz4's default frames).
                    block = lz4.block.decompress(raw, uncompressed_size=max_block, dict=history)
            except Exception as e:
                raise CorruptRecordException(f"LZ4 block is corrupt: {e}") from e
        else:
            block = raw
        pos += size
        if block_checksum:
            if n - pos < 4:
                raise CorruptRecordException("LZ4 stream ended prematurely")
            if xxhash32(raw) != _U32LE.unpack_from(view, pos)[0]:
                raise CorruptRecordException("LZ4 block checksum mismatch")
            pos += 4
        total += len(block)
        if total > limit:
            raise _too_large(limit)
        out.append(block)
        if not independent:
            joined = bytes(history) + bytes(block)
            history = joined[-_LZ4_BLOCK_SIZE:]
    return b"".join(out)


# ---- Snappy, xerial framing (SnappyFactory -> snappy-java SnappyOutputStream/SnappyInputStream) ----

XERIAL_SNAPPY_MAGIC: Final = b"\x82SNAPPY\x00"
_XERIAL_HEADER: Final = XERIAL_SNAPPY_MAGIC + struct.pack(">ii", 1, 1)
_XERIAL_HEADER_SIZE: Final = 16
_XERIAL_MAGIC_HEAD: Final = struct.unpack(">i", XERIAL_SNAPPY_MAGIC[:4])[0]
_XERIAL_BLOCK_SIZE: Final = 32 * 1024
_INT32BE: Final = struct.Struct(">i")


def _snappy_compress(data: Buffer) -> bytes:
    import cramjam

    view = memoryview(data)
    parts: list[bytes] = [_XERIAL_HEADER]
    pack = _INT32BE.pack
    for start in range(0, len(view), _XERIAL_BLOCK_SIZE):
        chunk = bytes(cramjam.snappy.compress_raw(view[start : start + _XERIAL_BLOCK_SIZE]))
        parts.append(pack(len(chunk)))
        parts.append(chunk)
    return b"".join(parts)


def _snappy_raw_block(block: memoryview, budget: int, limit: int) -> bytes:
    import cramjam

    # The raw format starts with the uncompressed length as an unsigned varint: check it before
    # the codec allocates for it.
    length = 0
    shift = 0
    i = 0
    while True:
        if i >= len(block) or i >= 5:
            raise CorruptRecordException("Snappy block has a malformed length preamble")
        b = block[i]
        length |= (b & 0x7F) << shift
        i += 1
        if b < 0x80:
            break
        shift += 7
    if length > budget:
        raise _too_large(limit)
    try:
        out = bytes(cramjam.snappy.decompress_raw(block))
    except Exception as e:
        raise CorruptRecordException(f"Snappy block is corrupt: {e}") from e
    if len(out) != length:
        raise CorruptRecordException("Snappy block length does not match its preamble")
    return out


def _snappy_decompress(data: Buffer, limit: int) -> bytes:
    view = memoryview(data)
    n = len(view)
    if n < _XERIAL_HEADER_SIZE or view[:8].tobytes() != XERIAL_SNAPPY_MAGIC:
        return _snappy_raw_block(view, limit, limit)
    out: list[bytes] = []
    total = 0
    pos = _XERIAL_HEADER_SIZE
    while n - pos >= 4:
        chunk_size = _INT32BE.unpack_from(view, pos)[0]
        pos += 4
        if chunk_size == _XERIAL_MAGIC_HEAD:
            # A second stream concatenated to the first: skip the rest of its header.
            pos += _XERIAL_HEADER_SIZE - 4
            continue
        if chunk_size < 0 or chunk_size > n - pos:
            raise CorruptRecordException(f"Snappy chunk of {chunk_size} bytes does not fit the stream")
        block = _snappy_raw_block(view[pos : pos + chunk_size], limit - total, limit)
        pos += chunk_size
        total += len(block)
        out.append(block)
    # snappy-java stops silently before a partial chunk length; so do we.
    return b"".join(out)


# ---- GZIP ----------------------------------------------------------------------------------------

# Java's GZIPOutputStream header: no flags, mtime 0, no extra flags, OS 255 (JDK 16+).
_GZIP_HEADER: Final = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"
_GZIP_TRAILER: Final = struct.Struct("<II")


def _gzip_compress(data: Buffer) -> bytes:
    deflater = zlib.compressobj(6, zlib.DEFLATED, -zlib.MAX_WBITS, 8, zlib.Z_DEFAULT_STRATEGY)
    body = deflater.compress(data) + deflater.flush()
    return b"".join((_GZIP_HEADER, body, _GZIP_TRAILER.pack(zlib.crc32(data) & _M32, len(data) & _M32)))


def _gzip_decompress(data: Buffer, limit: int) -> bytes:
    out: list[bytes] = []
    total = 0
    source: Buffer = data
    try:
        while True:
            inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
            pending: Buffer = source
            while True:
                chunk = inflater.decompress(pending, limit - total + 1)
                total += len(chunk)
                if total > limit:
                    raise _too_large(limit)
                out.append(chunk)
                if inflater.eof:
                    break
                pending = inflater.unconsumed_tail
                if not pending:
                    raise CorruptRecordException("Unexpected end of gzip input stream")
            rest = inflater.unused_data
            # Another gzip member may follow; anything else after the first member is ignored,
            # as java.util.zip.GZIPInputStream does.
            if len(rest) < 10 or rest[:2] != b"\x1f\x8b":
                break
            source = rest
    except zlib.error as e:
        raise CorruptRecordException(f"Gzip data is corrupt: {e}") from e
    return b"".join(out)


# ---- ZSTD ----------------------------------------------------------------------------------------

_ZSTD_MAGIC: Final = 0xFD2FB528
_ZSTD_BLOCK_MAX: Final = 128 * 1024
_ZSTD_LEVEL: Final = 3


def _zstd_compress(data: Buffer) -> bytes:
    import zstandard

    # Streaming, like zstd-jni's ZstdOutputStream: no content size in the frame header.
    cctx = zstandard.ZstdCompressor(level=_ZSTD_LEVEL, write_content_size=False, write_checksum=False)
    compressor = cctx.compressobj()
    return compressor.compress(data) + compressor.flush()


class _ZstdFrame:
    """One zstd frame found by walking its headers: where it lies and where its blocks end."""

    __slots__ = ("block_ends", "bound", "content_size", "end", "floor", "start")

    def __init__(self, start: int, end: int, floor: int, bound: int, content_size: int, block_ends: list[int]) -> None:
        self.start = start
        self.end = end
        self.floor = floor
        self.bound = bound
        self.content_size = content_size
        self.block_ends = block_ends


def _zstd_frames(view: memoryview) -> list[_ZstdFrame]:
    """Split `view` into zstd frames, proving each complete.

    Walking the block headers costs little (a block holds up to 128 KiB) and gives, before any byte
    is decompressed, each frame's exact end, its block boundaries and bounds on its output: raw and
    RLE blocks state their output size exactly (the floor), a compressed block yields at most the
    frame's block maximum (the bound).
    """
    frames: list[_ZstdFrame] = []
    n = len(view)
    pos = 0
    while pos < n:
        if n - pos < 4:
            raise CorruptRecordException("Zstd data ended prematurely")
        magic = _U32LE.unpack_from(view, pos)[0]
        if magic & 0xFFFFFFF0 == 0x184D2A50:
            if n - pos < 8:
                raise CorruptRecordException("Zstd data ended prematurely")
            pos += 8 + _U32LE.unpack_from(view, pos + 4)[0]
            if pos > n:
                raise CorruptRecordException("Zstd skippable frame is truncated")
            continue
        if magic != _ZSTD_MAGIC:
            raise CorruptRecordException("Zstd data has an unknown frame magic")
        start = pos
        pos += 4
        if pos >= n:
            raise CorruptRecordException("Zstd data ended prematurely")
        fhd = view[pos]
        pos += 1
        if fhd & 0x08:
            raise CorruptRecordException("Zstd frame header has the reserved bit set")
        single_segment = bool(fhd & 0x20)
        window_size = 0
        if not single_segment:
            if pos >= n:
                raise CorruptRecordException("Zstd data ended prematurely")
            wd = view[pos]
            pos += 1
            window_base = 1 << (10 + (wd >> 3))
            window_size = window_base + (window_base >> 3) * (wd & 0x07)
        pos += (0, 1, 2, 4)[fhd & 0x03]  # dictionary id
        fcs_size = (1 if single_segment else 0, 2, 4, 8)[fhd >> 6]
        if pos + fcs_size > n:
            raise CorruptRecordException("Zstd data ended prematurely")
        content_size = -1
        if fcs_size:
            content_size = int.from_bytes(view[pos : pos + fcs_size], "little") + (256 if fcs_size == 2 else 0)
        pos += fcs_size
        if single_segment:
            window_size = content_size
        block_max = min(window_size, _ZSTD_BLOCK_MAX) if window_size > 0 else 0
        floor = 0
        bound = 0
        block_ends: list[int] = []
        while True:
            if n - pos < 3:
                raise CorruptRecordException("Zstd frame is truncated")
            header = view[pos] | (view[pos + 1] << 8) | (view[pos + 2] << 16)
            pos += 3
            block_type = (header >> 1) & 0x03
            block_size = header >> 3
            if block_type == 0:
                pos += block_size
                floor += block_size
                bound += block_size
            elif block_type == 1:
                pos += 1
                floor += block_size
                bound += block_size
            elif block_type == 2:
                if block_size > block_max:
                    raise CorruptRecordException("Zstd compressed block exceeds the frame's block size")
                pos += block_size
                bound += block_max
            else:
                raise CorruptRecordException("Zstd frame has a reserved block type")
            if pos > n:
                raise CorruptRecordException("Zstd frame is truncated")
            block_ends.append(pos)
            if header & 1:
                break
        if fhd & 0x04:
            pos += 4  # content checksum
            if pos > n:
                raise CorruptRecordException("Zstd frame is truncated")
        if content_size >= 0:
            bound = min(bound, content_size)
        frames.append(_ZstdFrame(start, pos, floor, bound, content_size, block_ends))
    return frames


def _zstd_decompress(data: Buffer, limit: int) -> bytes:
    import zstandard

    view = memoryview(data)
    frames = _zstd_frames(view)
    if not frames:
        raise CorruptRecordException("Zstd data holds no frame")
    dctx = zstandard.ZstdDecompressor()
    out: list[bytes] = []
    total = 0
    try:
        for frame in frames:
            if frame.content_size > limit - total or frame.floor > limit - total:
                raise _too_large(limit)
            dobj = dctx.decompressobj()
            if frame.bound <= limit - total:
                # The block headers prove the output fits: decompress the frame in one call.
                chunk = dobj.decompress(view[frame.start : frame.end])
                total += len(chunk)
                out.append(chunk)
            else:
                # Feed one block at a time (at most 128 KiB of output each) and stop at the limit.
                fed = frame.start
                last = len(frame.block_ends) - 1
                for i, block_end in enumerate(frame.block_ends):
                    stop = frame.end if i == last else block_end
                    chunk = dobj.decompress(view[fed:stop])
                    fed = stop
                    total += len(chunk)
                    if total > limit:
                        raise _too_large(limit)
                    out.append(chunk)
            if total > limit:
                raise _too_large(limit)
            if not dobj.eof:
                raise CorruptRecordException("Zstd frame is truncated")
    except zstandard.ZstdError as e:
        raise CorruptRecordException(f"Zstd data is corrupt: {e}") from e
    return b"".join(out)


# ---- the enum ------------------------------------------------------------------------------------


class CompressionType:
    """A batch compression codec: `id` (the attribute bits), `name` (config spelling) and `rate`.

    Instances are singletons: NONE, GZIP, SNAPPY, LZ4, ZSTD.
    """

    __slots__ = ("id", "name", "rate")

    NONE: ClassVar[CompressionType]
    GZIP: ClassVar[CompressionType]
    SNAPPY: ClassVar[CompressionType]
    LZ4: ClassVar[CompressionType]
    ZSTD: ClassVar[CompressionType]

    id: int
    name: str
    rate: float

    def __init__(self, id_: int, name: str, rate: float) -> None:
        self.id = id_
        self.name = name
        self.rate = rate

    def compress(self, data: Buffer, magic: int = 2) -> bytes:
        """Compress `data` into this codec's framing as written for record format `magic`."""
        codec_id = self.id
        if codec_id == 0:
            return bytes(data)
        if codec_id == 1:
            return _gzip_compress(data)
        if codec_id == 2:
            return _snappy_compress(data)
        if codec_id == 3:
            return _lz4_compress(data, magic)
        return _zstd_compress(data)

    def decompress(self, data: Buffer, magic: int = 2, max_size: int | None = None) -> bytes:
        """Decompress `data`, failing with CorruptRecordException past `max_size` bytes of output.

        `max_size` defaults to `decompression_limit(len(data))`.
        """
        limit = decompression_limit(len(data)) if max_size is None else max_size
        codec_id = self.id
        if codec_id == 0:
            if len(data) > limit:
                raise _too_large(limit)
            return bytes(data)
        if codec_id == 1:
            return _gzip_decompress(data, limit)
        if codec_id == 2:
            return _snappy_decompress(data, limit)
        if codec_id == 3:
            return _lz4_decompress(data, magic, limit)
        return _zstd_decompress(data, limit)

    @staticmethod
    def values() -> tuple[CompressionType, ...]:
        """Every codec, in id order."""
        return _VALUES

    @staticmethod
    def for_id(id_: int) -> CompressionType:
        """The codec with attribute id `id_`; ValueError for an unknown id."""
        if 0 <= id_ < len(_VALUES):
            return _VALUES[id_]
        raise ValueError(f"Unknown compression type id: {id_}")

    @staticmethod
    def for_name(name: str) -> CompressionType:
        """The codec named `name` ("none", "gzip", "snappy", "lz4", "zstd"); ValueError otherwise."""
        for t in _VALUES:
            if t.name == name:
                return t
        raise ValueError(f"Unknown compression name: {name}")

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"CompressionType.{self.name.upper()}"

    def __reduce__(self) -> str:
        return f"CompressionType.{self.name.upper()}"


CompressionType.NONE = CompressionType(0, "none", 1.0)
CompressionType.GZIP = CompressionType(1, "gzip", 1.0)
CompressionType.SNAPPY = CompressionType(2, "snappy", 1.0)
CompressionType.LZ4 = CompressionType(3, "lz4", 1.0)
CompressionType.ZSTD = CompressionType(4, "zstd", 1.0)

_VALUES: tuple[CompressionType, ...] = (
    CompressionType.NONE,
    CompressionType.GZIP,
    CompressionType.SNAPPY,
    CompressionType.LZ4,
    CompressionType.ZSTD,
)
