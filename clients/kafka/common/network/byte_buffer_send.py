"""Port of clients/src/main/java/org/apache/kafka/common/network/ByteBufferSend.java (Kafka 3.7).

A Send of in-memory buffers, written with gathering writes; a partial write resumes where it stopped.
"""

from __future__ import annotations

import struct
from collections.abc import Iterable

from kafka.common.network.send import Send
from kafka.common.network.transferable_channel import TransferableChannel
from kafka.common.protocol.types import Buffer

__all__ = ["ByteBufferSend"]

_SIZE = struct.Struct(">i")


class ByteBufferSend(Send):
    """In-memory buffers written with gathering writes.

    # PORT: Java advances the ByteBuffers' positions; here the unwritten buffers are kept as a list whose first
    # entry is trimmed by what was written."""

    __slots__ = ("_size", "_buffers", "_remaining", "_pending")

    def __init__(self, buffers: Iterable[Buffer], size: int | None = None) -> None:
        self._buffers: list[Buffer] = [b for b in buffers if len(b)]
        total = sum(memoryview(b).nbytes for b in self._buffers)
        self._size = total if size is None else size
        self._remaining = self._size
        self._pending = False

    def completed(self) -> bool:
        return self._remaining <= 0 and not self._pending

    def size(self) -> int:
        return self._size

    def write_to(self, channel: TransferableChannel) -> int:
        written = channel.write(self._buffers)
        if written < 0:
            raise EOFError("Wrote negative bytes to channel. This shouldn't happen.")
        self._remaining -= written
        self._pending = channel.has_pending_writes()
        # Drop what went out.
        left = written
        buffers = self._buffers
        while left > 0 and buffers:
            first = memoryview(buffers[0])
            if left >= first.nbytes:
                left -= first.nbytes
                buffers.pop(0)
            else:
                buffers[0] = first[left:]
                left = 0
        return written

    def remaining(self) -> int:
        return self._remaining

    def __str__(self) -> str:
        return f"ByteBufferSend(, size={self._size}, remaining={self._remaining}, pending={str(self._pending).lower()})"

    @staticmethod
    def size_prefixed(buffer: Buffer) -> ByteBufferSend:
        """A Send of `buffer` behind its 4-byte size."""
        return ByteBufferSend([_SIZE.pack(memoryview(buffer).nbytes), buffer])
