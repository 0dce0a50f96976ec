"""Port of clients/src/main/java/org/apache/kafka/common/metrics/stats/Meter.java (Kafka 2.8)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from kafka.common.metrics.compound_stat import CompoundStat, NamedMeasurable
from kafka.common.metrics.internals.metrics_utils import TimeUnit
from kafka.common.metrics.stats.cumulative_sum import CumulativeSum
from kafka.common.metrics.stats.rate import Rate
from kafka.common.metrics.stats.windowed_count import WindowedCount
from kafka.common.metrics.stats.windowed_sum import WindowedSum

if TYPE_CHECKING:
    from kafka.common.metric_name import MetricName
    from kafka.common.metrics.metric_config import MetricConfig
    from kafka.common.metrics.stat import Stat
    from kafka.common.metrics.stats.sampled_stat import SampledStat

__all__ = ["Meter"]


class Meter(CompoundStat):
    """Two metrics from one stream: a rate (of a windowed sum, or count) and a cumulative total (of the values, or
    of the occurrences when the rate counts)."""

    def __init__(
        self,
        rate_metric_name: MetricName,
        total_metric_name: MetricName,
        unit: TimeUnit = TimeUnit.SECONDS,
        rate_stat: SampledStat | None = None,
    ) -> None:
        if rate_stat is None:
            rate_stat = WindowedSum()
        if not isinstance(rate_stat, WindowedSum):
            raise ValueError("Meter is supported only for WindowedCount or WindowedSum.")
        self._total = CumulativeSum()
        self._rate = Rate(unit, rate_stat)
        self._rate_metric_name = rate_metric_name
        self._total_metric_name = total_metric_name
        # The total counts occurrences when the rate does; worked out once, as the rate's stat does not change.
        self._count_only = isinstance(rate_stat, WindowedCount)

    def stats(self) -> list[NamedMeasurable]:
        return [
            NamedMeasurable(self._total_metric_name, self._total),
            NamedMeasurable(self._rate_metric_name, self._rate),
        ]

    def record(self, config: MetricConfig, value: float, time_ms: int) -> None:
        self._rate.stat.record(config, value, time_ms)  # Rate.record, inline
        self._total.record(config, 1.0 if self._count_only else value, time_ms)

    def record_steps(self) -> list[tuple[Stat, Callable[[MetricConfig, float, int], None]]]:
        """What `record` does, as the stats it records into and the call for each, in its order.

        # PORT: a Sensor records a Meter through these rather than through `record` (one Python call less for each
        # of the meters a selector records per request); the values recorded are the same."""
        rate_stat = self._rate.stat
        total = self._total
        return [(rate_stat, rate_stat.record), (total, total.record_one if self._count_only else total.record)]
