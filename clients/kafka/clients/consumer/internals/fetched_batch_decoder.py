"""Decodes the records of fetched batches straight into ConsumerRecords, a batch at a time.

# PORT: no Java counterpart. Java's CompletedFetch pulls one Record at a time from the batch's streaming
iterator and copies it into a ConsumerRecord. In Python each of those steps is a handful of calls per
record, which made decoding (not the network) the consumer's limit for small records. Here a batch is
decoded in one pass:

- a v2 batch (`decode_default_batch`) is walked in a single loop over its (decompressed) record section,
  with one- and two-byte varints read inline (from a table), filling each ConsumerRecord's slots directly.
  A record the loop does not expect (headers, a malformed or unusual encoding) is handed to the record
  layer's own decoder, DefaultRecord.read_from, which returns it or raises the very error the
  record-at-a-time path raises. Where the optional compiled module `_fetched_batch_decoder` is built
  (setup.py, from `_fetched_batch_decoder.c`), it runs that loop for the common records, about twice as
  fast, and stops at the first other one, which the code here reads;
- any other batch (magic 0 and 1) goes through `decode_generic_batch`, record by record through the
  batch's iterator (with the per-record CRC check of check.crcs).

Either way the records come out with their raw bytes as key and value (what ByteArrayDeserializer returns);
CompletedFetch deserializes them later, one by one and only as they are returned, when the consumer has
other deserializers. A record that cannot be decoded ends the list: the records before it are returned,
and the error comes with the next one, where the record-at-a-time iteration would have raised it.

RecordColumns is the columnar counterpart (KafkaConsumer.poll_columns): the compiled `decode_columns` writes a
whole batch of common records into Arrow buffers, and the records of any other batch, decoded as above, are
appended to them.
"""

from __future__ import annotations

import os
import struct
import sys
from collections.abc import Callable
from typing import Final

from kafka.clients.consumer.consumer_record import ConsumerRecord
from kafka.common.errors import CorruptRecordException, InvalidRecordException, KafkaException
from kafka.common.header.internals.record_headers import RecordHeaders
from kafka.common.record.default_record import DefaultRecord, read_varint, read_varlong
from kafka.common.record.default_record_batch import DefaultRecordBatch

# The protocol layer imports MemoryRecords only when it reads the first records field: loading it with the
# consumer keeps that out of the first fetch.
from kafka.common.record.memory_records import MemoryRecords  # noqa: F401
from kafka.common.record.record import Record
from kafka.common.record.record_batch import NO_PARTITION_LEADER_EPOCH, RecordBatch
from kafka.common.record.timestamp_type import TimestampType

__all__ = ["V2_BATCH_HEADER", "DecodedBatch", "RecordColumns", "decode_default_batch", "decode_generic_batch"]

#: The records of one batch, as raw ConsumerRecords, and the error met after them (None if none).
DecodedBatch = tuple[list[ConsumerRecord[bytes, bytes]], BaseException | None]

# A v2 batch header: baseOffset, length, partitionLeaderEpoch, magic, crc, attributes, lastOffsetDelta,
# baseTimestamp, maxTimestamp, producerId, producerEpoch, baseSequence, recordsCount.
_V2_HEADER: Final = struct.Struct(">qiibIhiqqqhii")
#: The same header layout, for CompletedFetch's check of a batch (one unpack for all its fields).
V2_BATCH_HEADER: Final = _V2_HEADER
_TIMESTAMP_TYPE_MASK: Final = 0x08
_COMPRESSION_CODEC_MASK: Final = 0x07
_RECORDS_OFFSET: Final = DefaultRecordBatch.RECORDS_OFFSET
_MIN64: Final = -(2**63)
_MAX64: Final = 2**63 - 1
# One- and two-byte varints are at most 8192 in magnitude: a base timestamp this far from the int64 limits
# cannot overflow with such a delta, so the loop needs no range check for them.
_SAFE_BASE_TIMESTAMP_MARGIN: Final = 1 << 13

_new_record = object.__new__

# The zig-zag decoding of every one- and two-byte varint, indexed by its 7 or 14 payload bits.
_ZIGZAG: Final = tuple((u >> 1) ^ -(u & 1) for u in range(1 << 14))


#: The compiled loop of the common records (the optional extension `_fetched_batch_decoder`, built from source at
#: install time where a C compiler is found), or None: then the loop below reads every record. The environment
#: variable KAFKA_PORT_PURE_PYTHON_DECODER=1 selects the Python loop (the tests run both).
def _load_compiled_loop() -> Callable[..., tuple[int, int]] | None:
    if os.environ.get("KAFKA_PORT_PURE_PYTHON_DECODER") == "1":
        return None
    try:
        from kafka.clients.consumer.internals import _fetched_batch_decoder  # type: ignore[attr-defined]
    except ImportError:
        return None
    decode: Callable[..., tuple[int, int]] = _fetched_batch_decoder.decode_records
    return decode


