"""Port of clients/src/main/java/org/apache/kafka/common/network/TransferableChannel.java (Kafka 3.7).

What a Send writes into: a gathering write of buffers, a transfer of bytes straight from a file (a broker's fetch
responses carry log segment slices, which a plaintext transport hands to sendfile), and whether the channel still
holds bytes it has accepted but not yet put on the wire (an SSL transport's encrypted buffer; never for plaintext).

# PORT: Java's transferFrom takes a FileChannel and every channel implements it; here it takes the file's OS
# descriptor (FileRecords reads with positional I/O on a raw descriptor) and has a default.
"""

from __future__ import annotations

import abc
import os
from collections.abc import Sequence

from kafka.common.protocol.types import Buffer

__all__ = ["TransferableChannel"]


class TransferableChannel(abc.ABC):
    @abc.abstractmethod
    def write(self, buffers: Sequence[Buffer]) -> int:
        """Writes from `buffers` in order as far as the socket takes them; returns the bytes written (0 when the
        socket buffer is full)."""

    def transfer_from(self, file_descriptor: int, position: int, count: int) -> int:
        """Writes up to `count` bytes of the file from `position`; returns the bytes written (0 when the socket
        buffer is full). This default reads the bytes and writes them; a plaintext transport sends them with
        sendfile instead."""
        data = os.pread(file_descriptor, count, position)
        return self.write([data]) if data else 0

    @abc.abstractmethod
    def has_pending_writes(self) -> bool:
        """Whether bytes accepted by write() are still waiting to go out."""
