"""Port of clients/src/main/java/org/apache/kafka/common/record/MultiRecordsSend.java (Kafka 3.7).

A Send made of several parts written one after the other: a response framed by SendBuilder, whose parts are runs
of bytes (the size, header and body as the generated code wrote them, and in-memory record sets) and FileRecords
slices of log segments (a fetch response's records; SendBuilder reads the smallest into the bytes instead). Each run
of byte parts goes out with one gathering write; each FileRecords part through the channel's transfer_from (sendfile
for plaintext), so that large runs of log data never pass through Python. A partial write resumes where it stopped
when the socket is writable again.

# PORT: Java composes this of nested Sends (ByteBufferSend, DefaultRecordsSend over TransferableRecords) kept in
# org.apache.kafka.common.record; here SendBuilder's parts list is written directly (one object per response
# instead of one per part, which counts at Python's cost per object), and it lives beside the other Sends.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kafka.common.network.send import Send
from kafka.common.network.transferable_channel import TransferableChannel

__all__ = ["MultiRecordsSend"]

# The most buffers one gathering write takes (Linux IOV_MAX).
_IOV_MAX = 1024
_BUFFER_TYPES = (bytes, bytearray, memoryview)


def _part_size(part: Any) -> int:
    if isinstance(part, memoryview):
        return part.nbytes
    if isinstance(part, (bytes, bytearray)):
        return len(part)
    return int(part.size_in_bytes())


class MultiRecordsSend(Send):
    """`parts`: bytes, bytearrays and memoryviews, and FileRecords (anything with `size_in_bytes()` and
    `write_to(channel, offset, length)`), in the order they go out."""

    __slots__ = ("_parts", "_sizes", "_size", "_index", "_offset", "_remaining", "_pending")

    def __init__(self, parts: Sequence[Any]) -> None:
        self._parts: list[Any] = []
        self._sizes: list[int] = []
        for part in parts:
            size = len(part) if type(part) is bytes else _part_size(part)
            if size > 0:
                self._parts.append(part)
                self._sizes.append(size)
        self._size = sum(self._sizes)
        self._index = 0
        self._offset = 0
        self._remaining = self._size
        self._pending = False

    def size(self) -> int:
        return self._size

    def completed(self) -> bool:
        return self._remaining <= 0 and not self._pending

    def write_to(self, channel: TransferableChannel) -> int:
        parts = self._parts
        sizes = self._sizes
        count = len(parts)
        i = self._index
        offset = self._offset
        written = 0
        while i < count:
            part = parts[i]
            if isinstance(part, _BUFFER_TYPES):
                buffers: list[Any] = [memoryview(part)[offset:] if offset else part]
                j = i + 1
                while j < count and len(buffers) < _IOV_MAX and isinstance(parts[j], _BUFFER_TYPES):
                    buffers.append(parts[j])
                    j += 1
                n = channel.write(buffers)
                written += n
                while n > 0:
                    left = sizes[i] - offset
                    if n >= left:
                        n -= left
                        i += 1
                        offset = 0
                    else:
                        offset += n
                        n = 0
                if i < j:
                    break  # the socket took less than offered: wait until it is writable
            else:
                length = sizes[i] - offset
                n = part.write_to(channel, offset, length)
                written += n
                offset += n
                if n < length:
                    break
                i += 1
                offset = 0
        self._index = i
        self._offset = offset
        self._remaining -= written
        self._pending = channel.has_pending_writes()
        return written

    def __repr__(self) -> str:
        return f"MultiRecordsSend(size={self._size}, remaining={self._remaining})"
