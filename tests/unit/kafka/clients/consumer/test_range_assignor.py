"""Tests of the range assignor (after Java's RangeAssignorTest): ranges per topic, static member ordering
and persistence, and rack-aware assignment with co-partitioning."""

from __future__ import annotations

import pytest

from kafka.clients.consumer.consumer_partition_assignor import Subscription
from kafka.clients.consumer.range_assignor import RangeAssignor
from kafka.common.partition_info import PartitionInfo
from kafka.common.topic_partition import TopicPartition
from tests.unit.kafka.clients.consumer.internals.assignor_helpers import (
    ALL_RACKS,
    RackConfig,
    null_racks,
    partition_infos,
    racks,
    tp,
    verify_rack_assignment,
)

T1, T2 = "topic1", "topic2"
C1, C2, C3 = "consumer1", "consumer2", "consumer3"


class _Setup:
    """Java's initializeRacks: as many racks (and replicas) as consumers; the rack-aware logic is forced, so the
    same expectations check it (racks and consumers are in the same order)."""

    def __init__(self, rack_config: RackConfig, max_consumers: int = 3) -> None:
        self.replication_factor = max_consumers
        self.num_broker_racks = max_consumers if rack_config is not RackConfig.NO_BROKER_RACK else 0
        self.has_consumer_rack = rack_config is not RackConfig.NO_CONSUMER_RACK
        self.assignor = RangeAssignor()
        self.assignor.prefer_rack_aware_logic = True

    def infos(self, topic: str, n: int) -> list[PartitionInfo]:
        return partition_infos(topic, n, self.replication_factor, self.num_broker_racks, 0)

    def subscription(self, topics: list[str], index: int) -> Subscription:
        num_racks = self.num_broker_racks if self.num_broker_racks > 0 else len(ALL_RACKS)
        rack = ALL_RACKS[index % num_racks] if self.has_consumer_rack else None
        return Subscription(topics, None, [], -1, rack)


ALL_CONFIGS = list(RackConfig)


@pytest.mark.parametrize("has_rack", [True, False])
def test_one_consumer_no_topic(has_rack: bool) -> None:
    """A consumer subscribed to nothing gets an empty assignment."""
    s = _Setup(RackConfig.BROKER_AND_CONSUMER_RACK if has_rack else RackConfig.NO_CONSUMER_RACK)
    assignment = s.assignor.assign_partitions({}, {C1: s.subscription([], 0)})
    assert assignment == {C1: []}


@pytest.mark.parametrize("has_rack", [True, False])
def test_one_consumer_nonexistent_topic(has_rack: bool) -> None:
    """A topic without metadata gives nothing to assign."""
    s = _Setup(RackConfig.BROKER_AND_CONSUMER_RACK if has_rack else RackConfig.NO_CONSUMER_RACK)
    assignment = s.assignor.assign_partitions({}, {C1: s.subscription([T1], 0)})
    assert assignment == {C1: []}


@pytest.mark.parametrize("rack_config", ALL_CONFIGS)
def test_one_consumer_one_topic(rack_config: RackConfig) -> None:
    """One consumer gets every partition of its topic."""
    s = _Setup(rack_config)
    assignment = s.assignor.assign_partitions({T1: s.infos(T1, 3)}, {C1: s.subscription([T1], 0)})
    assert assignment == {C1: [tp(T1, 0), tp(T1, 1), tp(T1, 2)]}


@pytest.mark.parametrize("rack_config", ALL_CONFIGS)
def test_only_assigns_partitions_from_subscribed_topics(rack_config: RackConfig) -> None:
    """Topics nobody subscribes to are not assigned."""
    s = _Setup(rack_config)
    assignment = s.assignor.assign_partitions(
        {T1: s.infos(T1, 3), "other": s.infos("other", 3)}, {C1: s.subscription([T1], 0)}
    )
    assert assignment == {C1: [tp(T1, 0), tp(T1, 1), tp(T1, 2)]}


@pytest.mark.parametrize("rack_config", ALL_CONFIGS)
def test_one_consumer_multiple_topics(rack_config: RackConfig) -> None:
    """One consumer gets every partition of all its topics."""
    s = _Setup(rack_config)
    assignment = s.assignor.assign_partitions(
        {T1: s.infos(T1, 1), T2: s.infos(T2, 2)}, {C1: s.subscription([T1, T2], 0)}
    )
    assert assignment == {C1: [tp(T1, 0), tp(T2, 0), tp(T2, 1)]}


