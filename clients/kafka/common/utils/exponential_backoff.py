"""Port of clients/src/main/java/org/apache/kafka/common/utils/ExponentialBackoff.java (Kafka 3.7).

Backoff that grows by a multiplier per attempt up to a maximum, with random jitter so that many clients
retrying together spread out: initial * multiplier^attempts * (1 +/- jitter), capped at the maximum.
"""

from __future__ import annotations

import math
import random
import sys

__all__ = ["ExponentialBackoff"]


class ExponentialBackoff:
    """Stateless: the caller counts the attempts."""

    __slots__ = ("_initial_interval", "_multiplier", "_max_interval", "_jitter", "_exp_max")

    def __init__(self, initial_interval: int, multiplier: int, max_interval: int, jitter: float) -> None:
        self._initial_interval = min(max_interval, initial_interval)
        self._multiplier = multiplier
        self._max_interval = max_interval
        self._jitter = jitter
        # The exponent at which the interval reaches the maximum; 0 when it starts there (no growth).
        self._exp_max = (
            math.log(max_interval / max(initial_interval, 1)) / math.log(multiplier)
            if max_interval > initial_interval
            else 0.0
        )

    def backoff(self, attempts: int) -> int:
        """The backoff in ms after `attempts` earlier attempts (0 for the first retry)."""
        if self._exp_max == 0:
            return self._initial_interval
        exp = min(attempts, self._exp_max)
        term = self._initial_interval * math.pow(self._multiplier, exp)
        if self._jitter < sys.float_info.min:
            random_factor = 1.0
        else:
            random_factor = random.uniform(1 - self._jitter, 1 + self._jitter)
        value = int(random_factor * term)
        return self._max_interval if value > self._max_interval else value

    def __str__(self) -> str:
        return (
            f"ExponentialBackoff{{multiplier={self._multiplier}, expMax={self._exp_max}, "
            f"initialInterval={self._initial_interval}, jitter={self._jitter}}}"
        )
