"""Port of clients/src/main/java/org/apache/kafka/common/memory/MemoryPool.java (Kafka 3.7).

The budget that the bytes of received frames are counted against. A Selector asks the pool before it
allocates a frame's buffer; the buffer's owner gives the bytes back with `release` once it is done with them.
`MemoryPool.NONE` counts nothing and never runs out (the clients, and a broker without queued.max.request.bytes).

# PORT: Java's pool hands out ByteBuffers and takes them back. Python allocates the bytearray itself, so the pool
# only keeps the count: `try_allocate(n)` says whether n bytes may be allocated and `release(n)` gives them back.
"""

from __future__ import annotations

import abc

__all__ = ["MemoryPool"]


class MemoryPool(abc.ABC):
    NONE: MemoryPool

    @abc.abstractmethod
    def try_allocate(self, size_bytes: int) -> bool:
        """Takes `size_bytes` from the budget; False (taking nothing) when the pool cannot give them now."""

    @abc.abstractmethod
    def release(self, size_bytes: int) -> None:
        """Gives back bytes taken with `try_allocate`."""

    @abc.abstractmethod
    def size(self) -> int:
        """The pool's total budget."""

    @abc.abstractmethod
    def available_memory(self) -> int:
        """What is left of the budget (may be below zero for a pool that is not strict)."""

    @abc.abstractmethod
    def is_out_of_memory(self) -> bool:
        """Whether the budget is used up."""


class _NoMemoryPool(MemoryPool):
    """MemoryPool.NONE: every allocation succeeds and nothing is counted."""

    def try_allocate(self, size_bytes: int) -> bool:
        return True

    def release(self, size_bytes: int) -> None:
        return None

    def size(self) -> int:
        return 2**63 - 1

    def available_memory(self) -> int:
        return 2**63 - 1

    def is_out_of_memory(self) -> bool:
        return False

    def __repr__(self) -> str:
        return "NONE"


MemoryPool.NONE = _NoMemoryPool()
