"""Port of clients/src/main/java/org/apache/kafka/common/network/Send.java (Kafka 3.7).

Bytes to be written to a channel, possibly over several writes as the socket accepts them.
"""

from __future__ import annotations

import abc

from kafka.common.network.transferable_channel import TransferableChannel

__all__ = ["Send"]


class Send(abc.ABC):
    @abc.abstractmethod
    def completed(self) -> bool:
        """Whether every byte has been written."""

    @abc.abstractmethod
    def write_to(self, channel: TransferableChannel) -> int:
        """Writes as much as the channel takes now; returns the bytes written."""

    @abc.abstractmethod
    def size(self) -> int:
        """The total size in bytes."""
