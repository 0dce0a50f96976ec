"""Port of clients/src/main/java/org/apache/kafka/common/metrics/stats/TokenBucket.java (Kafka 2.8).

Credits that refill at the quota's rate up to a burst of `samples * window * quota`; each recorded value spends
credits. Sensor.check_quotas treats negative credits as the quota violated.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from kafka.common.metrics.internals.metrics_utils import TimeUnit, convert
from kafka.common.metrics.measurable_stat import MeasurableStat

if TYPE_CHECKING:
    from kafka.common.metrics.metric_config import MetricConfig

__all__ = ["TokenBucket"]

_LONG_MAX: Final = 2**63 - 1


class TokenBucket(MeasurableStat):
    """The credits left (see the module docstring); without a quota, Long.MAX_VALUE."""

    def __init__(self, unit: TimeUnit = TimeUnit.SECONDS) -> None:
        self._unit = unit
        self._tokens = 0.0
        self._last_update_ms = 0

    def measure(self, config: MetricConfig, now: int) -> float:
        quota = config.quota
        if quota is None:
            return float(_LONG_MAX)
        burst = self._burst(config)
        self._refill(quota.bound(), burst, now)
        return self._tokens

    def record(self, config: MetricConfig, value: float, time_ms: int) -> None:
        quota = config.quota
        if quota is None:
            return
        burst = self._burst(config)
        self._refill(quota.bound(), burst, time_ms)
        self._tokens = min(burst, self._tokens - value)

    def _refill(self, quota: float, burst: float, time_ms: int) -> None:
        self._tokens = min(burst, self._tokens + quota * convert(time_ms - self._last_update_ms, self._unit))
        self._last_update_ms = time_ms

    def _burst(self, config: MetricConfig) -> float:
        assert config.quota is not None
        return config.samples * convert(config.time_window_ms, self._unit) * config.quota.bound()
