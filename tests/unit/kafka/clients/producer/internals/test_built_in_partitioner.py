"""Tests of BuiltInPartitioner and murmur2, after clients/src/test/java/org/apache/kafka/clients/producer/internals/
BuiltInPartitionerTest.java and the murmur2 vectors of UtilsTest.java (Kafka 3.7)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from kafka.clients.producer.internals.built_in_partitioner import BuiltInPartitioner
from kafka.common.cluster import Cluster
from kafka.common.node import Node
from kafka.common.partition_info import PartitionInfo
from kafka.common.utils.log_context import LogContext
from kafka.common.utils.utils import murmur2, to_positive

NODES = [Node(0, "localhost", 99), Node(1, "localhost", 100), Node(12, "localhost", 101)]
TOPIC_A = "topicA"
TOPIC_B = "topicB"
TOPIC_C = "topicC"
LOG_CONTEXT = LogContext()


@pytest.fixture(autouse=True)
def reset_mock_random() -> Iterator[None]:
    yield
    BuiltInPartitioner.mock_random = None


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (b"21", -973932308),
        (b"foobar", -790332482),
        (b"a-little-bit-long-string", -985981536),
        (b"a-little-bit-longer-string", -1486304829),
        (b"lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8", -58897971),
        (b"abc", 479470107),
        (b"", 275646681),
    ],
)
def test_murmur2_known_vectors(data: bytes, expected: int) -> None:
    """murmur2 gives Java's Utils.murmur2 values bit for bit (signed 32-bit results)."""
    assert murmur2(data) == expected
    assert murmur2(bytearray(data)) == expected
    assert murmur2(memoryview(data)) == expected


def test_to_positive_clears_the_sign_bit() -> None:
    """toPositive masks the sign bit, so Integer.MIN_VALUE maps to 0 rather than overflowing like abs()."""
    assert to_positive(-(2**31)) == 0
    assert to_positive(-1) == 2**31 - 1
    assert to_positive(5) == 5


def test_partition_for_key_is_murmur2_modulo() -> None:
    """The keyed partition is toPositive(murmur2(key)) % numPartitions."""
    for key in (b"a", b"key-1", b"\x00\xff", bytes(range(100))):
        assert BuiltInPartitioner.partition_for_key(key, 7) == (murmur2(key) & 0x7FFFFFFF) % 7
    assert BuiltInPartitioner.partition_for_key(b"foobar", 100) == to_positive(-790332482) % 100


def _cluster(partitions: list[PartitionInfo]) -> Cluster:
    return Cluster("clusterId", NODES, partitions)


def test_sticky_partitioning() -> None:
    """The sticky partition stays until batch.size bytes were appended, then moves to another available one."""
    all_partitions = [
        PartitionInfo(TOPIC_A, 0, NODES[0], NODES, NODES),
        PartitionInfo(TOPIC_A, 1, NODES[1], NODES, NODES),
        PartitionInfo(TOPIC_A, 2, None, NODES, NODES),
        PartitionInfo(TOPIC_B, 0, NODES[0], NODES, NODES),
    ]
    cluster = _cluster(all_partitions)
    partitioner_a = BuiltInPartitioner(LOG_CONTEXT, TOPIC_A, 10)
    random_values = iter([0, 1, 0, 1, 0, 1, 0])
    BuiltInPartitioner.mock_random = lambda: next(random_values)
    info = partitioner_a.peek_current_partition_info(cluster)
    # Only partitions with a leader are chosen: index 0 of [0, 1] -> partition 0.
    assert info.partition() == 0
    assert partitioner_a.peek_current_partition_info(cluster) is info
    partitioner_a.update_partition_info(info, 5, cluster)
    assert not partitioner_a.is_partition_changed(info)
    partitioner_a.update_partition_info(info, 5, cluster)
    assert partitioner_a.is_partition_changed(info)
    new_info = partitioner_a.peek_current_partition_info(cluster)
    assert new_info.partition() == 1
    # A held-back switch (last batch not full) still happens at twice batch.size.
    partitioner_a.update_partition_info(new_info, 15, cluster, enable_switch=False)
    assert not partitioner_a.is_partition_changed(new_info)
    partitioner_a.update_partition_info(new_info, 5, cluster, enable_switch=False)
    assert partitioner_a.is_partition_changed(new_info)


def test_no_available_partition_picks_among_all() -> None:
    """Without any leader, any partition of the topic may be picked."""
    cluster = _cluster([PartitionInfo(TOPIC_C, i, None, NODES, NODES) for i in range(3)])
    BuiltInPartitioner.mock_random = lambda: 5
    partitioner = BuiltInPartitioner(LOG_CONTEXT, TOPIC_C, 10)
    assert partitioner.peek_current_partition_info(cluster).partition() == 5 % 3


def test_adaptive_partitioning_prefers_short_queues() -> None:
    """With load stats, a partition is chosen with weight (max queue + 1 - its queue), by the running-sum table."""
    cluster = _cluster([PartitionInfo(TOPIC_A, i, NODES[0], NODES, NODES) for i in range(3)])
    partitioner = BuiltInPartitioner(LOG_CONTEXT, TOPIC_A, 1)
    # Queue sizes 0, 3, 1 -> weights 4, 1, 3 -> table 4, 5, 8.
    partitioner.update_partition_load_stats([0, 3, 1], [0, 1, 2], 3)
    assert partitioner.load_stats_range_end() == 8
    expected = {0: 0, 3: 0, 4: 1, 5: 2, 7: 2, 8: 0}
    for rnd, partition in expected.items():
        BuiltInPartitioner.mock_random = lambda rnd=rnd: rnd
        fresh = BuiltInPartitioner(LOG_CONTEXT, TOPIC_A, 1)
        fresh.update_partition_load_stats([0, 3, 1], [0, 1, 2], 3)
        assert fresh.peek_current_partition_info(cluster).partition() == partition, rnd


def test_equal_queues_disable_adaptive_partitioning() -> None:
    """Equal queue sizes, or fewer than two partitions, leave no load stats (uniform choice)."""
    partitioner = BuiltInPartitioner(LOG_CONTEXT, TOPIC_A, 1)
    partitioner.update_partition_load_stats([2, 2, 2], [0, 1, 2], 3)
    with pytest.raises(AssertionError):
        partitioner.load_stats_range_end()
    partitioner.update_partition_load_stats([2], [0], 1)
    with pytest.raises(AssertionError):
        partitioner.load_stats_range_end()
    # An excluded (slow) partition keeps adaptive partitioning on even with equal sizes.
    partitioner.update_partition_load_stats([2, 2, 2], [0, 1, 2], 2)
    assert partitioner.load_stats_range_end() == 2


def test_sticky_batch_size_must_be_positive() -> None:
    """A sticky batch size below 1 is refused."""
    with pytest.raises(ValueError, match="stickyBatchSize must be >= 1 but got 0"):
        BuiltInPartitioner(LOG_CONTEXT, TOPIC_A, 0)
