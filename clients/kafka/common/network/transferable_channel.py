"""Port of clients/src/main/java/org/apache/kafka/common/network/TransferableChannel.java (Kafka 3.7).

What a Send writes into: a gathering write of buffers, and whether the channel still holds bytes it has
accepted but not yet put on the wire (an SSL transport's encrypted buffer; never for plaintext).

PORT: Java's transferFrom(FileChannel, ...) (zero-copy from log files) is left out: clients never send files.
"""

from __future__ import annotations

import abc
from collections.abc import Sequence

from kafka.common.protocol.types import Buffer

__all__ = ["TransferableChannel"]


class TransferableChannel(abc.ABC):
    @abc.abstractmethod
    def write(self, buffers: Sequence[Buffer]) -> int:
        """Writes from `buffers` in order as far as the socket takes them; returns the bytes written (0 when the
        socket buffer is full)."""

    @abc.abstractmethod
    def has_pending_writes(self) -> bool:
        """Whether bytes accepted by write() are still waiting to go out."""
