"""Port of server-common/src/main/java/org/apache/kafka/server/util/ThroughputThrottler.java (Kafka 3.7;
tools/src/main/java/org/apache/kafka/tools/ThroughputThrottler.java in 2.8).

Keeps a sender near a target rate (records or bytes per second): between two sends the caller asks
`should_throttle(amount_so_far, send_start_ms)` and, when the average since the start is above the target,
calls `throttle()`, which sleeps off the time owed once at least 2 ms of it has built up. A negative target
never throttles; a target of 0 blocks until `wakeup()`.

# PORT: lives with the tools that use it (the producer performance tool) rather than in a server-common
module; Java's wait/notify on the object is a Condition.
"""

from __future__ import annotations

import threading

from kafka.common.utils.time import Time

__all__ = ["ThroughputThrottler"]

NS_PER_MS = 1_000_000
NS_PER_SEC = 1000 * NS_PER_MS
MIN_SLEEP_NS = 2 * NS_PER_MS
_LONG_MAX = 2**63 - 1


class ThroughputThrottler:
    """Sleeps just enough to hold an average rate of `target_throughput` per second since `start_ms`."""

    def __init__(self, target_throughput: int, start_ms: int, time: Time = Time.SYSTEM) -> None:
        self._time = time
        self.start_ms = start_ms
        self.target_throughput = target_throughput
        self.sleep_time_ns = NS_PER_SEC // target_throughput if target_throughput > 0 else _LONG_MAX
        self.sleep_deficit_ns = 0
        self._wakeup = False
        self._cond = threading.Condition(threading.Lock())

    def should_throttle(self, amount_so_far: int, send_start_ms: int) -> bool:
        """Whether the average since the start, counting `amount_so_far`, is above the target."""
        if self.target_throughput < 0:
            return False
        elapsed_sec = (send_start_ms - self.start_ms) / 1000.0
        return elapsed_sec > 0 and (amount_so_far / elapsed_sec) > self.target_throughput

    def throttle(self) -> None:
        """Adds one unit's share of sleep to the debt and sleeps it off once it reaches MIN_SLEEP_NS."""
        if self.target_throughput == 0:
            with self._cond:
                while not self._wakeup:
                    self._cond.wait()
            return
        self.sleep_deficit_ns += self.sleep_time_ns
        if self.sleep_deficit_ns >= MIN_SLEEP_NS:
            sleep_start_ns = self._time.nanoseconds()
            with self._cond:
                remaining = self.sleep_deficit_ns
                while not self._wakeup and remaining > 0:
                    self._cond.wait(remaining / NS_PER_SEC)
                    elapsed = self._time.nanoseconds() - sleep_start_ns
                    remaining = self.sleep_deficit_ns - elapsed
                self._wakeup = False
            self.sleep_deficit_ns = 0

    def wakeup(self) -> None:
        """Ends a throttle() in progress."""
        with self._cond:
            self._wakeup = True
            self._cond.notify_all()
