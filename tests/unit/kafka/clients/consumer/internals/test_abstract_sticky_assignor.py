"""Tests shared by the sticky and cooperative-sticky assignors (after Java's AbstractStickyAssignorTest):
balance, stickiness across rebalances, generations of owned partitions, and partitions that must move
(which the cooperative assignor holds back for a second rebalance)."""

from __future__ import annotations

import random

import pytest

from kafka.clients.consumer.consumer_partition_assignor import Subscription
from kafka.common.partition_info import PartitionInfo
from tests.unit.kafka.clients.consumer.internals.assignor_helpers import RackConfig, is_fully_balanced, tp
from tests.unit.kafka.clients.consumer.internals.sticky_helpers import GENERATION_ID, StickyContext

TOPIC, TOPIC1, TOPIC2, TOPIC3 = "topic", "topic1", "topic2", "topic3"
C, C1, C2, C3, C4 = "consumer", "consumer1", "consumer2", "consumer3", "consumer4"

KINDS = [False, True]
KIND_IDS = ["sticky", "cooperative-sticky"]


@pytest.fixture(params=[(k, r) for k in KINDS for r in RackConfig], ids=lambda p: f"{KIND_IDS[p[0]]}-{p[1].name}")
def ctx(request: pytest.FixtureRequest) -> StickyContext:
    cooperative, rack_config = request.param
    return StickyContext(cooperative, rack_config)


@pytest.fixture(params=KINDS, ids=KIND_IDS)
def plain(request: pytest.FixtureRequest) -> StickyContext:
    return StickyContext(request.param)


def _name(prefix: str, i: int, max_num: int) -> str:
    return prefix + str(i).zfill(len(str(max_num)))


def test_member_data(plain: StickyContext) -> None:
    """Owned partitions and generation are read back from every subscription version the assignor accepts."""
    owned = [tp(TOPIC1, 0), tp(TOPIC2, 1)]
    for build, index in ((plain.v0, 0), (plain.v1, 1), (plain.v2, 2)):
        subscription = build([TOPIC], owned, GENERATION_ID, index)
        if subscription is None:
            continue
        member_data = plain.assignor.member_data(subscription)
        assert member_data.partitions == owned
        assert member_data.generation == GENERATION_ID


def test_one_consumer_no_topic(ctx: StickyContext) -> None:
    """No topics: an empty assignment, nothing transferring."""
    subscriptions = {C: ctx.subscription([], 0)}
    assignment = ctx.assign({}, subscriptions)
    assert assignment == {C: []}
    assert not ctx.assignor.partitions_transferring_ownership


def test_one_consumer_nonexistent_topic(ctx: StickyContext) -> None:
    """A topic with no partitions: an empty assignment."""
    subscriptions = {C: ctx.subscription([TOPIC], 0)}
    assignment = ctx.assign({TOPIC: []}, subscriptions)
    assert assignment == {C: []}


def test_one_consumer_one_topic(ctx: StickyContext) -> None:
    """One consumer gets every partition."""
    partitions = {TOPIC: ctx.infos(TOPIC, 3)}
    subscriptions = {C: ctx.subscription([TOPIC], 0)}
    assignment = ctx.assign(partitions, subscriptions)
    assert assignment[C] == [tp(TOPIC, 0), tp(TOPIC, 1), tp(TOPIC, 2)]
    assert not ctx.assignor.partitions_transferring_ownership
    ctx.verify(subscriptions, assignment, partitions)


def test_only_assigns_partitions_from_subscribed_topics(ctx: StickyContext) -> None:
    """Owned partitions of other topics are dropped."""
    partitions = {TOPIC: ctx.infos(TOPIC, 2)}
    owned = [tp(TOPIC, 0), tp(TOPIC, 1), tp("other", 0), tp("other", 1)]
    subscriptions = {C: ctx.v2([TOPIC], owned, GENERATION_ID, 0)}
    assignment = ctx.assign(partitions, subscriptions)
    assert assignment[C] == [tp(TOPIC, 0), tp(TOPIC, 1)]
    assert not ctx.assignor.partitions_transferring_ownership
    ctx.verify(subscriptions, assignment, partitions)