_compiled_decode_records = _load_compiled_loop()


def _leader_epoch(epoch: int) -> int | None:
    return None if epoch == NO_PARTITION_LEADER_EPOCH else epoch


def decode_default_batch(batch: DefaultRecordBatch, topic: str, partition: int, min_offset: int) -> DecodedBatch:
    """The records of a v2 batch from `min_offset` on (a batch may begin before the fetch offset).

    The batch must be at least a header long with a non-negative count (the caller checks; other batches go
    to `decode_generic_batch`). Decompression errors are raised at once, as the first record of the batch
    would raise them."""
    buffer = batch.buffer()
    (
        base_offset,
        _length,
        epoch,
        _magic,
        _crc,
        attributes,
        _last_offset_delta,
        base_timestamp,
        max_timestamp,
        _producer_id,
        _producer_epoch,
        base_sequence,
        count,
    ) = _V2_HEADER.unpack_from(buffer, 0)
    records: list[ConsumerRecord[bytes, bytes]] = []
    if count == 0:
        return records, None
    fast = _compiled_decode_records
    section: bytes | memoryview
    if fast is not None and attributes & _COMPRESSION_CODEC_MASK == 0 and buffer.__class__ is memoryview:
        # The compiled loop reads an uncompressed record section where it lies in the response; the Python code
        # below, which slices keys and values out of it, gets a copy (data) only if it has a record to read.
        section = buffer[_RECORDS_OFFSET:]
    else:
        section = batch.records_data()
    data = section if isinstance(section, bytes) else b""
    leader_epoch = _leader_epoch(epoch)
    log_append_time: int | None
    if attributes & _TIMESTAMP_TYPE_MASK:
        timestamp_type = TimestampType.LOG_APPEND_TIME
        log_append_time = max_timestamp
    else:
        timestamp_type = TimestampType.CREATE_TIME
        log_append_time = None
    # With LogAppendTime every record gets the batch's max timestamp: a zero base and no overflow check.
    timestamp_base = 0 if log_append_time is not None else base_timestamp
    inline_timestamps = (
        log_append_time is not None
        or _MIN64 + _SAFE_BASE_TIMESTAMP_MARGIN <= base_timestamp <= _MAX64 - _SAFE_BASE_TIMESTAMP_MARGIN
    )
    limit = len(section)
    append = records.append
    new = _new_record
    cls = ConsumerRecord
    zigzag = _ZIGZAG
    error: BaseException | None = None
    pos = 0
    remaining = count
    while remaining > 0:
        if fast is not None:
            # The compiled loop takes the common records and stops at the first other one, read below.
            pos, decoded = fast(
                section,
                pos,
                remaining,
                base_offset,
                timestamp_base,
                log_append_time,
                topic,
                partition,
                timestamp_type,
                leader_epoch,
                cls,
                records,
            )
            remaining -= decoded
            if remaining == 0:
                break
            if len(data) != limit:
                data = bytes(section)
        remaining -= 1
        # The common record, read inline; anything else (headers included) goes to the record layer's decoder.
        try:
            b = data[pos]
            if b < 0x80:
                size = zigzag[b]
                p = pos + 1
            else:
                b2 = data[pos + 1]
                if b2 < 0x80:
                    size = zigzag[b - 0x80 + (b2 << 7)]
                    p = pos + 2
                else:
                    size, p = read_varint(data, pos)
            end = p + size
            if size < 0 or end > limit:
                raise _Unusual
            # attributes (unused) at p, then the timestamp delta
            p += 1
            b = data[p]
            if inline_timestamps and b < 0x80:
                timestamp = timestamp_base + zigzag[b]
                p += 1
            elif inline_timestamps and data[p + 1] < 0x80:
                timestamp = timestamp_base + zigzag[b - 0x80 + (data[p + 1] << 7)]
                p += 2
            else:
                delta, p = read_varlong(data, p)
                timestamp = timestamp_base + delta
                if not _MIN64 <= timestamp <= _MAX64:
                    raise _Unusual
            b = data[p]
            if b < 0x80:
                delta = zigzag[b]
                p = p + 1
            else:
                b2 = data[p + 1]
                if b2 < 0x80:
                    delta = zigzag[b - 0x80 + (b2 << 7)]
                    p = p + 2
                else:
                    delta, p = read_varint(data, p)
            offset = base_offset + delta
            b = data[p]
            if b < 0x80:
                key_size = zigzag[b]
                p = p + 1
            else:
                b2 = data[p + 1]
                if b2 < 0x80:
                    key_size = zigzag[b - 0x80 + (b2 << 7)]
                    p = p + 2
                else:
                    key_size, p = read_varint(data, p)
            if key_size < 0:
                key = None
            else:
                if key_size > end - p:
                    raise _Unusual
                key = data[p : p + key_size]
                p += key_size
            b = data[p]
            if b < 0x80:
                value_size = zigzag[b]
                p = p + 1
            else:
                b2 = data[p + 1]
                if b2 < 0x80:
                    value_size = zigzag[b - 0x80 + (b2 << 7)]
                    p = p + 2
                else:
                    value_size, p = read_varint(data, p)
            if value_size < 0:
                value = None
            else:
                if value_size > end - p:
                    raise _Unusual
                value = data[p : p + value_size]
                p += value_size
            # Without headers, their zero count is the record's last byte.
            inline = p + 1 == end and data[p] == 0
        except (_Unusual, IndexError, InvalidRecordException):
            inline = False
        if inline:
            record = new(cls)
            record._topic = topic
            record._partition = partition
            record._offset = offset
            record._timestamp = timestamp if log_append_time is None else log_append_time
            record._timestamp_type = timestamp_type
            record._serialized_key_size = -1 if key is None else key_size
            record._serialized_value_size = -1 if value is None else value_size
            record._headers = None
            record._key = key
            record._value = value
            record._leader_epoch = leader_epoch
        else:
            try:
                full, end = DefaultRecord.read_from(
                    data, pos, base_offset, base_timestamp, base_sequence, log_append_time
                )
            except KafkaException as e:
                error = e
                break
            record = _from_record(full, topic, partition, timestamp_type, leader_epoch)
        append(record)
        pos = end
    if error is None and pos != limit:
        # The last record is not returned: the batch's declared size does not hold.
        records.pop()
        error = InvalidRecordException("Incorrect declared batch size, records still remaining in file")
    if base_offset < min_offset:
        records = [r for r in records if r._offset >= min_offset]
    return records, error


