"""Port of clients/src/main/java/org/apache/kafka/common/metrics/internals/MetricsUtils.java (Kafka 2.8).

Time conversions for the rate stats and the key/value form of metric tags.

# PORT: the stats take Java's `java.util.concurrent.TimeUnit`, which Python has no equivalent of; `TimeUnit` here
# is that enum, reduced to what the metrics need (its length in ms and `to_millis`, Java's
# `TimeUnit.MILLISECONDS.convert(d, unit)`, which truncates and saturates at Long.MAX_VALUE).
"""

from __future__ import annotations

import enum
from fractions import Fraction
from typing import Final

__all__ = ["TimeUnit", "convert", "get_tags"]

_LONG_MAX: Final = 2**63 - 1


class TimeUnit(enum.Enum):
    """java.util.concurrent.TimeUnit, each with its length in milliseconds."""

    NANOSECONDS = Fraction(1, 1_000_000)
    MICROSECONDS = Fraction(1, 1_000)
    MILLISECONDS = Fraction(1)
    SECONDS = Fraction(1_000)
    MINUTES = Fraction(60_000)
    HOURS = Fraction(3_600_000)
    DAYS = Fraction(86_400_000)

    def to_millis(self, duration: int) -> int:
        """`duration` of this unit in whole ms, truncated toward zero and saturated at Java's long range."""
        ms = duration * self.value
        whole = int(ms)  # int() of a Fraction truncates toward zero, as Java's integer division does
        return max(-_LONG_MAX - 1, min(_LONG_MAX, whole))


def convert(time_ms: int, unit: TimeUnit) -> float:
    """`time_ms` milliseconds expressed in `unit`, as a float."""
    if unit is TimeUnit.NANOSECONDS:
        return time_ms * 1000.0 * 1000.0
    if unit is TimeUnit.MICROSECONDS:
        return time_ms * 1000.0
    if unit is TimeUnit.MILLISECONDS:
        return float(time_ms)
    if unit is TimeUnit.SECONDS:
        return time_ms / 1000.0
    if unit is TimeUnit.MINUTES:
        return time_ms / (60.0 * 1000.0)
    if unit is TimeUnit.HOURS:
        return time_ms / (60.0 * 60.0 * 1000.0)
    if unit is TimeUnit.DAYS:
        return time_ms / (24.0 * 60.0 * 60.0 * 1000.0)
    raise ValueError(f"Unknown unit: {unit}")


def get_tags(*key_value: str) -> dict[str, str]:
    """Tags from alternating keys and values: `get_tags("k1", "v1", "k2", "v2")`."""
    if len(key_value) % 2 != 0:
        raise ValueError("keyValue needs to be specified in pairs")
    return {key_value[i]: key_value[i + 1] for i in range(0, len(key_value), 2)}
