"""Port of core/src/main/scala/kafka/utils/timer/Timer.scala (Kafka 2.8).

`Timer` runs TimerTasks once their delay has passed; `SystemTimer` does so with a hierarchical timing wheel. The
purgatories' reaper threads call `advance_clock(200)` in a loop, and expired tasks run on the timer's own
executor thread `executor-{executor_name}`.
"""

from __future__ import annotations

import heapq
import itertools
import logging
import queue
import threading
import time as _time
from abc import ABC, abstractmethod

from kafka.common.utils.kafka_thread import KafkaThread
from kafka.common.utils.time import Time
from kafka.utils.atomic import AtomicInteger
from kafka.utils.read_write_lock import ReentrantReadWriteLock
from kafka.utils.timer.timer_task import TimerTask
from kafka.utils.timer.timer_task_list import TimerTaskEntry, TimerTaskList
from kafka.utils.timer.timing_wheel import TimingWheel

log = logging.getLogger("kafka.utils.timer.SystemTimer")


class Timer(ABC):
    @abstractmethod
    def add(self, timer_task: TimerTask) -> None:
        """Schedules `timer_task` to run `timer_task.delay_ms` from now."""

    @abstractmethod
    def advance_clock(self, timeout_ms: int) -> bool:
        """Waits up to `timeout_ms` for a bucket to expire and runs what expired; True if anything did."""

    @property
    @abstractmethod
    def size(self) -> int:
        """Number of tasks waiting to expire."""

    @abstractmethod
    def shutdown(self) -> None:
        """Stops the executor (tasks handed to it still run)."""


class _DelayQueue:
    """Buckets ordered by expiration; `poll` hands out one whose expiration has passed.

    # PORT: stands in for java.util.concurrent.DelayQueue: a heap under a Condition. A bucket is keyed by the
    # expiration it had when offered; the wheel only re-offers a bucket after it was polled and flushed, so the
    # key stays current. An offer that becomes the new head wakes a waiting poll.
    """

    def __init__(self, time: Time) -> None:
        self._time = time
        self._cond = threading.Condition(threading.Lock())
        self._heap: list[tuple[int, int, TimerTaskList]] = []
        self._seq = itertools.count()

    def offer(self, bucket: TimerTaskList) -> None:
        with self._cond:
            heapq.heappush(self._heap, (bucket.get_expiration(), next(self._seq), bucket))
            if self._heap[0][2] is bucket:
                self._cond.notify_all()

    def poll(self, timeout_ms: int = 0) -> TimerTaskList | None:
        """An expired bucket, waiting up to `timeout_ms` (real time) for one; None if there is none by then."""
        deadline = _time.monotonic() + max(timeout_ms, 0) / 1000
        with self._cond:
            while True:
                wait_s: float | None = None
                if self._heap:
                    delay_ms = self._heap[0][0] - self._time.hi_res_clock_ms()
                    if delay_ms <= 0:
                        return heapq.heappop(self._heap)[2]
                    wait_s = delay_ms / 1000
                remaining = deadline - _time.monotonic()
                if remaining <= 0:
                    return None
                self._cond.wait(remaining if wait_s is None else min(wait_s, remaining))

    def __len__(self) -> int:
        return len(self._heap)


class _SingleThreadExecutor:
    """Executors.newFixedThreadPool(1, ...): one worker thread, started on the first submission.

    # PORT: Java's executor keeps a task's exception in its (ignored) Future, so it vanishes; we log it instead.
    """

    def __init__(self, thread_name: str) -> None:
        self._thread_name = thread_name
        # None is the shutdown marker.
        self._queue: queue.SimpleQueue[TimerTask | None] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._is_shutdown = False

    def submit(self, task: TimerTask) -> None:
        with self._lock:
            if self._is_shutdown:
                raise RuntimeError(f"Task {task} rejected: executor {self._thread_name} is shut down")
            if self._thread is None:
                self._thread = KafkaThread.non_daemon(self._thread_name, self._work)
                self._thread.start()
            self._queue.put(task)

    def _work(self) -> None:
        while True:
            task = self._queue.get()  # woken by the shutdown marker
            if task is None:
                return
            try:
                task.run()
            except Exception as e:
                log.error("Uncaught exception in timer task %r", task, exc_info=e)

    def shutdown(self) -> None:
        """Lets queued tasks finish, then the thread ends; does not wait (as ExecutorService.shutdown)."""
        with self._lock:
            if self._is_shutdown:
                return
            self._is_shutdown = True
            if self._thread is not None:
                self._queue.put(None)

    def await_termination(self, timeout_s: float) -> bool:
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout_s)
            return not thread.is_alive()
        return True


class SystemTimer(Timer):
    """Thread-safe Timer over a TimingWheel. `add` runs under the read lock, so adds go on in parallel;
    `advance_clock` takes the write lock while it moves the wheel and re-files expired buckets.

    # PORT: the clock is injected (`time`); Kafka reads Time.SYSTEM directly.
    """

    def __init__(
        self,
        executor_name: str,
        tick_ms: int = 1,
        wheel_size: int = 20,
        start_ms: int | None = None,
        time: Time = Time.SYSTEM,
    ) -> None:
        self.time = time
        self.executor_name = executor_name
        self._task_executor = _SingleThreadExecutor("executor-" + executor_name)
        self._delay_queue = _DelayQueue(time)
        self._task_counter = AtomicInteger(0)
        self._timing_wheel = TimingWheel(
            tick_ms=tick_ms,
            wheel_size=wheel_size,
            start_ms=time.hi_res_clock_ms() if start_ms is None else start_ms,
            task_counter=self._task_counter,
            queue=self._delay_queue,
        )
        self._read_write_lock = ReentrantReadWriteLock()
        self._read_lock = self._read_write_lock.read_lock
        self._write_lock = self._read_write_lock.write_lock

    def add(self, timer_task: TimerTask) -> None:
        with self._read_lock:
            self._add_timer_task_entry(TimerTaskEntry(timer_task, timer_task.delay_ms + self.time.hi_res_clock_ms()))

    def _add_timer_task_entry(self, timer_task_entry: TimerTaskEntry) -> None:
        if not self._timing_wheel.add(timer_task_entry):
            # Already expired (run it now) or cancelled (drop it).
            if not timer_task_entry.cancelled:
                assert timer_task_entry.timer_task is not None
                self._task_executor.submit(timer_task_entry.timer_task)

    def advance_clock(self, timeout_ms: int) -> bool:
        """Waits up to `timeout_ms` for a bucket to expire; then, under the write lock, advances the wheel and
        re-adds the entries of every expired bucket (which runs those that are due). True if a bucket expired."""
        bucket = self._delay_queue.poll(timeout_ms)
        if bucket is None:
            return False
        with self._write_lock:
            while bucket is not None:
                self._timing_wheel.advance_clock(bucket.get_expiration())
                bucket.flush(self._add_timer_task_entry)
                bucket = self._delay_queue.poll()
        return True

    @property
    def size(self) -> int:
        return self._task_counter.get()

    def shutdown(self) -> None:
        self._task_executor.shutdown()

    def await_shutdown(self, timeout_s: float = 30.0) -> bool:
        """Waits for the executor thread to finish the tasks it was given (not in Kafka; for tests and shutdown)."""
        return self._task_executor.await_termination(timeout_s)