class _Unusual(Exception):
    """A record the inline loop leaves to DefaultRecord.read_from."""


def decode_generic_batch(
    batch: RecordBatch, topic: str, partition: int, min_offset: int, check_crcs: bool
) -> DecodedBatch:
    """The records of any batch from `min_offset` on, read with the batch's own iterator; with `check_crcs`,
    each returned record's own checksum is verified (magic 0 and 1 records carry one)."""
    records: list[ConsumerRecord[bytes, bytes]] = []
    leader_epoch = _leader_epoch(batch.partition_leader_epoch())
    try:
        timestamp_type = batch.timestamp_type()
        for record in batch.streaming_iterator():
            if record.offset() < min_offset:
                continue
            if check_crcs:
                try:
                    record.ensure_valid()
                except CorruptRecordException as e:
                    raise KafkaException(
                        f"Record for partition {topic}-{partition} at offset {record.offset()} is invalid, cause: {e}"
                    ) from None
            records.append(_from_record(record, topic, partition, timestamp_type, leader_epoch))
    except KafkaException as e:
        return records, e
    return records, None


def _from_record(
    record: Record, topic: str, partition: int, timestamp_type: TimestampType, leader_epoch: int | None
) -> ConsumerRecord[bytes, bytes]:
    key = record.key()
    value = record.value()
    headers = record.headers()
    return ConsumerRecord(
        topic,
        partition,
        record.offset(),
        key,
        value,
        timestamp=record.timestamp(),
        timestamp_type=timestamp_type,
        serialized_key_size=ConsumerRecord.NULL_SIZE if key is None else len(key),
        serialized_value_size=ConsumerRecord.NULL_SIZE if value is None else len(value),
        headers=RecordHeaders(headers) if headers else None,
        leader_epoch=leader_epoch,
    )


