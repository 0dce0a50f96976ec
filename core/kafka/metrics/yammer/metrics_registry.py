"""Ports of com.yammer.metrics.core.{MetricsRegistry,MetricsRegistryListener} (metrics-core 2.2.0).

The registry metrics are created through: asking for a name that exists returns the metric already there (so two
callers share it), unless it is of another kind. Listeners (reporters) hear of every metric added and removed.
Thread-safe.
"""

from __future__ import annotations

import threading
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any, TypeVar

from kafka.common.utils.time import Time
from kafka.metrics.yammer.counter import Counter
from kafka.metrics.yammer.gauge import Gauge
from kafka.metrics.yammer.histogram import Histogram
from kafka.metrics.yammer.meter import Meter
from kafka.metrics.yammer.metric_name import MetricName
from kafka.metrics.yammer.timer import Timer
from kafka.utils.time_unit import TimeUnit

__all__ = ["Metric", "MetricsRegistry", "MetricsRegistryListener"]

Metric = Gauge | Counter | Meter | Histogram | Timer
_M = TypeVar("_M", Gauge, Counter, Meter, Histogram, Timer)


class MetricsRegistryListener(ABC):
    @abstractmethod
    def on_metric_added(self, name: MetricName, metric: Metric) -> None: ...

    @abstractmethod
    def on_metric_removed(self, name: MetricName) -> None: ...


class MetricsRegistry:
    def __init__(self, time: Time = Time.SYSTEM) -> None:
        self._time = time
        self._lock = threading.RLock()
        self._metrics: dict[MetricName, Metric] = {}
        self._listeners: list[MetricsRegistryListener] = []

    @property
    def time(self) -> Time:
        """The clock of the registry's meters, histograms and timers."""
        return self._time

    def new_gauge(self, metric_name: MetricName, gauge: Gauge | Callable[[], Any]) -> Gauge:
        """The gauge of that name; `gauge` may be a Gauge or the callable computing its value."""
        g = gauge if isinstance(gauge, Gauge) else Gauge(gauge)
        return self._get_or_add(metric_name, Gauge, lambda: g)

    def new_counter(self, metric_name: MetricName) -> Counter:
        return self._get_or_add(metric_name, Counter, Counter)

    def new_histogram(self, metric_name: MetricName, biased: bool = False) -> Histogram:
        return self._get_or_add(
            metric_name, Histogram, lambda: Histogram.biased(self._time) if biased else Histogram.uniform()
        )

    def new_meter(self, metric_name: MetricName, event_type: str, unit: TimeUnit) -> Meter:
        return self._get_or_add(metric_name, Meter, lambda: Meter(event_type, unit, self._time))

    def new_timer(
        self,
        metric_name: MetricName,
        duration_unit: TimeUnit = TimeUnit.MILLISECONDS,
        rate_unit: TimeUnit = TimeUnit.SECONDS,
    ) -> Timer:
        return self._get_or_add(metric_name, Timer, lambda: Timer(duration_unit, rate_unit, self._time))

    def all_metrics(self) -> dict[MetricName, Metric]:
        """A copy of name -> metric at this moment."""
        with self._lock:
            return dict(self._metrics)

    def get(self, metric_name: MetricName) -> Metric | None:
        return self._metrics.get(metric_name)

    def remove_metric(self, metric_name: MetricName) -> None:
        with self._lock:
            metric = self._metrics.pop(metric_name, None)
            if metric is None:
                return
            listeners = list(self._listeners)
        for listener in listeners:
            listener.on_metric_removed(metric_name)

    def add_listener(self, listener: MetricsRegistryListener) -> None:
        """Adds a listener and tells it of every metric already registered."""
        with self._lock:
            self._listeners.append(listener)
            existing = list(self._metrics.items())
        for name, metric in existing:
            listener.on_metric_added(name, metric)

    def remove_listener(self, listener: MetricsRegistryListener) -> None:
        with self._lock:
            if listener in self._listeners:
                self._listeners.remove(listener)

    def shutdown(self) -> None:
        """Nothing runs in the background here (meters tick lazily); kept for Yammer's API."""

    def _get_or_add(self, name: MetricName, kind: type[_M], factory: Callable[[], _M]) -> _M:
        existing = self._metrics.get(name)
        if existing is None:
            with self._lock:
                existing = self._metrics.get(name)
                if existing is None:
                    metric = factory()
                    self._metrics[name] = metric
                    listeners = list(self._listeners)
                else:
                    listeners = []
            if existing is None:
                for listener in listeners:
                    listener.on_metric_added(name, metric)
                return metric
        if not isinstance(existing, kind):
            raise ValueError(f"{name} is already used for a different type of metric")
        return existing
