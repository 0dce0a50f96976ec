"""Port of clients/src/main/java/org/apache/kafka/common/metrics/MetricConfig.java (Kafka 2.8).

The settings a metric is measured under: the quota (if any), the number of samples kept and the span of each
(in time and in events), the tags of the metrics named with it and the recording level.

# PORT: Java's fluent setters share their getters' names (`config.samples()` / `config.samples(11)`), which Python
# cannot do; here the settings are keyword arguments of the constructor and properties (settable), and
# `time_window(window, unit)` remains as Java's fluent setter taking a TimeUnit.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Final, Self

from kafka.common.metrics.internals.metrics_utils import TimeUnit
from kafka.common.metrics.kafka_metric import note_quota_change
from kafka.common.metrics.sensor import RecordingLevel

if TYPE_CHECKING:
    from kafka.common.metrics.quota import Quota

__all__ = ["MetricConfig"]

_LONG_MAX: Final = 2**63 - 1


class MetricConfig:
    """How a metric is sampled, bounded and tagged."""

    __slots__ = ("_quota", "_samples", "_event_window", "_time_window_ms", "_tags", "_recording_level")

    def __init__(
        self,
        quota: Quota | None = None,
        samples: int = 2,
        event_window: int = _LONG_MAX,
        time_window_ms: int = 30_000,
        tags: Mapping[str, str] | None = None,
        record_level: RecordingLevel = RecordingLevel.INFO,
    ) -> None:
        self._quota = quota
        self._samples = 2
        self.samples = samples
        self._event_window = event_window
        self._time_window_ms = time_window_ms
        self._tags: dict[str, str] = dict(tags) if tags is not None else {}
        self._recording_level = record_level

    @property
    def quota(self) -> Quota | None:
        return self._quota

    @quota.setter
    def quota(self, quota: Quota | None) -> None:
        self._quota = quota
        # Sensors using this config look at their quotas again on their next record.
        note_quota_change()

    @property
    def event_window(self) -> int:
        """A sample is complete after this many events (as well as after its time window)."""
        return self._event_window

    @event_window.setter
    def event_window(self, window: int) -> None:
        self._event_window = window

    @property
    def time_window_ms(self) -> int:
        """The span of one sample, in ms."""
        return self._time_window_ms

    @time_window_ms.setter
    def time_window_ms(self, window_ms: int) -> None:
        self._time_window_ms = window_ms

    def time_window(self, window: int, unit: TimeUnit) -> Self:
        """Sets the span of one sample, `window` in `unit`."""
        self._time_window_ms = unit.to_millis(window)
        return self

    @property
    def tags(self) -> dict[str, str]:
        """Tags added to the metric names the registry makes with this config."""
        return self._tags

    @tags.setter
    def tags(self, tags: Mapping[str, str]) -> None:
        self._tags = dict(tags)

    @property
    def samples(self) -> int:
        """The number of samples kept."""
        return self._samples

    @samples.setter
    def samples(self, samples: int) -> None:
        if samples < 1:
            raise ValueError("The number of samples must be at least 1.")
        self._samples = samples

    @property
    def record_level(self) -> RecordingLevel:
        return self._recording_level

    @record_level.setter
    def record_level(self, recording_level: RecordingLevel) -> None:
        self._recording_level = recording_level
