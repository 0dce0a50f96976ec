"""Port of core/src/main/scala/kafka/utils/QuotaUtils.scala (Kafka 2.8).

How long a client must wait for a violated rate quota to be met again: with an observed rate O over a window W
and a bound T, holding back for X = (O - T) / T * W brings the rate over W + X down to T, provided nothing more
is recorded meanwhile.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from kafka.common.metrics.stats.rate import Rate

if TYPE_CHECKING:
    from kafka.common.metrics.kafka_metric import KafkaMetric
    from kafka.common.metrics.quota_violation_exception import QuotaViolationException

__all__ = ["bounded_throttle_time", "throttle_time"]


def _java_round(value: float) -> int:
    """Math.round: half up, toward positive infinity."""
    return math.floor(value + 0.5)


def throttle_time(e: QuotaViolationException, time_ms: int) -> int:
    """The delay (ms) that brings the violated rate of `e` back to its bound (see the module docstring); the
    window is the one the rate itself was measured over."""
    difference = e.value() - e.bound()
    return _java_round(difference / e.bound() * _window_size(e.metric(), time_ms))


def bounded_throttle_time(e: QuotaViolationException, max_throttle_time: int, time_ms: int) -> int:
    """throttle_time, at most `max_throttle_time`."""
    return min(throttle_time(e, time_ms), max_throttle_time)


def _window_size(metric: KafkaMetric, time_ms: int) -> int:
    measurable = metric.measurable()
    if not isinstance(measurable, Rate):
        raise ValueError(f"Metric {metric.metric_name()} is not a Rate metric, value {measurable}")
    return measurable.window_size(metric.config, time_ms)
