"""Port of core/src/main/scala/kafka/utils/timer/TimingWheel.scala (Kafka 2.8).

A hierarchical timing wheel. A wheel has `wheel_size` buckets of `tick_ms` each, so it spans
`interval = tick_ms * wheel_size` ms from its current time. An entry that expires within the span goes into the
bucket of its tick; one further out goes to an overflow wheel whose tick is this wheel's whole interval, created
on demand (and so on upwards). As the clock advances, a bucket of an upper wheel that expires is flushed and its
entries are added again, falling into finer wheels. Adding is O(1) (per wheel level); buckets, not entries, go into
the timer's delay queue, so the queue holds at most `wheel_size` buckets per level.

The wheel is not thread-safe by itself: SystemTimer adds under its read lock (buckets are thread-safe) and
advances under its write lock.
"""

from __future__ import annotations

import threading
from typing import Protocol

from kafka.utils.atomic import AtomicInteger
from kafka.utils.timer.timer_task_list import TimerTaskEntry, TimerTaskList


class BucketQueue(Protocol):
    """Where buckets with a (new) expiration are queued: SystemTimer's delay queue."""

    def offer(self, bucket: TimerTaskList) -> None: ...


class TimingWheel:
    def __init__(
        self, tick_ms: int, wheel_size: int, start_ms: int, task_counter: AtomicInteger, queue: BucketQueue
    ) -> None:
        self.tick_ms = tick_ms
        self.wheel_size = wheel_size
        self.task_counter = task_counter
        self.queue = queue
        self.interval = tick_ms * wheel_size
        self.buckets = [TimerTaskList(task_counter) for _ in range(wheel_size)]
        self.current_time = start_ms - (start_ms % tick_ms)  # a multiple of tick_ms
        # Read without a lock by concurrent add() calls, created once under the lock (double-checked).
        self._overflow_wheel: TimingWheel | None = None
        self._lock = threading.Lock()

    def _add_overflow_wheel(self) -> TimingWheel:
        with self._lock:
            if self._overflow_wheel is None:
                self._overflow_wheel = TimingWheel(
                    tick_ms=self.interval,
                    wheel_size=self.wheel_size,
                    start_ms=self.current_time,
                    task_counter=self.task_counter,
                    queue=self.queue,
                )
            return self._overflow_wheel

    def add(self, timer_task_entry: TimerTaskEntry) -> bool:
        """Places the entry in a bucket; False if it is cancelled or already expired (the caller runs it)."""
        expiration = timer_task_entry.expiration_ms
        if timer_task_entry.cancelled:
            return False
        if expiration < self.current_time + self.tick_ms:
            return False  # expires within the current tick: due now
        if expiration < self.current_time + self.interval:
            virtual_id = expiration // self.tick_ms
            bucket = self.buckets[virtual_id % self.wheel_size]
            bucket.add(timer_task_entry)
            # A bucket is queued when its expiration changes, i.e. the first time it is used in a turn of the
            # wheel; adding more entries for the same tick keeps the value and does not queue it twice.
            if bucket.set_expiration(virtual_id * self.tick_ms):
                self.queue.offer(bucket)
            return True
        overflow = self._overflow_wheel
        if overflow is None:
            overflow = self._add_overflow_wheel()
        return overflow.add(timer_task_entry)

    def advance_clock(self, time_ms: int) -> None:
        """Moves the wheel's current time to the tick holding `time_ms`, and the overflow wheels with it."""
        if time_ms >= self.current_time + self.tick_ms:
            self.current_time = time_ms - (time_ms % self.tick_ms)
            overflow = self._overflow_wheel
            if overflow is not None:
                overflow.advance_clock(self.current_time)
