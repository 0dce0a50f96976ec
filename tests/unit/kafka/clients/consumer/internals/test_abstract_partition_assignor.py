"""Tests of AbstractPartitionAssignor (after Java's AbstractPartitionAssignorTest): member ordering and the
decision to use rack-aware assignment."""

from __future__ import annotations

import random

from kafka.clients.consumer.internals.abstract_partition_assignor import MemberInfo
from kafka.clients.consumer.range_assignor import RangeAssignor
from kafka.common.topic_partition import TopicPartition


def test_member_info_sorting_without_group_instance_id() -> None:
    """Dynamic members are ordered by member id."""
    m1, m2, m3 = MemberInfo("a"), MemberInfo("b"), MemberInfo("c")
    assert sorted([m3, m1, m2]) == [m1, m2, m3]


def test_member_info_sorting_with_all_group_instance_id() -> None:
    """Static members are ordered by group instance id, whatever their member ids."""
    m1, m2, m3 = MemberInfo("a", "y"), MemberInfo("b", "z"), MemberInfo("c", "x")
    assert sorted([m1, m2, m3]) == [m3, m1, m2]


def test_member_info_sorting_some_group_instance_id() -> None:
    """Static members come before dynamic ones."""
    m1, m2, m3 = MemberInfo("a"), MemberInfo("b", "y"), MemberInfo("c", "x")
    assert sorted([m1, m2, m3]) == [m3, m2, m1]


def test_merge_sort_many_member_info() -> None:
    """In a shuffled mix of 100 members, all static members sort first (by instance id), then dynamic ones."""
    rng = random.Random(7)
    members = []
    static: list[MemberInfo] = []
    dynamic: list[MemberInfo] = []
    for i in range(100):
        member_id = str(i + 100)
        m = MemberInfo(member_id, member_id if rng.random() < 0.5 else None)
        members.append(m)
        (static if m.group_instance_id is not None else dynamic).append(m)
    rng.shuffle(members)
    assert sorted(members) == static + dynamic


def test_use_rack_aware_assignment() -> None:
    """Rack-aware assignment applies only when some consumer rack hosts replicas and partitions are not on
    every rack (or tests force it)."""
    assignor = RangeAssignor()
    rack_names = ["a", "b", "c"]
    all_racks = set(rack_names)
    two_racks = {"a", "b"}
    on_all = {TopicPartition("topic", i): all_racks for i in range(10)}
    on_subset = {TopicPartition("topic", i): {rack_names[i % 3]} for i in range(10)}
    assert not assignor.use_rack_aware_assignment(set(), set(), on_all)
    assert not assignor.use_rack_aware_assignment(set(), all_racks, on_all)
    assert not assignor.use_rack_aware_assignment(all_racks, set(), {})
    assert not assignor.use_rack_aware_assignment({"d"}, all_racks, on_all)
    assert not assignor.use_rack_aware_assignment(all_racks, all_racks, on_all)
    assert not assignor.use_rack_aware_assignment(two_racks, all_racks, on_all)
    assert not assignor.use_rack_aware_assignment({"a", "d"}, all_racks, on_all)
    assert assignor.use_rack_aware_assignment(all_racks, all_racks, on_subset)
    assert assignor.use_rack_aware_assignment(two_racks, all_racks, on_subset)
    assert assignor.use_rack_aware_assignment({"a", "d"}, all_racks, on_subset)
    assignor.prefer_rack_aware_logic = True
    assert not assignor.use_rack_aware_assignment(set(), set(), on_all)
    assert not assignor.use_rack_aware_assignment({"d"}, all_racks, on_all)
    assert assignor.use_rack_aware_assignment(all_racks, all_racks, on_all)
    assert assignor.use_rack_aware_assignment(two_racks, all_racks, on_subset)
