"""Port of clients/src/main/java/org/apache/kafka/clients/producer/internals/BufferPool.java (Kafka 3.7).

The producer's memory budget (`buffer.memory`). Every batch takes its buffer from the pool; when the
budget is spent, `send` blocks until the I/O thread returns memory, for at most `max.block.ms`, and
then fails with BufferExhaustedException. Buffers of exactly `batch.size` are kept on a free list for
reuse; other sizes go back to the unallocated budget. Waiters are served first come, first served.

# PORT: Java hands out real ByteBuffers that the batch's record builder writes into. Our
MemoryRecordsBuilder grows its own bytearray, so the pool hands out ByteBuffer tokens that only carry
a capacity: the accounting, the blocking and the free list behave as Java's, without holding the
memory twice. Java's constructor takes the Metrics before the Time; here `metrics` is a trailing keyword (without
one, the sensors go to a registry of their own).
"""

from __future__ import annotations

import threading
from collections import deque

from kafka.clients.producer.buffer_exhausted_exception import BufferExhaustedException
from kafka.common.errors import KafkaException
from kafka.common.metrics.internals.metrics_utils import TimeUnit
from kafka.common.metrics.metrics import Metrics
from kafka.common.metrics.stats.meter import Meter
from kafka.common.utils.time import Time

__all__ = ["BufferPool", "ByteBuffer"]


class ByteBuffer:
    """A buffer handed out by the pool: a capacity that is charged against `buffer.memory`."""

    __slots__ = ("_capacity",)

    def __init__(self, capacity: int) -> None:
        self._capacity = capacity

    def capacity(self) -> int:
        return self._capacity

    def clear(self) -> None:
        """Java resets a buffer before pooling it; a token has nothing to reset."""

    def __repr__(self) -> str:
        return f"ByteBuffer(capacity={self._capacity})"


