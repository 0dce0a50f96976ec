"""Port of core/src/main/scala/kafka/server/ThrottledChannel.scala (Kafka 2.8).

A connection held back after its response (KIP-219): made when a quota manager throttles a request, it tells the
request's Processor at once that throttling has started (the connection stays muted once the response is out),
and, when its delay is over, the quota manager's reaper thread tells it that throttling has ended (the connection
is read again).

# PORT: Java's `Delayed` (getDelay/compareTo, for a DelayQueue) becomes `get_delay_ns` and `__lt__`; the queue is
# ThrottledChannelQueue below, a heap under a condition, as kafka.utils.timer's queue stands in for DelayQueue.
"""

from __future__ import annotations

import heapq
import itertools
import threading
import time as _time
from collections.abc import Callable
from typing import TYPE_CHECKING

from kafka.network.request_channel import EndThrottlingResponse, StartThrottlingResponse
from kafka.utils.logging import Logging

if TYPE_CHECKING:
    from kafka.common.utils.time import Time
    from kafka.network.request_channel import Request, Response

__all__ = ["ThrottledChannel", "ThrottledChannelQueue"]


class ThrottledChannel(Logging):
    """The connection of `request`, held back for `throttle_time_ms` (see the module docstring)."""

    logger_name = "kafka.server.ThrottledChannel"

    def __init__(
        self,
        request: Request,
        time: Time,
        throttle_time_ms: int,
        channel_throttling_callback: Callable[[Response], None],
    ) -> None:
        self.request = request
        self.time = time
        self.throttle_time_ms = throttle_time_ms
        self._channel_throttling_callback = channel_throttling_callback
        self.end_time_nanos = time.nanoseconds() + throttle_time_ms * 1_000_000
        # The Processor learns of the throttle before the response is handed to it.
        channel_throttling_callback(StartThrottlingResponse(request))

    def notify_throttling_done(self) -> None:
        """Tells the Processor that the connection may be read again."""
        self.trace(f"Channel throttled for: {self.throttle_time_ms} ms")
        self._channel_throttling_callback(EndThrottlingResponse(self.request))

    def get_delay_ns(self) -> int:
        """Nanoseconds left until the throttle ends (zero or less once it has)."""
        return self.end_time_nanos - self.time.nanoseconds()

    def __lt__(self, other: ThrottledChannel) -> bool:
        return self.end_time_nanos < other.end_time_nanos


class ThrottledChannelQueue:
    """Java's DelayQueue[ThrottledChannel]: `poll` hands out a channel whose throttle has ended."""

    def __init__(self) -> None:
        self._cond = threading.Condition(threading.Lock())
        self._heap: list[tuple[int, int, ThrottledChannel]] = []
        self._seq = itertools.count()
        self._woken = False

    def add(self, channel: ThrottledChannel) -> None:
        with self._cond:
            heapq.heappush(self._heap, (channel.end_time_nanos, next(self._seq), channel))
            if self._heap[0][2] is channel:
                self._cond.notify_all()

    def poll(self, timeout_ms: int) -> ThrottledChannel | None:
        """A channel whose throttle has ended, waiting up to `timeout_ms` (real time) for one; None if none by then."""
        deadline = _time.monotonic() + max(timeout_ms, 0) / 1000
        with self._cond:
            while True:
                wait_s: float | None = None
                if self._heap:
                    delay_ns = self._heap[0][2].get_delay_ns()
                    if delay_ns <= 0:
                        return heapq.heappop(self._heap)[2]
                    wait_s = delay_ns / 1e9
                remaining = deadline - _time.monotonic()
                if remaining <= 0 or self._woken:
                    self._woken = False
                    return None
                self._cond.wait(remaining if wait_s is None else min(wait_s, remaining))

    def wakeup(self) -> None:
        """Ends a waiting poll early (with None): the reaper is shutting down.

        # PORT: stands in for interrupting the reaper thread, which Python cannot do."""
        with self._cond:
            self._woken = True
            self._cond.notify_all()

    def __len__(self) -> int:
        with self._cond:
            return len(self._heap)
