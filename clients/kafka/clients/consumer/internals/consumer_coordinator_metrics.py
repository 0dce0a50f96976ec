"""Port of clients/src/main/java/org/apache/kafka/clients/consumer/internals/ConsumerCoordinatorMetrics.java
(Kafka 3.7).

The consumer coordinator's own sensors, beside the group membership ones of AbstractCoordinator, in the same group
`{prefix}-coordinator-metrics`: offset commit response times and counts, the time the rebalance listener's
callbacks take, and how many partitions are assigned.
"""

from __future__ import annotations

from collections.abc import Callable

from kafka.clients.consumer.internals.subscription_state import SubscriptionState
from kafka.common.metric_name import MetricName
from kafka.common.metrics.internals.metric_functions import MeasurableFn
from kafka.common.metrics.internals.metrics_utils import TimeUnit
from kafka.common.metrics.metrics import Metrics
from kafka.common.metrics.sensor import Sensor
from kafka.common.metrics.stats.avg import Avg
from kafka.common.metrics.stats.max import Max
from kafka.common.metrics.stats.meter import Meter
from kafka.common.metrics.stats.windowed_count import WindowedCount

__all__ = ["ConsumerCoordinatorMetrics"]


class ConsumerCoordinatorMetrics:
    """The sensors ConsumerCoordinator records into (commits) and its ConsumerRebalanceListenerInvoker (callbacks)."""

    def __init__(self, subscriptions: SubscriptionState, metrics: Metrics, metric_grp_prefix: str) -> None:
        group = f"{metric_grp_prefix}-coordinator-metrics"

        def name(metric: str, description: str) -> MetricName:
            return metrics.metric_name(metric, group, description)

        self.commit_sensor = metrics.sensor("commit-latency")
        self.commit_sensor.add(name("commit-latency-avg", "The average time taken for a commit request"), Avg())
        self.commit_sensor.add(name("commit-latency-max", "The max time taken for a commit request"), Max())
        self.commit_sensor.add(
            Meter(
                name("commit-rate", "The number of commit calls per second"),
                name("commit-total", "The total number of commit calls"),
                TimeUnit.SECONDS,
                WindowedCount(),
            )
        )
        self.revoke_callback_sensor = self._callback_sensor(metrics, name, "partition-revoked")
        self.assign_callback_sensor = self._callback_sensor(metrics, name, "partition-assigned")
        self.lose_callback_sensor = self._callback_sensor(metrics, name, "partition-lost")
        metrics.add_metric(
            name("assigned-partitions", "The number of partitions currently assigned to this consumer"),
            MeasurableFn(lambda config, now: subscriptions.num_assigned_partitions()),
        )

    @staticmethod
    def _callback_sensor(metrics: Metrics, name: Callable[[str, str], MetricName], callback: str) -> Sensor:
        """`{callback}-latency`: the avg and max time (ms) of one rebalance listener callback."""
        sensor = metrics.sensor(f"{callback}-latency")
        what = f"time taken for a {callback} rebalance listener callback"
        sensor.add(name(f"{callback}-latency-avg", f"The average {what}"), Avg())
        sensor.add(name(f"{callback}-latency-max", f"The max {what}"), Max())
        return sensor
