"""Tests of the leader election algorithms and of Election's per-situation results."""

from __future__ import annotations

from kafka.api.leader_and_isr import LeaderAndIsr
from kafka.common.topic_partition import TopicPartition
from kafka.controller import election
from kafka.controller.controller_context import ControllerContext, ReplicaAssignment
from kafka.controller.partition_state_machine import PartitionLeaderElectionAlgorithms as Algorithms
from tests.unit.kafka.controller.controller_fakes import broker

TP = TopicPartition("t", 0)


def context(live: list[int], assignment: ReplicaAssignment) -> ControllerContext:
    ctx = ControllerContext()
    ctx.set_live_brokers({broker(b): 10 + b for b in live})
    ctx.set_all_topics({"t"})
    ctx.update_partition_full_replica_assignment(TP, assignment)
    return ctx


def test_offline_partition_election_algorithm() -> None:
    """The first live ISR member in assignment order leads; unclean election falls back to any live replica."""
    ctx = ControllerContext()
    # The meter is the process's one kafka.controller:type=ControllerStats,name=UncleanLeaderElectionsPerSec (as in
    # Yammer's default registry): other tests in this process may have marked it, so the change is what counts.
    before = ctx.stats.unclean_leader_election_rate.count
    assert Algorithms.offline_partition_leader_election([1, 2, 3], [3, 2], {2, 3}, False, ctx) == 2
    assert Algorithms.offline_partition_leader_election([1, 2, 3], [1], {2, 3}, False, ctx) is None
    assert ctx.stats.unclean_leader_election_rate.count == before
    assert Algorithms.offline_partition_leader_election([1, 2, 3], [1], {2, 3}, True, ctx) == 2
    assert ctx.stats.unclean_leader_election_rate.count == before + 1
    assert Algorithms.offline_partition_leader_election([1, 2, 3], [1], set(), True, ctx) is None


def test_other_election_algorithms() -> None:
    """Reassignment, preferred-replica and controlled-shutdown elections pick as Kafka does."""
    assert Algorithms.reassign_partition_leader_election([4, 5, 6], [1, 5, 6], {4, 5, 6}) == 5
    assert Algorithms.reassign_partition_leader_election([4, 5], [1], {4, 5}) is None
    assert Algorithms.preferred_replica_partition_leader_election([1, 2], [1, 2], {1, 2}) == 1
    assert Algorithms.preferred_replica_partition_leader_election([1, 2], [2], {1, 2}) is None
    assert Algorithms.preferred_replica_partition_leader_election([1, 2], [1, 2], {2}) is None
    assert Algorithms.preferred_replica_partition_leader_election([], [1], {1}) is None
    assert Algorithms.controlled_shutdown_partition_leader_election([1, 2, 3], [1, 2, 3], {1, 2, 3}, {1}) == 2
    assert Algorithms.controlled_shutdown_partition_leader_election([1, 2], [1, 2], {1, 2}, {1, 2}) is None


def test_leader_for_offline_shrinks_the_isr_to_live_members() -> None:
    """A clean offline election keeps the live ISR members and bumps the leader epoch."""
    ctx = context([2, 3], ReplicaAssignment([1, 2, 3]))
    (result,) = election.leader_for_offline(ctx, [(TP, LeaderAndIsr(1, 4, (1, 2, 3), 7), False)])
    assert result.leader_and_isr == LeaderAndIsr(2, 5, (2, 3), 7)
    assert result.live_replicas == (2, 3)


def test_leader_for_offline_unclean_makes_the_leader_the_whole_isr() -> None:
    """An unclean election's leader is not in the ISR, so the ISR becomes just the leader."""
    ctx = context([3], ReplicaAssignment([1, 2, 3]))
    (clean,) = election.leader_for_offline(ctx, [(TP, LeaderAndIsr(1, 4, (1,), 7), False)])
    assert clean.leader_and_isr is None
    (unclean,) = election.leader_for_offline(ctx, [(TP, LeaderAndIsr(1, 4, (1,), 7), True)])
    assert unclean.leader_and_isr == LeaderAndIsr(3, 5, (3,), 7)
    (no_state,) = election.leader_for_offline(ctx, [(TP, None, True)])
    assert no_state.leader_and_isr is None and no_state.live_replicas == (3,)


def test_leader_for_reassign_uses_the_target_replicas() -> None:
    """A reassignment's leader comes from the target replicas and the request goes to them."""
    ctx = context([1, 2, 3, 4], ReplicaAssignment([1, 2]).reassign_to([3, 4]))
    (result,) = election.leader_for_reassign(ctx, [(TP, LeaderAndIsr(1, 0, (1, 2, 3, 4), 0))])
    assert result.leader_and_isr is not None and result.leader_and_isr.leader == 3
    assert result.live_replicas == (3, 4)


def test_leader_for_preferred_replica_keeps_the_isr() -> None:
    """A preferred election changes only the leader (and epoch); every assigned replica is told."""
    ctx = context([1, 2], ReplicaAssignment([1, 2]))
    (result,) = election.leader_for_preferred_replica(ctx, [(TP, LeaderAndIsr(2, 3, (2, 1), 1))])
    assert result.leader_and_isr == LeaderAndIsr(1, 4, (2, 1), 1)
    assert result.live_replicas == (1, 2)


def test_leader_for_controlled_shutdown_removes_shutting_down_brokers_from_the_isr() -> None:
    """The shutting-down brokers leave the ISR and the leadership; they still get the request."""
    ctx = context([1, 2, 3], ReplicaAssignment([1, 2, 3]))
    ctx.shutting_down_broker_ids.update({1, 3})
    (result,) = election.leader_for_controlled_shutdown(ctx, [(TP, LeaderAndIsr(1, 0, (1, 2, 3), 0))])
    assert result.leader_and_isr == LeaderAndIsr(2, 1, (2,), 0)
    assert result.live_replicas == (1, 2, 3)
