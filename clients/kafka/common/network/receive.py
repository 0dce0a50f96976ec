"""Port of clients/src/main/java/org/apache/kafka/common/network/Receive.java (Kafka 3.7).

Bytes being read from a connection until a whole frame is in.
"""

from __future__ import annotations

import abc

__all__ = ["Receive"]


class Receive(abc.ABC):
    @abc.abstractmethod
    def source(self) -> str:
        """The connection id the bytes come from."""

    @abc.abstractmethod
    def complete(self) -> bool: ...

    @abc.abstractmethod
    def required_memory_amount_known(self) -> bool: ...

    @abc.abstractmethod
    def memory_allocated(self) -> bool: ...

    @abc.abstractmethod
    def close(self) -> None:
        """Gives the buffer of an unfinished frame back to its memory pool."""
