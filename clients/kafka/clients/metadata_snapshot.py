"""Port of clients/src/main/java/org/apache/kafka/clients/MetadataSnapshot.java (Kafka 3.7).

One immutable state of a client's metadata: the nodes, the PartitionMetadata of each partition (with
leader epochs), the topic sets and ids, and the Cluster view built from them. Metadata swaps in a new
snapshot on every update; readers use whichever snapshot they picked up.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from types import MappingProxyType

from kafka.common.cluster import Cluster
from kafka.common.cluster_resource import ClusterResource
from kafka.common.node import Node
from kafka.common.protocol.types import Uuid
from kafka.common.requests.metadata_response import MetadataResponse
from kafka.common.topic_partition import TopicPartition

__all__ = ["MetadataSnapshot"]


class MetadataSnapshot:
    __slots__ = (
        "_cluster_id",
        "_nodes",
        "_unauthorized_topics",
        "_invalid_topics",
        "_internal_topics",
        "_controller",
        "_metadata_by_partition",
        "_topic_ids",
        "_topic_names",
        "_cluster_instance",
    )

    def __init__(
        self,
        cluster_id: str | None,
        nodes: Mapping[int, Node],
        partitions: Iterable[MetadataResponse.PartitionMetadata],
        unauthorized_topics: Iterable[str],
        invalid_topics: Iterable[str],
        internal_topics: Iterable[str],
        controller: Node | None,
        topic_ids: Mapping[str, Uuid],
        cluster_instance: Cluster | None = None,
    ) -> None:
        self._cluster_id = cluster_id
        self._nodes: Mapping[int, Node] = MappingProxyType(dict(nodes))
        self._unauthorized_topics = frozenset(unauthorized_topics)
        self._invalid_topics = frozenset(invalid_topics)
        self._internal_topics = frozenset(internal_topics)
        self._controller = controller
        self._topic_ids: Mapping[str, Uuid] = MappingProxyType(dict(topic_ids))
        self._topic_names: Mapping[Uuid, str] = MappingProxyType({v: k for k, v in topic_ids.items()})
        self._metadata_by_partition: dict[TopicPartition, MetadataResponse.PartitionMetadata] = {
            p.topic_partition: p for p in partitions
        }
        self._cluster_instance = cluster_instance if cluster_instance is not None else self._compute_cluster_view()

    def partition_metadata(self, topic_partition: TopicPartition) -> MetadataResponse.PartitionMetadata | None:
        return self._metadata_by_partition.get(topic_partition)

    def topic_ids(self) -> Mapping[str, Uuid]:
        return self._topic_ids

    def topic_names(self) -> Mapping[Uuid, str]:
        return self._topic_names

    def node_by_id(self, id: int) -> Node | None:
        return self._nodes.get(id)

    def cluster(self) -> Cluster:
        return self._cluster_instance

    def leader_epoch_for(self, tp: TopicPartition) -> int | None:
        """The leader epoch of `tp` in this snapshot, None when unknown."""
        metadata = self._metadata_by_partition.get(tp)
        return None if metadata is None else metadata.leader_epoch

    def cluster_resource(self) -> ClusterResource:
        return ClusterResource(self._cluster_id)

    def merge_with(
        self,
        new_cluster_id: str | None,
        new_nodes: Mapping[int, Node],
        add_partitions: Iterable[MetadataResponse.PartitionMetadata],
        add_unauthorized_topics: Iterable[str],
        add_invalid_topics: Iterable[str],
        add_internal_topics: Iterable[str],
        new_controller: Node | None,
        add_topic_ids: Mapping[str, Uuid],
        retain_topic: Callable[[str, bool], bool],
    ) -> MetadataSnapshot:
        """A snapshot of a partial update: the given partitions and topic ids replace those of their topics,
        and of the rest only the topics `retain_topic(topic, is_internal)` keeps remain."""

        def should_retain_topic(topic: str) -> bool:
            return retain_topic(topic, topic in self._internal_topics)

        # Start from the ids of retained topics; a topic in the update takes its new id, or loses its id when
        # the update has none for it.
        new_topic_ids = {t: i for t, i in self._topic_ids.items() if should_retain_topic(t)}
        new_metadata_by_partition: dict[TopicPartition, MetadataResponse.PartitionMetadata] = {}
        for partition in add_partitions:
            new_metadata_by_partition[partition.topic_partition] = partition
            topic_id = add_topic_ids.get(partition.topic)
            if topic_id is not None:
                new_topic_ids[partition.topic] = topic_id
            else:
                new_topic_ids.pop(partition.topic, None)
        for tp, metadata in self._metadata_by_partition.items():
            if should_retain_topic(tp.topic):
                new_metadata_by_partition.setdefault(tp, metadata)

        def fill(base: Iterable[str], old: Iterable[str]) -> set[str]:
            result = set(base)
            result.update(t for t in old if should_retain_topic(t))
            return result

        return MetadataSnapshot(
            new_cluster_id,
            new_nodes,
            new_metadata_by_partition.values(),
            fill(add_unauthorized_topics, self._unauthorized_topics),
            fill(add_invalid_topics, self._invalid_topics),
            fill(add_internal_topics, self._internal_topics),
            new_controller,
            new_topic_ids,
        )

    def _compute_cluster_view(self) -> Cluster:
        partition_infos = [
            MetadataResponse.to_partition_info(m, self._nodes) for m in self._metadata_by_partition.values()
        ]
        return Cluster(
            self._cluster_id,
            self._nodes.values(),
            partition_infos,
            unauthorized_topics=self._unauthorized_topics,
            internal_topics=self._internal_topics,
            controller=self._controller,
            invalid_topics=self._invalid_topics,
            topic_ids=self._topic_ids,
        )

    @classmethod
    def bootstrap(cls, addresses: Iterable[tuple[str, int]]) -> MetadataSnapshot:
        """The snapshot before the first metadata response: the bootstrap servers as nodes -1, -2, ..."""
        address_list = list(addresses)
        nodes = {-1 - i: Node(-1 - i, host, port) for i, (host, port) in enumerate(address_list)}
        return cls(None, nodes, [], (), (), (), None, {}, Cluster.bootstrap(address_list))

    @classmethod
    def empty(cls) -> MetadataSnapshot:
        return cls(None, {}, [], (), (), (), None, {}, Cluster.empty())

    def __str__(self) -> str:
        nodes = "{" + ", ".join(f"{k}={v}" for k, v in self._nodes.items()) + "}"
        partitions = "[" + ", ".join(str(p) for p in self._metadata_by_partition.values()) + "]"
        return (
            f"MetadataSnapshot{{clusterId='{self._cluster_id}', nodes={nodes}, partitions={partitions}, "
            f"controller={self._controller}}}"
        )

    __repr__ = __str__