def test_one_consumer_multiple_topics(ctx: StickyContext) -> None:
    """One consumer gets all partitions of all its topics."""
    partitions = {TOPIC1: ctx.infos(TOPIC1, 1), TOPIC2: ctx.infos(TOPIC2, 2)}
    subscriptions = {C: ctx.subscription([TOPIC1, TOPIC2], 0)}
    assignment = ctx.assign(partitions, subscriptions)
    assert assignment[C] == [tp(TOPIC1, 0), tp(TOPIC2, 0), tp(TOPIC2, 1)]


def test_two_consumers_one_topic_two_partitions(ctx: StickyContext) -> None:
    """Two partitions, one each."""
    partitions = {TOPIC: ctx.infos(TOPIC, 2)}
    subscriptions = {C1: ctx.subscription([TOPIC], 0), C2: ctx.subscription([TOPIC], 1)}
    assignment = ctx.assign(partitions, subscriptions)
    assert assignment == {C1: [tp(TOPIC, 0)], C2: [tp(TOPIC, 1)]}
    ctx.verify(subscriptions, assignment, partitions)
    assert is_fully_balanced(assignment)


def test_multiple_consumers_mixed_topic_subscriptions(ctx: StickyContext) -> None:
    """Different subscriptions take the general algorithm (no transfer list: the cooperative assignor computes
    it), still balanced."""
    partitions = {TOPIC1: ctx.infos(TOPIC1, 3), TOPIC2: ctx.infos(TOPIC2, 2)}
    subscriptions = {
        C1: ctx.subscription([TOPIC1], 0),
        C2: ctx.subscription([TOPIC1, TOPIC2], 1),
        C3: ctx.subscription([TOPIC1], 2),
    }
    assignment = ctx.assign(partitions, subscriptions)
    assert assignment == {C1: [tp(TOPIC1, 0), tp(TOPIC1, 2)], C2: [tp(TOPIC2, 0), tp(TOPIC2, 1)], C3: [tp(TOPIC1, 1)]}
    assert ctx.assignor.partitions_transferring_ownership is None
    ctx.verify(subscriptions, assignment, partitions)
    assert is_fully_balanced(assignment)


def test_two_consumers_two_topics_six_partitions(ctx: StickyContext) -> None:
    """Six partitions are dealt round-robin over two members with the same subscription."""
    partitions = {TOPIC1: ctx.infos(TOPIC1, 3), TOPIC2: ctx.infos(TOPIC2, 3)}
    subscriptions = {C1: ctx.subscription([TOPIC1, TOPIC2], 0), C2: ctx.subscription([TOPIC1, TOPIC2], 1)}
    assignment = ctx.assign(partitions, subscriptions)
    assert assignment[C1] == [tp(TOPIC1, 0), tp(TOPIC1, 2), tp(TOPIC2, 1)]
    assert assignment[C2] == [tp(TOPIC1, 1), tp(TOPIC2, 0), tp(TOPIC2, 2)]
    assert not ctx.assignor.partitions_transferring_ownership


def test_consumer_owning_min_quota_expected_max_quota(ctx: StickyContext) -> None:
    """A member owning the minimum quota keeps it and takes the one extra partition."""
    partitions = {TOPIC1: ctx.infos(TOPIC1, 2), TOPIC2: ctx.infos(TOPIC2, 3)}
    topics = [TOPIC1, TOPIC2]
    subscriptions = {
        C1: ctx.v2(topics, [tp(TOPIC1, 0), tp(TOPIC2, 1)], GENERATION_ID, 0),
        C2: ctx.v2(topics, [tp(TOPIC1, 1), tp(TOPIC2, 2)], GENERATION_ID, 1),
    }
    assignment = ctx.assign(partitions, subscriptions)
    assert assignment[C1] == [tp(TOPIC1, 0), tp(TOPIC2, 1), tp(TOPIC2, 0)]
    assert assignment[C2] == [tp(TOPIC1, 1), tp(TOPIC2, 2)]
    assert not ctx.assignor.partitions_transferring_ownership
    ctx.verify(subscriptions, assignment, partitions)