@pytest.mark.parametrize("rack_config", ALL_CONFIGS)
def test_two_consumers_one_topic_one_partition(rack_config: RackConfig) -> None:
    """With one partition, the first consumer (by member id) gets it."""
    s = _Setup(rack_config)
    assignment = s.assignor.assign_partitions(
        {T1: s.infos(T1, 1)}, {C1: s.subscription([T1], 0), C2: s.subscription([T1], 1)}
    )
    assert assignment == {C1: [tp(T1, 0)], C2: []}


@pytest.mark.parametrize("rack_config", ALL_CONFIGS)
def test_two_consumers_one_topic_two_partitions(rack_config: RackConfig) -> None:
    """Two partitions go one to each consumer."""
    s = _Setup(rack_config)
    assignment = s.assignor.assign_partitions(
        {T1: s.infos(T1, 2)}, {C1: s.subscription([T1], 0), C2: s.subscription([T1], 1)}
    )
    assert assignment == {C1: [tp(T1, 0)], C2: [tp(T1, 1)]}


@pytest.mark.parametrize("rack_config", ALL_CONFIGS)
def test_multiple_consumers_mixed_topics(rack_config: RackConfig) -> None:
    """Each topic is ranged over its own subscribers only."""
    s = _Setup(rack_config)
    assignment = s.assignor.assign_partitions(
        {T1: s.infos(T1, 3), T2: s.infos(T2, 2)},
        {C1: s.subscription([T1], 0), C2: s.subscription([T1, T2], 1), C3: s.subscription([T1], 2)},
    )
    assert assignment == {C1: [tp(T1, 0)], C2: [tp(T1, 1), tp(T2, 0), tp(T2, 1)], C3: [tp(T1, 2)]}


@pytest.mark.parametrize("rack_config", ALL_CONFIGS)
def test_two_consumers_two_topics_six_partitions(rack_config: RackConfig) -> None:
    """With 3 partitions per topic and 2 consumers, the first gets 2 of each topic (the range skew)."""
    s = _Setup(rack_config)
    assignment = s.assignor.assign_partitions(
        {T1: s.infos(T1, 3), T2: s.infos(T2, 3)}, {C1: s.subscription([T1, T2], 0), C2: s.subscription([T1, T2], 1)}
    )
    assert assignment == {C1: [tp(T1, 0), tp(T1, 1), tp(T2, 0), tp(T2, 1)], C2: [tp(T1, 2), tp(T2, 2)]}


@pytest.mark.parametrize("rack_config", ALL_CONFIGS)
def test_two_static_consumers_two_topics_six_partitions(rack_config: RackConfig) -> None:
    """Static members are ordered by instance id, not member id."""
    s = _Setup(rack_config)
    low = s.subscription([T1, T2], 0)
    low.group_instance_id = "instance1"
    high = s.subscription([T1, T2], 1)
    high.group_instance_id = "instance2"
    assignment = s.assignor.assign_partitions(
        {T1: s.infos(T1, 3), T2: s.infos(T2, 3)}, {"consumer-b": low, "consumer-a": high}
    )
    assert assignment["consumer-b"] == [tp(T1, 0), tp(T1, 1), tp(T2, 0), tp(T2, 1)]
    assert assignment["consumer-a"] == [tp(T1, 2), tp(T2, 2)]


@pytest.mark.parametrize("rack_config", ALL_CONFIGS)
def test_one_static_consumer_and_one_dynamic_consumer(rack_config: RackConfig) -> None:
    """A static member comes before a dynamic one whatever the member ids."""
    s = _Setup(rack_config)
    low = s.subscription([T1, T2], 0)
    low.group_instance_id = "instance1"
    assignment = s.assignor.assign_partitions(
        {T1: s.infos(T1, 3), T2: s.infos(T2, 3)}, {"consumer-b": low, "consumer-a": s.subscription([T1, T2], 1)}
    )
    assert assignment["consumer-b"] == [tp(T1, 0), tp(T1, 1), tp(T2, 0), tp(T2, 1)]
    assert assignment["consumer-a"] == [tp(T1, 2), tp(T2, 2)]


def _static_assignment(
    assignor: RangeAssignor, partitions: dict[str, list[PartitionInfo]], consumers: dict[str, Subscription]
) -> dict[str, list[TopicPartition]]:
    by_member = assignor.assign_partitions(partitions, consumers)
    return {s.group_instance_id: by_member[m] for m, s in consumers.items() if s.group_instance_id is not None}


