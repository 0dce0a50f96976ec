"""Port of core/src/test/scala/unit/kafka/utils/timer/MockTimer.scala (Kafka 2.8).

A Timer for tests: tasks run in the caller's thread when `advance_clock` moves the MockTime past their expiration.
"""

from __future__ import annotations

import heapq
import itertools
import threading

from kafka.common.utils.time import MockTime
from kafka.utils.timer.timer import Timer
from kafka.utils.timer.timer_task import TimerTask
from kafka.utils.timer.timer_task_list import TimerTaskEntry


class MockTimer(Timer):
    """Tasks with a delay <= 0 run at once, in `add`; others when `advance_clock` passes their expiration."""

    def __init__(self, time: MockTime | None = None) -> None:
        self.time = time if time is not None else MockTime()
        self._lock = threading.Lock()
        self._task_queue: list[tuple[int, int, TimerTaskEntry]] = []
        self._seq = itertools.count()

    def add(self, timer_task: TimerTask) -> None:
        if timer_task.delay_ms <= 0:
            timer_task.run()
        else:
            entry = TimerTaskEntry(timer_task, timer_task.delay_ms + self.time.milliseconds())
            with self._lock:
                heapq.heappush(self._task_queue, (entry.expiration_ms, next(self._seq), entry))

    def advance_clock(self, timeout_ms: int) -> bool:
        """Sleeps the MockTime by `timeout_ms`, then runs each task whose expiration is now in the past."""
        self.time.sleep(timeout_ms)
        executed = False
        now = self.time.milliseconds()
        while True:
            with self._lock:
                if not self._task_queue or now <= self._task_queue[0][0]:
                    break
                entry = heapq.heappop(self._task_queue)[2]
            if not entry.cancelled:
                assert entry.timer_task is not None
                entry.timer_task.run()
                executed = True
        return executed

    @property
    def size(self) -> int:
        return len(self._task_queue)

    def shutdown(self) -> None:
        pass
