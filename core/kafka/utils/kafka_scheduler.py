"""Port of core/src/main/scala/kafka/utils/KafkaScheduler.scala (Kafka 2.8).

`Scheduler` is what broker components are handed to run background jobs (log flush and retention, ISR
expiry, offset expiry, ...), one-off or at a fixed rate. `KafkaScheduler` runs them on a pool of threads named
`kafka-scheduler-N`; `MockScheduler` (kafka.utils.mock_scheduler) runs them on a MockTime in tests.

# PORT: Kafka builds on java.util.concurrent.ScheduledThreadPoolExecutor. Python has no such executor, so this
# module carries a small one with the policies Kafka sets: a task's exceptions are logged and do not stop a
# periodic task; fixed-rate periods count from the scheduled start; a periodic task never overlaps itself;
# cancelled tasks leave the queue at once; at shutdown queued and periodic tasks are dropped while running ones
# finish. Worker threads are started lazily, one per submission until the core size is reached, as the Java
# executor does, and numbered by a counter that never goes back.
"""

from __future__ import annotations

import heapq
import itertools
import threading
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any

from kafka.common.utils.kafka_thread import KafkaThread
from kafka.common.utils.time import Time
from kafka.utils.atomic import AtomicInteger
from kafka.utils.logging import Logging


class CancellationError(Exception):
    """Java's CancellationException: the result of a cancelled task was asked for."""


class ScheduledFuture(ABC):
    """A handle on a scheduled task (java.util.concurrent.ScheduledFuture, snake_cased)."""

    @abstractmethod
    def cancel(self, may_interrupt_if_running: bool = False) -> bool:
        """Stops future runs; True if this call cancelled the task (False if it had already finished)."""

    @abstractmethod
    def is_cancelled(self) -> bool: ...

    @abstractmethod
    def is_done(self) -> bool:
        """True once a one-off task has run, or any task has been cancelled."""

    @abstractmethod
    def get(self, timeout_s: float | None = None) -> None:
        """Waits for a one-off task to finish; raises CancellationError if cancelled, TimeoutError on timeout."""

    @abstractmethod
    def get_delay_ms(self) -> int:
        """Milliseconds until the next run (negative if overdue)."""


class Scheduler(ABC):
    """Runs repeating background jobs and delayed one-off actions."""

    @abstractmethod
    def startup(self) -> None:
        """Makes the scheduler ready to accept tasks."""

    @abstractmethod
    def shutdown(self) -> None:
        """Stops the scheduler: once this returns, no task runs any more, including delayed ones."""

    @property
    @abstractmethod
    def is_started(self) -> bool: ...

    @abstractmethod
    def schedule(self, name: str, fun: Callable[[], Any], delay_ms: int = 0, period_ms: int = -1) -> ScheduledFuture:
        """Runs `fun` after `delay_ms`, then every `period_ms` if that is >= 0 (a negative period: once)."""

    def schedule_once(self, name: str, fun: Callable[[], Any], delay_ms: int = 0) -> ScheduledFuture:
        return self.schedule(name, fun, delay_ms=delay_ms, period_ms=-1)


_NEW, _DONE, _CANCELLED = 0, 1, 2


class _ScheduledTask(ScheduledFuture):
    """One entry of the executor's delay queue; ordered by next run time, then by submission order."""

    __slots__ = ("_done", "_executor", "name", "period_ns", "runnable", "seq", "state", "time_ns")

    def __init__(
        self, executor: _ScheduledExecutor, name: str, runnable: Callable[[], None], time_ns: int, period_ns: int
    ) -> None:
        self._executor = executor
        self.name = name
        self.runnable = runnable
        self.time_ns = time_ns
        self.period_ns = period_ns
        self.seq = next(executor.sequencer)
        self.state = _NEW
        self._done = threading.Event()

    @property
    def is_periodic(self) -> bool:
        return self.period_ns > 0

    def __lt__(self, other: _ScheduledTask) -> bool:
        return (self.time_ns, self.seq) < (other.time_ns, other.seq)

    def cancel(self, may_interrupt_if_running: bool = False) -> bool:
        # PORT: a running task cannot be interrupted in Python; may_interrupt_if_running is accepted and ignored.
        return self._executor.cancel(self)

    def is_cancelled(self) -> bool:
        return self.state == _CANCELLED

    def is_done(self) -> bool:
        return self.state != _NEW

    def _finish(self, state: int) -> None:
        self.state = state
        self._done.set()

    def get(self, timeout_s: float | None = None) -> None:
        if not self._done.wait(timeout_s):
            raise TimeoutError(f"Scheduled task '{self.name}' did not complete within {timeout_s} s")
        if self.state == _CANCELLED:
            raise CancellationError(f"Scheduled task '{self.name}' was cancelled")

    def get_delay_ms(self) -> int:
        return (self.time_ns - self._executor.time.nanoseconds()) // 1_000_000

    def __repr__(self) -> str:
        return f"ScheduledTask({self.name!r}, period_ns={self.period_ns}, state={self.state})"


