"""Port of com.yammer.metrics.core.Gauge (metrics-core 2.2.0).

# PORT: Yammer's Gauge is an abstract class whose subclasses override value(); here a Gauge wraps the callable that
# computes the value (Kafka's gauges are all anonymous subclasses doing exactly that).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["Gauge"]


class Gauge:
    """A metric whose value is read from the code it measures each time it is asked."""

    __slots__ = ("_fn",)

    def __init__(self, fn: Callable[[], Any]) -> None:
        self._fn = fn

    def value(self) -> Any:
        return self._fn()
