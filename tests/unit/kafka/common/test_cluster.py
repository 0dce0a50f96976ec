"""Tests of kafka.common.cluster, node and partition_info (from Kafka's ClusterTest and PartitionInfoTest)."""

from __future__ import annotations

from kafka.common.cluster import Cluster
from kafka.common.node import Node
from kafka.common.partition_info import PartitionInfo
from kafka.common.protocol.types import ZERO_UUID, Uuid
from kafka.common.topic_partition import TopicPartition

NODES = [Node(0, "localhost", 99), Node(1, "localhost", 100), Node(2, "localhost", 101), Node(11, "localhost", 102)]
TOPIC_A, TOPIC_B, TOPIC_C, TOPIC_D, TOPIC_E = "topicA", "topicB", "topicC", "topicD", "topicE"


def test_bootstrap() -> None:
    """The bootstrap cluster numbers the given addresses -1, -2, ..."""
    cluster = Cluster.bootstrap([("localhost", 9092), ("127.0.0.1", 9093)])
    assert cluster.is_bootstrap_configured
    assert sorted(cluster.nodes, key=lambda n: -n.id) == [Node(-1, "localhost", 9092), Node(-2, "127.0.0.1", 9093)]
    assert cluster.cluster_resource.cluster_id is None


def test_partitions_by_topic_node_and_availability() -> None:
    """Partitions are indexed by topic, by leader node and by having a leader."""
    partitions = [
        PartitionInfo(TOPIC_A, 0, NODES[0], NODES, NODES),
        PartitionInfo(TOPIC_A, 1, None, NODES, NODES),
        PartitionInfo(TOPIC_A, 2, NODES[2], NODES, NODES),
        PartitionInfo(TOPIC_B, 0, None, NODES, NODES),
        PartitionInfo(TOPIC_B, 1, NODES[0], NODES, NODES),
        PartitionInfo(TOPIC_C, 0, NODES[0], NODES, NODES),
        PartitionInfo(TOPIC_D, 0, NODES[1], NODES, NODES),
        PartitionInfo(TOPIC_E, 0, NODES[0], NODES, NODES),
    ]
    topic_ids = {TOPIC_A: Uuid.random_uuid()}
    cluster = Cluster("clusterId", NODES, partitions, {"unauth"}, {"__consumer_offsets"}, NODES[1], {"bad"}, topic_ids)
    assert [p.partition for p in cluster.partitions_for_topic(TOPIC_A)] == [0, 1, 2]
    assert [p.partition for p in cluster.available_partitions_for_topic(TOPIC_A)] == [0, 2]
    assert [p.partition for p in cluster.available_partitions_for_topic(TOPIC_C)] == [0]
    assert cluster.partition_count_for_topic(TOPIC_B) == 2 and cluster.partition_count_for_topic("nope") is None
    assert len(cluster.partitions_for_node(0)) == 4 and len(cluster.partitions_for_node(11)) == 0
    assert cluster.leader_for(TopicPartition(TOPIC_A, 1)) is None
    assert cluster.leader_for(TopicPartition(TOPIC_D, 0)) == NODES[1]
    assert cluster.node_by_id(11) == NODES[3] and cluster.node_by_id(5) is None
    assert cluster.controller == NODES[1]
    assert cluster.unauthorized_topics == {"unauth"} and cluster.invalid_topics == {"bad"}
    assert cluster.internal_topics == {"__consumer_offsets"}
    assert set(cluster.topics) == {TOPIC_A, TOPIC_B, TOPIC_C, TOPIC_D, TOPIC_E}
    assert cluster.topic_id(TOPIC_A) == topic_ids[TOPIC_A] and cluster.topic_id(TOPIC_B) == ZERO_UUID
    assert cluster.topic_name(topic_ids[TOPIC_A]) == TOPIC_A
    assert set(cluster.nodes) == set(NODES)


def test_with_partitions_and_equality() -> None:
    """with_partitions adds partitions; equal content makes equal clusters whatever the node order."""
    base = Cluster("c", NODES, [PartitionInfo(TOPIC_A, 0, NODES[0])])
    more = base.with_partitions({TopicPartition(TOPIC_B, 0): PartitionInfo(TOPIC_B, 0, NODES[1])})
    assert set(more.topics) == {TOPIC_A, TOPIC_B} and set(base.topics) == {TOPIC_A}
    assert Cluster("c", NODES, []) == Cluster("c", list(reversed(NODES)), [])
    assert Cluster("c", NODES, []) != Cluster("d", NODES, [])
    assert Cluster.empty() == Cluster(None, [], [])


def test_partition_info_to_string() -> None:
    """PartitionInfo prints node ids as Java does (PartitionInfoTest)."""
    leader = Node(0, "localhost", 9092)
    replicas = [Node(0, "localhost", 9092), Node(1, "localhost", 9093)]
    info = PartitionInfo("sample", 0, leader, replicas, replicas[:1], replicas[1:])
    assert str(info) == (
        "Partition(topic = sample, partition = 0, leader = 0, replicas = [0,1], isr = [0], offlineReplicas = [1])"
    )
    assert str(PartitionInfo("t", 1, None)) == (
        "Partition(topic = t, partition = 1, leader = none, replicas = [], isr = [], offlineReplicas = [])"
    )


def test_node() -> None:
    """Node equality covers every field; no_node is empty; str is Java's."""
    assert Node(1, "h", 2, "r") != Node(1, "h", 2)
    assert Node.no_node().is_empty() and not Node(1, "h", 2).is_empty()
    assert str(Node(1, "h", 2)) == "h:2 (id: 1 rack: null)" and Node(3, "h", 2).id_string == "3"
