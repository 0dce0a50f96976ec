"""Port of clients/src/main/java/org/apache/kafka/common/requests/MetadataResponse.java (Kafka 3.7).

Brokers, cluster id, controller id and per-topic partition metadata (leader, epoch, replicas, ISR,
offline replicas), with a per-topic and per-partition error. Clients read a response through its views:
`brokers()`, `brokers_by_id()`, `controller()`, `topic_metadata()` (MetadataResponse.TopicMetadata and
MetadataResponse.PartitionMetadata) and `build_cluster()`, computed once per response as Java's Holder is.
"""

from __future__ import annotations

import threading
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Self

from kafka.common.cluster import Cluster
from kafka.common.message import MetadataResponseData
from kafka.common.node import Node
from kafka.common.partition_info import PartitionInfo
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.protocol.types import ZERO_UUID, Uuid
from kafka.common.requests.abstract_response import AbstractResponse
from kafka.common.requests.request_utils import get_leader_epoch
from kafka.common.topic_partition import TopicPartition

__all__ = ["AUTHORIZED_OPERATIONS_OMITTED", "NO_CONTROLLER_ID", "NO_LEADER_ID", "MetadataResponse"]

NO_CONTROLLER_ID = -1
NO_LEADER_ID = -1
AUTHORIZED_OPERATIONS_OMITTED = -(2**31)

# Guards the lazy creation of each response's views (Java synchronizes on the response's data).
_holder_lock = threading.Lock()


