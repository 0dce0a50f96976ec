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
# kafka_exporter see): read from this broker's log where it leads the partition, else asked of the leader with a
# consumer's ListOffsets (latest, read_uncommitted) over the inter-broker listener, one request per leader per
# scrape. A partition whose leader is unknown or does not answer has no lag this scrape (its current offset is
# exported).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from prometheus_client.metrics_core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from kafka.cluster.broker import BrokerEndPoint
from kafka.common.isolation_level import IsolationLevel
from kafka.common.message import ListOffsetsRequestData
from kafka.common.protocol.errors import Errors
from kafka.common.requests.list_offsets_request import CONSUMER_REPLICA_ID, LATEST_TIMESTAMP
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.log_context import LogContext
from kafka.common.utils.time import Time

if TYPE_CHECKING:
    from kafka.coordinator.group.group_coordinator import GroupCoordinator
    from kafka.server.kafka_config import KafkaConfig
    from kafka.server.replica_fetcher_blocking_send import ReplicaFetcherBlockingSend
    from kafka.server.replica_manager import ReplicaManager

log = logging.getLogger("kafka.coordinator.group.ConsumerGroupLagCollector")

_CLIENT_ID = "consumer-group-lag"

__all__ = ["ConsumerGroupLagCollector"]


class ConsumerGroupLagCollector(Collector):
    """A prometheus_client collector over the groups of a GroupCoordinator; computed at each scrape."""

    def __init__(
        self,
        group_coordinator: GroupCoordinator,
        replica_manager: ReplicaManager,
        config: KafkaConfig | None = None,
        time: Time = Time.SYSTEM,
    ) -> None:
        """Without `config` only the partitions this broker leads have an end offset (for tests)."""
        self._group_coordinator = group_coordinator
        self._replica_manager = replica_manager
        self._config = config
        self._time = time
        # One blocking connection per leader broker, made at its first use; scrapes run one at a time.
        self._senders: dict[int, tuple[BrokerEndPoint, ReplicaFetcherBlockingSend]] = {}
        self._lock = threading.Lock()
        self._closed = False

    def _local_end_offset(self, topic_partition: TopicPartition) -> int | None:
        partition = self._replica_manager.online_partition(topic_partition)
        leader_log = None if partition is None else partition.leader_log_if_local
        return None if leader_log is None else leader_log.high_watermark

    def _end_offsets(self, partitions: Iterable[TopicPartition]) -> dict[TopicPartition, int]:
        """The high watermark of each partition that this broker leads or whose leader answers."""
        result: dict[TopicPartition, int] = {}
        by_leader: dict[int, tuple[BrokerEndPoint, list[TopicPartition]]] = {}
        config = self._config
        for tp in partitions:
            local = self._local_end_offset(tp)
            if local is not None:
                result[tp] = local
                continue
            if config is None:
                continue
            node = self._replica_manager.metadata_cache.get_partition_leader_endpoint(
                tp.topic, tp.partition, config.inter_broker_listener_name
            )
            if node is None or node.is_empty() or node.host is None or node.id == config.broker_id:
                continue
            by_leader.setdefault(node.id, (BrokerEndPoint(node.id, node.host, node.port), []))[1].append(tp)
        for leader_id, (end_point, leader_partitions) in by_leader.items():
            try:
                result.update(self._list_latest_offsets(leader_id, end_point, leader_partitions))
            except Exception as e:  # a leader that is gone or slow: no lag for its partitions this time
                log.debug("Could not list the end offsets of %s from broker %d: %s", leader_partitions, leader_id, e)
        return result

    def _list_latest_offsets(
        self, leader_id: int, end_point: BrokerEndPoint, partitions: list[TopicPartition]
    ) -> dict[TopicPartition, int]:
        from kafka.clients.admin.internals.request_builders import ListOffsetsRequestBuilder
        from kafka.server.replica_fetcher_blocking_send import ReplicaFetcherBlockingSend
        from kafka.server.replica_fetcher_thread import list_offset_request_version

        config = self._config
        assert config is not None
        with self._lock:
            if self._closed:
                return {}
            known = self._senders.get(leader_id)
            if known is not None and known[0] == end_point:
                sender = known[1]
            else:
                if known is not None:  # the broker moved: a new connection to its new address
                    known[1].close()
                sender = ReplicaFetcherBlockingSend(
                    end_point,
                    config,
                    None,
                    self._time,
                    0,
                    _CLIENT_ID,
                    LogContext(f"[ConsumerGroupLagCollector broker={config.broker_id}] "),
                )
                self._senders[leader_id] = (end_point, sender)
            topics: dict[str, Any] = {}
            for tp in partitions:
                topic = topics.setdefault(
                    tp.topic, ListOffsetsRequestData.ListOffsetsTopic(name=tp.topic, partitions=[])
                )
                topic.partitions.append(
                    ListOffsetsRequestData.ListOffsetsPartition(
                        partition_index=tp.partition, timestamp=LATEST_TIMESTAMP
                    )
                )
            version = list_offset_request_version(config.inter_broker_protocol_version)
            builder = ListOffsetsRequestBuilder(
                version, version, CONSUMER_REPLICA_ID, IsolationLevel.READ_UNCOMMITTED
            ).set_target_times(list(topics.values()))
            response: Any = sender.send_request(builder).response_body
        offsets: dict[TopicPartition, int] = {}
        for topic_response in response.data.topics:
            for p in topic_response.partitions:
                if Errors.for_code(p.error_code) is not Errors.NONE:
                    continue
                offset = p.offset if version >= 1 else (p.old_style_offsets[0] if p.old_style_offsets else -1)
                if offset >= 0:
                    offsets[TopicPartition(topic_response.name, p.partition_index)] = int(offset)
        return offsets

    def close(self) -> None:
        """Closes the connections to the other brokers."""
        with self._lock:
            self._closed = True
            senders = [sender for _, sender in self._senders.values()]
            self._senders.clear()
        for sender in senders:
            sender.initiate_close()
            sender.close()

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
        groups = []
        for group in self._group_coordinator.group_manager.current_groups:
            with group.lock:
                group_id = group.group_id
                offsets = group.all_offsets
                num_members = group.size
            if offsets or num_members:
                groups.append((group_id, offsets, num_members))
        end_offsets = self._end_offsets({tp for _, offsets, _ in groups for tp in offsets})
        for group_id, offsets, num_members in groups:
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
                end_offset = end_offsets.get(tp)
                if end_offset is not None:
                    partition_lag = end_offset - committed
                    lag.add_metric(labels, partition_lag)
                    lag_sums[tp.topic] = lag_sums.get(tp.topic, 0) + partition_lag
            for topic, total in offset_sums.items():
                current_sum.add_metric([group_id, topic], total)
            for topic, total in lag_sums.items():
                lag_sum.add_metric([group_id, topic], total)
        return [current, current_sum, lag, lag_sum, members]
