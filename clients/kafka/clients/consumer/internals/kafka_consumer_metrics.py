"""Port of clients/src/main/java/org/apache/kafka/clients/consumer/internals/KafkaConsumerMetrics.java (Kafka 3.7).

The consumer's application-facing timings, in group `{prefix}-metrics`: how long ago poll() was last called, the
time between polls, the fraction of poll() spent waiting (poll-idle-ratio-avg), and the total time spent in
commitSync and committed (ns).
"""

from __future__ import annotations

from kafka.common.metrics.internals.metric_functions import MeasurableFn
from kafka.common.metrics.metric_config import MetricConfig
from kafka.common.metrics.metrics import Metrics
from kafka.common.metrics.stats.avg import Avg
from kafka.common.metrics.stats.cumulative_sum import CumulativeSum
from kafka.common.metrics.stats.max import Max
from kafka.common.utils.utils import java_divide

__all__ = ["KafkaConsumerMetrics"]


class KafkaConsumerMetrics:
    """Recorded by the consumer at the start and end of each poll and after each commitSync/committed."""

    def __init__(self, metrics: Metrics, metric_grp_prefix: str) -> None:
        self._metrics = metrics
        group = f"{metric_grp_prefix}-metrics"
        self._last_poll_ms = 0
        self._poll_start_ms = 0
        self._time_since_last_poll_ms = 0
        self._last_poll_metric_name = metrics.metric_name(
            "last-poll-seconds-ago", group, "The number of seconds since the last poll() invocation."
        )
        metrics.add_metric(self._last_poll_metric_name, MeasurableFn(self._last_poll_seconds_ago))
        self._time_between_poll_sensor = metrics.sensor("time-between-poll")
        self._time_between_poll_sensor.add(
            metrics.metric_name(
                "time-between-poll-avg", group, "The average delay between invocations of poll() in milliseconds."
            ),
            Avg(),
        )
        self._time_between_poll_sensor.add(
            metrics.metric_name(
                "time-between-poll-max", group, "The max delay between invocations of poll() in milliseconds."
            ),
            Max(),
        )
        self._poll_idle_sensor = metrics.sensor("poll-idle-ratio-avg")
        self._poll_idle_sensor.add(
            metrics.metric_name(
                "poll-idle-ratio-avg",
                group,
                "The average fraction of time the consumer's poll() is idle as opposed to waiting for the user code "
                "to process records.",
            ),
            Avg(),
        )
        self._commit_sync_sensor = metrics.sensor("commit-sync-time-ns-total")
        self._commit_sync_sensor.add(
            metrics.metric_name(
                "commit-sync-time-ns-total", group, "The total time the consumer has spent in commitSync in nanoseconds"
            ),
            CumulativeSum(),
        )
        self._committed_sensor = metrics.sensor("committed-time-ns-total")
        self._committed_sensor.add(
            metrics.metric_name(
                "committed-time-ns-total", group, "The total time the consumer has spent in committed in nanoseconds"
            ),
            CumulativeSum(),
        )

    def _last_poll_seconds_ago(self, config: MetricConfig, now: int) -> float:
        """-1 before the first poll, else the whole seconds since it started (truncated, as Java's convert)."""
        if self._last_poll_ms == 0:
            return -1.0
        return float(int((now - self._last_poll_ms) / 1000))

    def record_poll_start(self, poll_start_ms: int) -> None:
        self._poll_start_ms = poll_start_ms
        self._time_since_last_poll_ms = poll_start_ms - self._last_poll_ms if self._last_poll_ms != 0 else 0
        # PORT: without Sensor.check_quotas (no quota on these sensors), as FetchMetricsManager's.
        self._time_between_poll_sensor.record(self._time_since_last_poll_ms, None, False)
        self._last_poll_ms = poll_start_ms

    def record_poll_end(self, poll_end_ms: int) -> None:
        poll_time_ms = poll_end_ms - self._poll_start_ms
        # A double division as Java's: NaN when the first poll returns within its millisecond.
        self._poll_idle_sensor.record(
            java_divide(poll_time_ms, poll_time_ms + self._time_since_last_poll_ms), None, False
        )

    def record_commit_sync(self, duration_ns: int) -> None:
        self._commit_sync_sensor.record(duration_ns)

    def record_committed(self, duration_ns: int) -> None:
        self._committed_sensor.record(duration_ns)

    def close(self) -> None:
        self._metrics.remove_metric(self._last_poll_metric_name)
        self._metrics.remove_sensor(self._time_between_poll_sensor.name())
        self._metrics.remove_sensor(self._poll_idle_sensor.name())
        self._metrics.remove_sensor(self._commit_sync_sensor.name())
        self._metrics.remove_sensor(self._committed_sensor.name())