@pytest.mark.parametrize("rack_config", ALL_CONFIGS)
def test_static_member_range_assignment_persistent(rack_config: RackConfig) -> None:
    """Static members keep their ranges when a dynamic member is replaced by another."""
    s = _Setup(rack_config, 5)
    consumers: dict[str, Subscription] = {}
    for i, (member, instance) in enumerate([(C1, "instance1"), (C2, "instance2"), (C3, "instance3")]):
        sub = s.subscription([T1, T2], i)
        sub.group_instance_id = instance
        consumers[member] = sub
    consumers["consumer4"] = s.subscription([T1, T2], 3)
    partitions = {T1: s.infos(T1, 5), T2: s.infos(T2, 4)}
    expected = {
        C1: [tp(T1, 0), tp(T1, 1), tp(T2, 0)],
        C2: [tp(T1, 2), tp(T2, 1)],
        C3: [tp(T1, 3), tp(T2, 2)],
        "consumer4": [tp(T1, 4), tp(T2, 3)],
    }
    assert s.assignor.assign_partitions(partitions, consumers) == expected
    del consumers["consumer4"]
    consumers["consumer5"] = s.subscription([T1, T2], 4)
    expected["consumer5"] = expected.pop("consumer4")
    assert s.assignor.assign_partitions(partitions, consumers) == expected


@pytest.mark.parametrize("rack_config", ALL_CONFIGS)
def test_static_member_range_assignment_persistent_after_member_id_changes(rack_config: RackConfig) -> None:
    """A static member's ranges follow its instance id when its member id changes."""
    s = _Setup(rack_config)
    consumers: dict[str, Subscription] = {}
    for i, (member, instance) in enumerate([(C1, "instance1"), (C2, "instance2"), (C3, "instance3")]):
        sub = s.subscription([T1, T2], i)
        sub.group_instance_id = instance
        consumers[member] = sub
    partitions = {T1: s.infos(T1, 5), T2: s.infos(T2, 5)}
    assignor = s.assignor
    static = _static_assignment(assignor, partitions, consumers)
    assert static == {
        "instance1": [tp(T1, 0), tp(T1, 1), tp(T2, 0), tp(T2, 1)],
        "instance2": [tp(T1, 2), tp(T1, 3), tp(T2, 2), tp(T2, 3)],
        "instance3": [tp(T1, 4), tp(T2, 4)],
    }
    consumers["consumer4"] = consumers.pop(C3)
    consumers["consumer5"] = consumers.pop(C2)
    assert _static_assignment(assignor, partitions, consumers) == static


def _verify_non_rack_aware(topics: dict[str, int], consumer_topics: list[list[str]], expected: list[str]) -> None:
    assignor = RangeAssignor()
    verify_rack_assignment(assignor, topics, 3, null_racks(3), racks(3), consumer_topics, expected, -1)
    verify_rack_assignment(assignor, topics, 3, racks(3), null_racks(3), consumer_topics, expected, -1)
    verify_rack_assignment(assignor, topics, 3, racks(3), racks(3), consumer_topics, expected, 0)
    verify_rack_assignment(assignor, topics, 4, racks(4), racks(3), consumer_topics, expected, 0)
    verify_rack_assignment(assignor, topics, 3, racks(3), ["d", "e", "f"], consumer_topics, expected, -1)
    verify_rack_assignment(assignor, topics, 3, racks(3), [None, "e", "f"], consumer_topics, expected, -1)
    assignor.prefer_rack_aware_logic = True
    verify_rack_assignment(assignor, topics, 3, racks(3), racks(3), consumer_topics, expected, 0)


def test_rack_aware_assignment_with_uniform_subscription() -> None:
    """With racks, partitions go to consumers on a replica's rack where the replication factor allows."""
    topics = {"t1": 6, "t2": 7, "t3": 2}
    all_topics = ["t1", "t2", "t3"]
    consumer_topics = [all_topics, all_topics, all_topics]
    _verify_non_rack_aware(
        topics,
        consumer_topics,
        ["t1-0, t1-1, t2-0, t2-1, t2-2, t3-0", "t1-2, t1-3, t2-3, t2-4, t3-1", "t1-4, t1-5, t2-5, t2-6"],
    )
    assignor = RangeAssignor()
    verify_rack_assignment(
        assignor,
        topics,
        1,
        racks(3),
        racks(3),
        consumer_topics,
        ["t1-0, t1-3, t2-0, t2-3, t2-6", "t1-1, t1-4, t2-1, t2-4, t3-0", "t1-2, t1-5, t2-2, t2-5, t3-1"],
        0,
    )
    verify_rack_assignment(
        assignor,
        topics,
        2,
        racks(3),
        racks(3),
        consumer_topics,
        ["t1-0, t1-2, t2-0, t2-2, t2-3, t3-1", "t1-1, t1-3, t2-1, t2-4, t3-0", "t1-4, t1-5, t2-5, t2-6"],
        1,
    )
    verify_rack_assignment(
        assignor,
        topics,
        3,
        racks(2),
        racks(3),
        consumer_topics,
        ["t1-0, t1-1, t2-0, t2-1, t2-2, t3-0", "t1-2, t1-3, t2-3, t2-4, t3-1", "t1-4, t1-5, t2-5, t2-6"],
        4,
    )


