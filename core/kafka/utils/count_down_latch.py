"""Port of java.util.concurrent.CountDownLatch semantics.

# PORT: a Condition-backed latch; Java's `await` is a Python keyword, so the method is `await_`, which takes a
# timeout in seconds (None waits until the count reaches zero) and returns whether it did.
"""

from __future__ import annotations

import threading


class CountDownLatch:
    """A one-shot gate that opens once count_down() has been called `count` times."""

    __slots__ = ("_cond", "_count")

    def __init__(self, count: int) -> None:
        if count < 0:
            raise ValueError("count < 0")
        self._cond = threading.Condition(threading.Lock())
        self._count = count

    def count_down(self) -> None:
        with self._cond:
            if self._count > 0:
                self._count -= 1
                if self._count == 0:
                    self._cond.notify_all()

    @property
    def count(self) -> int:
        return self._count

    def get_count(self) -> int:
        return self._count

    def await_(self, timeout: float | None = None) -> bool:
        """Waits until the count is zero or `timeout` seconds have passed; True if the count reached zero."""
        with self._cond:
            return self._cond.wait_for(lambda: self._count == 0, timeout)

    def __repr__(self) -> str:
        return f"CountDownLatch[Count = {self._count}]"