def test_max_quota_consumer_more_than_num_expected_max_capacity_members(ctx: StickyContext) -> None:
    """More members at the max quota than allowed: one gives a partition up, which is reported as
    transferring (and held back by the cooperative assignor until revoked)."""
    partitions = {TOPIC1: ctx.infos(TOPIC1, 2), TOPIC2: ctx.infos(TOPIC2, 2)}
    topics = [TOPIC1, TOPIC2]
    subscriptions = {
        C1: ctx.v2(topics, [tp(TOPIC1, 0), tp(TOPIC2, 0)], GENERATION_ID, 0),
        C2: ctx.v2(topics, [tp(TOPIC1, 1), tp(TOPIC2, 1)], GENERATION_ID, 1),
        C3: ctx.v2(topics, [], GENERATION_ID, 2),
    }
    assignment = ctx.assign(partitions, subscriptions)
    # PORT: which of the two full members gives a partition up follows Java's HashMap order in Java; here the
    # first member in order keeps its maximum quota.
    transferring = ctx.assignor.partitions_transferring_ownership
    assert transferring is not None and len(transferring) == 1 and set(transferring.values()) == {C3}
    moved = next(iter(transferring))
    assert moved.topic == TOPIC2
    assert tp(TOPIC1, 0) in assignment[C1] and tp(TOPIC1, 1) in assignment[C2]
    assert sorted(len(assignment[c]) for c in (C1, C2)) == [1, 2]
    assert assignment[C3] == ([] if ctx.cooperative else [moved])
    ctx.verify(subscriptions, assignment, partitions)
    assert is_fully_balanced(assignment)


def test_all_consumers_are_under_min_quota(ctx: StickyContext) -> None:
    """Members under the minimum keep what they own and are filled round-robin."""
    partitions = {TOPIC1: ctx.infos(TOPIC1, 2), TOPIC2: ctx.infos(TOPIC2, 3)}
    topics = [TOPIC1, TOPIC2]
    subscriptions = {
        C1: ctx.v2(topics, [tp(TOPIC1, 0)], GENERATION_ID, 0),
        C2: ctx.v2(topics, [tp(TOPIC1, 1)], GENERATION_ID, 1),
        C3: ctx.v2(topics, [], GENERATION_ID, 2),
    }
    assignment = ctx.assign(partitions, subscriptions)
    assert not ctx.assignor.partitions_transferring_ownership
    assert assignment[C1] == [tp(TOPIC1, 0), tp(TOPIC2, 1)]
    assert assignment[C2] == [tp(TOPIC1, 1), tp(TOPIC2, 2)]
    assert assignment[C3] == [tp(TOPIC2, 0)]


def test_add_remove_consumer_one_topic(ctx: StickyContext) -> None:
    """A new member takes one partition from the owner (a transfer); when the owner leaves, the other keeps
    its partition and takes the rest."""
    partitions = {TOPIC: ctx.infos(TOPIC, 3)}
    subscriptions: dict[str, Subscription] = {C1: ctx.subscription([TOPIC], 0)}
    assignment = ctx.assign(partitions, subscriptions)
    assert assignment[C1] == [tp(TOPIC, 0), tp(TOPIC, 1), tp(TOPIC, 2)]
    subscriptions[C1] = ctx.v2([TOPIC], assignment[C1], GENERATION_ID, 0)
    subscriptions[C2] = ctx.v2([TOPIC], [], GENERATION_ID, 1)
    assignment = ctx.assign(partitions, subscriptions)
    assert ctx.assignor.partitions_transferring_ownership == {tp(TOPIC, 2): C2}
    ctx.verify(subscriptions, assignment, partitions)
    assert assignment[C1] == [tp(TOPIC, 0), tp(TOPIC, 1)]
    assert assignment[C2] == [tp(TOPIC, 2)]
    del subscriptions[C1]
    subscriptions[C2] = ctx.v2([TOPIC], assignment[C2], GENERATION_ID, 1)
    assignment = ctx.assign(partitions, subscriptions)
    assert set(assignment[C2]) == {tp(TOPIC, 0), tp(TOPIC, 1), tp(TOPIC, 2)}
    assert not ctx.assignor.partitions_transferring_ownership


