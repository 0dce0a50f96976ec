"""Java's lambdas as metric value providers: `(config, now) -> value` written as a Measurable or a Gauge.

# PORT: Java passes a lambda where a Measurable or a Gauge is expected (both are functional interfaces); Python
# needs a class to tell the two apart (KafkaMetric measures a Measurable and reads a Gauge), so these wrap a
# callable in one or the other.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from kafka.common.metrics.gauge import Gauge
from kafka.common.metrics.measurable import Measurable

if TYPE_CHECKING:
    from kafka.common.metrics.metric_config import MetricConfig

__all__ = ["GaugeFn", "MeasurableFn"]


class MeasurableFn(Measurable):
    """A Measurable whose value is `fn(config, now)` (a float)."""

    __slots__ = ("_fn",)

    def __init__(self, fn: Callable[[MetricConfig, int], float]) -> None:
        self._fn = fn

    def measure(self, config: MetricConfig, now: int) -> float:
        return float(self._fn(config, now))


class GaugeFn(Gauge[Any]):
    """A Gauge whose value is `fn(config, now)`, of any type (a version string, a count)."""

    __slots__ = ("_fn",)

    def __init__(self, fn: Callable[[MetricConfig, int], Any]) -> None:
        self._fn = fn

    def value(self, config: MetricConfig, now: int) -> Any:
        return self._fn(config, now)
