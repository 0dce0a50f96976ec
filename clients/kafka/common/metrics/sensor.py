"""Port of clients/src/main/java/org/apache/kafka/common/metrics/Sensor.java (Kafka 2.8).

A sensor takes a stream of recorded values and feeds each one to its stats (and then to its parents'); each stat
backs one or more registered metrics. A metric whose config has a quota is checked after each record: a value
beyond the bound raises QuotaViolationException (the value stays recorded, as in Kafka).

Thread-safety, as Java's: `record` and `add` hold the sensor's lock (Java's `synchronized (this)`), and the stats are
updated under the sensor's metric lock, which its KafkaMetrics hold while measuring. Lock order: sensor lock, then the
Metrics registry's lock (Sensor.add registers metrics; Metrics.remove_sensor takes them in the same order).

# PORT: a sensor none of whose metrics has a quota records under its metric lock only, without Java's sensor lock
# around it (which then guards nothing more: the stats are the metric lock's, the stats list is replaced, never
# changed, by `add`, and there is no quota to check), and without looking at its metrics' configs. A sensor with a
# quota records as Java's, under both locks, checking the quotas. Which metrics have a quota is remembered, and looked
# at again after any change that may alter it (KafkaMetric.quota_epoch).
"""

from __future__ import annotations

import enum
import threading
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Final, overload

from kafka.common.metrics.compound_stat import CompoundStat
from kafka.common.metrics.kafka_metric import KafkaMetric, note_quota_change
from kafka.common.metrics.quota_violation_exception import QuotaViolationException
from kafka.common.metrics.stats.token_bucket import TokenBucket

if TYPE_CHECKING:
    from kafka.common.metric_name import MetricName
    from kafka.common.metrics.measurable_stat import MeasurableStat
    from kafka.common.metrics.metric_config import MetricConfig
    from kafka.common.metrics.metrics import Metrics
    from kafka.common.metrics.stat import Stat
    from kafka.common.utils.time import Time

__all__ = ["RecordingLevel", "Sensor"]

_LONG_MAX: Final = 2**63 - 1


class RecordingLevel(enum.Enum):
    """Sensor.RecordingLevel: a sensor records only if its level is enabled by the config's level."""

    INFO = 0
    DEBUG = 1
    TRACE = 2

    @property
    def id(self) -> int:
        return self.value

    @staticmethod
    def for_id(id: int) -> RecordingLevel:
        if id < 0 or id > 2:
            raise ValueError(f"Unexpected RecordLevel id `{id}`, it should be between `0` and `2` (inclusive)")
        return RecordingLevel(id)

    @staticmethod
    def for_name(name: str) -> RecordingLevel:
        """The level named `name` (case-insensitive); ValueError for an unknown name."""
        try:
            return RecordingLevel[name.upper()]
        except KeyError:
            raise ValueError(f"No enum constant org.apache.kafka.common.metrics.Sensor.RecordingLevel.{name}") from None

    def should_record(self, config_id: int) -> bool:
        """Whether a sensor of this level records when the configured level has id `config_id`."""
        # INFO sensors record at every configured level, DEBUG ones at DEBUG and TRACE, TRACE ones at TRACE only:
        # with the ids ordered, that is one comparison (`_value_`, a plain attribute, not the slower `.value`).
        if 0 <= config_id <= 2:
            return self._value_ <= config_id
        raise RuntimeError(f"Did not recognize recording level {config_id}")

    def __str__(self) -> str:
        return self.name


class _StatAndConfig:
    """A stat and the config it records under: `fixed_config` (a compound stat's), or, when `metric` is given, the
    current config of the metric the stat backs (which KafkaMetric.config may replace)."""

    __slots__ = ("stat", "record", "fixed_config", "metric")

    def __init__(
        self,
        stat: Stat,
        fixed_config: MetricConfig,
        metric: KafkaMetric | None = None,
        record: Callable[[MetricConfig, float, int], None] | None = None,
    ) -> None:
        self.stat = stat
        # Bound once: Sensor.record runs for every poll and request of a selector.
        self.record = stat.record if record is None else record
        self.fixed_config = fixed_config
        self.metric = metric