def test_add_remove_two_consumers_two_topics(ctx: StickyContext) -> None:
    """Adding two members moves only what balance needs; removing two gives their partitions to the rest."""
    topics = [TOPIC1, TOPIC2]
    partitions = {TOPIC1: ctx.infos(TOPIC1, 3), TOPIC2: ctx.infos(TOPIC2, 4)}
    subscriptions = {C1: ctx.subscription(topics, 0), C2: ctx.subscription(topics, 1)}
    assignment = ctx.assign(partitions, subscriptions)
    assert assignment[C1] == [tp(TOPIC1, 0), tp(TOPIC1, 2), tp(TOPIC2, 1), tp(TOPIC2, 3)]
    assert assignment[C2] == [tp(TOPIC1, 1), tp(TOPIC2, 0), tp(TOPIC2, 2)]
    subscriptions[C1] = ctx.v2(topics, assignment[C1], GENERATION_ID, 0)
    subscriptions[C2] = ctx.v2(topics, assignment[C2], GENERATION_ID, 1)
    subscriptions[C3] = ctx.v2(topics, [], GENERATION_ID, 2)
    subscriptions[C4] = ctx.v2(topics, [], GENERATION_ID, 3)
    assignment = ctx.assign(partitions, subscriptions)
    assert ctx.assignor.partitions_transferring_ownership == {
        tp(TOPIC1, 2): C3,
        tp(TOPIC2, 3): C3,
        tp(TOPIC2, 2): C4,
    }
    ctx.verify(subscriptions, assignment, partitions)
    assert assignment[C1] == [tp(TOPIC1, 0), tp(TOPIC2, 1)]
    assert assignment[C2] == [tp(TOPIC2, 0), tp(TOPIC1, 1)]
    assert assignment[C3] == [tp(TOPIC1, 2), tp(TOPIC2, 3)]
    assert assignment[C4] == [tp(TOPIC2, 2)]
    del subscriptions[C1]
    del subscriptions[C2]
    subscriptions[C3] = ctx.v2(topics, assignment[C3], GENERATION_ID, 2)
    subscriptions[C4] = ctx.v2(topics, assignment[C4], GENERATION_ID, 3)
    assignment = ctx.assign(partitions, subscriptions)
    assert assignment[C3] == [tp(TOPIC1, 2), tp(TOPIC2, 3), tp(TOPIC1, 0), tp(TOPIC2, 1)]
    assert assignment[C4] == [tp(TOPIC2, 2), tp(TOPIC1, 1), tp(TOPIC2, 0)]
    assert not ctx.assignor.partitions_transferring_ownership


def test_add_remove_topic_two_consumers(ctx: StickyContext) -> None:
    """Adding a topic keeps every member's partitions; removing one keeps what remains of them."""
    partitions = {TOPIC: ctx.infos(TOPIC, 3)}
    subscriptions = {C1: ctx.subscription([TOPIC], 0), C2: ctx.subscription([TOPIC], 1)}
    assignment = ctx.assign(partitions, subscriptions)
    first1, first2 = assignment[C1], assignment[C2]
    assert sorted([len(first1), len(first2)]) == [1, 2]
    partitions[TOPIC2] = ctx.infos(TOPIC2, 3)
    subscriptions[C1] = ctx.v2([TOPIC, TOPIC2], assignment[C1], GENERATION_ID, 0)
    subscriptions[C2] = ctx.v2([TOPIC, TOPIC2], assignment[C2], GENERATION_ID, 1)
    assignment = ctx.assign(partitions, subscriptions)
    second1, second2 = assignment[C1], assignment[C2]
    assert len(second1) == 3 and len(second2) == 3
    assert set(first1) <= set(second1) and set(first2) <= set(second2)
    del partitions[TOPIC]
    subscriptions[C1] = ctx.v2([TOPIC2], assignment[C1], GENERATION_ID, 0)
    subscriptions[C2] = ctx.v2([TOPIC2], assignment[C2], GENERATION_ID, 1)
    assignment = ctx.assign(partitions, subscriptions)
    ctx.verify(subscriptions, assignment, partitions)
    assert sorted([len(assignment[C1]), len(assignment[C2])]) == [1, 2]
    assert set(assignment[C1]) <= set(second1) and set(assignment[C2]) <= set(second2)


