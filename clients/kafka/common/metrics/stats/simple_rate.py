"""Port of clients/src/main/java/org/apache/kafka/common/metrics/stats/SimpleRate.java (Kafka 2.8)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kafka.common.metrics.stats.rate import Rate

if TYPE_CHECKING:
    from kafka.common.metrics.metric_config import MetricConfig

__all__ = ["SimpleRate"]


class SimpleRate(Rate):
    """A Rate over the time since the oldest retained sample began, but at least one window: unlike Rate, no
    missing windows are added, so the rate starts at its true value (the replication quotas measure with it)."""

    def window_size(self, config: MetricConfig, now: int) -> int:
        self.stat.purge_obsolete_samples(config, now)
        elapsed = now - self.stat.oldest(now).last_window_ms
        return max(elapsed, config.time_window_ms)
