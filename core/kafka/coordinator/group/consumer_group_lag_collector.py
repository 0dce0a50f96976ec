"""Consumer-group lag as the broker sees it, exported with kafka_exporter's metric names (issue 16).

# PORT: Kafka 2.8 has no such metric: operators run kafka_exporter (github.com/danielqsj/kafka_exporter), which asks
# the coordinators for the committed offsets and the leaders for the end offsets. Here each broker exports, for the
# groups it coordinates, what kafka_exporter would for them, under the same names and labels, so that dashboards
# built on kafka_exporter work unchanged:
#   kafka_consumergroup_current_offset{consumergroup,topic,partition}   the committed offset
#   kafka_consumergroup_current_offset_sum{consumergroup,topic}
#   kafka_consumergroup_lag{consumergroup,topic,partition}              end offset - committed offset
#   kafka_consumergroup_lag_sum{consumergroup,topic}
#   kafka_consumergroup_members{consumergroup}
# The end offset is the high watermark (what a read_uncommitted consumer, kafka-consumer-groups.sh and
# kafka_exporter see) of this broker's replica of the partition: exact where it leads the partition, the leader's
# high watermark as of the last fetch where it follows it. A committed partition this broker holds no replica of
# has no end offset here, so its lag is not exported (its current offset is).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from prometheus_client.metrics_core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

if TYPE_CHECKING:
    from kafka.common.topic_partition import TopicPartition
    from kafka.coordinator.group.group_coordinator import GroupCoordinator
    from kafka.server.replica_manager import ReplicaManager

__all__ = ["ConsumerGroupLagCollector"]


class ConsumerGroupLagCollector(Collector):
    """A prometheus_client collector over the groups of a GroupCoordinator; computed at each scrape."""

    def __init__(self, group_coordinator: GroupCoordinator, replica_manager: ReplicaManager) -> None:
        self._group_coordinator = group_coordinator
        self._replica_manager = replica_manager

    def _end_offset(self, topic_partition: TopicPartition) -> int | None:
        partition = self._replica_manager.online_partition(topic_partition)
        log = None if partition is None else partition.log
        return None if log is None else log.high_watermark

    def collect(self) -> Iterable[Metric]:
        current = GaugeMetricFamily(
            "kafka_consumergroup_current_offset",
            "Current Offset of a ConsumerGroup at Topic/Partition",
            labels=["consumergroup", "topic", "partition"],
        )
        current_sum = GaugeMetricFamily(
            "kafka_consumergroup_current_offset_sum",
            "Current Offset of a ConsumerGroup at Topic for all partitions",
            labels=["consumergroup", "topic"],
        )
        lag = GaugeMetricFamily(
            "kafka_consumergroup_lag",
            "Current Approximate Lag of a ConsumerGroup at Topic/Partition",
            labels=["consumergroup", "topic", "partition"],
        )
        lag_sum = GaugeMetricFamily(
            "kafka_consumergroup_lag_sum",
            "Current Approximate Lag of a ConsumerGroup at Topic for all partitions",
            labels=["consumergroup", "topic"],
        )
        members = GaugeMetricFamily(
            "kafka_consumergroup_members", "Amount of members in a consumer group", labels=["consumergroup"]
        )
        for group in self._group_coordinator.group_manager.current_groups:
            with group.lock:
                group_id = group.group_id
                offsets = group.all_offsets
                num_members = group.size
            if not offsets and num_members == 0:
                continue
            members.add_metric([group_id], num_members)
            offset_sums: dict[str, int] = {}
            lag_sums: dict[str, int] = {}
            for tp in sorted(offsets, key=lambda t: (t.topic, t.partition)):
                committed = offsets[tp].offset
                if committed < 0:
                    continue
                labels = [group_id, tp.topic, str(tp.partition)]
                current.add_metric(labels, committed)
                offset_sums[tp.topic] = offset_sums.get(tp.topic, 0) + committed
                end_offset = self._end_offset(tp)
                if end_offset is not None:
                    partition_lag = end_offset - committed
                    lag.add_metric(labels, partition_lag)
                    lag_sums[tp.topic] = lag_sums.get(tp.topic, 0) + partition_lag
            for topic, total in offset_sums.items():
                current_sum.add_metric([group_id, topic], total)
            for topic, total in lag_sums.items():
                lag_sum.add_metric([group_id, topic], total)
        return [current, current_sum, lag, lag_sum, members]
