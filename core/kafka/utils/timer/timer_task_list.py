"""Port of core/src/main/scala/kafka/utils/timer/TimerTaskList.scala (Kafka 2.8).

A bucket of a timing wheel: a circular doubly linked list of entries, with a sentinel root, that all expire at the
bucket's expiration time. Adding and removing an entry are O(1).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

from kafka.utils.atomic import AtomicInteger, AtomicLong

if TYPE_CHECKING:
    from kafka.utils.timer.timer_task import TimerTask


class TimerTaskList:
    """Thread-safe bucket. Lock order: the list's lock, then the entry's lock.

    # PORT: Java's TimerTaskList is a `Delayed` ordered by expiration for the DelayQueue; here SystemTimer's delay
    # queue orders buckets by `get_expiration()` itself.
    """

    __slots__ = ("_expiration", "_lock", "root", "task_counter")

    def __init__(self, task_counter: AtomicInteger) -> None:
        self.task_counter = task_counter
        self._lock = threading.RLock()  # `synchronized` on the list
        root = TimerTaskEntry(None, -1)
        root.next = root
        root.prev = root
        self.root = root
        self._expiration = AtomicLong(-1)

    def set_expiration(self, expiration_ms: int) -> bool:
        """Sets the bucket's expiration; True if it changed (the bucket must then be queued again)."""
        return self._expiration.get_and_set(expiration_ms) != expiration_ms

    def get_expiration(self) -> int:
        return self._expiration.get()

    def foreach(self, f: Callable[[TimerTask], None]) -> None:
        """Calls `f` on the task of each entry that is not cancelled."""
        with self._lock:
            root = self.root
            entry = root.next
            while entry is not root:
                assert entry is not None
                next_entry = entry.next
                if not entry.cancelled:
                    assert entry.timer_task is not None
                    f(entry.timer_task)
                entry = next_entry

    def add(self, timer_task_entry: TimerTaskEntry) -> None:
        """Appends the entry, first taking it out of any list it is in."""
        done = False
        while not done:
            # Out of its current list before taking this list's lock, to keep the lock order; retried until the
            # entry is free, since another thread may be moving it.
            timer_task_entry.remove()
            with self._lock, timer_task_entry.lock:
                if timer_task_entry.list is None:
                    tail = self.root.prev
                    assert tail is not None
                    timer_task_entry.next = self.root
                    timer_task_entry.prev = tail
                    timer_task_entry.list = self
                    tail.next = timer_task_entry
                    self.root.prev = timer_task_entry
                    self.task_counter.increment_and_get()
                    done = True

    def remove(self, timer_task_entry: TimerTaskEntry) -> None:
        """Unlinks the entry if it is in this list."""
        with self._lock, timer_task_entry.lock:
            if timer_task_entry.list is self:
                nxt, prev = timer_task_entry.next, timer_task_entry.prev
                assert nxt is not None and prev is not None
                nxt.prev = prev
                prev.next = nxt
                timer_task_entry.next = None
                timer_task_entry.prev = None
                timer_task_entry.list = None
                self.task_counter.decrement_and_get()

    def flush(self, f: Callable[[TimerTaskEntry], None]) -> None:
        """Empties the list, handing each entry to `f`, and resets the expiration."""
        with self._lock:
            head = self.root.next
            while head is not self.root:
                assert head is not None
                self.remove(head)
                f(head)
                head = self.root.next
            self._expiration.set(-1)

    def get_delay_ms(self, now_ms: int) -> int:
        return max(self.get_expiration() - now_ms, 0)

    def __lt__(self, other: TimerTaskList) -> bool:
        return self.get_expiration() < other.get_expiration()


class TimerTaskEntry:
    """Links a TimerTask into a TimerTaskList, with the absolute time it expires."""

    __slots__ = ("expiration_ms", "list", "lock", "next", "prev", "timer_task")

    def __init__(self, timer_task: TimerTask | None, expiration_ms: int) -> None:
        self.timer_task = timer_task
        self.expiration_ms = expiration_ms
        self.list: TimerTaskList | None = None
        self.next: TimerTaskEntry | None = None
        self.prev: TimerTaskEntry | None = None
        self.lock = threading.Lock()  # `synchronized` on the entry
        # The task now belongs to this entry; an older entry of the same task is removed.
        if timer_task is not None:
            timer_task.set_timer_task_entry(self)

    @property
    def cancelled(self) -> bool:
        """True once the task was cancelled or moved to another entry."""
        return self.timer_task is None or self.timer_task.get_timer_task_entry() is not self

    def remove(self) -> None:
        # Another thread may be moving the entry between lists; retry until it is in none. (In a rare race the
        # entry is added elsewhere after we saw None; it then expires there and is skipped as cancelled.)
        current_list = self.list
        while current_list is not None:
            current_list.remove(self)
            current_list = self.list

    def __lt__(self, other: TimerTaskEntry) -> bool:
        return self.expiration_ms < other.expiration_ms
