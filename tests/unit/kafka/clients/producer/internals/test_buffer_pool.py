"""Tests of BufferPool, after clients/src/test/java/org/apache/kafka/clients/producer/internals/BufferPoolTest.java
(Kafka 3.7)."""

from __future__ import annotations

import threading

import pytest

from kafka.clients.producer.buffer_exhausted_exception import BufferExhaustedException
from kafka.clients.producer.internals.buffer_pool import BufferPool, ByteBuffer
from kafka.common.errors import KafkaException, TimeoutException
from kafka.common.utils.time import MockTime
from tests.utils import wait_until_true

MAX_BLOCK_MS = 2000


def test_simple() -> None:
    """Allocation and deallocation move memory between the free list and the unallocated budget."""
    total_memory = 64 * 1024
    size = 1024
    pool = BufferPool(total_memory, size, MockTime())
    buffer = pool.allocate(size, MAX_BLOCK_MS)
    assert buffer.capacity() == size
    assert pool.unallocated_memory() == total_memory - size
    assert pool.available_memory() == total_memory - size
    pool.deallocate(buffer)
    assert pool.available_memory() == total_memory
    assert pool.unallocated_memory() == total_memory - size  # pooled, not unallocated
    assert pool.free_size() == 1
    buffer = pool.allocate(size, MAX_BLOCK_MS)
    assert pool.free_size() == 0
    pool.deallocate(buffer)
    big = pool.allocate(2 * size, MAX_BLOCK_MS)
    # Enough unallocated memory: the pooled buffer stays pooled.
    assert pool.available_memory() == total_memory - 2 * size
    assert pool.free_size() == 1
    pool.deallocate(big)
    assert pool.available_memory() == total_memory
    assert pool.unallocated_memory() == total_memory - size


def test_pooled_buffers_are_released_when_memory_runs_short() -> None:
    """A large allocation takes the memory of pooled buffers when the unallocated budget is not enough."""
    pool = BufferPool(4, 2, MockTime())
    pool.deallocate(pool.allocate(2, MAX_BLOCK_MS))
    pool.deallocate(pool.allocate(2, MAX_BLOCK_MS))
    assert pool.free_size() == 1
    b1 = pool.allocate(2, MAX_BLOCK_MS)  # the pooled one
    pool.deallocate(b1)
    big = pool.allocate(4, MAX_BLOCK_MS)
    assert big.capacity() == 4
    assert pool.free_size() == 0
    assert pool.available_memory() == 0


def test_cant_allocate_more_memory_than_we_have() -> None:
    """A request above the whole budget is refused at once."""
    pool = BufferPool(1024, 512, MockTime())
    with pytest.raises(ValueError, match="hard limit of 1024"):
        pool.allocate(1025, MAX_BLOCK_MS)


def test_blocks_until_memory_is_returned() -> None:
    """An allocation waits while the memory is used up and goes on once another thread returns some."""
    pool = BufferPool(2, 1, MockTime())
    first = pool.allocate(1, MAX_BLOCK_MS)
    pool.allocate(1, MAX_BLOCK_MS)
    allocated = threading.Event()

    def allocate() -> None:
        pool.allocate(1, 10_000)
        allocated.set()

    t = threading.Thread(target=allocate)
    t.start()
    wait_until_true(lambda: pool.queued() == 1, "the allocating thread to wait")
    assert not allocated.is_set()
    pool.deallocate(first)
    t.join(10)
    assert allocated.is_set()
    assert pool.queued() == 0


def test_blocked_allocation_times_out_with_buffer_exhausted() -> None:
    """After max.block.ms without memory, allocate raises BufferExhaustedException (a TimeoutException)."""
    pool = BufferPool(10, 1, MockTime())
    pool.allocate(1, MAX_BLOCK_MS)
    pool.allocate(7, MAX_BLOCK_MS)
    with pytest.raises(BufferExhaustedException, match="Failed to allocate 10 bytes within the configured max") as e:
        pool.allocate(10, 10)
    assert isinstance(e.value, TimeoutException)
    # The memory collected while waiting is handed back.
    assert pool.available_memory() == 2
    assert pool.queued() == 0


def test_partial_memory_is_returned_when_the_wait_fails() -> None:
    """Memory a waiter gathered before timing out goes back to the pool."""
    pool = BufferPool(5, 1, MockTime())
    b1 = pool.allocate(2, MAX_BLOCK_MS)
    pool.allocate(3, MAX_BLOCK_MS)
    result: list[BaseException] = []

    def allocate() -> None:
        try:
            pool.allocate(4, 300)
        except BaseException as e:
            result.append(e)

    t = threading.Thread(target=allocate)
    t.start()
    wait_until_true(lambda: pool.queued() == 1, "the allocating thread to wait")
    pool.deallocate(b1)
    t.join(10)
    assert result and isinstance(result[0], BufferExhaustedException)
    assert pool.available_memory() == 2


def test_close_fails_waiting_allocations() -> None:
    """Closing the pool wakes every waiter, which fails with "Producer closed while allocating memory"."""
    pool = BufferPool(2, 1, MockTime())
    pool.allocate(2, MAX_BLOCK_MS)
    errors: list[BaseException] = []

    def allocate() -> None:
        try:
            pool.allocate(1, 60_000)
        except BaseException as e:
            errors.append(e)

    threads = [threading.Thread(target=allocate) for _ in range(2)]
    for t in threads:
        t.start()
    wait_until_true(lambda: pool.queued() == 2, "both threads to wait")
    pool.close()
    for t in threads:
        t.join(10)
    assert len(errors) == 2
    assert all(isinstance(e, KafkaException) and "Producer closed while allocating memory" in str(e) for e in errors)
    with pytest.raises(KafkaException, match="Producer closed while allocating memory"):
        pool.allocate(1, 0)


def test_waiters_are_served_in_order() -> None:
    """The first thread to wait for memory gets it first."""
    pool = BufferPool(2, 2, MockTime())
    buffer = pool.allocate(2, MAX_BLOCK_MS)
    order: list[str] = []
    got: dict[str, ByteBuffer] = {}

    def allocate(name: str) -> None:
        got[name] = pool.allocate(2, 10_000)
        order.append(name)

    first = threading.Thread(target=allocate, args=("first",))
    first.start()
    wait_until_true(lambda: pool.queued() == 1, "the first thread to wait")
    second = threading.Thread(target=allocate, args=("second",))
    second.start()
    wait_until_true(lambda: pool.queued() == 2, "the second thread to wait")
    pool.deallocate(buffer)
    wait_until_true(lambda: order == ["first"], "the first waiter to be served")
    pool.deallocate(got["first"])
    first.join(10)
    second.join(10)
    assert order == ["first", "second"]


def test_non_poolable_sizes_go_back_to_the_budget() -> None:
    """Only buffers of the poolable size are kept on the free list."""
    pool = BufferPool(1024, 128, MockTime())
    buffer = pool.allocate(300, MAX_BLOCK_MS)
    pool.deallocate(buffer)
    assert pool.free_size() == 0
    assert pool.unallocated_memory() == 1024
