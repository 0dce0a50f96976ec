"""Port of clients/src/main/java/org/apache/kafka/common/requests/RequestUtils.java (Kafka 3.7).

Small helpers shared by the request classes: writing a header and a body into one frame, and leader
epochs that may be absent.
"""

from __future__ import annotations

import struct
from typing import Any

from kafka.common.protocol.send_builder import SendBuilder

NO_PARTITION_LEADER_EPOCH = -1
"""RecordBatch.NO_PARTITION_LEADER_EPOCH."""

_SIZE = struct.Struct(">i")


def get_leader_epoch(leader_epoch: int) -> int | None:
    """None for the 'no epoch' sentinel, the epoch otherwise (Java returns an Optional)."""
    return None if leader_epoch == NO_PARTITION_LEADER_EPOCH else leader_epoch


def has_transactional_records(request: Any) -> bool:
    """Whether the first batch of any partition of a ProduceRequest is transactional."""
    return _flag(request, lambda batch: bool(batch.is_transactional()))


def _flag(request: Any, predicate: Any) -> bool:
    for topic in request.data.topic_data:
        for partition in topic.partition_data:
            records = partition.records
            batches = getattr(records, "batches", None)
            if batches is None:
                continue
            for batch in batches():
                if predicate(batch):
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
    sets (FileRecords) that the network layer sends with sendfile. The first part starts with the frame size."""
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
