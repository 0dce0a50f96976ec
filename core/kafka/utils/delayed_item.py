"""Port of core/src/main/scala/kafka/utils/DelayedItem.scala (Kafka 2.8).

Something that is due a number of milliseconds after it was made: the fetcher threads delay a partition with one
after an error, and fetch it again once it is due.
"""

from __future__ import annotations

from kafka.common.utils.time import Time


class DelayedItem:
    """Due `delay_ms` after creation, on the clock `time` (the system clock unless a test injects one)."""

    __slots__ = ("delay_ms", "_due_ms", "_time")

    def __init__(self, delay_ms: int, time: Time = Time.SYSTEM) -> None:
        self.delay_ms = delay_ms
        self._time = time
        self._due_ms = time.milliseconds() + delay_ms

    def get_delay_ms(self) -> int:
        """Milliseconds left until the item is due; 0 once it is."""
        return max(self._due_ms - self._time.milliseconds(), 0)

    def __lt__(self, other: DelayedItem) -> bool:
        return self._due_ms < other._due_ms

    def __repr__(self) -> str:
        return f"DelayedItem(delayMs={self.get_delay_ms()})"