class _ScheduledExecutor:
    """The part of ScheduledThreadPoolExecutor that Kafka uses: a delay queue (a heap under a Condition) and
    a pool of worker threads taking due tasks from it."""

    def __init__(
        self, core_pool_size: int, thread_factory: Callable[[Callable[[], None]], threading.Thread], time: Time
    ) -> None:
        self.time = time
        self.sequencer = itertools.count()
        self._core_pool_size = core_pool_size
        self._thread_factory = thread_factory
        self._cond = threading.Condition(threading.Lock())
        self._queue: list[_ScheduledTask] = []
        self._workers: set[threading.Thread] = set()
        self._shutdown = False

    # -- submission ------------------------------------------------------------------------------------

    def submit(self, name: str, runnable: Callable[[], None], delay_ms: int, period_ms: int) -> _ScheduledTask:
        if period_ms == 0:
            raise ValueError("period must be positive for a periodic task")  # as Java's scheduleAtFixedRate
        now = self.time.nanoseconds()
        period_ns = period_ms * 1_000_000 if period_ms > 0 else 0
        task = _ScheduledTask(self, name, runnable, now + max(0, delay_ms) * 1_000_000, period_ns)
        with self._cond:
            if self._shutdown:
                raise RuntimeError("Kafka scheduler is not running.")
            heapq.heappush(self._queue, task)
            if len(self._workers) < self._core_pool_size:
                self._add_worker()
            self._cond.notify()
        return task

    def _add_worker(self) -> None:
        # caller holds self._cond
        thread = self._thread_factory(self._work)
        self._workers.add(thread)
        thread.start()

    def cancel(self, task: _ScheduledTask) -> bool:
        with self._cond:
            if task.state != _NEW:
                return False
            task._finish(_CANCELLED)
            try:
                self._queue.remove(task)
            except ValueError:
                pass  # running right now; it will not be queued again
            else:
                heapq.heapify(self._queue)
            return True

    def contains(self, task: _ScheduledTask) -> bool:
        with self._cond:
            return task in self._queue

    def set_core_pool_size(self, size: int) -> None:
        if size < 0:
            raise ValueError(f"Invalid pool size {size}")
        with self._cond:
            delta = size - self._core_pool_size
            self._core_pool_size = size
            if delta > 0:
                for _ in range(min(delta, len(self._queue))):
                    if len(self._workers) < size:
                        self._add_worker()
            self._cond.notify_all()  # idle workers above the new size leave

    # -- shutdown --------------------------------------------------------------------------------------

    def shutdown(self) -> None:
        """Drops every queued task (delayed and periodic alike) and lets idle workers leave; running tasks finish."""
        with self._cond:
            self._shutdown = True
            for task in self._queue:
                task._finish(_CANCELLED)
            self._queue.clear()
            self._cond.notify_all()

    def await_termination(self, timeout_s: float) -> bool:
        """Waits up to `timeout_s` for every worker to leave; True if they all did."""
        with self._cond:
            workers = list(self._workers)
        remaining = timeout_s
        start = self.time.nanoseconds()
        for worker in workers:
            if worker is threading.current_thread():
                continue  # a task shutting down its own scheduler cannot wait for itself
            worker.join(max(0.0, remaining))
            remaining = timeout_s - (self.time.nanoseconds() - start) / 1e9
        return not any(w.is_alive() for w in workers if w is not threading.current_thread())

    # -- workers ---------------------------------------------------------------------------------------

    def _take(self) -> _ScheduledTask | None:
        """Waits for the next due task; None when this worker should leave."""
        me = threading.current_thread()
        with self._cond:
            while True:
                if self._shutdown or len(self._workers) > self._core_pool_size:
                    self._workers.discard(me)
                    return None
                if not self._queue:
                    self._cond.wait()  # woken by submit, resize or shutdown
                    continue
                head = self._queue[0]
                delay_ns = head.time_ns - self.time.nanoseconds()
                if delay_ns <= 0:
                    return heapq.heappop(self._queue)
                self._cond.wait(delay_ns / 1e9)

    def _work(self) -> None:
        while (task := self._take()) is not None:
            if task.state != _NEW:
                continue
            task.runnable()
            with self._cond:
                if task.state != _NEW:
                    continue  # cancelled while it ran
                if task.is_periodic and not self._shutdown:
                    task.time_ns += task.period_ns
                    heapq.heappush(self._queue, task)
                    self._cond.notify()
                else:
                    task._finish(_CANCELLED if task.is_periodic else _DONE)