class MetadataResponse(AbstractResponse):
    API_KEY = ApiKeys.METADATA
    CLIENT_THROTTLE_SINCE = 6

    @dataclass(frozen=True, slots=True)
    class PartitionMetadata:
        """One partition of a metadata response: its error, leader (None: no leader), leader epoch (None: not
        given) and replica id lists."""

        error: Errors
        topic_partition: TopicPartition
        leader_id: int | None
        leader_epoch: int | None
        replica_ids: tuple[int, ...] = ()
        in_sync_replica_ids: tuple[int, ...] = ()
        offline_replica_ids: tuple[int, ...] = ()

        @property
        def partition(self) -> int:
            return self.topic_partition.partition

        @property
        def topic(self) -> str:
            return self.topic_partition.topic

        def without_leader_epoch(self) -> MetadataResponse.PartitionMetadata:
            return MetadataResponse.PartitionMetadata(
                self.error,
                self.topic_partition,
                self.leader_id,
                None,
                self.replica_ids,
                self.in_sync_replica_ids,
                self.offline_replica_ids,
            )

        def __str__(self) -> str:
            def opt(v: int | None) -> str:
                return "Optional.empty" if v is None else f"Optional[{v}]"

            return (
                f"PartitionMetadata(error={self.error.name}, partition={self.topic_partition}, "
                f"leader={opt(self.leader_id)}, leaderEpoch={opt(self.leader_epoch)}, "
                f"replicas={','.join(map(str, self.replica_ids))}, "
                f"isr={','.join(map(str, self.in_sync_replica_ids))}, "
                f"offlineReplicas={','.join(map(str, self.offline_replica_ids))})"
            )

    @dataclass(slots=True)
    class TopicMetadata:
        """One topic of a metadata response."""

        error: Errors
        topic: str
        is_internal: bool
        partition_metadata: list[MetadataResponse.PartitionMetadata] = field(default_factory=list)
        topic_id: Uuid = ZERO_UUID
        authorized_operations: int = AUTHORIZED_OPERATIONS_OMITTED

        def __str__(self) -> str:
            return (
                f"TopicMetadata{{error={self.error.name}, topic='{self.topic}', topicId='{self.topic_id}', "
                f"isInternal={str(self.is_internal).lower()}, partitionMetadata={self.partition_metadata}, "
                f"authorizedOperations={self.authorized_operations}}}"
            )

    class _Holder:
        """The views of one response's data: brokers by id, the controller and the topics."""

        __slots__ = ("brokers", "controller", "topic_metadata")

        def __init__(self, data: Any) -> None:
            self.brokers: dict[int, Node] = {b.node_id: Node(b.node_id, b.host, b.port, b.rack) for b in data.brokers}
            self.topic_metadata: list[MetadataResponse.TopicMetadata] = [
                MetadataResponse._Holder._create_topic_metadata(t) for t in data.topics
            ]
            self.controller: Node | None = self.brokers.get(data.controller_id)

        @staticmethod
        def _create_topic_metadata(t: Any) -> MetadataResponse.TopicMetadata:
            partitions = []
            for p in t.partitions:
                leader_id = p.leader_id
                partitions.append(
                    MetadataResponse.PartitionMetadata(
                        Errors.for_code(p.error_code),
                        TopicPartition(t.name, p.partition_index),
                        None if leader_id < 0 else leader_id,
                        get_leader_epoch(p.leader_epoch),
                        tuple(p.replica_nodes),
                        tuple(p.isr_nodes),
                        tuple(p.offline_replicas),
                    )
                )
            return MetadataResponse.TopicMetadata(
                Errors.for_code(t.error_code),
                t.name,
                bool(t.is_internal),
                partitions,
                t.topic_id,
                int(t.topic_authorized_operations),
            )

    def __init__(self, data: Any, version: int | None = None, has_reliable_leader_epochs: bool | None = None) -> None:
        """Leader epochs are reliable from v9 (or as `has_reliable_leader_epochs` says)."""
        super().__init__(data)
        if has_reliable_leader_epochs is None:
            has_reliable_leader_epochs = version is not None and version >= 9
        self._has_reliable_leader_epochs = has_reliable_leader_epochs
        self._holder_views: MetadataResponse._Holder | None = None

    @classmethod
    def _from_data(cls, data: Any, version: int) -> Self:
        return cls(data, version)

    def errors(self) -> dict[str, Errors]:
        """The topics with an error, by name."""
        result = {}
        for topic in self._data.topics:
            if topic.name is None:
                raise RuntimeError("Use errors_by_topic_id() when managing topic using topic id")
            if topic.error_code != Errors.NONE.code:
                result[topic.name] = Errors.for_code(topic.error_code)
        return result

    def errors_by_topic_id(self) -> dict[Any, Errors]:
        result = {}
        for topic in self._data.topics:
            if topic.topic_id == ZERO_UUID:
                raise RuntimeError("Use errors() when managing topic using topic name")
            if topic.error_code != Errors.NONE.code:
                result[topic.topic_id] = Errors.for_code(topic.error_code)
        return result

    def error_counts(self) -> dict[Errors, int]:
        counts: dict[Errors, int] = {}
        for topic in self._data.topics:
            for partition in topic.partitions:
                self._update_error_counts(counts, Errors.for_code(partition.error_code))
            self._update_error_counts(counts, Errors.for_code(topic.error_code))
        return counts

    def topics_by_error(self, error: Errors) -> set[str]:
        return {t.name for t in self._data.topics if t.error_code == error.code}

    def build_cluster(self) -> Cluster:
        """The Cluster of this response: topics without an error, with their ids, and the unauthorized and
        invalid topics by their errors."""
        holder = self._holder()
        internal_topics: set[str] = set()
        partitions: list[PartitionInfo] = []
        topic_ids: dict[str, Uuid] = {}
        for metadata in holder.topic_metadata:
            if metadata.error is Errors.NONE:
                if metadata.is_internal:
                    internal_topics.add(metadata.topic)
                if metadata.topic_id is not None and metadata.topic_id != ZERO_UUID:
                    topic_ids[metadata.topic] = metadata.topic_id
                for pm in metadata.partition_metadata:
                    partitions.append(MetadataResponse.to_partition_info(pm, holder.brokers))
        return Cluster(
            self.cluster_id(),
            holder.brokers.values(),
            partitions,
            unauthorized_topics=self.topics_by_error(Errors.TOPIC_AUTHORIZATION_FAILED),
            internal_topics=internal_topics,
            controller=holder.controller,
            invalid_topics=self.topics_by_error(Errors.INVALID_TOPIC_EXCEPTION),
            topic_ids=topic_ids,
        )

    @staticmethod
    def to_partition_info(
        metadata: MetadataResponse.PartitionMetadata, nodes_by_id: Mapping[int, Node]
    ) -> PartitionInfo:
        """A PartitionInfo with nodes for ids; an id with no known node becomes Node(id, "", -1)."""
        leader = None if metadata.leader_id is None else nodes_by_id.get(metadata.leader_id)
        return PartitionInfo(
            metadata.topic,
            metadata.partition,
            leader,
            MetadataResponse._convert_to_nodes(metadata.replica_ids, nodes_by_id),
            MetadataResponse._convert_to_nodes(metadata.in_sync_replica_ids, nodes_by_id),
            MetadataResponse._convert_to_nodes(metadata.offline_replica_ids, nodes_by_id),
        )

    @staticmethod
    def _convert_to_nodes(replica_ids: Sequence[int], nodes_by_id: Mapping[int, Node]) -> list[Node]:
        return [nodes_by_id.get(replica_id) or Node(replica_id, "", -1) for replica_id in replica_ids]

    def topic_authorized_operations(self, topic_name: str) -> int | None:
        topic = self._data.topics.find(topic_name)
        return None if topic is None else int(topic.topic_authorized_operations)

    def cluster_authorized_operations(self) -> int:
        return int(self._data.cluster_authorized_operations)

    def _holder(self) -> MetadataResponse._Holder:
        holder = self._holder_views
        if holder is None:
            with _holder_lock:
                holder = self._holder_views
                if holder is None:
                    holder = self._holder_views = MetadataResponse._Holder(self._data)
        return holder

    def brokers(self) -> Collection[Node]:
        """Every broker of the response."""
        return self._holder().brokers.values()

    def brokers_by_id(self) -> Mapping[int, Node]:
        return self._holder().brokers

    def topic_metadata(self) -> list[MetadataResponse.TopicMetadata]:
        """Every topic of the response, as TopicMetadata."""
        return self._holder().topic_metadata

    def controller(self) -> Node | None:
        """The controller; None when the response names none, or one that is not among its brokers."""
        return self._holder().controller

    def cluster_id(self) -> str | None:
        return self._data.cluster_id

    def has_reliable_leader_epochs(self) -> bool:
        return self._has_reliable_leader_epochs

    @staticmethod
    def prepare_response(
        has_reliable_epoch: bool,
        throttle_time_ms: int,
        broker_nodes: Iterable[Node],
        cluster_id: str | None,
        controller_id: int,
        topics: Iterable[Any],
        cluster_authorized_operations: int = AUTHORIZED_OPERATIONS_OMITTED,
    ) -> MetadataResponse:
        """A response from nodes and MetadataResponseTopic entries (for tests and mocks).
        # PORT: Java's overload taking a version instead of `has_reliable_epoch` is prepare_response(version >= 9,
        ...)."""
        data = MetadataResponseData(throttle_time_ms=throttle_time_ms)
        for node in broker_nodes:
            data.brokers.append(
                MetadataResponseData.MetadataResponseBroker(
                    node_id=node.id, host=node.host, port=node.port, rack=node.rack
                )
            )
        data.cluster_id = cluster_id
        data.controller_id = controller_id
        data.cluster_authorized_operations = cluster_authorized_operations
        for topic in topics:
            data.topics.append(topic)
        return MetadataResponse(data, has_reliable_leader_epochs=has_reliable_epoch)
