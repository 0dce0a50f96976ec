"""Tests of RoundRobinPartitioner and UniformStickyPartitioner, after clients/src/test/java/org/apache/kafka/clients/
producer/RoundRobinPartitionerTest.java and UniformStickyPartitionerTest.java (Kafka 3.7)."""

from __future__ import annotations

from collections import Counter

from kafka.clients.producer.round_robin_partitioner import RoundRobinPartitioner
from kafka.clients.producer.uniform_sticky_partitioner import UniformStickyPartitioner
from kafka.common.cluster import Cluster
from kafka.common.node import Node
from kafka.common.partition_info import PartitionInfo

NODES = [Node(0, "localhost", 99), Node(1, "localhost", 100), Node(2, "localhost", 101)]


def test_round_robin_with_unavailable_partitions() -> None:
    """Only partitions with a leader get records, in turn."""
    partitions = [
        PartitionInfo("test", 1, None, NODES, NODES),
        PartitionInfo("test", 2, NODES[1], NODES, NODES),
        PartitionInfo("test", 0, NODES[0], NODES, NODES),
    ]
    cluster = Cluster("clusterId", NODES, partitions)
    partitioner = RoundRobinPartitioner()
    counts: Counter[int] = Counter()
    for _ in range(100):
        partition = partitioner.partition("test", None, None, None, None, cluster)
        assert partition in (0, 2)
        counts[partition] += 1
    assert counts == Counter({0: 50, 2: 50})


def test_round_robin_ignores_keys_and_counts_per_topic() -> None:
    """Keys do not matter; each topic has its own counter."""
    all_partitions = [PartitionInfo("topicA", i, NODES[i], NODES, NODES) for i in range(3)] + [
        PartitionInfo("topicB", i, NODES[i], NODES, NODES) for i in range(2)
    ]
    cluster = Cluster("clusterId", NODES, all_partitions)
    partitioner = RoundRobinPartitioner()
    counts: Counter[tuple[str, int]] = Counter()
    for i in range(30):
        counts["topicA", partitioner.partition("topicA", "key", b"key", None, None, cluster)] += 1
        if i % 5 == 0:
            counts["topicB", partitioner.partition("topicB", "key", b"key", None, None, cluster)] += 1
    assert [counts["topicA", p] for p in range(3)] == [10, 10, 10]
    assert [counts["topicB", p] for p in range(2)] == [3, 3]


def test_round_robin_counter_wraps_like_java() -> None:
    """The counter wraps at 2^31 as Java's AtomicInteger, and toPositive keeps the partition in range."""
    cluster = Cluster("clusterId", NODES, [PartitionInfo("t", i, NODES[0], NODES, NODES) for i in range(3)])
    partitioner = RoundRobinPartitioner()
    partitioner._topic_counter_map["t"] = 2**31 - 1
    assert partitioner.partition("t", None, None, None, None, cluster) == (2**31 - 1) % 3
    assert partitioner.partition("t", None, None, None, None, cluster) == 0  # toPositive(MIN_VALUE) == 0


def test_uniform_sticky_ignores_keys_until_a_new_batch() -> None:
    """Keyed and unkeyed records stick to one partition; on_new_batch moves it."""
    cluster = Cluster("clusterId", NODES, [PartitionInfo("t", i, NODES[i], NODES, NODES) for i in range(3)])
    partitioner = UniformStickyPartitioner()
    first = partitioner.partition("t", "k1", b"k1", None, None, cluster)
    assert partitioner.partition("t", "k2", b"k2", None, None, cluster) == first
    assert partitioner.partition("t", None, None, None, None, cluster) == first
    partitioner.on_new_batch("t", cluster, first)
    assert partitioner.partition("t", "k1", b"k1", None, None, cluster) != first