def test_reassignment_after_one_consumer_leaves(ctx: StickyContext) -> None:
    """With 19 members of nested subscriptions, one leaving rebalances validly without undoing movements."""
    partitions: dict[str, list[PartitionInfo]] = {}
    for i in range(1, 20):
        name = _name("t", i, 20)
        partitions[name] = ctx.infos(name, i)
    subscriptions: dict[str, Subscription] = {}
    for i in range(1, 20):
        subscriptions[_name("c", i, 20)] = ctx.subscription([_name("t", j, 20) for j in range(1, i + 1)], i)
    assignment = ctx.assign(partitions, subscriptions)
    ctx.verify(subscriptions, assignment, partitions)
    for i in range(1, 20):
        consumer = _name("c", i, 20)
        subscriptions[consumer] = ctx.v2(subscriptions[consumer].topics, assignment[consumer], GENERATION_ID, i)
    del subscriptions["c10"]
    assignment = ctx.assign(partitions, subscriptions)
    ctx.verify(subscriptions, assignment, partitions)
    assert ctx.assignor.is_sticky()


def test_same_subscriptions(ctx: StickyContext) -> None:
    """Eight members with one subscription over 14 topics; one leaving moves only its partitions."""
    partitions: dict[str, list[PartitionInfo]] = {}
    for i in range(1, 15):
        name = _name("t", i, 15)
        partitions[name] = ctx.infos(name, i)
    topics = [_name("t", j, 15) for j in range(1, 15)]
    subscriptions = {_name("c", i, 9): ctx.subscription(topics, i) for i in range(1, 9)}
    assignment = ctx.assign(partitions, subscriptions)
    ctx.verify(subscriptions, assignment, partitions)
    for i in range(1, 9):
        consumer = _name("c", i, 9)
        subscriptions[consumer] = ctx.v2(topics, assignment[consumer], GENERATION_ID, i)
    before = {c: set(a) for c, a in assignment.items()}
    del subscriptions[_name("c", 5, 9)]
    assignment = ctx.assign(partitions, subscriptions)
    assert not ctx.assignor.partitions_transferring_ownership
    ctx.verify(subscriptions, assignment, partitions)
    for consumer, parts in assignment.items():
        assert before[consumer] <= set(parts)


def test_large_assignment_with_multiple_consumers_leaving_and_random_subscription(ctx: StickyContext) -> None:
    """200 members with random subscriptions over 40 topics; 50 leave; the result stays valid and sticky."""
    rng = random.Random(42)
    partitions: dict[str, list[PartitionInfo]] = {}
    for i in range(40):
        name = _name("t", i, 40)
        partitions[name] = ctx.infos(name, rng.randint(1, 10))
    subscriptions: dict[str, Subscription] = {}
    for i in range(200):
        topics = [_name("t", rng.randrange(40), 40) for _ in range(rng.randrange(20))]
        subscriptions[_name("c", i, 200)] = ctx.subscription(topics, i)
    assignment = ctx.assign(partitions, subscriptions)
    ctx.verify(subscriptions, assignment, partitions)
    for i in range(1, 200):
        consumer = _name("c", i, 200)
        subscriptions[consumer] = ctx.v2(subscriptions[consumer].topics, assignment[consumer], GENERATION_ID, i)
    for _ in range(50):
        subscriptions.pop(_name("c", rng.randrange(200), 200), None)
    assignment = ctx.assign(partitions, subscriptions)
    ctx.verify(subscriptions, assignment, partitions)
    assert ctx.assignor.is_sticky()


def test_move_existing_assignments(ctx: StickyContext) -> None:
    """Existing assignments of differing subscriptions stay valid (general algorithm)."""
    partitions = {f"topic{i}": ctx.infos(f"topic{i}", 1) for i in range(1, 7)}
    subscriptions = {
        C1: ctx.v2(["topic1", "topic2"], [tp("topic1", 0)], GENERATION_ID, 0),
        C2: ctx.v2(["topic1", "topic2", "topic3", "topic4"], [tp("topic2", 0), tp("topic3", 0)], GENERATION_ID, 1),
        C3: ctx.v2(
            ["topic2", "topic3", "topic4", "topic5", "topic6"],
            [tp("topic4", 0), tp("topic5", 0), tp("topic6", 0)],
            GENERATION_ID,
            2,
        ),
    }
    assignment = ctx.assign(partitions, subscriptions)
    assert ctx.assignor.partitions_transferring_ownership is None
    ctx.verify(subscriptions, assignment, partitions)


