"""Port of clients/src/main/java/org/apache/kafka/common/metrics/stats/SampledStat.java (Kafka 2.8).

A stat kept as a ring of samples: each sample covers a time window (or a number of events); recording into a
complete sample moves on to the next one, reusing the oldest once `samples` exist, and samples older than all the
windows together are reset when measured. Subclasses say how a value updates a sample and how samples combine.
"""

from __future__ import annotations

from abc import abstractmethod
from typing import TYPE_CHECKING, ClassVar, Final

from kafka.common.metrics.measurable_stat import MeasurableStat

if TYPE_CHECKING:
    from kafka.common.metrics.metric_config import MetricConfig

__all__ = ["Sample", "SampledStat"]


class Sample:
    """One window of a SampledStat."""

    __slots__ = ("initial_value", "event_count", "last_window_ms", "value")

    def __init__(self, initial_value: float, now: int) -> None:
        self.initial_value = initial_value
        self.event_count = 0
        self.last_window_ms = now
        self.value = initial_value

    def reset(self, now: int) -> None:
        self.event_count = 0
        self.last_window_ms = now
        self.value = self.initial_value

    def is_complete(self, time_ms: int, config: MetricConfig) -> bool:
        return time_ms - self.last_window_ms >= config.time_window_ms or self.event_count >= config.event_window


# What a subclass's `update` does, for SampledStat.record to do it without the call: anything (call it), add the
# value to the sample, add 1.0.
UPDATE_CALLS: Final = 0
UPDATE_ADDS_VALUE: Final = 1
UPDATE_ADDS_ONE: Final = 2


class SampledStat(MeasurableStat):
    """Base of the windowed stats (see the module docstring). Not thread-safe: the sensor's metric lock guards it."""

    #: What this class's `update` does (UPDATE_*): declared by a class beside its `update`; a subclass that
    #: overrides `update` without declaring it gets UPDATE_CALLS.
    update_kind: ClassVar[int] = UPDATE_CALLS

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        if "update" in cls.__dict__ and "update_kind" not in cls.__dict__:
            cls.update_kind = UPDATE_CALLS

    def __init__(self, initial_value: float) -> None:
        self._initial_value = initial_value
        self._current = 0
        self.samples: list[Sample] = []

    def record(self, config: MetricConfig, value: float, time_ms: int) -> None:
        # current() and Sample.is_complete, inline: sensors record into these for every request.
        samples = self.samples
        if samples:
            sample = samples[self._current]
        else:
            sample = self.new_sample(time_ms)
            samples.append(sample)
        if time_ms - sample.last_window_ms >= config._time_window_ms or sample.event_count >= config._event_window:
            sample = self._advance(config, time_ms)
        # The subclass's update, inline when it only adds (WindowedSum, WindowedCount, Avg): every request's sensors
        # record into these.
        kind = self.update_kind
        if kind == UPDATE_ADDS_VALUE:
            sample.value += value
        elif kind == UPDATE_ADDS_ONE:
            sample.value += 1.0
        else:
            self.update(sample, config, value, time_ms)
        sample.event_count += 1

    def _advance(self, config: MetricConfig, time_ms: int) -> Sample:
        self._current = (self._current + 1) % config.samples
        if self._current >= len(self.samples):
            sample = self.new_sample(time_ms)
            self.samples.append(sample)
            return sample
        sample = self.current(time_ms)
        sample.reset(time_ms)
        return sample

    def new_sample(self, time_ms: int) -> Sample:
        return Sample(self._initial_value, time_ms)

    def measure(self, config: MetricConfig, now: int) -> float:
        self.purge_obsolete_samples(config, now)
        return self.combine(self.samples, config, now)

    def current(self, time_ms: int) -> Sample:
        if not self.samples:
            self.samples.append(self.new_sample(time_ms))
        return self.samples[self._current]

    def oldest(self, now: int) -> Sample:
        if not self.samples:
            self.samples.append(self.new_sample(now))
        oldest = self.samples[0]
        for sample in self.samples[1:]:
            if sample.last_window_ms < oldest.last_window_ms:
                oldest = sample
        return oldest

    @abstractmethod
    def update(self, sample: Sample, config: MetricConfig, value: float, time_ms: int) -> None:
        """Adds `value` to `sample`."""

    @abstractmethod
    def combine(self, samples: list[Sample], config: MetricConfig, now: int) -> float:
        """The stat's value over `samples`."""

    def purge_obsolete_samples(self, config: MetricConfig, now: int) -> None:
        """Resets the samples that ended more than all the windows together ago (no events came since)."""
        expire_age = config.samples * config.time_window_ms
        for sample in self.samples:
            if now - sample.last_window_ms >= expire_age:
                sample.reset(now)
