"""Tests of the sticky assignor's own parts (after Java's StickyAssignorTest): the eager protocol's owned
partitions in user data (both layouts), generations across rebalances, and duplicate claims."""

from __future__ import annotations

import struct

import pytest

from kafka.clients.consumer.consumer_group_metadata import ConsumerGroupMetadata
from kafka.clients.consumer.consumer_partition_assignor import Assignment, Subscription
from kafka.clients.consumer.internals.abstract_sticky_assignor import MemberData
from kafka.clients.consumer.sticky_assignor import StickyAssignor
from kafka.common.topic_partition import TopicPartition
from tests.unit.kafka.clients.consumer.internals.assignor_helpers import RackConfig, is_fully_balanced, tp
from tests.unit.kafka.clients.consumer.internals.sticky_helpers import GENERATION_ID, StickyContext

TOPIC, TOPIC1, TOPIC2 = "topic", "topic1", "topic2"
C1, C2, C3 = "consumer1", "consumer2", "consumer3"


def _old_schema_user_data(partitions: list[TopicPartition]) -> bytes:
    """The v0 sticky user data: the previous assignment only, no generation."""
    by_topic: dict[str, list[int]] = {}
    for p in partitions:
        by_topic.setdefault(p.topic, []).append(p.partition)
    out = struct.pack(">i", len(by_topic))
    for topic, parts in by_topic.items():
        out += struct.pack(">h", len(topic)) + topic.encode() + struct.pack(">i", len(parts))
        out += b"".join(struct.pack(">i", p) for p in parts)
    return out


def test_user_data_bytes() -> None:
    """The v1 user data is Kafka's layout: topic count, (topic string, partition array), generation."""
    data = StickyAssignor.serialize_topic_partition_assignment(MemberData([tp("t", 0), tp("t", 2)], 7))
    assert data == bytes.fromhex("00000001" + "0001" + "74" + "00000002" + "00000000" + "00000002" + "00000007")


@pytest.mark.parametrize("rack_config", list(RackConfig))
def test_all_consumers_have_owned_partition_invalidated_when_claimed_by_multiple_consumers(
    rack_config: RackConfig,
) -> None:
    """A partition claimed by two members of the same generation is taken from both and given to the third."""
    ctx = StickyContext(False, rack_config)
    partitions = {TOPIC: ctx.infos(TOPIC, 3)}
    subscriptions = {
        C1: ctx.v2([TOPIC], [tp(TOPIC, 0), tp(TOPIC, 1)], GENERATION_ID, 0),
        C2: ctx.v2([TOPIC], [tp(TOPIC, 0), tp(TOPIC, 2)], GENERATION_ID, 1),
        C3: ctx.v2([TOPIC], [], GENERATION_ID, 2),
    }
    assignment = ctx.assign(partitions, subscriptions)
    assert assignment == {C1: [tp(TOPIC, 1)], C2: [tp(TOPIC, 2)], C3: [tp(TOPIC, 0)]}


