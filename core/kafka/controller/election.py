"""Port of core/src/main/scala/kafka/controller/Election.scala (Kafka 2.8).

Leader election for the four situations the partition state machine knows: a partition without a live leader
(new or offline; unclean election optional), a partition finishing a reassignment, a preferred-replica election
and a controlled shutdown. Each function takes the partitions with their current leader and ISR and returns,
per partition, the new leader and ISR (None when no replica qualifies) and the replicas that should be told.
The choice of leader itself is in PartitionLeaderElectionAlgorithms (partition_state_machine).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kafka.common.topic_partition import TopicPartition

# Imported as a module: partition_state_machine imports this module too, and the algorithms are looked up
# when an election runs, by which time both modules are loaded.
from kafka.controller import partition_state_machine

if TYPE_CHECKING:
    from kafka.api.leader_and_isr import LeaderAndIsr
    from kafka.controller.controller_context import ControllerContext


@dataclass(frozen=True, slots=True)
class ElectionResult:
    """The outcome for one partition: the new leader and ISR, or None if no leader could be elected, and the
    replicas that should receive the LeaderAndIsr request."""

    topic_partition: TopicPartition
    leader_and_isr: LeaderAndIsr | None
    live_replicas: tuple[int, ...]


def _algorithms() -> type[partition_state_machine.PartitionLeaderElectionAlgorithms]:
    return partition_state_machine.PartitionLeaderElectionAlgorithms


def _leader_for_offline_partition(
    partition: TopicPartition,
    leader_and_isr_opt: LeaderAndIsr | None,
    unclean_leader_election_enabled: bool,
    controller_context: ControllerContext,
) -> ElectionResult:
    assignment = controller_context.partition_replica_assignment(partition)
    live_replicas = tuple(r for r in assignment if controller_context.is_replica_online(r, partition))
    if leader_and_isr_opt is None:
        return ElectionResult(partition, None, live_replicas)
    isr = leader_and_isr_opt.isr
    leader_opt = _algorithms().offline_partition_leader_election(
        assignment, isr, set(live_replicas), unclean_leader_election_enabled, controller_context
    )
    new_leader_and_isr = None
    if leader_opt is not None:
        if leader_opt in isr:
            new_isr = [r for r in isr if controller_context.is_replica_online(r, partition)]
        else:
            new_isr = [leader_opt]
        new_leader_and_isr = leader_and_isr_opt.new_leader_and_isr(leader_opt, new_isr)
    return ElectionResult(partition, new_leader_and_isr, live_replicas)


def leader_for_offline(
    controller_context: ControllerContext,
    partitions_with_unclean_leader_election_state: Sequence[tuple[TopicPartition, LeaderAndIsr | None, bool]],
) -> list[ElectionResult]:
    """Leaders for new or offline partitions: the first live in-sync replica in assignment order, or with
    unclean election allowed for the partition, the first live replica (whose ISR then is just itself)."""
    return [
        _leader_for_offline_partition(partition, leader_and_isr_opt, unclean, controller_context)
        for partition, leader_and_isr_opt, unclean in partitions_with_unclean_leader_election_state
    ]


def _leader_for_reassign_partition(
    partition: TopicPartition, leader_and_isr: LeaderAndIsr, controller_context: ControllerContext
) -> ElectionResult:
    target_replicas = controller_context.partition_full_replica_assignment(partition).target_replicas
    live_replicas = {r for r in target_replicas if controller_context.is_replica_online(r, partition)}
    leader_opt = _algorithms().reassign_partition_leader_election(target_replicas, leader_and_isr.isr, live_replicas)
    new_leader_and_isr = None if leader_opt is None else leader_and_isr.new_leader(leader_opt)
    return ElectionResult(partition, new_leader_and_isr, tuple(target_replicas))


def leader_for_reassign(
    controller_context: ControllerContext, leader_and_isrs: Sequence[tuple[TopicPartition, LeaderAndIsr]]
) -> list[ElectionResult]:
    """Leaders for partitions completing a reassignment: the first live in-sync replica of the target replicas."""
    return [_leader_for_reassign_partition(p, lai, controller_context) for p, lai in leader_and_isrs]


def _leader_for_preferred_replica_partition(
    partition: TopicPartition, leader_and_isr: LeaderAndIsr, controller_context: ControllerContext
) -> ElectionResult:
    assignment = controller_context.partition_replica_assignment(partition)
    live_replicas = {r for r in assignment if controller_context.is_replica_online(r, partition)}
    leader_opt = _algorithms().preferred_replica_partition_leader_election(
        assignment, leader_and_isr.isr, live_replicas
    )
    new_leader_and_isr = None if leader_opt is None else leader_and_isr.new_leader(leader_opt)
    return ElectionResult(partition, new_leader_and_isr, tuple(assignment))


def leader_for_preferred_replica(
    controller_context: ControllerContext, leader_and_isrs: Sequence[tuple[TopicPartition, LeaderAndIsr]]
) -> list[ElectionResult]:
    """Preferred leaders: the first assigned replica, if it is live and in sync."""
    return [_leader_for_preferred_replica_partition(p, lai, controller_context) for p, lai in leader_and_isrs]


def _leader_for_controlled_shutdown_partition(
    partition: TopicPartition,
    leader_and_isr: LeaderAndIsr,
    shutting_down_broker_ids: set[int],
    controller_context: ControllerContext,
) -> ElectionResult:
    assignment = controller_context.partition_replica_assignment(partition)
    live_or_shutting_down_replicas = tuple(
        r for r in assignment if controller_context.is_replica_online(r, partition, include_shutting_down_brokers=True)
    )
    isr = leader_and_isr.isr
    leader_opt = _algorithms().controlled_shutdown_partition_leader_election(
        assignment, isr, set(live_or_shutting_down_replicas), shutting_down_broker_ids
    )
    new_isr = [r for r in isr if r not in shutting_down_broker_ids]
    new_leader_and_isr = None if leader_opt is None else leader_and_isr.new_leader_and_isr(leader_opt, new_isr)
    return ElectionResult(partition, new_leader_and_isr, live_or_shutting_down_replicas)


def leader_for_controlled_shutdown(
    controller_context: ControllerContext, leader_and_isrs: Sequence[tuple[TopicPartition, LeaderAndIsr]]
) -> list[ElectionResult]:
    """Leaders for partitions led by shutting-down brokers: the first live in-sync replica that is not shutting
    down; the shutting-down brokers leave the ISR."""
    shutting_down_broker_ids = set(controller_context.shutting_down_broker_ids)
    return [
        _leader_for_controlled_shutdown_partition(p, lai, shutting_down_broker_ids, controller_context)
        for p, lai in leader_and_isrs
    ]