def test_rack_aware_assignment_with_co_partitioning() -> None:
    """Co-partitioned topics (same subscribers, same partition count) keep equal partition numbers on one
    consumer, aligned with racks where the replication factor allows."""
    topics = {"t1": 6, "t2": 6, "t3": 2, "t4": 2}
    consumer_topics = [["t1", "t2"], ["t1", "t2"], ["t3", "t4"], ["t3", "t4"]]
    consumer_racks = [ALL_RACKS[0], ALL_RACKS[1], ALL_RACKS[1], ALL_RACKS[0]]
    non_rack_aware = [
        "t1-0, t1-1, t1-2, t2-0, t2-1, t2-2",
        "t1-3, t1-4, t1-5, t2-3, t2-4, t2-5",
        "t3-0, t4-0",
        "t3-1, t4-1",
    ]
    assignor = RangeAssignor()
    verify_rack_assignment(assignor, topics, 3, racks(2), consumer_racks, consumer_topics, non_rack_aware, -1)
    verify_rack_assignment(assignor, topics, 2, racks(2), consumer_racks, consumer_topics, non_rack_aware, 0)
    verify_rack_assignment(
        assignor,
        topics,
        1,
        racks(2),
        consumer_racks,
        consumer_topics,
        ["t1-0, t1-2, t1-4, t2-0, t2-2, t2-4", "t1-1, t1-3, t1-5, t2-1, t2-3, t2-5", "t3-1, t4-1", "t3-0, t4-0"],
        0,
    )
    all_topics = ["t1", "t2", "t3", "t4"]
    consumer_topics = [all_topics] * 4
    non_rack_aware = [
        "t1-0, t1-1, t2-0, t2-1, t3-0, t4-0",
        "t1-2, t1-3, t2-2, t2-3, t3-1, t4-1",
        "t1-4, t2-4",
        "t1-5, t2-5",
    ]
    verify_rack_assignment(assignor, topics, 3, racks(2), consumer_racks, consumer_topics, non_rack_aware, -1)
    verify_rack_assignment(assignor, topics, 2, racks(2), consumer_racks, consumer_topics, non_rack_aware, 0)
    verify_rack_assignment(
        assignor,
        topics,
        1,
        racks(2),
        consumer_racks,
        consumer_topics,
        ["t1-0, t1-2, t2-0, t2-2, t3-0, t4-0", "t1-1, t1-3, t2-1, t2-3, t3-1, t4-1", "t1-5, t2-5", "t1-4, t2-4"],
        0,
    )
    verify_rack_assignment(
        assignor,
        topics,
        1,
        racks(3),
        consumer_racks,
        consumer_topics,
        ["t1-0, t1-3, t2-0, t2-3, t3-0, t4-0", "t1-1, t1-4, t2-1, t2-4, t3-1, t4-1", "t1-2, t2-2", "t1-5, t2-5"],
        6,
    )


def test_co_partitioned_assignment_with_same_subscription() -> None:
    """Co-partitioned topics of a uniform subscription move together to rack-aligned consumers."""
    topics = {"t1": 6, "t2": 6, "t3": 2, "t4": 2, "t5": 4, "t6": 4}
    topic_list = ["t1", "t2", "t3", "t4", "t5", "t6", "t7", "t8", "t9"]
    consumer_topics = [topic_list] * 3
    consumer_racks = [ALL_RACKS[0], ALL_RACKS[1], ALL_RACKS[2]]
    non_rack_aware = [
        "t1-0, t1-1, t2-0, t2-1, t3-0, t4-0, t5-0, t5-1, t6-0, t6-1",
        "t1-2, t1-3, t2-2, t2-3, t3-1, t4-1, t5-2, t6-2",
        "t1-4, t1-5, t2-4, t2-5, t5-3, t6-3",
    ]
    assignor = RangeAssignor()
    verify_rack_assignment(assignor, topics, 3, null_racks(3), consumer_racks, consumer_topics, non_rack_aware, -1)
    assignor.prefer_rack_aware_logic = True
    verify_rack_assignment(assignor, topics, 3, racks(3), consumer_racks, consumer_topics, non_rack_aware, 0)
    verify_rack_assignment(
        assignor,
        topics,
        2,
        racks(3),
        consumer_racks,
        consumer_topics,
        [
            "t1-0, t1-2, t2-0, t2-2, t3-0, t4-0, t5-1, t6-1",
            "t1-1, t1-3, t2-1, t2-3, t3-1, t4-1, t5-2, t6-2",
            "t1-4, t1-5, t2-4, t2-5, t5-0, t5-3, t6-0, t6-3",
        ],
        0,
    )
