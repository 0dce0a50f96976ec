"""Port of core/src/test/scala/unit/kafka/utils/MockScheduler.scala (Kafka 2.8).

A Scheduler for tests: tasks run synchronously, in the thread that moves a MockTime, as soon as the mock clock
reaches their time (reaching it exactly is enough: a run takes no time).

# PORT: Kafka's MockTime owns a MockScheduler (`time.scheduler`); ours is created by the test and registers
# itself as a listener of the MockTime it is given. Cancelling is implemented (Kafka's mock ignores it).
"""

from __future__ import annotations

import heapq
import itertools
import threading
from collections.abc import Callable
from typing import Any

from kafka.common.utils.time import MockTime, Time
from kafka.utils.kafka_scheduler import CancellationError, ScheduledFuture, Scheduler


class MockTask(ScheduledFuture):
    """A task waiting in a MockScheduler; `next_execution` is in the mock clock's milliseconds."""

    def __init__(self, name: str, fun: Callable[[], Any], next_execution: int, period: int, time: Time) -> None:
        self.name = name
        self.fun = fun
        self.next_execution = next_execution
        self.period = period
        self.time = time
        self._cancelled = False
        self._ran = False

    @property
    def periodic(self) -> bool:
        return self.period >= 0

    def cancel(self, may_interrupt_if_running: bool = False) -> bool:
        if self._cancelled or (self._ran and not self.periodic):
            return False
        self._cancelled = True
        return True

    def is_cancelled(self) -> bool:
        return self._cancelled

    def is_done(self) -> bool:
        return self._cancelled or (self._ran and not self.periodic)

    def get(self, timeout_s: float | None = None) -> None:
        if self._cancelled:
            raise CancellationError(f"Scheduled task '{self.name}' was cancelled")

    def get_delay_ms(self) -> int:
        return self.next_execution - self.time.milliseconds()


class MockScheduler(Scheduler):
    """Runs scheduled tasks when the mock clock passes their time; `tick()` runs whatever is due now."""

    def __init__(self, time: MockTime) -> None:
        self.time = time
        self._lock = threading.RLock()
        self._tasks: list[tuple[int, int, MockTask]] = []  # heap of (next execution, insertion order, task)
        self._seq = itertools.count()
        time.add_listener(self.tick)

    @property
    def is_started(self) -> bool:
        return True

    def startup(self) -> None:
        pass

    def shutdown(self) -> None:
        """Runs every pending task once, due or not, and empties the queue (as Kafka's mock does)."""
        while (task := self._poll(lambda _: True)) is not None:
            task.fun()

    def tick(self) -> None:
        """Runs, in this thread, each task whose time has come; periodic ones are queued again."""
        now = self.time.milliseconds()
        while (task := self._poll(lambda t: t.next_execution <= now)) is not None:
            # The lock is not held while a task runs, so that a task can schedule others (and a test can
            # schedule while another thread ticks) without deadlock.
            task.fun()
            task._ran = True
            if task.periodic and not task._cancelled:
                task.next_execution += task.period
                self._add(task)

    def schedule(self, name: str, fun: Callable[[], Any], delay_ms: int = 0, period_ms: int = -1) -> ScheduledFuture:
        task = MockTask(name, fun, self.time.milliseconds() + delay_ms, period_ms, self.time)
        self._add(task)
        self.tick()
        return task

    def clear(self) -> None:
        with self._lock:
            self._tasks.clear()

    @property
    def size(self) -> int:
        with self._lock:
            return sum(1 for _, _, t in self._tasks if not t._cancelled)

    def _poll(self, predicate: Callable[[MockTask], bool]) -> MockTask | None:
        with self._lock:
            while self._tasks and self._tasks[0][2]._cancelled:
                heapq.heappop(self._tasks)
            if self._tasks and predicate(self._tasks[0][2]):
                return heapq.heappop(self._tasks)[2]
            return None

    def _add(self, task: MockTask) -> None:
        with self._lock:
            heapq.heappush(self._tasks, (task.next_execution, next(self._seq), task))