def test_stickiness(ctx: StickyContext) -> None:
    """When the leader leaves, the other members keep the partitions they had."""
    partitions = {TOPIC1: ctx.infos(TOPIC1, 3)}
    subscriptions = {c: ctx.subscription([TOPIC1], i) for i, c in enumerate([C1, C2, C3, C4])}
    assignment = ctx.assign(partitions, subscriptions)
    ctx.verify(subscriptions, assignment, partitions)
    assigned = {}
    for consumer, parts in assignment.items():
        assert len(parts) <= 1
        if parts:
            assigned[consumer] = parts[0]
    del subscriptions[C1]
    for i, consumer in enumerate([C2, C3, C4], start=1):
        subscriptions[consumer] = ctx.v2([TOPIC1], assignment[consumer], GENERATION_ID, i)
    assignment = ctx.assign(partitions, subscriptions)
    ctx.verify(subscriptions, assignment, partitions)
    for consumer, parts in assignment.items():
        assert len(parts) == 1
        if consumer in assigned:
            assert parts[0] == assigned[consumer]


def test_assignment_updated_for_deleted_topic(ctx: StickyContext) -> None:
    """A subscribed topic without partitions is left out."""
    partitions = {TOPIC1: ctx.infos(TOPIC1, 1), TOPIC3: ctx.infos(TOPIC3, 100)}
    subscriptions = {C: ctx.subscription([TOPIC1, TOPIC2, TOPIC3], 0)}
    assignment = ctx.assign(partitions, subscriptions)
    assert len(assignment[C]) == 101
    assert not ctx.assignor.partitions_transferring_ownership


def test_no_exception_thrown_when_only_subscribed_topic_deleted(ctx: StickyContext) -> None:
    """When the only subscribed topic is deleted the assignment is empty."""
    partitions = {TOPIC: ctx.infos(TOPIC, 3)}
    subscriptions = {C: ctx.subscription([TOPIC], 0)}
    assignment = ctx.assign(partitions, subscriptions)
    subscriptions[C] = ctx.v2([TOPIC], assignment[C], GENERATION_ID, 0)
    assignment = ctx.assign({}, subscriptions)
    assert assignment == {C: []}


def test_owned_partitions_are_invalidated_for_consumer_with_stale_generation(ctx: StickyContext) -> None:
    """Partitions claimed by an older generation too go to the member of the current one."""
    partitions = {TOPIC: ctx.infos(TOPIC, 3), TOPIC2: ctx.infos(TOPIC2, 3)}
    current = 10
    owned = [tp(TOPIC, 0), tp(TOPIC, 2), tp(TOPIC2, 1)]
    subscriptions = {
        C1: ctx.v2([TOPIC, TOPIC2], owned, current, 0),
        C2: ctx.v2([TOPIC, TOPIC2], owned, current - 1, 1),
    }
    assignment = ctx.assign(partitions, subscriptions)
    assert set(assignment[C1]) == set(owned)
    assert set(assignment[C2]) == {tp(TOPIC, 1), tp(TOPIC2, 0), tp(TOPIC2, 2)}
    assert not ctx.assignor.partitions_transferring_ownership
    ctx.verify(subscriptions, assignment, partitions)
    assert is_fully_balanced(assignment)


def test_partitions_transferring_ownership_include_the_partition_claimed_by_multiple_consumers_in_same_generation(
    ctx: StickyContext,
) -> None:
    """A partition claimed by two members of one generation is taken from both and reported as transferring."""
    partitions = {TOPIC: ctx.infos(TOPIC, 3)}
    subscriptions = {
        C1: ctx.v2([TOPIC], [tp(TOPIC, 0), tp(TOPIC, 1)], GENERATION_ID, 0),
        C2: ctx.v2([TOPIC], [tp(TOPIC, 0), tp(TOPIC, 2)], GENERATION_ID, 1),
        C3: ctx.v2([TOPIC], [], GENERATION_ID, 2),
    }
    assignment = ctx.assign(partitions, subscriptions)
    assert ctx.assignor.partitions_transferring_ownership == {tp(TOPIC, 0): C3}
    assert assignment[C1] == [tp(TOPIC, 1)]
    assert assignment[C2] == [tp(TOPIC, 2)]
    assert assignment[C3] == ([] if ctx.cooperative else [tp(TOPIC, 0)])


