"""Port of clients/src/main/java/org/apache/kafka/common/utils/{Time,SystemTime,MockTime,Timer}.java (Kafka 2.8).

Broker and client code never read the clock or sleep directly: they are handed a `Time`, so that tests
can run them on `MockTime`, whose clock moves only when told to.
"""

from __future__ import annotations

import threading
import time as _time
from abc import ABC, abstractmethod
from collections.abc import Callable


class Time(ABC):
    """A clock and a way to wait."""

    SYSTEM: Time

    @abstractmethod
    def milliseconds(self) -> int:
        """Wall-clock time in ms since the epoch."""

    @abstractmethod
    def nanoseconds(self) -> int:
        """A monotonic clock in ns, for measuring intervals."""

    def hi_res_clock_ms(self) -> int:
        return self.nanoseconds() // 1_000_000

    @abstractmethod
    def sleep(self, ms: int) -> None:
        """Blocks for `ms` milliseconds (on MockTime: advances the clock instead)."""

    def wait_object(self, cond: threading.Condition, condition: Callable[[], bool], deadline_ms: int) -> None:
        """Waits on `cond` (whose lock the caller holds) until `condition()` is true or the deadline passes;
        raises TimeoutError at the deadline, as Java's waitObject throws TimeoutException."""
        while not condition():
            remaining = deadline_ms - self.milliseconds()
            if remaining <= 0:
                raise TimeoutError(f"Condition not satisfied before deadline {deadline_ms}")
            cond.wait(remaining / 1000)

    def timer(self, timeout_ms: int) -> Timer:
        return Timer(self, timeout_ms)


class SystemTime(Time):
    def milliseconds(self) -> int:
        return _time.time_ns() // 1_000_000

    # The C function itself (a builtin is not bound to the instance): the broker reads this clock ~30 times per
    # request, and a Python method around it doubled the cost of each read.
    nanoseconds = staticmethod(_time.monotonic_ns)

    def sleep(self, ms: int) -> None:
        if ms > 0:
            _time.sleep(ms / 1000)


Time.SYSTEM = SystemTime()


class MockTime(Time):
    """A clock for tests: starts at `start_ms` (and `start_ns`), and moves only through sleep()/advance().

    `auto_tick_ms` advances the clock on every read, as Java's MockTime(autoTickMs) does. Listeners
    (e.g. MockScheduler) are told after every move."""

    def __init__(self, auto_tick_ms: int = 0, start_ms: int | None = None, start_ns: int | None = None) -> None:
        self._lock = threading.Lock()
        self._time_ms = _time.time_ns() // 1_000_000 if start_ms is None else start_ms
        self._hi_res_ns = _time.monotonic_ns() if start_ns is None else start_ns
        self.auto_tick_ms = auto_tick_ms
        self._listeners: list[Callable[[], None]] = []

    def add_listener(self, listener: Callable[[], None]) -> None:
        self._listeners.append(listener)

    def _tick(self) -> None:
        if self.auto_tick_ms:
            self._advance(self.auto_tick_ms)

    def milliseconds(self) -> int:
        self._tick()
        with self._lock:
            return self._time_ms

    def nanoseconds(self) -> int:
        self._tick()
        with self._lock:
            return self._hi_res_ns

    def sleep(self, ms: int) -> None:
        self._advance(ms)

    def _advance(self, ms: int) -> None:
        with self._lock:
            self._time_ms += ms
            self._hi_res_ns += ms * 1_000_000
        for listener in list(self._listeners):
            listener()

    def set_current_time_ms(self, new_ms: int) -> None:
        with self._lock:
            if new_ms < self._time_ms:
                raise ValueError(f"Setting the time to {new_ms} while current time {self._time_ms} is newer")
            delta = new_ms - self._time_ms
        self._advance(delta)

    def wait_object(self, cond: threading.Condition, condition: Callable[[], bool], deadline_ms: int) -> None:
        # With a mock clock, time does not pass by itself: wait in short real slices, checking the mock deadline.
        while not condition():
            if self.milliseconds() >= deadline_ms:
                raise TimeoutError(f"Condition not satisfied before deadline {deadline_ms}")
            cond.wait(0.01)


class Timer:
    """A deadline against a Time: `update()` reads the clock, `remaining_ms` and `is_expired` use the last read."""

    def __init__(self, time: Time, timeout_ms: int) -> None:
        self._time = time
        self._current_ms = time.milliseconds()
        self.reset(timeout_ms)

    def reset(self, timeout_ms: int) -> None:
        if timeout_ms < 0:
            raise ValueError(f"Invalid negative timeout {timeout_ms}")
        self._start_ms = self._current_ms
        self._timeout_ms = timeout_ms
        self._deadline_ms = self._current_ms + timeout_ms

    def update(self, current_ms: int | None = None) -> None:
        self._current_ms = max(self._time.milliseconds() if current_ms is None else current_ms, self._current_ms)

    def is_expired(self) -> bool:
        return self._current_ms >= self._deadline_ms

    def not_expired(self) -> bool:
        return not self.is_expired()

    def remaining_ms(self) -> int:
        return max(0, self._deadline_ms - self._current_ms)

    def elapsed_ms(self) -> int:
        return self._current_ms - self._start_ms

    def current_time_ms(self) -> int:
        return self._current_ms

    def timeout_ms(self) -> int:
        return self._timeout_ms

    def sleep(self, duration_ms: int) -> None:
        sleep_ms = min(duration_ms, self.remaining_ms())
        self._time.sleep(sleep_ms)
        self.update()
