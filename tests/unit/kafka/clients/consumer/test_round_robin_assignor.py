"""Tests of the round-robin assignor (after Java's RoundRobinAssignorTest)."""

from __future__ import annotations

from kafka.clients.consumer.consumer_partition_assignor import Subscription
from kafka.clients.consumer.round_robin_assignor import RoundRobinAssignor
from tests.unit.kafka.clients.consumer.internals.assignor_helpers import tp

T1, T2 = "topic1", "topic2"
C1, C2, C3 = "consumer1", "consumer2", "consumer3"


def test_one_consumer_no_topic() -> None:
    """No topic: an empty assignment."""
    assert RoundRobinAssignor().assign_counts({}, {C1: Subscription([])}) == {C1: []}


def test_one_consumer_nonexistent_topic() -> None:
    """A topic without metadata: nothing to assign."""
    assert RoundRobinAssignor().assign_counts({}, {C1: Subscription([T1])}) == {C1: []}


def test_one_consumer_one_topic() -> None:
    """One consumer gets all partitions."""
    assert RoundRobinAssignor().assign_counts({T1: 3}, {C1: Subscription([T1])}) == {
        C1: [tp(T1, 0), tp(T1, 1), tp(T1, 2)]
    }


def test_only_assigns_partitions_from_subscribed_topics() -> None:
    """Unsubscribed topics are left out."""
    assert RoundRobinAssignor().assign_counts({T1: 3, "other": 3}, {C1: Subscription([T1])}) == {
        C1: [tp(T1, 0), tp(T1, 1), tp(T1, 2)]
    }


def test_one_consumer_multiple_topics() -> None:
    """Topics are dealt in name order."""
    assert RoundRobinAssignor().assign_counts({T1: 1, T2: 2}, {C1: Subscription([T1, T2])}) == {
        C1: [tp(T1, 0), tp(T2, 0), tp(T2, 1)]
    }


def test_two_consumers_one_topic_one_partition() -> None:
    """The single partition goes to the first member."""
    assert RoundRobinAssignor().assign_counts({T1: 1}, {C1: Subscription([T1]), C2: Subscription([T1])}) == {
        C1: [tp(T1, 0)],
        C2: [],
    }


def test_two_consumers_one_topic_two_partitions() -> None:
    """Partitions alternate between the members."""
    assert RoundRobinAssignor().assign_counts({T1: 2}, {C1: Subscription([T1]), C2: Subscription([T1])}) == {
        C1: [tp(T1, 0)],
        C2: [tp(T1, 1)],
    }


def test_multiple_consumers_mixed_topics() -> None:
    """Members not subscribed to a partition's topic are skipped in the rotation."""
    assignment = RoundRobinAssignor().assign_counts(
        {T1: 3, T2: 2}, {C1: Subscription([T1]), C2: Subscription([T1, T2]), C3: Subscription([T1])}
    )
    assert assignment == {C1: [tp(T1, 0)], C2: [tp(T1, 1), tp(T2, 0), tp(T2, 1)], C3: [tp(T1, 2)]}


def test_two_dynamic_consumers_two_topics_six_partitions() -> None:
    """Across topics the rotation continues: each member gets 3 of 6 partitions."""
    assignment = RoundRobinAssignor().assign_counts(
        {T1: 3, T2: 3}, {C1: Subscription([T1, T2]), C2: Subscription([T1, T2])}
    )
    assert assignment == {C1: [tp(T1, 0), tp(T1, 2), tp(T2, 1)], C2: [tp(T1, 1), tp(T2, 0), tp(T2, 2)]}


def test_two_static_consumers_two_topics_six_partitions() -> None:
    """Static members rotate in instance-id order."""
    low, high = Subscription([T1, T2]), Subscription([T1, T2])
    low.group_instance_id = "instance1"
    high.group_instance_id = "instance2"
    assignment = RoundRobinAssignor().assign_counts({T1: 3, T2: 3}, {"consumer-b": low, "consumer-a": high})
    assert assignment["consumer-b"] == [tp(T1, 0), tp(T1, 2), tp(T2, 1)]
    assert assignment["consumer-a"] == [tp(T1, 1), tp(T2, 0), tp(T2, 2)]


def test_static_member_round_robin_assignment_persistent_after_member_id_changes() -> None:
    """A static member's partitions follow its instance id when its member id changes."""
    consumers: dict[str, Subscription] = {}
    for member, instance in [(C1, "instance1"), (C2, "instance2"), (C3, "instance3")]:
        sub = Subscription([T1, T2])
        sub.group_instance_id = instance
        consumers[member] = sub
    assignor = RoundRobinAssignor()

    def by_instance() -> dict[str, list]:
        a = assignor.assign_counts({T1: 5, T2: 5}, consumers)
        return {s.group_instance_id: a[m] for m, s in consumers.items() if s.group_instance_id}

    first = by_instance()
    assert first == {
        "instance1": [tp(T1, 0), tp(T1, 3), tp(T2, 1), tp(T2, 4)],
        "instance2": [tp(T1, 1), tp(T1, 4), tp(T2, 2)],
        "instance3": [tp(T1, 2), tp(T2, 0), tp(T2, 3)],
    }
    consumers["consumer4"] = consumers.pop(C3)
    consumers["consumer5"] = consumers.pop(C2)
    assert by_instance() == first