def test_ensure_partitions_assigned_to_highest_generation(ctx: StickyContext) -> None:
    """Of several claims on a partition, the member with the highest generation keeps it."""
    partitions = {TOPIC: ctx.infos(TOPIC, 3), TOPIC2: ctx.infos(TOPIC2, 3), TOPIC3: ctx.infos(TOPIC3, 3)}
    current = 10
    topics = [TOPIC, TOPIC2, TOPIC3]
    subscriptions = {
        C1: ctx.v2(topics, [tp(TOPIC, 0), tp(TOPIC2, 0), tp(TOPIC3, 0)], current, 0),
        C2: ctx.v2(topics, [tp(TOPIC, 1), tp(TOPIC2, 1), tp(TOPIC3, 1)], current - 1, 1),
        C3: ctx.v2(topics, [tp(TOPIC2, 1), tp(TOPIC3, 0), tp(TOPIC3, 2)], current - 2, 1),
    }
    assignment = ctx.assign(partitions, subscriptions)
    assert set(assignment[C1]) == {tp(TOPIC, 0), tp(TOPIC2, 0), tp(TOPIC3, 0)}
    assert set(assignment[C2]) == {tp(TOPIC, 1), tp(TOPIC2, 1), tp(TOPIC3, 1)}
    assert set(assignment[C3]) == {tp(TOPIC, 2), tp(TOPIC2, 2), tp(TOPIC3, 2)}
    assert not ctx.assignor.partitions_transferring_ownership
    ctx.verify(subscriptions, assignment, partitions)
    assert is_fully_balanced(assignment)


def test_no_reassignment_on_current_members(ctx: StickyContext) -> None:
    """Members keep their partitions whatever their (older) generations; the new member takes the rest."""
    partitions = {t: ctx.infos(t, 3) for t in (TOPIC, TOPIC1, TOPIC2, TOPIC3)}
    topics = [TOPIC, TOPIC2, TOPIC3, TOPIC1]
    current = 10
    subscriptions = {
        C1: ctx.v2(topics, [], -1, 0),
        C2: ctx.v2(topics, [tp(TOPIC, 0), tp(TOPIC2, 0), tp(TOPIC1, 0)], current - 1, 1),
        C3: ctx.v2(topics, [tp(TOPIC3, 2), tp(TOPIC2, 2), tp(TOPIC1, 1)], current - 2, 2),
        C4: ctx.v2(topics, [tp(TOPIC3, 1), tp(TOPIC, 1), tp(TOPIC, 2)], current - 3, 3),
    }
    assignment = ctx.assign(partitions, subscriptions)
    assert set(assignment[C1]) == {tp(TOPIC1, 2), tp(TOPIC2, 1), tp(TOPIC3, 0)}
    assert not ctx.assignor.partitions_transferring_ownership
    ctx.verify(subscriptions, assignment, partitions)
    assert is_fully_balanced(assignment)


def test_subscription_not_equal_and_assign_same_partition_with_3_generation(plain: StickyContext) -> None:
    """Whatever the order of three generations claiming partitions, no partition is assigned twice and every
    member gets one or two."""
    partitions = {TOPIC: plain.infos(TOPIC, 6), TOPIC1: plain.infos(TOPIC1, 1)}
    for g1, g2, g3 in ((1, 2, 3), (1, 3, 2), (2, 1, 3), (2, 3, 1), (3, 1, 2), (3, 2, 1)):
        subscriptions = {
            C1: plain.v2([TOPIC], [tp(TOPIC, 0), tp(TOPIC, 2)], g1, 0),
            C2: plain.v2([TOPIC], [tp(TOPIC, 1), tp(TOPIC, 2), tp(TOPIC, 3)], g2, 1),
            C3: plain.v2([TOPIC], [tp(TOPIC, 2), tp(TOPIC, 4), tp(TOPIC, 5)], g3, 2),
            C4: plain.v2([TOPIC1], [tp(TOPIC1, 0)], 2, 3),
        }
        assignment = plain.assign(partitions, subscriptions)
        all_assigned = [p for parts in assignment.values() for p in parts]
        assert len(all_assigned) == len(set(all_assigned))
        assert all(1 <= len(parts) <= 2 for parts in assignment.values())
