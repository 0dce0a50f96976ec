"""Tests of the cooperative-sticky assignor's own parts (after Java's CooperativeStickyAssignorTest): the
generation in user data or in the subscription, and the two-phase handover of partitions that move."""

from __future__ import annotations

import pytest

from kafka.clients.consumer.consumer_group_metadata import ConsumerGroupMetadata
from kafka.clients.consumer.consumer_partition_assignor import Assignment, RebalanceProtocol, Subscription
from kafka.clients.consumer.cooperative_sticky_assignor import CooperativeStickyAssignor
from tests.unit.kafka.clients.consumer.internals.assignor_helpers import RackConfig, is_fully_balanced, tp
from tests.unit.kafka.clients.consumer.internals.sticky_helpers import GENERATION_ID, StickyContext

TOPIC, TOPIC1, TOPIC2 = "topic", "topic1", "topic2"
C1, C2, C3 = "consumer1", "consumer2", "consumer3"


def test_supports_cooperative_then_eager() -> None:
    """The assignor speaks COOPERATIVE and EAGER (so a group can be migrated)."""
    assert CooperativeStickyAssignor().supported_protocols() == [RebalanceProtocol.COOPERATIVE, RebalanceProtocol.EAGER]


def test_encode_and_decode_generation() -> None:
    """The user data carries the last generation (-1 before any assignment) as a 4-byte int."""
    assignor = CooperativeStickyAssignor()
    subscription = Subscription([TOPIC], assignor.subscription_user_data({TOPIC}))
    assert subscription.user_data == b"\xff\xff\xff\xff"
    assert assignor.member_data(subscription).generation == CooperativeStickyAssignor.DEFAULT_GENERATION
    assignor.on_assignment(Assignment([]), ConsumerGroupMetadata("dummy-group-id", 10, "dummy-member-id", None))
    subscription = Subscription([TOPIC], assignor.subscription_user_data({TOPIC}))
    assert assignor.member_data(subscription).generation == 10


def test_decode_generation() -> None:
    """Without user data or subscription generation, the generation is unknown."""
    assert CooperativeStickyAssignor().member_data(Subscription([TOPIC])).generation is None


@pytest.mark.parametrize("rack_config", list(RackConfig))
def test_partition_claimed_by_two_members_waits_for_revocation(rack_config: RackConfig) -> None:
    """A partition two members of one generation both claim goes to nobody until both have revoked it; the
    follow-up rebalance then assigns it."""
    ctx = StickyContext(True, rack_config)
    partitions = {TOPIC: ctx.infos(TOPIC, 3)}
    subscriptions = {
        C1: ctx.v2([TOPIC], [tp(TOPIC, 0), tp(TOPIC, 1)], GENERATION_ID, 0),
        C2: ctx.v2([TOPIC], [tp(TOPIC, 0), tp(TOPIC, 2)], GENERATION_ID, 1),
        C3: ctx.v2([TOPIC], [], GENERATION_ID, 2),
    }
    assignment = ctx.assign(partitions, subscriptions)
    assert assignment == {C1: [tp(TOPIC, 1)], C2: [tp(TOPIC, 2)], C3: []}
    ctx.verify(subscriptions, assignment, partitions)
    assert assignment[C3] == [tp(TOPIC, 0)]
    assert is_fully_balanced(assignment)


def test_member_data_with_inconsistent_data() -> None:
    """Without a subscription generation, the user data's generation and the subscription's owned partitions
    are used."""
    assignor = CooperativeStickyAssignor()
    assignor.on_assignment(Assignment([tp(TOPIC, 1)]), ConsumerGroupMetadata("group", GENERATION_ID, C1, None))
    user_data = assignor.subscription_user_data({TOPIC})
    member_data = assignor.member_data(Subscription([TOPIC], user_data, [tp(TOPIC, 0)]))
    assert member_data.partitions == [tp(TOPIC, 0)]
    assert member_data.generation == GENERATION_ID


def test_member_data_with_empty_partitions_and_higher_generation() -> None:
    """With a generation in the subscription (v2+), its (empty) owned partitions win over the user data."""
    assignor = CooperativeStickyAssignor()
    assignor.on_assignment(Assignment([tp(TOPIC1, 0)]), ConsumerGroupMetadata("group", GENERATION_ID - 1, C1, None))
    subscription = Subscription([TOPIC], assignor.subscription_user_data({TOPIC}), [], GENERATION_ID)
    member_data = assignor.member_data(subscription)
    assert member_data.partitions == []
    assert member_data.generation == GENERATION_ID


def test_assignor_with_old_version_subscriptions() -> None:
    """Members with v1 subscriptions (generation in user data) keep their partitions and a new member gets the
    free one."""
    ctx = StickyContext(True)
    partitions = {TOPIC1: ctx.infos(TOPIC1, 3)}
    subscriptions = {
        C1: ctx.v1([TOPIC1], [tp(TOPIC1, 0)], GENERATION_ID, 0),
        C2: ctx.v1([TOPIC1], [tp(TOPIC1, 1)], GENERATION_ID, 1),
        C3: ctx.v2([TOPIC1], [], GENERATION_ID, 2),
    }
    assignment = ctx.assign(partitions, subscriptions)
    assert assignment == {C1: [tp(TOPIC1, 0)], C2: [tp(TOPIC1, 1)], C3: [tp(TOPIC1, 2)]}


def test_uniform_subscription_transfer_ownership_list_is_right() -> None:
    """Rack mismatches make two partitions change hands; both are reported as transferring."""
    ctx = StickyContext(True, RackConfig.BROKER_AND_CONSUMER_RACK)
    ctx.replication_factor = 1
    ctx.num_broker_racks = 2
    partitions = {TOPIC1: ctx.infos(TOPIC1, 4)}
    subscriptions = {
        "c0": ctx.v2([TOPIC1], [tp(TOPIC1, 0), tp(TOPIC1, 1)], GENERATION_ID, 0),
        "c1": ctx.v2([TOPIC1], [tp(TOPIC1, 2), tp(TOPIC1, 3)], GENERATION_ID, 1),
    }
    ctx.assign(partitions, subscriptions)
    assert ctx.assignor.partitions_transferring_ownership is not None
    assert len(ctx.assignor.partitions_transferring_ownership) == 2


def test_two_phase_handover_when_member_joins() -> None:
    """A new member gets nothing in the first rebalance (the partition is still owned); after the owner has
    revoked it, the second rebalance gives it to the new member."""
    ctx = StickyContext(True)
    partitions = {TOPIC: ctx.infos(TOPIC, 2)}
    subscriptions = {
        C1: ctx.v2([TOPIC], [tp(TOPIC, 0), tp(TOPIC, 1)], GENERATION_ID, 0),
        C2: ctx.v2([TOPIC], [], -1, 1),
    }
    first = ctx.assign(partitions, subscriptions)
    assert first == {C1: [tp(TOPIC, 0)], C2: []}
    subscriptions[C1] = ctx.v2([TOPIC], first[C1], GENERATION_ID + 1, 0)
    second = ctx.assign(partitions, subscriptions)
    assert second == {C1: [tp(TOPIC, 0)], C2: [tp(TOPIC, 1)]}
