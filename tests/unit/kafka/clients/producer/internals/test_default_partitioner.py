"""Tests of DefaultPartitioner and StickyPartitionCache, after clients/src/test/java/org/apache/kafka/clients/producer/
internals/DefaultPartitionerTest.java and StickyPartitionCacheTest.java (Kafka 3.7)."""

from __future__ import annotations

from kafka.clients.producer.internals.default_partitioner import DefaultPartitioner
from kafka.clients.producer.internals.sticky_partition_cache import StickyPartitionCache
from kafka.common.cluster import Cluster
from kafka.common.node import Node
from kafka.common.partition_info import PartitionInfo
from kafka.common.utils.utils import murmur2

NODES = [Node(0, "localhost", 99), Node(1, "localhost", 100), Node(2, "localhost", 101)]
TOPIC_A = "topicA"
TOPIC_B = "topicB"
TOPIC_C = "topicC"


def test_key_partition_is_stable() -> None:
    """A keyed record always lands on murmur2(key) modulo the partition count."""
    partitions = [
        PartitionInfo(TOPIC_A, 0, NODES[0], NODES, NODES),
        PartitionInfo(TOPIC_A, 1, NODES[1], NODES, NODES),
        PartitionInfo(TOPIC_A, 2, NODES[2], NODES, NODES),
    ]
    cluster = Cluster("clusterId", NODES, partitions)
    partitioner = DefaultPartitioner()
    key = b"key1"
    partition = partitioner.partition(TOPIC_A, None, key, None, None, cluster)
    assert partition == (murmur2(key) & 0x7FFFFFFF) % 3
    for _ in range(10):
        assert partitioner.partition(TOPIC_A, None, key, None, None, cluster) == partition


def test_sticky_partition_cache_changes_only_on_new_batch_of_the_sticky_partition() -> None:
    """The cached partition moves only when a new batch is reported for it, and to a different available partition."""
    partitions = [
        PartitionInfo(TOPIC_A, 0, NODES[0], NODES, NODES),
        PartitionInfo(TOPIC_A, 1, NODES[1], NODES, NODES),
        PartitionInfo(TOPIC_A, 2, NODES[2], NODES, NODES),
        PartitionInfo(TOPIC_B, 0, NODES[0], NODES, NODES),
    ]
    cluster = Cluster("clusterId", NODES, partitions)
    cache = StickyPartitionCache()
    part_a = cache.partition(TOPIC_A, cluster)
    assert cache.partition(TOPIC_A, cluster) == part_a
    part_b = cache.partition(TOPIC_B, cluster)
    assert part_b == 0
    # A new batch on another partition does not move the sticky one.
    other = (part_a + 1) % 3
    assert cache.next_partition(TOPIC_A, cluster, other) == part_a
    changed = cache.next_partition(TOPIC_A, cluster, part_a)
    assert changed != part_a
    assert cache.partition(TOPIC_A, cluster) == changed
    # A single-partition topic never moves.
    assert cache.next_partition(TOPIC_B, cluster, 0) == 0


def test_unavailable_partitions_are_avoided() -> None:
    """With one available partition the sticky choice is that partition."""
    partitions = [
        PartitionInfo(TOPIC_C, 0, None, NODES, NODES),
        PartitionInfo(TOPIC_C, 1, NODES[1], NODES, NODES),
        PartitionInfo(TOPIC_C, 2, None, NODES, NODES),
    ]
    cluster = Cluster("clusterId", NODES, partitions)
    cache = StickyPartitionCache()
    for _ in range(10):
        assert cache.partition(TOPIC_C, cluster) == 1
        assert cache.next_partition(TOPIC_C, cluster, 1) == 1


def test_default_partitioner_uses_sticky_cache_for_null_keys() -> None:
    """Records without a key follow the sticky partition until on_new_batch moves it."""
    partitions = [PartitionInfo(TOPIC_A, i, NODES[i], NODES, NODES) for i in range(3)]
    cluster = Cluster("clusterId", NODES, partitions)
    partitioner = DefaultPartitioner()
    first = partitioner.partition(TOPIC_A, None, None, "v", b"v", cluster)
    assert all(partitioner.partition(TOPIC_A, None, None, "v", b"v", cluster) == first for _ in range(5))
    partitioner.on_new_batch(TOPIC_A, cluster, first)
    assert partitioner.partition(TOPIC_A, None, None, "v", b"v", cluster) != first