@pytest.mark.parametrize("all_equal", [True, False])
def test_assignment_with_multiple_generations(all_equal: bool) -> None:
    """Across three rebalances with members leaving and a stale member returning, current owners keep their
    partitions and the stale one's claims give way."""
    ctx = StickyContext(False)
    all_topics = [TOPIC, TOPIC2]
    c2_topics = all_topics if all_equal else [TOPIC]
    partitions = {TOPIC: ctx.infos(TOPIC, 6), TOPIC2: ctx.infos(TOPIC2, 6)}
    subscriptions: dict[str, Subscription] = {
        C1: ctx.subscription(all_topics, 0),
        C2: ctx.subscription(c2_topics, 1),
        C3: ctx.subscription(all_topics, 2),
    }
    assignment = ctx.assign(partitions, subscriptions)
    r1 = {c: list(a) for c, a in assignment.items()}
    assert [len(r1[c]) for c in (C1, C2, C3)] == [4, 4, 4]
    ctx.verify(subscriptions, assignment, partitions)
    subscriptions[C1] = ctx.v2(all_topics, r1[C1], GENERATION_ID, 0)
    subscriptions[C2] = ctx.v2(c2_topics, r1[C2], GENERATION_ID, 1)
    del subscriptions[C3]
    assignment = ctx.assign(partitions, subscriptions)
    r2 = {c: list(a) for c, a in assignment.items()}
    assert len(r2[C1]) == 6 and len(r2[C2]) == 6
    if all_equal:
        assert set(r1[C1]) <= set(r2[C1])
    assert set(r1[C2]) <= set(r2[C2])
    assert set(r2[C2]) & set(r1[C3])
    del subscriptions[C1]
    subscriptions[C2] = ctx.v2(c2_topics, r2[C2], 2, 1)
    subscriptions[C3] = ctx.v2(all_topics, r1[C3], 1, 2)
    assignment = ctx.assign(partitions, subscriptions)
    assert len(assignment[C2]) == 6 and len(assignment[C3]) == 6
    assert not set(assignment[C2]) & set(assignment[C3])
    ctx.verify(subscriptions, assignment, partitions)
    assert is_fully_balanced(assignment)


@pytest.mark.parametrize("rack_config", list(RackConfig))
def test_schema_backward_compatibility(rack_config: RackConfig) -> None:
    """A member sending the old (v0) user data layout keeps its partition next to one with the new layout."""
    ctx = StickyContext(False, rack_config)
    partitions = {TOPIC: ctx.infos(TOPIC, 3)}
    c1_owned = [tp(TOPIC, 0), tp(TOPIC, 2)]
    c2_owned = [tp(TOPIC, 1)]
    subscriptions = {
        C1: ctx.v2([TOPIC], c1_owned, 1, 0),
        C2: Subscription([TOPIC], _old_schema_user_data(c2_owned), [], -1, ctx.rack(1)),
        C3: ctx.subscription([TOPIC], 2),
    }
    assignment = ctx.assign(partitions, subscriptions)
    assert [len(assignment[c]) for c in (C1, C2, C3)] == [1, 1, 1]
    assert set(assignment[C1]) <= set(c1_owned)
    assert set(assignment[C2]) <= set(c2_owned)
    ctx.verify(subscriptions, assignment, partitions)


def test_member_data_with_inconsistent_data() -> None:
    """Under the eager protocol the user data is authoritative over the owned partitions field."""
    assignor = StickyAssignor()
    assignor.on_assignment(Assignment([tp(TOPIC, 1)]), ConsumerGroupMetadata("group", GENERATION_ID, C1, None))
    user_data = assignor.subscription_user_data({TOPIC})
    member_data = assignor.member_data(Subscription([TOPIC], user_data, [tp(TOPIC, 0)]))
    assert member_data.partitions == [tp(TOPIC, 1)]
    assert member_data.generation == GENERATION_ID


def test_member_data_will_honor_user_data() -> None:
    """The generation in the user data wins over the subscription's."""
    owned = [tp(TOPIC1, 0), tp(TOPIC2, 1)]
    user_data = StickyAssignor.serialize_topic_partition_assignment(MemberData(owned, GENERATION_ID - 1))
    member_data = StickyAssignor().member_data(Subscription([TOPIC], user_data, [], GENERATION_ID))
    assert member_data.partitions == owned
    assert member_data.generation == GENERATION_ID - 1


def test_unreadable_user_data_is_ignored() -> None:
    """User data that fits neither layout reads as no previous assignment."""
    member_data = StickyAssignor().member_data(Subscription([TOPIC], b"\x00\x00\x00\x05\x00"))
    assert member_data.partitions == []
    assert member_data.generation == StickyAssignor.DEFAULT_GENERATION


def test_no_user_data_before_first_assignment() -> None:
    """A member that never had an assignment sends no user data."""
    assert StickyAssignor().subscription_user_data({TOPIC}) is None
