"""Port of clients/src/main/java/org/apache/kafka/common/metrics/stats/Rate.java (Kafka 2.8).

The rate of a windowed stat (a sum by default, or a count) per time unit. The elapsed time divided by is from the
start of the oldest retained sample to now, but never less than `samples - 1` whole windows, so that a rate just
after start-up (or after idle windows were purged) is not inflated by a tiny elapsed time.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kafka.common.metrics.internals.metrics_utils import TimeUnit, convert
from kafka.common.metrics.measurable_stat import MeasurableStat
from kafka.common.metrics.stats.windowed_sum import WindowedSum
from kafka.common.utils.utils import java_divide

if TYPE_CHECKING:
    from kafka.common.metrics.metric_config import MetricConfig
    from kafka.common.metrics.stats.sampled_stat import SampledStat

__all__ = ["Rate"]


def _long_div(a: int, b: int) -> int:
    """Java's long division, which truncates toward zero (ZeroDivisionError for b == 0, as Java throws)."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


class Rate(MeasurableStat):
    """A windowed stat per `unit` of time (see the module docstring)."""

    def __init__(self, unit: TimeUnit = TimeUnit.SECONDS, stat: SampledStat | None = None) -> None:
        self.unit = unit
        self.stat: SampledStat = stat if stat is not None else WindowedSum()

    def unit_name(self) -> str:
        """Java's unitName: the unit's name, lower case, less its last two letters."""
        return self.unit.name[:-2].lower()

    def record(self, config: MetricConfig, value: float, time_ms: int) -> None:
        self.stat.record(config, value, time_ms)

    def measure(self, config: MetricConfig, now: int) -> float:
        value = self.stat.measure(config, now)
        return java_divide(value, convert(self.window_size(config, now), self.unit))

    def window_size(self, config: MetricConfig, now: int) -> int:
        """The elapsed time (ms) the rate is computed over."""
        self.stat.purge_obsolete_samples(config, now)
        total_elapsed_time_ms = now - self.stat.oldest(now).last_window_ms
        # Fewer than samples - 1 whole windows retained: count the missing ones as elapsed.
        num_full_windows = _long_div(total_elapsed_time_ms, config.time_window_ms)
        min_full_windows = config.samples - 1
        if num_full_windows < min_full_windows:
            total_elapsed_time_ms += (min_full_windows - num_full_windows) * config.time_window_ms
        return total_elapsed_time_ms