class KafkaScheduler(Scheduler, Logging):
    """A Scheduler backed by a pool of `threads` threads named `{thread_name_prefix}N`; thread-safe.

    Thread names count up from 0 over the scheduler's life: a restarted or resized scheduler gets new numbers.
    """

    logger_name = "kafka.utils.KafkaScheduler"

    def __init__(
        self, threads: int, thread_name_prefix: str = "kafka-scheduler-", daemon: bool = True, time: Time = Time.SYSTEM
    ) -> None:
        # PORT: `time` is injected for the executor's clock (the Java executor reads System.nanoTime).
        self.threads = threads
        self.thread_name_prefix = thread_name_prefix
        self.daemon = daemon
        self._time = time
        self._executor: _ScheduledExecutor | None = None
        self._scheduler_thread_id = AtomicInteger(0)
        self._lock = threading.RLock()

    def _new_thread(self, runnable: Callable[[], None]) -> threading.Thread:
        name = f"{self.thread_name_prefix}{self._scheduler_thread_id.get_and_increment()}"
        return KafkaThread(name, runnable, self.daemon)

    def startup(self) -> None:
        self.debug("Initializing task scheduler.")
        with self._lock:
            if self.is_started:
                raise RuntimeError("This scheduler has already been started!")
            self._executor = _ScheduledExecutor(self.threads, self._new_thread, self._time)

    def shutdown(self) -> None:
        self.debug("Shutting down task scheduler.")
        # Read once: another thread may shut the scheduler down at the same time.
        cached_executor = self._executor
        if cached_executor is not None:
            with self._lock:
                cached_executor.shutdown()
                self._executor = None
            # Kafka waits up to a day for running tasks.
            if not cached_executor.await_termination(24 * 3600.0):
                self.warn("Timed out waiting for scheduled tasks to finish")

    def schedule_once(self, name: str, fun: Callable[[], Any], delay_ms: int = 0) -> ScheduledFuture:
        return self.schedule(name, fun, delay_ms=delay_ms, period_ms=-1)

    def schedule(self, name: str, fun: Callable[[], Any], delay_ms: int = 0, period_ms: int = -1) -> ScheduledFuture:
        self.debug(f"Scheduling task {name} with initial delay {delay_ms} ms and period {period_ms} ms.")

        def runnable() -> None:
            try:
                self.trace(f"Beginning execution of scheduled task '{name}'.")
                fun()
            except BaseException as e:  # Kafka catches Throwable so the task keeps its schedule
                self.error(f"Uncaught exception in scheduled task '{name}'", e)
            finally:
                self.trace(f"Completed execution of scheduled task '{name}'.")

        with self._lock:
            executor = self._ensure_running()
            return executor.submit(name, runnable, delay_ms, period_ms)

    def task_running(self, task: ScheduledFuture) -> bool:
        """True while `task` waits in the queue for its next run (for tests, as Kafka's package-private helper)."""
        executor = self._executor
        return executor is not None and isinstance(task, _ScheduledTask) and executor.contains(task)

    def resize_thread_pool(self, new_size: int) -> None:
        with self._lock:
            self._ensure_running().set_core_pool_size(new_size)

    @property
    def is_started(self) -> bool:
        return self._executor is not None

    def _ensure_running(self) -> _ScheduledExecutor:
        executor = self._executor
        if executor is None:
            # PORT: Java's IllegalStateException -> RuntimeError.
            raise RuntimeError("Kafka scheduler is not running.")
        return executor
