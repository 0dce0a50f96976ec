"""Port of clients/src/main/java/org/apache/kafka/common/Cluster.java (Kafka 3.7).

An immutable view of a cluster as a client last saw it: the brokers, the partitions with their leaders,
the controller, topic ids, and the topics that were unauthorized, invalid or internal. Built from a
metadata response (MetadataSnapshot.cluster()) or from the bootstrap addresses.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Iterable, Mapping
from types import MappingProxyType

from kafka.common.cluster_resource import ClusterResource
from kafka.common.node import Node
from kafka.common.partition_info import PartitionInfo
from kafka.common.protocol.types import ZERO_UUID, Uuid
from kafka.common.topic_partition import TopicPartition

__all__ = ["Cluster"]


class Cluster:
    """Nodes, partitions and topic sets, indexed for the lookups the producer and consumer make."""

    __slots__ = (
        "_is_bootstrap_configured",
        "_nodes",
        "_unauthorized_topics",
        "_invalid_topics",
        "_internal_topics",
        "_controller",
        "_partitions_by_topic_partition",
        "_partitions_by_topic",
        "_available_partitions_by_topic",
        "_partitions_by_node",
        "_nodes_by_id",
        "_cluster_resource",
        "_topic_ids",
        "_topic_names",
    )

    def __init__(
        self,
        cluster_id: str | None,
        nodes: Iterable[Node],
        partitions: Iterable[PartitionInfo],
        unauthorized_topics: Iterable[str] = (),
        internal_topics: Iterable[str] = (),
        controller: Node | None = None,
        invalid_topics: Iterable[str] = (),
        topic_ids: Mapping[str, Uuid] | None = None,
        is_bootstrap_configured: bool = False,
    ) -> None:
        """# PORT: Java's constructor overloads become keyword arguments; `invalid_topics` comes after `controller`
        because most callers omit it."""
        self._is_bootstrap_configured = is_bootstrap_configured
        self._cluster_resource = ClusterResource(cluster_id)
        node_list = list(nodes)
        # Callers iterate over the nodes to spread load: keep them in a random order, as Java does.
        shuffled = list(node_list)
        random.shuffle(shuffled)
        self._nodes: tuple[Node, ...] = tuple(shuffled)

        nodes_by_id: dict[int, Node] = {}
        partitions_by_node: dict[int, list[PartitionInfo]] = {}
        for node in node_list:
            nodes_by_id[node.id] = node
            partitions_by_node[node.id] = []
        self._nodes_by_id = nodes_by_id

        by_tp: dict[TopicPartition, PartitionInfo] = {}
        by_topic: dict[str, list[PartitionInfo]] = {}
        for p in partitions:
            by_tp[TopicPartition(p.topic, p.partition)] = p
            by_topic.setdefault(p.topic, []).append(p)
            if p.leader is None or p.leader.is_empty():
                continue
            # A known leader must be one of the nodes.
            partitions_by_node[p.leader.id].append(p)

        self._partitions_by_node: dict[int, tuple[PartitionInfo, ...]] = {
            node_id: tuple(ps) for node_id, ps in partitions_by_node.items()
        }
        self._partitions_by_topic: dict[str, tuple[PartitionInfo, ...]] = {}
        self._available_partitions_by_topic: dict[str, tuple[PartitionInfo, ...]] = {}
        for topic, ps in by_topic.items():
            all_ps = tuple(ps)
            self._partitions_by_topic[topic] = all_ps
            if any(p.leader is None for p in all_ps):
                self._available_partitions_by_topic[topic] = tuple(p for p in all_ps if p.leader is not None)
            else:
                self._available_partitions_by_topic[topic] = all_ps
        self._partitions_by_topic_partition = by_tp

        ids = dict(topic_ids or {})
        self._topic_ids: Mapping[str, Uuid] = MappingProxyType(ids)
        self._topic_names: dict[Uuid, str] = {v: k for k, v in ids.items()}
        self._unauthorized_topics = frozenset(unauthorized_topics)
        self._invalid_topics = frozenset(invalid_topics)
        self._internal_topics = frozenset(internal_topics)
        self._controller = controller

    @classmethod
    def empty(cls) -> Cluster:
        """A cluster with no nodes and no partitions."""
        return cls(None, [], [])

    @classmethod
    def bootstrap(cls, addresses: Iterable[tuple[str, int]]) -> Cluster:
        """The cluster of the bootstrap servers, as (host, port) pairs, numbered -1, -2, ..."""
        nodes = [Node(-1 - i, host, port) for i, (host, port) in enumerate(addresses)]
        return cls(None, nodes, [], is_bootstrap_configured=True)

    def with_partitions(self, partitions: Mapping[TopicPartition, PartitionInfo]) -> Cluster:
        """A copy with `partitions` added (replacing those of the same topic partition)."""
        combined = dict(self._partitions_by_topic_partition)
        combined.update(partitions)
        return Cluster(
            self._cluster_resource.cluster_id,
            self._nodes,
            combined.values(),
            self._unauthorized_topics,
            self._internal_topics,
            self._controller,
            self._invalid_topics,
        )

    @property
    def nodes(self) -> tuple[Node, ...]:
        """The brokers, in random order."""
        return self._nodes

    def node_by_id(self, id: int) -> Node | None:
        return self._nodes_by_id.get(id)

    def node_if_online(self, partition: TopicPartition, id: int) -> Node | None:
        """The node `id` if it is a replica of `partition` and not offline for it, else None."""
        node = self.node_by_id(id)
        info = self.partition(partition)
        if node is not None and info is not None and node not in info.offline_replicas and node in info.replicas:
            return node
        return None

    def leader_for(self, topic_partition: TopicPartition) -> Node | None:
        info = self._partitions_by_topic_partition.get(topic_partition)
        return None if info is None else info.leader

    def partition(self, topic_partition: TopicPartition) -> PartitionInfo | None:
        return self._partitions_by_topic_partition.get(topic_partition)

    def partitions_for_topic(self, topic: str) -> tuple[PartitionInfo, ...]:
        return self._partitions_by_topic.get(topic, ())

    def partition_count_for_topic(self, topic: str) -> int | None:
        partitions = self._partitions_by_topic.get(topic)
        return None if partitions is None else len(partitions)

    def available_partitions_for_topic(self, topic: str) -> tuple[PartitionInfo, ...]:
        """The partitions of `topic` that have a leader."""
        return self._available_partitions_by_topic.get(topic, ())

    def partitions_for_node(self, node_id: int) -> tuple[PartitionInfo, ...]:
        """The partitions whose leader is `node_id`."""
        return self._partitions_by_node.get(node_id, ())

    @property
    def topics(self) -> Collection[str]:
        return self._partitions_by_topic.keys()

    @property
    def unauthorized_topics(self) -> frozenset[str]:
        return self._unauthorized_topics

    @property
    def invalid_topics(self) -> frozenset[str]:
        return self._invalid_topics

    @property
    def internal_topics(self) -> frozenset[str]:
        return self._internal_topics

    @property
    def is_bootstrap_configured(self) -> bool:
        return self._is_bootstrap_configured

    @property
    def cluster_resource(self) -> ClusterResource:
        return self._cluster_resource

    @property
    def controller(self) -> Node | None:
        return self._controller

    @property
    def topic_ids(self) -> Collection[Uuid]:
        return self._topic_ids.values()

    def topic_id(self, topic: str) -> Uuid:
        """The id of `topic`, ZERO_UUID when unknown."""
        return self._topic_ids.get(topic, ZERO_UUID)

    def topic_name(self, topic_id: Uuid) -> str | None:
        return self._topic_names.get(topic_id)

    def __str__(self) -> str:
        nodes = "[" + ", ".join(str(n) for n in self._nodes) + "]"
        partitions = "[" + ", ".join(str(p) for p in self._partitions_by_topic_partition.values()) + "]"
        return (
            f"Cluster(id = {self._cluster_resource.cluster_id}, nodes = {nodes}, partitions = {partitions}, "
            f"controller = {self._controller})"
        )

    __repr__ = __str__

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, Cluster):
            return NotImplemented
        # PORT: Java compares the shuffled node lists in order; comparing them as sets keeps equal clusters
        # equal whatever order the shuffle chose.
        return (
            self._is_bootstrap_configured == other._is_bootstrap_configured
            and set(self._nodes) == set(other._nodes)
            and self._unauthorized_topics == other._unauthorized_topics
            and self._invalid_topics == other._invalid_topics
            and self._internal_topics == other._internal_topics
            and self._controller == other._controller
            and self._partitions_by_topic_partition == other._partitions_by_topic_partition
            and self._cluster_resource == other._cluster_resource
        )

    def __hash__(self) -> int:
        return hash((self._is_bootstrap_configured, frozenset(self._nodes), self._cluster_resource, self._controller))