class RecordColumns:
    """Fetched records laid out as Arrow columns, appended to batch after batch (the consumer's columnar fetch,
    KafkaConsumer.poll_columns).

    # PORT: no Java counterpart (Java's consumer returns records only). The Spark source reads its rows into
    Arrow batches: a record object per row, made and then taken apart again, was most of its cost. Here a
    batch's records go straight from the batch's bytes into growing buffers in Arrow's little-endian layout:

    - `offsets`, `timestamps`: int64 values (the timestamp in milliseconds, as the record gives it);
    - `timestamp_types`: an int8 per row, TimestampType's id;
    - `key_validity`, `key_offsets`, `key_data` (and the same for values): a binary column, its validity bitmap
      (bit set: not null), its int32 offsets (one more than the rows, from 0) and its bytes;
    - `headers`, with `include_headers`: the headers of the rows that have some, by row index.

    The optional compiled module fills them for batches of common records; any other batch is decoded record
    by record (fetched_batch_decoder's loops) and its records appended here, with the same result."""

    __slots__ = (
        "offsets",
        "timestamps",
        "timestamp_types",
        "key_validity",
        "key_offsets",
        "key_data",
        "value_validity",
        "value_offsets",
        "value_data",
        "headers",
        "include_headers",
        "_buffers",
    )

    def __init__(self, include_headers: bool = False) -> None:
        self.offsets = bytearray()
        self.timestamps = bytearray()
        self.timestamp_types = bytearray()
        self.key_validity = bytearray()
        self.key_offsets = bytearray(4)
        self.key_data = bytearray()
        self.value_validity = bytearray()
        self.value_offsets = bytearray(4)
        self.value_data = bytearray()
        self.headers: dict[int, list[tuple[str, bytes | None]]] = {}
        self.include_headers = include_headers
        self._buffers = (
            self.offsets,
            self.timestamps,
            self.timestamp_types,
            self.key_validity,
            self.key_offsets,
            self.key_data,
            self.value_validity,
            self.value_offsets,
            self.value_data,
        )

    def __len__(self) -> int:
        return len(self.offsets) // 8

    def last_offset(self) -> int:
        """The offset of the last row (there must be one)."""
        value: int = _INT64.unpack_from(self.offsets, len(self.offsets) - 8)[0]
        return value

    def offset_at(self, row: int) -> int:
        value: int = _INT64.unpack_from(self.offsets, 8 * row)[0]
        return value

    def append_records(self, records: list[ConsumerRecord[bytes, bytes]]) -> None:
        """Appends decoded records (the record-by-record path and the fallback of the compiled one)."""
        pack64 = _INT64.pack
        pack32 = _INT32.pack
        row = len(self)
        for record in records:
            self.offsets += pack64(record._offset)
            self.timestamps += pack64(record._timestamp)
            self.timestamp_types += _INT8.pack(record._timestamp_type.id)
            _append_binary(self.key_validity, self.key_offsets, self.key_data, row, record._key, pack32)
            _append_binary(self.value_validity, self.value_offsets, self.value_data, row, record._value, pack32)
            if self.include_headers and record._headers is not None:
                headers = [(h.key(), h.value()) for h in record._headers]
                if headers:
                    self.headers[row] = headers
            row += 1

    def decode_batch(self, batch: DefaultRecordBatch, min_offset: int) -> int | None:
        """Appends the records of a v2 batch from `min_offset` on with the compiled loop and returns how many, or
        None (nothing appended) when the module is absent or the batch is not made of common records only. The
        batch must be at least a header long with a non-negative count. Raises what decompression raises."""
        decode = _compiled_decode_columns
        if decode is None:
            return None
        (
            base_offset,
            _length,
            _epoch,
            _magic,
            _crc,
            attributes,
            _last_offset_delta,
            base_timestamp,
            max_timestamp,
            _producer_id,
            _producer_epoch,
            _base_sequence,
            count,
        ) = _V2_HEADER.unpack_from(batch.buffer(), 0)
        if count == 0:
            return 0
        log_append_time = max_timestamp if attributes & _TIMESTAMP_TYPE_MASK else None
        timestamp_type = TimestampType.CREATE_TIME if log_append_time is None else TimestampType.LOG_APPEND_TIME
        rows: int = decode(
            batch.records_data(),
            count,
            base_offset,
            base_timestamp,
            log_append_time,
            timestamp_type.id,
            min_offset,
            self._buffers,
        )
        return None if rows < 0 else rows


_INT64: Final = struct.Struct("<q")
_INT32: Final = struct.Struct("<i")
_INT8: Final = struct.Struct("<b")


def _append_binary(
    validity: bytearray,
    offsets: bytearray,
    data: bytearray,
    row: int,
    value: bytes | None,
    pack32: Callable[[int], bytes],
) -> None:
    if len(validity) < (row + 8) // 8:
        validity.append(0)
    if value is not None:
        data += value
        validity[row >> 3] |= 1 << (row & 7)
    offsets += pack32(len(data))


def _load_compiled_columns() -> Callable[..., int] | None:
    # Arrow's buffers are little-endian; the module writes the machine's order.
    if _compiled_decode_records is None or sys.byteorder != "little":
        return None
    from kafka.clients.consumer.internals import _fetched_batch_decoder  # type: ignore[attr-defined]

    decode: Callable[..., int] | None = getattr(_fetched_batch_decoder, "decode_columns", None)
    return decode


_compiled_decode_columns = _load_compiled_columns()
