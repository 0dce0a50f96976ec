"""Port of clients/src/main/java/org/apache/kafka/common/requests/RequestUtils.java (Kafka 3.7).

Small helpers shared by the request classes: writing a header and a body into one frame, and leader
epochs that may be absent.
"""

from __future__ import annotations

import struct
from typing import Any, Final

from kafka.common.protocol.send_builder import SendBuilder
from kafka.common.record.default_record_batch import RECORD_BATCH_OVERHEAD
from kafka.common.record.memory_records import MemoryRecords

NO_PARTITION_LEADER_EPOCH = -1
"""RecordBatch.NO_PARTITION_LEADER_EPOCH."""

_SIZE = struct.Struct(">i")
_MAGIC_VALUE_V2 = 2
_MAX_COMPRESSION_ID = 4
COMPRESSION_CODEC_MASK: Final = 0x07
_TRANSACTIONAL_FLAG_MASK = 0x10
# A magic-2 batch header up to its attributes: base offset (skipped), batch length, partition leader epoch
# (skipped), magic, CRC (skipped), attributes.
_V2_HEADER: Final = struct.Struct(">8xi4xb4xh")
_LOG_OVERHEAD = 12


def single_v2_batch_attributes(records: Any) -> int | None:
    """The attributes of `records` when they are one complete batch of magic 2 and nothing else (what a producer
    sends for each partition of a v3+ Produce), of at least a batch header's size and with a known codec; None for
    anything else.

    # PORT: Java's checks iterate the record set's batches; for this common case the batch iterator would find this
    # one batch (every size check passing) and then the end, so reading its header here gives the same answers
    # without the iterator and batch objects. Everything else takes the iterating path, errors included."""
    if type(records) is not MemoryRecords:
        return None
    buffer = records.buffer()
    size = len(buffer)
    if size < RECORD_BATCH_OVERHEAD:
        return None
    length, magic, attributes = _V2_HEADER.unpack_from(buffer)
    if magic != _MAGIC_VALUE_V2 or length + _LOG_OVERHEAD != size:
        return None
    if attributes & COMPRESSION_CODEC_MASK > _MAX_COMPRESSION_ID:
        return None
    return int(attributes)


def get_leader_epoch(leader_epoch: int) -> int | None:
    """None for the 'no epoch' sentinel, the epoch otherwise (Java returns an Optional)."""
    return None if leader_epoch == NO_PARTITION_LEADER_EPOCH else leader_epoch


def has_transactional_records(request: Any) -> bool:
    """Whether the first batch of any partition of a ProduceRequest is transactional."""
    for topic in request.data.topic_data:
        for partition in topic.partition_data:
            records = partition.records
            attributes = single_v2_batch_attributes(records)
            if attributes is not None:
                if attributes & _TRANSACTIONAL_FLAG_MASK:
                    return True
                continue
            batches = getattr(records, "batches", None)
            if batches is None:
                continue
            for batch in batches():
                if batch.is_transactional():
                    return True
                break
    return False


def serialize(header: Any, header_version: int, message: Any, version: int, size_prefix: bool = False) -> bytes:
    """A header and a message body as one bytes object, optionally behind the 4-byte frame size."""
    builder = SendBuilder()
    header.write_to(builder, header_version)
    message.write_to(builder, version)
    body = builder.to_bytes()
    return _SIZE.pack(len(body)) + body if size_prefix else body


def build_send(header: Any, header_version: int, message: Any, version: int) -> list[Any]:
    """A framed header and body as a list of parts for scatter/gather writing: bytes and memoryviews, and record
    sets (FileRecords) that the network layer sends with sendfile (SendBuilder reads small ones into the bytes). The
    first part starts with the frame size."""
    builder = SendBuilder()
    builder.buf += b"\x00\x00\x00\x00"
    header.write_to(builder, header_version)
    message.write_to(builder, version)
    size = builder.size - 4
    if not builder.parts:
        builder.buf[0:4] = _SIZE.pack(size)
        return builder.build()
    parts = builder.build()
    first = parts[0]
    parts[0] = _SIZE.pack(size) + first[4:]
    return parts
