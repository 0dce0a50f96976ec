"""Port of clients/src/main/java/org/apache/kafka/common/record/BaseRecords.java (Kafka 3.7).

# PORT: Java's toSend() builds a network Send; here the network layer sends records itself
(MemoryRecords.buffer() with sendmsg, FileRecords with os.sendfile), so only the size remains.
"""

from __future__ import annotations

from abc import ABC, abstractmethod


class BaseRecords(ABC):
    """Anything that can travel as the records field of a request or response."""

    __slots__ = ()

    @abstractmethod
    def size_in_bytes(self) -> int:
        """The size of the records in bytes."""
