"""Port of clients/src/main/java/org/apache/kafka/common/memory/SimpleMemoryPool.java (Kafka 3.7).

A byte budget shared by the threads that allocate from it (a broker's Processors) and those that release into it
(its request handlers). A strict pool grants an allocation only if all of it fits; a pool that is not strict
grants any allocation while some budget is left, so the budget may go below zero. While the pool is out of
memory a Selector stops reading the connections that wait for a buffer.

# PORT: as MemoryPool says, the pool keeps only the count (no buffers); no metrics sensor records allocations.
"""

from __future__ import annotations

import threading

from kafka.common.memory.memory_pool import MemoryPool

__all__ = ["SimpleMemoryPool"]


class SimpleMemoryPool(MemoryPool):
    def __init__(self, size_in_bytes: int, max_single_allocation_size: int, strict: bool) -> None:
        if size_in_bytes <= 0 or max_single_allocation_size <= 0 or max_single_allocation_size > size_in_bytes:
            raise ValueError(
                f"must provide a positive size and max single allocation size smaller than size. provided "
                f"{size_in_bytes} and {max_single_allocation_size} respectively"
            )
        self._size_bytes = size_in_bytes
        self._max_single_allocation_size = max_single_allocation_size
        self._strict = strict
        self._available_memory = size_in_bytes
        self._lock = threading.Lock()

    def try_allocate(self, size_bytes: int) -> bool:
        if size_bytes < 1:
            raise ValueError(f"requested size {size_bytes}<=0")
        if size_bytes > self._max_single_allocation_size:
            raise ValueError(
                f"requested size {size_bytes} is larger than maxSingleAllocationSize {self._max_single_allocation_size}"
            )
        with self._lock:
            threshold = size_bytes if self._strict else 1
            if self._available_memory < threshold:
                return False
            self._available_memory -= size_bytes
            return True

    def release(self, size_bytes: int) -> None:
        with self._lock:
            self._available_memory += size_bytes

    def size(self) -> int:
        return self._size_bytes

    def available_memory(self) -> int:
        return self._available_memory

    def is_out_of_memory(self) -> bool:
        return self._available_memory <= 0
