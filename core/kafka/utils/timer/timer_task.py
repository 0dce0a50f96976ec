"""Port of core/src/main/scala/kafka/utils/timer/TimerTask.scala (Kafka 2.8).

Something to run once its delay has passed, held by at most one TimerTaskEntry of a timer at a time.
"""

from __future__ import annotations

import threading
from abc import ABC, abstractmethod
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kafka.utils.timer.timer_task_list import TimerTaskEntry


class TimerTask(ABC):
    """A task for a Timer: `delay_ms` from when it is added, the timer's executor calls `run()`.

    Lock order: this task's lock, then a TimerTaskList's lock, then a TimerTaskEntry's lock.
    """

    def __init__(self, delay_ms: int) -> None:
        self.delay_ms = delay_ms
        self._timer_task_entry: TimerTaskEntry | None = None
        # PORT: Scala synchronizes on the task object; a dedicated lock stands in for that monitor (it is not the
        # lock a DelayedOperation guards its completion with).
        self._timer_task_lock = threading.RLock()

    @abstractmethod
    def run(self) -> None:
        """What the timer runs when the task expires."""

    def cancel(self) -> None:
        """Takes the task out of its timer; it will not run (unless it is already running)."""
        with self._timer_task_lock:
            entry = self._timer_task_entry
            if entry is not None:
                entry.remove()
            self._timer_task_entry = None

    def set_timer_task_entry(self, entry: TimerTaskEntry) -> None:
        with self._timer_task_lock:
            # A task lives in one entry only: an older entry is dropped from its list first.
            old = self._timer_task_entry
            if old is not None and old is not entry:
                old.remove()
            self._timer_task_entry = entry

    def get_timer_task_entry(self) -> TimerTaskEntry | None:
        return self._timer_task_entry
