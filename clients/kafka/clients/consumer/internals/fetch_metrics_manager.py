"""Port of clients/src/main/java/org/apache/kafka/clients/consumer/internals/FetchMetricsManager.java (Kafka 3.7).

The consumer's fetch sensors: latency and rate of fetch requests, bytes and records per response (through
FetchMetricsAggregator), per topic, the lag and lead of each partition as records are returned, and the throttle
time of the fetch responses. A partition's lag and lead sensors and its preferred-read-replica gauge are removed
when it is unassigned.

# PORT: Java looks the per-topic and per-partition sensors up by name (SensorBuilder) on every record; here they
# are also kept in dicts, so a poll pays no string formatting per partition.
# PORT: these sensors are recorded without Sensor.check_quotas (none of them has a quota: the consumer sets none and
# its metrics() gives no way to set one), which Java runs on every record and which here was half its cost; the
# recorded values are Java's. Per partition, the lag and lead are recorded in one call (record_partition_lag_and_lead)
# and a response's totals in another (record_fetch_totals).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from kafka.clients.consumer.internals.fetch_metrics_registry import FetchMetricsRegistry
from kafka.common.metrics.internals.metric_functions import GaugeFn
from kafka.common.metrics.stats.avg import Avg
from kafka.common.metrics.stats.max import Max
from kafka.common.metrics.stats.meter import Meter
from kafka.common.metrics.stats.min import Min
from kafka.common.metrics.stats.value import Value
from kafka.common.metrics.stats.windowed_count import WindowedCount

if TYPE_CHECKING:
    from kafka.clients.consumer.internals.subscription_state import SubscriptionState
    from kafka.common.metric_name import MetricName
    from kafka.common.metrics.metric_config import MetricConfig
    from kafka.common.metrics.metrics import Metrics
    from kafka.common.metrics.sensor import Sensor
    from kafka.common.topic_partition import TopicPartition

__all__ = ["FetchMetricsManager"]

_NameAndDescription = tuple[str, str]


class FetchMetricsManager:
    """The fetch sensors of one consumer."""

    def __init__(self, metrics: Metrics, metrics_registry: FetchMetricsRegistry | None = None) -> None:
        self._metrics = metrics
        self._registry = registry = metrics_registry if metrics_registry is not None else FetchMetricsRegistry()
        self._assignment_id = 0
        self._assigned_partitions: set[TopicPartition] = set()
        self.throttle_time = self._sensor("fetch-throttle-time")
        self.throttle_time.add(self._name(registry.fetch_throttle_time_avg), Avg())
        self.throttle_time.add(self._name(registry.fetch_throttle_time_max), Max())
        self.bytes_fetched = self._sensor("bytes-fetched")
        self.bytes_fetched.add(self._name(registry.fetch_size_avg), Avg())
        self.bytes_fetched.add(self._name(registry.fetch_size_max), Max())
        self.bytes_fetched.add(
            Meter(self._name(registry.bytes_consumed_rate), self._name(registry.bytes_consumed_total))
        )
        self.records_fetched = self._sensor("records-fetched")
        self.records_fetched.add(self._name(registry.records_per_request_avg), Avg())
        self.records_fetched.add(
            Meter(self._name(registry.records_consumed_rate), self._name(registry.records_consumed_total))
        )
        self.fetch_latency = self._sensor("fetch-latency")
        self.fetch_latency.add(self._name(registry.fetch_latency_avg), Avg())
        self.fetch_latency.add(self._name(registry.fetch_latency_max), Max())
        self.fetch_latency.add(
            Meter(
                self._name(registry.fetch_request_rate),
                self._name(registry.fetch_request_total),
                rate_stat=WindowedCount(),
            )
        )
        self.records_lag = self._sensor("records-lag")
        self.records_lag.add(self._name(registry.records_lag_max), Max())
        self.records_lead = self._sensor("records-lead")
        self.records_lead.add(self._name(registry.records_lead_min), Min())
        self._topic_sensors: dict[str, tuple[Sensor, Sensor]] = {}
        self._partition_lag_sensors: dict[TopicPartition, Sensor] = {}
        self._partition_lead_sensors: dict[TopicPartition, Sensor] = {}

    def _sensor(self, name: str) -> Sensor:
        return self._metrics.sensor(name)

    def _name(self, name_and_description: _NameAndDescription, tags: Mapping[str, str] | None = None) -> MetricName:
        name, description = name_and_description
        return self._metrics.metric_name(name, self._registry.group_name, description, tags)

    def throttle_time_sensor(self) -> Sensor:
        return self.throttle_time

    def record_latency(self, request_latency_ms: int) -> None:
        self.fetch_latency.record(request_latency_ms, None, False)

    def record_bytes_fetched(self, num_bytes: int) -> None:
        self.bytes_fetched.record(num_bytes, None, False)

    def record_records_fetched(self, records: int) -> None:
        self.records_fetched.record(records, None, False)

    def _topic(self, topic: str) -> tuple[Sensor, Sensor]:
        sensors = self._topic_sensors.get(topic)
        if sensors is None:
            registry = self._registry
            tags = topic_tags(topic)
            bytes_fetched = self._sensor(f"topic.{topic}.bytes-fetched")
            bytes_fetched.add(self._name(registry.topic_fetch_size_avg, tags), Avg())
            bytes_fetched.add(self._name(registry.topic_fetch_size_max, tags), Max())
            bytes_fetched.add(
                Meter(
                    self._name(registry.topic_bytes_consumed_rate, tags),
                    self._name(registry.topic_bytes_consumed_total, tags),
                )
            )
            records_fetched = self._sensor(f"topic.{topic}.records-fetched")
            records_fetched.add(self._name(registry.topic_records_per_request_avg, tags), Avg())
            records_fetched.add(
                Meter(
                    self._name(registry.topic_records_consumed_rate, tags),
                    self._name(registry.topic_records_consumed_total, tags),
                )
            )
            sensors = self._topic_sensors[topic] = (bytes_fetched, records_fetched)
        return sensors

    def record_topic_bytes_fetched(self, topic: str, num_bytes: int) -> None:
        """Java's recordBytesFetched(topic, bytes)."""
        self._topic(topic)[0].record(num_bytes, None, False)

    def record_topic_records_fetched(self, topic: str, records: int) -> None:
        """Java's recordRecordsFetched(topic, records)."""
        self._topic(topic)[1].record(records, None, False)

    def record_fetch_totals(self, num_bytes: int, records: int, per_topic: Mapping[str, list[int]]) -> None:
        """A drained response's totals: record_bytes_fetched, record_records_fetched, then per topic ([bytes,
        records]) record_topic_bytes_fetched and record_topic_records_fetched, in Java's order."""
        self.bytes_fetched.record(num_bytes, None, False)
        self.records_fetched.record(records, None, False)
        topic_sensors = self._topic_sensors
        for topic, (topic_bytes, topic_records) in per_topic.items():
            sensors = topic_sensors.get(topic)
            if sensors is None:
                sensors = self._topic(topic)
            sensors[0].record(topic_bytes, None, False)
            sensors[1].record(topic_records, None, False)

    def record_partition_lag_and_lead(self, tp: TopicPartition, lag: int | None, lead: int | None) -> None:
        """record_partition_lag (unless `lag` is None), then record_partition_lead (unless `lead` is None)."""
        if lag is not None:
            self.records_lag.record(lag, None, False)
            sensor = self._partition_lag_sensors.get(tp)
            if sensor is None:
                sensor = self._partition_lag_sensor(tp)
            sensor.record(lag, None, False)
        if lead is not None:
            self.records_lead.record(lead, None, False)
            sensor = self._partition_lead_sensors.get(tp)
            if sensor is None:
                sensor = self._partition_lead_sensor(tp)
            sensor.record(lead, None, False)

    def record_partition_lag(self, tp: TopicPartition, lag: int) -> None:
        self.record_partition_lag_and_lead(tp, lag, None)

    def _partition_lag_sensor(self, tp: TopicPartition) -> Sensor:
        sensor = self._partition_lag_sensors.get(tp)
        if sensor is None:
            registry = self._registry
            tags = topic_partition_tags(tp)
            sensor = self._sensor(_partition_records_lag_metric_name(tp))
            sensor.add(self._name(registry.partition_records_lag, tags), Value())
            sensor.add(self._name(registry.partition_records_lag_max, tags), Max())
            sensor.add(self._name(registry.partition_records_lag_avg, tags), Avg())
            self._partition_lag_sensors[tp] = sensor
        return sensor

    def record_partition_lead(self, tp: TopicPartition, lead: int) -> None:
        self.record_partition_lag_and_lead(tp, None, lead)

    def _partition_lead_sensor(self, tp: TopicPartition) -> Sensor:
        sensor = self._partition_lead_sensors.get(tp)
        if sensor is None:
            registry = self._registry
            tags = topic_partition_tags(tp)
            sensor = self._sensor(_partition_records_lead_metric_name(tp))
            sensor.add(self._name(registry.partition_records_lead, tags), Value())
            sensor.add(self._name(registry.partition_records_lead_min, tags), Min())
            sensor.add(self._name(registry.partition_records_lead_avg, tags), Avg())
            self._partition_lead_sensors[tp] = sensor
        return sensor

    def maybe_update_assignment(self, subscription: SubscriptionState) -> None:
        """Drops the partition sensors of partitions no longer assigned and adds the preferred-read-replica gauge
        of new ones, when the assignment changed since the last call."""
        new_assignment_id = subscription.assignment_id()
        if self._assignment_id == new_assignment_id:
            return
        new_assigned_partitions = set(subscription.assigned_partitions())
        for tp in self._assigned_partitions:
            if tp not in new_assigned_partitions:
                self._metrics.remove_sensor(_partition_records_lag_metric_name(tp))
                self._metrics.remove_sensor(_partition_records_lead_metric_name(tp))
                self._partition_lag_sensors.pop(tp, None)
                self._partition_lead_sensors.pop(tp, None)
                self._metrics.remove_metric(self._preferred_read_replica_metric_name(tp))
        for tp in new_assigned_partitions:
            if tp not in self._assigned_partitions:
                metric_name = self._preferred_read_replica_metric_name(tp)
                if self._metrics.metric(metric_name) is None:
                    self._metrics.add_metric(metric_name, GaugeFn(_preferred_read_replica_gauge(subscription, tp)))
        self._assigned_partitions = new_assigned_partitions
        self._assignment_id = new_assignment_id

    def _preferred_read_replica_metric_name(self, tp: TopicPartition) -> MetricName:
        return self._name(self._registry.partition_preferred_read_replica, topic_partition_tags(tp))


def _preferred_read_replica_gauge(
    subscription: SubscriptionState, tp: TopicPartition
) -> Callable[[MetricConfig, int], int]:
    def value(config: MetricConfig, now: int) -> int:
        replica = subscription.preferred_read_replica(tp, 0)
        return -1 if replica is None else replica

    return value


def _partition_records_lag_metric_name(tp: TopicPartition) -> str:
    return f"{tp}.records-lag"


def _partition_records_lead_metric_name(tp: TopicPartition) -> str:
    return f"{tp}.records-lead"


def topic_tags(topic: str) -> dict[str, str]:
    """The tags of a topic's metrics: dots in the name become underscores, as Java's."""
    return {"topic": topic.replace(".", "_")}


def topic_partition_tags(tp: TopicPartition) -> dict[str, str]:
    return {"topic": tp.topic.replace(".", "_"), "partition": str(tp.partition)}
