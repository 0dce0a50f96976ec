"""Port of clients/src/test/java/org/apache/kafka/common/requests/RequestTestUtils.java (Kafka 3.7), the metadata
part: MetadataResponses for client unit tests (MockClient.prepare_metadata_update, Metadata.update).

# PORT: Java's many metadataUpdateWith overloads are one function with keyword arguments.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from kafka.common.internals.topic import Topic
from kafka.common.message import MetadataResponseData
from kafka.common.node import Node
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.protocol.types import ZERO_UUID, Uuid
from kafka.common.requests.metadata_response import AUTHORIZED_OPERATIONS_OMITTED, NO_LEADER_ID, MetadataResponse
from kafka.common.requests.request_utils import NO_PARTITION_LEADER_EPOCH
from kafka.common.topic_partition import TopicPartition

__all__ = ["metadata_response", "metadata_update_with", "metadata_update_with_ids"]

PartitionMetadata = MetadataResponse.PartitionMetadata
TopicMetadata = MetadataResponse.TopicMetadata


def metadata_response(
    brokers: Iterable[Node],
    cluster_id: str | None,
    controller_id: int,
    topic_metadata_list: Iterable[TopicMetadata],
    response_version: int | None = None,
    throttle_time_ms: int = 0,
    cluster_authorized_operations: int = AUTHORIZED_OPERATIONS_OMITTED,
) -> MetadataResponse:
    """A MetadataResponse of `response_version` (default: the latest) from TopicMetadata views."""
    version = ApiKeys.METADATA.latest_version() if response_version is None else response_version
    topics = []
    for tm in topic_metadata_list:
        topic = MetadataResponseData.MetadataResponseTopic(
            error_code=tm.error.code,
            name=tm.topic,
            topic_id=tm.topic_id,
            is_internal=tm.is_internal,
            topic_authorized_operations=tm.authorized_operations,
        )
        for pm in tm.partition_metadata:
            topic.partitions.append(
                MetadataResponseData.MetadataResponsePartition(
                    error_code=pm.error.code,
                    partition_index=pm.partition,
                    leader_id=NO_LEADER_ID if pm.leader_id is None else pm.leader_id,
                    leader_epoch=NO_PARTITION_LEADER_EPOCH if pm.leader_epoch is None else pm.leader_epoch,
                    replica_nodes=list(pm.replica_ids),
                    isr_nodes=list(pm.in_sync_replica_ids),
                    offline_replicas=list(pm.offline_replica_ids),
                )
            )
        topics.append(topic)
    return MetadataResponse.prepare_response(
        version >= 9, throttle_time_ms, brokers, cluster_id, controller_id, topics, cluster_authorized_operations
    )


def metadata_update_with(
    num_nodes: int,
    topic_partition_counts: Mapping[str, int],
    cluster_id: str = "kafka-cluster",
    topic_errors: Mapping[str, Errors] | None = None,
    epoch_supplier: Callable[[TopicPartition], int | None] = lambda tp: None,
    response_version: int | None = None,
    topic_ids: Mapping[str, Uuid] | None = None,
    leader_only: bool = True,
    partition_supplier: Callable[..., PartitionMetadata] = PartitionMetadata,
) -> MetadataResponse:
    """A response with nodes 0..num_nodes-1 on localhost:1969+i, each topic's partitions led round-robin by them
    (replicas: the leader only, or all nodes), and topics with errors and no partitions. `partition_supplier` makes
    each partition from (error, tp, leader id, leader epoch, replicas, isr, offline replicas)."""
    nodes = [Node(i, "localhost", 1969 + i) for i in range(num_nodes)]
    topic_metadata: list[TopicMetadata] = []
    for topic, num_partitions in topic_partition_counts.items():
        partitions = []
        for i in range(num_partitions):
            tp = TopicPartition(topic, i)
            leader = nodes[i % len(nodes)]
            replica_ids = (leader.id,) if leader_only else tuple(n.id for n in nodes)
            partitions.append(
                partition_supplier(Errors.NONE, tp, leader.id, epoch_supplier(tp), replica_ids, replica_ids, ())
            )
        topic_metadata.append(
            TopicMetadata(
                Errors.NONE,
                topic,
                Topic.is_internal(topic),
                partitions,
                (topic_ids or {}).get(topic, ZERO_UUID),
                AUTHORIZED_OPERATIONS_OMITTED,
            )
        )
    for topic, error in (topic_errors or {}).items():
        topic_metadata.append(TopicMetadata(error, topic, Topic.is_internal(topic), []))
    return metadata_response(nodes, cluster_id, 0, topic_metadata, response_version)


def metadata_update_with_ids(
    num_nodes: int,
    topic_partition_counts: Mapping[str, int],
    topic_ids: Mapping[str, Uuid],
    epoch_supplier: Callable[[TopicPartition], int | None] = lambda tp: None,
    cluster_id: str = "kafka-cluster",
    topic_errors: Mapping[str, Errors] | None = None,
) -> MetadataResponse:
    return metadata_update_with(
        num_nodes,
        topic_partition_counts,
        cluster_id=cluster_id,
        topic_errors=topic_errors,
        epoch_supplier=epoch_supplier,
        topic_ids=topic_ids,
    )
