"""Port of clients/src/main/java/org/apache/kafka/clients/consumer/RangeAssignor.java (Kafka 3.7).

The "range" assignor: per topic, the members subscribed to it (in MemberInfo order) get consecutive
ranges of partitions, the first `partitions % members` of them one partition more. With consumer racks
(client.rack) and replica racks known, partitions are first given to members in a replica's rack
(KIP-881), keeping co-partitioned topics together where possible.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping

from kafka.clients.consumer.consumer_partition_assignor import Subscription
from kafka.clients.consumer.internals.abstract_partition_assignor import AbstractPartitionAssignor, MemberInfo
from kafka.common.partition_info import PartitionInfo
from kafka.common.topic_partition import TopicPartition

__all__ = ["RangeAssignor"]


class RangeAssignor(AbstractPartitionAssignor):
    RANGE_ASSIGNOR_NAME = "range"

    def name(self) -> str:
        return self.RANGE_ASSIGNOR_NAME

    @staticmethod
    def _consumers_per_topic(consumer_metadata: Mapping[str, Subscription]) -> dict[str, list[MemberInfo]]:
        topic_to_consumers: dict[str, list[MemberInfo]] = {}
        for consumer_id, subscription in consumer_metadata.items():
            member_info = MemberInfo(consumer_id, subscription.group_instance_id, subscription.rack_id)
            for topic in subscription.topics:
                topic_to_consumers.setdefault(topic, []).append(member_info)
        return topic_to_consumers

    def assign_partitions(
        self, partitions_per_topic: Mapping[str, list[PartitionInfo]], subscriptions: Mapping[str, Subscription]
    ) -> dict[str, list[TopicPartition]]:
        consumers_per_topic = self._consumers_per_topic(subscriptions)
        consumer_racks = _consumer_racks(subscriptions)
        states = [
            _TopicAssignmentState(self, topic, infos, consumers_per_topic.get(topic), consumer_racks)
            for topic, infos in partitions_per_topic.items()
            if infos
        ]
        assignment: dict[str, list[TopicPartition]] = {member_id: [] for member_id in subscriptions}
        use_rack_aware = any(s.needs_rack_aware_assignment for s in states)
        if use_rack_aware:
            self._assign_with_rack_matching(states, assignment)
        for state in states:
            self._assign_ranges(state, lambda c, tp: True, assignment)
        if use_rack_aware:
            for partitions in assignment.values():
                partitions.sort()
        return assignment

    def assign_counts(
        self, partitions_per_topic: Mapping[str, int], subscriptions: Mapping[str, Subscription]
    ) -> dict[str, list[TopicPartition]]:
        # Kept for assignors built on this one; the built-in path goes through assign_partitions.
        return self.assign_partitions(self.partition_infos_without_racks(partitions_per_topic), subscriptions)

    def _assign_ranges(
        self,
        state: _TopicAssignmentState,
        may_assign: Callable[[str, TopicPartition], bool],
        assignment: dict[str, list[TopicPartition]],
    ) -> None:
        for consumer in state.consumers:
            if not state.unassigned_partitions:
                break
            limit = state.max_assignable(consumer)
            assignable = [tp for tp in state.unassigned_partitions if may_assign(consumer, tp)][:limit]
            if not assignable:
                continue
            self._assign(consumer, assignable, state, assignment)

    def _assign_with_rack_matching(
        self, states: Collection[_TopicAssignmentState], assignment: dict[str, list[TopicPartition]]
    ) -> None:
        # Topics with the same consumers, then the same partition count, are co-partitioned.
        by_consumers: dict[tuple[tuple[str, str | None], ...], list[_TopicAssignmentState]] = {}
        for state in states:
            by_consumers.setdefault(tuple(state.consumers.items()), []).append(state)
        for consumer_key, consumer_states in by_consumers.items():
            consumers = dict(consumer_key)
            by_count: dict[int, list[_TopicAssignmentState]] = {}
            for state in consumer_states:
                by_count.setdefault(len(state.partition_racks), []).append(state)
            for num_partitions, co_partitioned in by_count.items():
                if len(co_partitioned) > 1:
                    self._assign_co_partitioned_with_rack_matching(
                        consumers, num_partitions, co_partitioned, assignment
                    )
                else:
                    state = co_partitioned[0]
                    if state.needs_rack_aware_assignment:
                        self._assign_ranges(state, state.racks_match, assignment)

    def _assign_co_partitioned_with_rack_matching(
        self,
        consumers: Mapping[str, str | None],
        num_partitions: int,
        states: Collection[_TopicAssignmentState],
        assignment: dict[str, list[TopicPartition]],
    ) -> None:
        remaining_consumers = list(consumers)
        for p in range(num_partitions):
            matching = next(
                (
                    c
                    for c in remaining_consumers
                    if all(t.racks_match(c, TopicPartition(t.topic, p)) and t.max_assignable(c) > 0 for t in states)
                ),
                None,
            )
            if matching is not None:
                for t in states:
                    self._assign(matching, [TopicPartition(t.topic, p)], t, assignment)
                if not any(t.max_assignable(matching) > 0 for t in states):
                    remaining_consumers.remove(matching)
                    if not remaining_consumers:
                        break

    @staticmethod
    def _assign(
        consumer: str,
        partitions: list[TopicPartition],
        state: _TopicAssignmentState,
        assignment: dict[str, list[TopicPartition]],
    ) -> None:
        assignment[consumer].extend(partitions)
        state.on_assigned(consumer, partitions)


def _consumer_racks(subscriptions: Mapping[str, Subscription]) -> dict[str, str]:
    return {member_id: s.rack_id for member_id, s in subscriptions.items() if s.rack_id}


class _TopicAssignmentState:
    """Assignment progress of one topic: who may still get how many of its partitions."""

    def __init__(
        self,
        assignor: AbstractPartitionAssignor,
        topic: str,
        partition_infos: list[PartitionInfo],
        members_or_none: list[MemberInfo] | None,
        consumer_racks: Mapping[str, str],
    ) -> None:
        self.topic = topic
        members = sorted(members_or_none or [])
        # Insertion-ordered: member id -> rack (None when the member gave none).
        self.consumers: dict[str, str | None] = {}
        for m in members:
            self.consumers.setdefault(m.member_id, consumer_racks.get(m.member_id))
        # Insertion-ordered set of the partitions not yet assigned.
        self.unassigned_partitions: dict[TopicPartition, None] = {
            TopicPartition(p.topic, p.partition): None for p in partition_infos
        }
        self.num_assigned_by_consumer = dict.fromkeys(self.consumers, 0)
        n = len(self.consumers)
        self.num_partitions_per_consumer = 0 if n == 0 else len(partition_infos) // n
        self.remaining_consumers_with_extra_partition = 0 if n == 0 else len(partition_infos) % n

        all_consumer_racks = {consumer_racks[m.member_id] for m in members if m.member_id in consumer_racks}
        all_partition_racks: set[str] = set()
        self.partition_racks: dict[TopicPartition, set[str]] = {}
        if all_consumer_racks:
            for p in partition_infos:
                racks = {node.rack for node in p.replicas if node.rack is not None}
                self.partition_racks[TopicPartition(p.topic, p.partition)] = racks
                all_partition_racks.update(racks)
        self.needs_rack_aware_assignment = assignor.use_rack_aware_assignment(
            all_consumer_racks, all_partition_racks, self.partition_racks
        )

    def racks_match(self, consumer: str, tp: TopicPartition) -> bool:
        consumer_rack = self.consumers.get(consumer)
        replica_racks = self.partition_racks.get(tp)
        return consumer_rack is None or (replica_racks is not None and consumer_rack in replica_racks)

    def max_assignable(self, consumer: str) -> int:
        extra = 1 if self.remaining_consumers_with_extra_partition > 0 else 0
        return max(0, self.num_partitions_per_consumer + extra - self.num_assigned_by_consumer[consumer])

    def on_assigned(self, consumer: str, newly_assigned: list[TopicPartition]) -> None:
        self.num_assigned_by_consumer[consumer] += len(newly_assigned)
        if self.num_assigned_by_consumer[consumer] > self.num_partitions_per_consumer:
            self.remaining_consumers_with_extra_partition -= 1
        for tp in newly_assigned:
            self.unassigned_partitions.pop(tp, None)

    def __repr__(self) -> str:
        return (
            f"TopicAssignmentState(topic={self.topic}, consumers={self.consumers}, "
            f"partitionRacks={self.partition_racks}, unassignedPartitions={list(self.unassigned_partitions)})"
        )
