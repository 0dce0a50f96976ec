"""Port of clients/src/main/java/org/apache/kafka/clients/consumer/internals/FetchBuffer.java (Kafka 3.7).

The completed fetches waiting to be handed to the application, in arrival order, plus the one being read
("next in line"). Filled by fetch response handlers (on whichever thread polls the network), drained by
`poll`. Thread-safe.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable, Collection

from kafka.clients.consumer.internals.completed_fetch import CompletedFetch
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.log_context import LogContext
from kafka.common.utils.time import Timer

__all__ = ["FetchBuffer"]


class FetchBuffer:
    def __init__(self, log_context: LogContext) -> None:
        self._log = log_context.logger("org.apache.kafka.clients.consumer.internals.FetchBuffer")
        self._completed_fetches: deque[CompletedFetch] = deque()
        self._lock = threading.RLock()
        self._not_empty = threading.Condition(self._lock)
        self._woken_up = False
        self._closed = False
        self._next_in_line_fetch: CompletedFetch | None = None

    def is_empty(self) -> bool:
        with self._lock:
            return not self._completed_fetches

    def has_completed_fetches(self, predicate: Callable[[CompletedFetch], bool]) -> bool:
        with self._lock:
            return any(predicate(cf) for cf in self._completed_fetches)

    def add(self, completed_fetch: CompletedFetch) -> None:
        with self._lock:
            self._completed_fetches.append(completed_fetch)
            self._not_empty.notify_all()

    def add_all(self, completed_fetches: Collection[CompletedFetch]) -> None:
        if not completed_fetches:
            return
        with self._lock:
            self._completed_fetches.extend(completed_fetches)
            self._not_empty.notify_all()

    def next_in_line_fetch(self) -> CompletedFetch | None:
        with self._lock:
            return self._next_in_line_fetch

    def set_next_in_line_fetch(self, next_in_line_fetch: CompletedFetch | None) -> None:
        with self._lock:
            self._next_in_line_fetch = next_in_line_fetch

    def peek(self) -> CompletedFetch | None:
        with self._lock:
            return self._completed_fetches[0] if self._completed_fetches else None

    def poll(self) -> CompletedFetch | None:
        with self._lock:
            return self._completed_fetches.popleft() if self._completed_fetches else None

    def await_not_empty(self, timer: Timer) -> None:
        """Waits until a fetch arrives, `wakeup` is called, or the timer expires."""
        with self._lock:
            try:
                while self.is_empty():
                    if self._woken_up:
                        self._woken_up = False
                        break
                    timer.update()
                    if timer.is_expired():
                        break
                    if not self._not_empty.wait(timer.remaining_ms() / 1000):
                        break
            finally:
                timer.update()

    def wakeup(self) -> None:
        with self._lock:
            self._woken_up = True
            self._not_empty.notify_all()

    def retain_all(self, partitions: Collection[TopicPartition]) -> None:
        """Drops (draining) buffered fetches of partitions not in `partitions`."""
        keep = set(partitions)
        with self._lock:
            self._completed_fetches = deque(cf for cf in self._completed_fetches if not self._maybe_drain(keep, cf))
            if self._maybe_drain(keep, self._next_in_line_fetch):
                self._next_in_line_fetch = None

    def _maybe_drain(self, partitions: set[TopicPartition], completed_fetch: CompletedFetch | None) -> bool:
        if completed_fetch is not None and completed_fetch.partition not in partitions:
            self._log.debug(
                f"Removing {completed_fetch.partition} from buffered fetch data as it is not in the set of partitions "
                f"to retain ({', '.join(sorted(str(p) for p in partitions))})"
            )
            completed_fetch.drain()
            return True
        return False

    def buffered_partitions(self) -> set[TopicPartition]:
        with self._lock:
            partitions = {cf.partition for cf in self._completed_fetches}
            nxt = self._next_in_line_fetch
            if nxt is not None and not nxt.is_consumed():
                partitions.add(nxt.partition)
            return partitions

    def close(self) -> None:
        with self._lock:
            if self._closed:
                self._log.warn("The fetch buffer was already closed")
                return
            self._closed = True
            self.retain_all(())