class Sensor:
    """A handle to record values into a group of stats (see the module docstring)."""

    def __init__(
        self,
        registry: Metrics | None,
        name: str,
        parents: Sequence[Sensor] | None,
        config: MetricConfig,
        time: Time,
        inactive_sensor_expiration_time_seconds: int,
        recording_level: RecordingLevel,
    ) -> None:
        if name is None:
            raise TypeError("a sensor needs a name")
        self._registry = registry
        self._name = name
        self._parents: tuple[Sensor, ...] = tuple(parents) if parents is not None else ()
        self._metrics: dict[MetricName, KafkaMetric] = {}
        # Replaced, never changed in place, by add: a record without the sensor lock reads it once.
        self._stats: tuple[_StatAndConfig, ...] = ()
        # (KafkaMetric.quota_epoch when looked at, the metrics that then had a quota): one tuple, read and replaced
        # at once. -1 is never an epoch, so the first record looks.
        self._quota_state: tuple[int, tuple[KafkaMetric, ...]] = (-1, ())
        self._config = config
        self._time = time
        self._inactive_sensor_expiration_time_ms = min(_LONG_MAX, inactive_sensor_expiration_time_seconds * 1000)
        self._last_record_time = time.milliseconds()
        self._recording_level = recording_level
        #: Java's `synchronized (sensor)`: held by record (with the quota check) and add.
        self.lock = threading.RLock()
        self._metric_lock = threading.RLock()
        self._check_forest(set())

    def _check_forest(self, sensors: set[int]) -> None:
        """Refuses a sensor that is, through its parents, its own ancestor."""
        if id(self) in sensors:
            raise ValueError(f"Circular dependency in sensors: {self.name()} is its own parent.")
        sensors.add(id(self))
        for parent in self._parents:
            parent._check_forest(sensors)

    def name(self) -> str:
        return self._name

    def parents(self) -> list[Sensor]:
        return list(self._parents)

    def should_record(self) -> bool:
        """Whether this sensor's level is enabled by its config's recording level."""
        # On every record: RecordingLevel.should_record's comparison, inline (both levels are valid members).
        return self._recording_level._value_ <= self._config.record_level._value_

    def record(self, value: float = 1.0, time_ms: int | None = None, check_quotas: bool = True) -> None:
        """Records `value` (1.0: one occurrence) at `time_ms` (now by default) into every stat, then into the
        parents; with `check_quotas`, raises QuotaViolationException if a metric is now beyond its quota (the parents
        are then not recorded, as in Kafka)."""
        # should_record, inline, and Java's recordInternal in the same call: this runs for every poll and request
        # of a selector.
        if self._recording_level._value_ > self._config._recording_level._value_:
            return
        value = float(value)
        if time_ms is None:
            time_ms = self._time.milliseconds()
        self._last_record_time = time_ms
        epoch, quota_metrics = self._quota_state
        if epoch != KafkaMetric.quota_epoch:
            quota_metrics = self._quota_metrics()
        # The locks taken without `with`, which on CPython 3.11 binds __enter__/__exit__ on every use (about 115 ns a
        # lock).
        if not quota_metrics:
            # No quota: the metric lock only (see the module docstring).
            self._record_stats(value, time_ms)
        else:
            lock = self.lock
            lock.acquire()
            try:
                self._record_stats(value, time_ms)
                if check_quotas:
                    self._check_quotas(quota_metrics, time_ms)
            finally:
                lock.release()
        for parent in self._parents:
            parent.record(value, time_ms, check_quotas)

    def _record_stats(self, value: float, time_ms: int) -> None:
        """Records `value` into every stat under the metric lock (Java's inner synchronized block)."""
        metric_lock = self._metric_lock
        metric_lock.acquire()
        try:
            for stat_and_config in self._stats:
                metric = stat_and_config.metric
                stat_and_config.record(
                    stat_and_config.fixed_config if metric is None else metric._config, value, time_ms
                )
        finally:
            metric_lock.release()

    def check_quotas(self, time_ms: int | None = None) -> None:
        """Raises QuotaViolationException if a metric of this sensor with a quota is beyond it at `time_ms` (now by
        default). A TokenBucket is beyond its quota when its credits are negative."""
        if time_ms is None:
            time_ms = self._time.milliseconds()
        epoch, quota_metrics = self._quota_state
        if epoch != KafkaMetric.quota_epoch:
            quota_metrics = self._quota_metrics()
        self._check_quotas(quota_metrics, time_ms)

    def _quota_metrics(self) -> tuple[KafkaMetric, ...]:
        """The metrics that have a quota now, in the order they were added, remembered with the epoch."""
        # The epoch read first: a change made while looking moves it on, and the next record looks again.
        epoch = KafkaMetric.quota_epoch
        quota_metrics = tuple(
            metric
            for metric in list(self._metrics.values())
            if metric._config is not None and metric._config._quota is not None
        )
        self._quota_state = (epoch, quota_metrics)
        return quota_metrics

    @staticmethod
    def _check_quotas(quota_metrics: tuple[KafkaMetric, ...], time_ms: int) -> None:
        """Java's checkQuotas over the metrics that had a quota (each one's config read again)."""
        for metric in quota_metrics:
            config = metric.config
            if config is not None:
                quota = config.quota
                if quota is not None:
                    value = metric.measurable_value(time_ms)
                    if isinstance(metric.measurable(), TokenBucket):
                        if value < 0:
                            raise QuotaViolationException(metric, value, quota.bound())
                    elif not quota.acceptable(value):
                        raise QuotaViolationException(metric, value, quota.bound())

    @overload
    def add(self, stat: CompoundStat, config: MetricConfig | None = None, /) -> bool: ...

    @overload
    def add(self, metric_name: MetricName, stat: MeasurableStat, config: MetricConfig | None = None, /) -> bool: ...

    def add(
        self,
        first: CompoundStat | MetricName,
        second: MeasurableStat | MetricConfig | None = None,
        third: MetricConfig | None = None,
        /,
    ) -> bool:
        """`add(compound_stat[, config])` or `add(metric_name, stat[, config])`: registers the stat's metrics with
        this sensor (and the registry). False if the sensor has expired; adding a metric name the sensor already has
        does nothing (True); a name another sensor registered raises ValueError."""
        if isinstance(first, CompoundStat):
            if second is not None and not _is_metric_config(second):
                raise TypeError("add(CompoundStat, MetricConfig)")
            return self._add_compound(first, second)  # type: ignore[arg-type]
        if second is None:
            raise TypeError("add(MetricName, MeasurableStat[, MetricConfig])")
        return self._add_measurable(first, second, third)  # type: ignore[arg-type]

    def _add_compound(self, stat: CompoundStat, config: MetricConfig | None) -> bool:
        with self.lock:
            if self.has_expired():
                return False
            stat_config = config if config is not None else self._config
            record_steps = getattr(stat, "record_steps", None)
            if record_steps is not None:
                # A Meter: its two stats recorded directly (Meter.record_steps).
                self._stats = (
                    *self._stats,
                    *(_StatAndConfig(part, stat_config, record=record) for part, record in record_steps()),
                )
            else:
                self._stats = (*self._stats, _StatAndConfig(stat, stat_config))
            for m in stat.stats():
                metric = KafkaMetric(self._metric_lock, m.name, m.stat, stat_config, self._time)
                if metric.metric_name() not in self._metrics:
                    if self._registry is not None:
                        self._registry.register_metric(metric)
                    self._metrics[metric.metric_name()] = metric
            if stat_config.quota is not None:
                note_quota_change()
            return True

    def _add_measurable(self, metric_name: MetricName, stat: MeasurableStat, config: MetricConfig | None) -> bool:
        with self.lock:
            if self.has_expired():
                return False
            if metric_name in self._metrics:
                return True
            if metric_name is None or stat is None:
                raise TypeError("a metric needs a name and a stat")
            stat_config = config if config is not None else self._config
            metric = KafkaMetric(self._metric_lock, metric_name, stat, stat_config, self._time)
            if self._registry is not None:
                self._registry.register_metric(metric)
            self._metrics[metric.metric_name()] = metric
            # The stat records under its metric's current config, which KafkaMetric.config may replace.
            self._stats = (*self._stats, _StatAndConfig(stat, stat_config, metric))
            if stat_config.quota is not None:
                note_quota_change()
            return True

    def has_metrics(self) -> bool:
        with self.lock:
            return bool(self._metrics)

    def has_expired(self) -> bool:
        """Whether nothing was recorded for longer than the sensor's inactivity expiration time."""
        return (self._time.milliseconds() - self._last_record_time) > self._inactive_sensor_expiration_time_ms

    def metrics(self) -> list[KafkaMetric]:
        """The metrics of this sensor, in the order they were added."""
        with self.lock:
            return list(self._metrics.values())

    def __repr__(self) -> str:
        return f"Sensor({self._name!r})"


def _is_metric_config(value: object) -> bool:
    from kafka.common.metrics.metric_config import MetricConfig

    return isinstance(value, MetricConfig)