class BufferPool:
    """A bounded pool of buffer memory with a free list of `poolable_size` buffers.

    Lock order: the pool's lock is taken on its own (never while holding an accumulator deque's lock).
    """

    WAIT_TIME_SENSOR_NAME = "bufferpool-wait-time"

    def __init__(
        self,
        memory: int,
        poolable_size: int,
        time: Time,
        metric_grp_name: str = "producer-metrics",
        *,
        metrics: Metrics | None = None,
    ) -> None:
        if metrics is None:
            metrics = Metrics(time=time)
        self._metrics = metrics
        self._wait_time = metrics.sensor(self.WAIT_TIME_SENSOR_NAME)
        rate_metric_name = metrics.metric_name(
            "bufferpool-wait-ratio", metric_grp_name, "The fraction of time an appender waits for space allocation."
        )
        total_metric_name = metrics.metric_name(
            "bufferpool-wait-time-total",
            metric_grp_name,
            "*Deprecated* The total time an appender waits for space allocation.",
        )
        total_ns_metric_name = metrics.metric_name(
            "bufferpool-wait-time-ns-total",
            metric_grp_name,
            "The total time in nanoseconds an appender waits for space allocation.",
        )
        buffer_exhausted_record_sensor = metrics.sensor("buffer-exhausted-records")
        buffer_exhausted_record_sensor.add(
            Meter(
                metrics.metric_name(
                    "buffer-exhausted-rate",
                    metric_grp_name,
                    "The average per-second number of record sends that are dropped due to buffer exhaustion",
                ),
                metrics.metric_name(
                    "buffer-exhausted-total",
                    metric_grp_name,
                    "The total number of record sends that are dropped due to buffer exhaustion",
                ),
            )
        )
        self._wait_time.add(Meter(rate_metric_name, total_metric_name, TimeUnit.NANOSECONDS))
        self._wait_time.add(Meter(rate_metric_name, total_ns_metric_name, TimeUnit.NANOSECONDS))
        self._poolable_size = poolable_size
        self._lock = threading.Lock()
        self._free: deque[ByteBuffer] = deque()
        self._waiters: deque[threading.Condition] = deque()
        self._total_memory = memory
        self._non_pooled_available_memory = memory
        self._time = time
        self._closed = False

    def allocate(self, size: int, max_time_to_block_ms: int) -> ByteBuffer:
        """A buffer of `size` bytes, blocking up to `max_time_to_block_ms` for memory to be returned."""
        if size > self._total_memory:
            raise ValueError(
                f"Attempt to allocate {size} bytes, but there is a hard limit of {self._total_memory} on memory "
                "allocations."
            )
        buffer: ByteBuffer | None = None
        with self._lock:
            if self._closed:
                raise KafkaException("Producer closed while allocating memory")
            try:
                # A pooled buffer of the right size, if there is one.
                if size == self._poolable_size and self._free:
                    return self._free.popleft()
                free_list_size = len(self._free) * self._poolable_size
                if self._non_pooled_available_memory + free_list_size >= size:
                    # Enough memory now, after releasing pooled buffers if needed.
                    self._free_up(size)
                    self._non_pooled_available_memory -= size
                else:
                    buffer = self._wait_for_memory(size, max_time_to_block_ms)
            finally:
                # Pass the turn on when memory is left over for the next waiter.
                if not (self._non_pooled_available_memory == 0 and not self._free) and self._waiters:
                    self._waiters[0].notify()
        if buffer is None:
            return self._safe_allocate_byte_buffer(size)
        return buffer

    def _wait_for_memory(self, size: int, max_time_to_block_ms: int) -> ByteBuffer | None:
        """Collects `size` bytes as others return memory; called with the lock held."""
        accumulated = 0
        buffer: ByteBuffer | None = None
        more_memory = threading.Condition(self._lock)
        try:
            remaining_time_to_block_ns = max_time_to_block_ms * 1_000_000
            self._waiters.append(more_memory)
            while accumulated < size:
                start_wait_ns = self._time.nanoseconds()
                try:
                    waiting_time_elapsed = not more_memory.wait(max(0, remaining_time_to_block_ns) / 1e9)
                finally:
                    time_ns = max(0, self._time.nanoseconds() - start_wait_ns)
                    self.record_wait_time(time_ns)
                if self._closed:
                    raise KafkaException("Producer closed while allocating memory")
                if waiting_time_elapsed:
                    raise BufferExhaustedException(
                        f"Failed to allocate {size} bytes within the configured max blocking time "
                        f"{max_time_to_block_ms} ms. Total memory: {self._total_memory} bytes. Available memory: "
                        f"{self._available_memory_locked()} bytes. Poolable size: {self._poolable_size} bytes"
                    )
                remaining_time_to_block_ns -= time_ns
                if accumulated == 0 and size == self._poolable_size and self._free:
                    buffer = self._free.popleft()
                    accumulated = size
                else:
                    # Take what there is; the rest may come on a later turn.
                    self._free_up(size - accumulated)
                    got = min(size - accumulated, self._non_pooled_available_memory)
                    self._non_pooled_available_memory -= got
                    accumulated += got
            # Success: nothing to hand back below.
            accumulated = 0
            return buffer
        finally:
            # On failure, return what was collected so that it is not lost.
            self._non_pooled_available_memory += accumulated
            self._waiters.remove(more_memory)

    def record_wait_time(self, time_ns: int) -> None:
        self._wait_time.record(time_ns, self._time.milliseconds())

    def _safe_allocate_byte_buffer(self, size: int) -> ByteBuffer:
        error = True
        try:
            buffer = self.allocate_byte_buffer(size)
            error = False
            return buffer
        finally:
            if error:
                with self._lock:
                    self._non_pooled_available_memory += size
                    if self._waiters:
                        self._waiters[0].notify()

    def allocate_byte_buffer(self, size: int) -> ByteBuffer:
        """Makes the buffer once the memory is reserved (overridable in tests)."""
        return ByteBuffer(size)

    def _free_up(self, size: int) -> None:
        while self._free and self._non_pooled_available_memory < size:
            self._non_pooled_available_memory += self._free.pop().capacity()

    def deallocate(self, buffer: ByteBuffer | None, size: int | None = None) -> None:
        """Returns a buffer: to the free list when it has the poolable size, else to the unallocated memory."""
        if buffer is None:
            return
        if size is None:
            size = buffer.capacity()
        with self._lock:
            if size == self._poolable_size and size == buffer.capacity():
                buffer.clear()
                self._free.append(buffer)
            else:
                self._non_pooled_available_memory += size
            if self._waiters:
                self._waiters[0].notify()

    def available_memory(self) -> int:
        """Unallocated memory plus the memory of the pooled free buffers."""
        with self._lock:
            return self._available_memory_locked()

    def _available_memory_locked(self) -> int:
        return self._non_pooled_available_memory + len(self._free) * self._poolable_size

    def free_size(self) -> int:
        """Buffers on the free list."""
        return len(self._free)

    def unallocated_memory(self) -> int:
        with self._lock:
            return self._non_pooled_available_memory

    def queued(self) -> int:
        """Threads waiting for memory."""
        with self._lock:
            return len(self._waiters)

    def poolable_size(self) -> int:
        return self._poolable_size

    def total_memory(self) -> int:
        return self._total_memory

    def waiters(self) -> deque[threading.Condition]:
        """The waiting threads' conditions (for tests)."""
        return self._waiters

    def close(self) -> None:
        """Wakes every waiter, each of which then fails: the producer is closing."""
        with self._lock:
            self._closed = True
            for waiter in self._waiters:
                waiter.notify()
