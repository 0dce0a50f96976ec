"""Port of com.yammer.metrics.core.Counter (metrics-core 2.2.0): a value that is incremented and decremented."""

from __future__ import annotations

import threading

__all__ = ["Counter"]


class Counter:
    __slots__ = ("_count", "_lock")

    def __init__(self) -> None:
        self._count = 0
        self._lock = threading.Lock()

    def inc(self, n: int = 1) -> None:
        with self._lock:
            self._count += n

    def dec(self, n: int = 1) -> None:
        with self._lock:
            self._count -= n

    @property
    def count(self) -> int:
        return self._count

    def clear(self) -> None:
        with self._lock:
            self._count = 0
