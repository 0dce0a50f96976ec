"""Port of the client-side part of clients/src/main/java/org/apache/kafka/common/requests/MetadataResponse.java
(Kafka 3.7): its nested TopicMetadata and PartitionMetadata, and the accessors that read a response as brokers,
controller, topic metadata and Cluster (Java's Holder, buildCluster, toPartitionInfo, prepareResponse).

PORT: these live beside metadata_response.py rather than in it because that module belongs to the broker side
of this port; each function takes the MetadataResponse as its first argument where Java has an instance
method. The views are computed once per response and cached on it, as Java's Holder is.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from kafka.common.cluster import Cluster
from kafka.common.message import MetadataResponseData
from kafka.common.node import Node
from kafka.common.partition_info import PartitionInfo
from kafka.common.protocol.errors import Errors
from kafka.common.protocol.types import ZERO_UUID, Uuid
from kafka.common.requests.metadata_response import AUTHORIZED_OPERATIONS_OMITTED, MetadataResponse
from kafka.common.requests.request_utils import get_leader_epoch
from kafka.common.topic_partition import TopicPartition

__all__ = [
    "PartitionMetadata",
    "TopicMetadata",
    "brokers",
    "brokers_by_id",
    "build_cluster",
    "controller",
    "prepare_response",
    "to_partition_info",
    "topic_metadata",
]


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

    def without_leader_epoch(self) -> PartitionMetadata:
        return PartitionMetadata(
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
            f"replicas={','.join(map(str, self.replica_ids))}, isr={','.join(map(str, self.in_sync_replica_ids))}, "
            f"offlineReplicas={','.join(map(str, self.offline_replica_ids))})"
        )


@dataclass(slots=True)
class TopicMetadata:
    """One topic of a metadata response."""

    error: Errors
    topic: str
    is_internal: bool
    partition_metadata: list[PartitionMetadata] = field(default_factory=list)
    topic_id: Uuid = ZERO_UUID
    authorized_operations: int = AUTHORIZED_OPERATIONS_OMITTED

    def __str__(self) -> str:
        return (
            f"TopicMetadata{{error={self.error.name}, topic='{self.topic}', topicId='{self.topic_id}', "
            f"isInternal={str(self.is_internal).lower()}, partitionMetadata={self.partition_metadata}, "
            f"authorizedOperations={self.authorized_operations}}}"
        )


class _Holder:
    """The parsed views of one response (Java's MetadataResponse.Holder)."""

    __slots__ = ("brokers", "controller", "topic_metadata")

    def __init__(self, data: Any) -> None:
        self.brokers: dict[int, Node] = {b.node_id: Node(b.node_id, b.host, b.port, b.rack) for b in data.brokers}
        self.topic_metadata: list[TopicMetadata] = [_topic_metadata(t) for t in data.topics]
        self.controller: Node | None = self.brokers.get(data.controller_id)


def _topic_metadata(t: Any) -> TopicMetadata:
    partitions = []
    for p in t.partitions:
        leader_id = p.leader_id
        partitions.append(
            PartitionMetadata(
                Errors.for_code(p.error_code),
                TopicPartition(t.name, p.partition_index),
                None if leader_id < 0 else leader_id,
                get_leader_epoch(p.leader_epoch),
                tuple(p.replica_nodes),
                tuple(p.isr_nodes),
                tuple(p.offline_replicas),
            )
        )
    return TopicMetadata(
        Errors.for_code(t.error_code),
        t.name,
        bool(t.is_internal),
        partitions,
        t.topic_id,
        int(t.topic_authorized_operations),
    )


def _holder(response: MetadataResponse) -> _Holder:
    holder: _Holder | None = getattr(response, "_client_views", None)
    if holder is None:
        holder = _Holder(response.data)
        response._client_views = holder  # type: ignore[attr-defined]
    return holder


def brokers(response: MetadataResponse) -> Iterable[Node]:
    return _holder(response).brokers.values()


def brokers_by_id(response: MetadataResponse) -> Mapping[int, Node]:
    return _holder(response).brokers


def topic_metadata(response: MetadataResponse) -> list[TopicMetadata]:
    return _holder(response).topic_metadata


def controller(response: MetadataResponse) -> Node | None:
    return _holder(response).controller


def build_cluster(response: MetadataResponse) -> Cluster:
    """The Cluster of a response: topics without an error, with their ids, and the unauthorized and invalid
    topics by their errors."""
    holder = _holder(response)
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
                partitions.append(to_partition_info(pm, holder.brokers))
    return Cluster(
        response.cluster_id(),
        holder.brokers.values(),
        partitions,
        unauthorized_topics=response.topics_by_error(Errors.TOPIC_AUTHORIZATION_FAILED),
        internal_topics=internal_topics,
        controller=holder.controller,
        invalid_topics=response.topics_by_error(Errors.INVALID_TOPIC_EXCEPTION),
        topic_ids=topic_ids,
    )


def to_partition_info(metadata: PartitionMetadata, nodes_by_id: Mapping[int, Node]) -> PartitionInfo:
    """A PartitionInfo with nodes for ids; an id with no known node becomes Node(id, "", -1)."""
    leader = None if metadata.leader_id is None else nodes_by_id.get(metadata.leader_id)
    return PartitionInfo(
        metadata.topic,
        metadata.partition,
        leader,
        _convert_to_nodes(metadata.replica_ids, nodes_by_id),
        _convert_to_nodes(metadata.in_sync_replica_ids, nodes_by_id),
        _convert_to_nodes(metadata.offline_replica_ids, nodes_by_id),
    )


def _convert_to_nodes(replica_ids: Sequence[int], nodes_by_id: Mapping[int, Node]) -> list[Node]:
    return [nodes_by_id.get(replica_id) or Node(replica_id, "", -1) for replica_id in replica_ids]


def prepare_response(
    has_reliable_epoch: bool,
    throttle_time_ms: int,
    broker_nodes: Iterable[Node],
    cluster_id: str | None,
    controller_id: int,
    topics: Iterable[Any],
    cluster_authorized_operations: int = AUTHORIZED_OPERATIONS_OMITTED,
) -> MetadataResponse:
    """A response from nodes and MetadataResponseTopic entries (Java's prepareResponse, for tests and mocks).
    PORT: Java's overload taking a version instead of `has_reliable_epoch` is prepare_response(version >= 9, ...)."""
    data = MetadataResponseData(throttle_time_ms=throttle_time_ms)
    for node in broker_nodes:
        data.brokers.append(
            MetadataResponseData.MetadataResponseBroker(node_id=node.id, host=node.host, port=node.port, rack=node.rack)
        )
    data.cluster_id = cluster_id
    data.controller_id = controller_id
    data.cluster_authorized_operations = cluster_authorized_operations
    for topic in topics:
        data.topics.append(topic)
    return MetadataResponse(data, has_reliable_leader_epochs=has_reliable_epoch)
