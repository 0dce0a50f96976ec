"""Port of clients/src/main/java/org/apache/kafka/clients/consumer/internals/AbstractStickyAssignor.java (Kafka 3.7).

The algorithm shared by the "sticky" and "cooperative-sticky" assignors: the assignment is as balanced as
possible (partition counts differ by at most one where subscriptions allow it) and, within that, moves
as few partitions as possible from their previous owners.

When every member subscribes to the same topics, a quota-based algorithm (ConstrainedAssignmentBuilder)
keeps each member's owned partitions up to its quota and deals the rest round-robin. Otherwise the
general algorithm (GeneralAssignmentBuilder) keeps valid previous assignments, assigns the rest to the
least loaded eligible members and then moves partitions while that improves balance, avoiding movements
that would undo stickiness. Owned partitions claimed by two members of the same generation are taken from
both; a claim from a newer generation wins over an older one. With client and replica racks known
(KIP-881), partitions go preferably to members in a replica's rack.

Subclasses say how a member's previous partitions and generation are read from its Subscription.
"""

from __future__ import annotations

import abc
import bisect
import logging
import math
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass

from kafka.clients.consumer.consumer_partition_assignor import DEFAULT_GENERATION as _DEFAULT_GENERATION
from kafka.clients.consumer.consumer_partition_assignor import Subscription
from kafka.clients.consumer.internals.abstract_partition_assignor import AbstractPartitionAssignor
from kafka.common.partition_info import PartitionInfo
from kafka.common.topic_partition import TopicPartition

__all__ = ["AbstractStickyAssignor", "MemberData"]

_log = logging.getLogger("org.apache.kafka.clients.consumer.internals.AbstractStickyAssignor")


@dataclass(frozen=True, slots=True)
class MemberData:
    """A member's previously owned partitions, the generation they were owned in, and its rack."""

    partitions: list[TopicPartition]
    generation: int | None
    rack_id: str | None = None


@dataclass(frozen=True, slots=True)
class _ConsumerGenerationPair:
    consumer: str
    generation: int


@dataclass(frozen=True, slots=True)
class _ConsumerPair:
    src_member_id: str
    dst_member_id: str

    def __str__(self) -> str:
        return f"{self.src_member_id}->{self.dst_member_id}"


class _SortedConsumers:
    """Java's TreeSet of consumers ordered by (number of assigned partitions, member id).

    # PORT: a sorted list of (key, consumer); each consumer's key is taken when it is added, so (as in the Java
    code) a consumer is removed before its assignment changes and added again after."""

    def __init__(self, assignment: Mapping[str, list[TopicPartition]]) -> None:
        self._assignment = assignment
        self._entries: list[tuple[int, str]] = []
        self._keys: dict[str, tuple[int, str]] = {}

    def add(self, consumer: str) -> None:
        if consumer in self._keys:
            return
        key = (len(self._assignment[consumer]), consumer)
        bisect.insort(self._entries, key)
        self._keys[consumer] = key

    def add_all(self, consumers: Iterable[str]) -> None:
        for consumer in consumers:
            self.add(consumer)

    def remove(self, consumer: str) -> None:
        key = self._keys.pop(consumer, None)
        if key is not None:
            index = bisect.bisect_left(self._entries, key)
            del self._entries[index]

    def first(self) -> str:
        return self._entries[0][1]

    def last(self) -> str:
        return self._entries[-1][1]

    def __iter__(self) -> Iterator[str]:
        return iter([consumer for _, consumer in self._entries])

    def __len__(self) -> int:
        return len(self._entries)


class _PartitionMovements:
    """The movements made while balancing, to keep from moving partitions of one topic back and forth
    between two consumers."""

    def __init__(self) -> None:
        self.partition_movements_by_topic: dict[str, dict[_ConsumerPair, set[TopicPartition]]] = {}
        self.partition_movements: dict[TopicPartition, _ConsumerPair] = {}

    def _remove_movement_record_of_partition(self, partition: TopicPartition) -> _ConsumerPair:
        pair = self.partition_movements.pop(partition)
        topic = partition.topic
        for_topic = self.partition_movements_by_topic[topic]
        for_topic[pair].discard(partition)
        if not for_topic[pair]:
            del for_topic[pair]
        if not self.partition_movements_by_topic[topic]:
            del self.partition_movements_by_topic[topic]
        return pair

    def _add_partition_movement_record(self, partition: TopicPartition, pair: _ConsumerPair) -> None:
        self.partition_movements[partition] = pair
        self.partition_movements_by_topic.setdefault(partition.topic, {}).setdefault(pair, set()).add(partition)

    def move_partition(self, partition: TopicPartition, old_consumer: str, new_consumer: str) -> None:
        pair = _ConsumerPair(old_consumer, new_consumer)
        if partition in self.partition_movements:
            # Moved before: record the net movement (none if it goes back where it came from).
            existing_pair = self._remove_movement_record_of_partition(partition)
            assert existing_pair.dst_member_id == old_consumer
            if existing_pair.src_member_id != new_consumer:
                self._add_partition_movement_record(partition, _ConsumerPair(existing_pair.src_member_id, new_consumer))
        else:
            self._add_partition_movement_record(partition, pair)

    def get_the_actual_partition_to_be_moved(
        self, partition: TopicPartition, old_consumer: str, new_consumer: str
    ) -> TopicPartition:
        topic = partition.topic
        if topic not in self.partition_movements_by_topic:
            return partition
        if partition in self.partition_movements:
            assert old_consumer == self.partition_movements[partition].dst_member_id
            old_consumer = self.partition_movements[partition].src_member_id
        for_topic = self.partition_movements_by_topic[topic]
        reverse_pair = _ConsumerPair(new_consumer, old_consumer)
        if reverse_pair not in for_topic:
            return partition
        return next(iter(for_topic[reverse_pair]))

    def _is_linked(self, src: str, dst: str, pairs: set[_ConsumerPair], current_path: list[str]) -> bool:
        if src == dst:
            return False
        if not pairs:
            return False
        if _ConsumerPair(src, dst) in pairs:
            current_path.append(src)
            current_path.append(dst)
            return True
        for pair in pairs:
            if pair.src_member_id == src:
                reduced = set(pairs)
                reduced.discard(pair)
                current_path.append(pair.src_member_id)
                return self._is_linked(pair.dst_member_id, dst, reduced, current_path)
        return False

    @staticmethod
    def _in(cycle: list[str], cycles: list[list[str]]) -> bool:
        super_cycle = cycle[:-1] + cycle
        for found in cycles:
            if len(found) == len(cycle) and _index_of_sub_list(super_cycle, found) != -1:
                return True
        return False

    def _has_cycles(self, pairs: set[_ConsumerPair]) -> bool:
        cycles: list[list[str]] = []
        for pair in pairs:
            reduced = set(pairs)
            reduced.discard(pair)
            path = [pair.src_member_id]
            if self._is_linked(pair.dst_member_id, pair.src_member_id, reduced, path) and not self._in(path, cycles):
                cycles.append(list(path))
                _log.error("A cycle of length %d was found: %s", len(path) - 1, path)
        # Only cycles between two consumers (paths of length 3) count as stickiness violations.
        return any(len(cycle) == 3 for cycle in cycles)

    def is_sticky(self) -> bool:
        for topic, movements in self.partition_movements_by_topic.items():
            if self._has_cycles(set(movements)):
                _log.error(
                    "Stickiness is violated for topic %s\nPartition movements for this topic occurred among the "
                    "following consumer pairs:\n%s",
                    topic,
                    {str(k): v for k, v in movements.items()},
                )
                return False
        return True


def _index_of_sub_list(source: list[str], target: list[str]) -> int:
    n, m = len(source), len(target)
    for i in range(n - m + 1):
        if source[i : i + m] == target:
            return i
    return -1


class _RackInfo:
    """Consumer racks and partition replica racks, when rack-aware assignment applies; empty otherwise."""

    def __init__(
        self,
        assignor: AbstractPartitionAssignor,
        partition_infos: list[PartitionInfo],
        subscriptions: Mapping[str, Subscription],
    ) -> None:
        consumers_by_rack: dict[str, list[str]] = {}
        for member_id, subscription in subscriptions.items():
            if subscription.rack_id:
                consumers_by_rack.setdefault(subscription.rack_id, []).append(member_id)
        partitions_by_rack: dict[str, list[TopicPartition]] = {}
        partition_racks: dict[TopicPartition, set[str]] = {}
        if consumers_by_rack:
            for p in partition_infos:
                tp = TopicPartition(p.topic, p.partition)
                racks: set[str] = set()
                partition_racks[tp] = racks
                for node in p.replicas:
                    if node.rack is not None and node.rack not in racks:
                        partitions_by_rack.setdefault(node.rack, []).append(tp)
                        racks.add(node.rack)
        self.consumer_racks: dict[str, str] = {}
        self.partition_racks: dict[TopicPartition, set[str]] = {}
        if assignor.use_rack_aware_assignment(set(consumers_by_rack), set(partitions_by_rack), partition_racks):
            for rack, rack_consumers in consumers_by_rack.items():
                for c in rack_consumers:
                    self.consumer_racks[c] = rack
            self.partition_racks = partition_racks
        self.num_consumers_by_partition: dict[TopicPartition, int] = {
            tp: sum(len(consumers_by_rack.get(r, ())) for r in racks) for tp, racks in self.partition_racks.items()
        }

    def racks_mismatch(self, consumer: str, tp: TopicPartition) -> bool:
        consumer_rack = self.consumer_racks.get(consumer)
        replica_racks = self.partition_racks.get(tp)
        return consumer_rack is not None and (replica_racks is None or consumer_rack not in replica_racks)

    def sort_partitions_by_rack_consumers(self, partitions: list[TopicPartition]) -> list[TopicPartition]:
        if not self.num_consumers_by_partition:
            return partitions
        return sorted(partitions, key=lambda tp: self.num_consumers_by_partition.get(tp, 0))

    def next_rack_consumer(self, tp: TopicPartition, consumer_list: list[str], first_index: int) -> int:
        racks = self.partition_racks.get(tp)
        if not racks:
            return -1
        n = len(consumer_list)
        for i in range(n):
            index = (first_index + i) % n
            consumer_rack = self.consumer_racks.get(consumer_list[index])
            if consumer_rack is not None and consumer_rack in racks:
                return index
        return -1

    def __repr__(self) -> str:
        return f"RackInfo(consumerRacks={self.consumer_racks}, partitionRacks={self.partition_racks})"


class AbstractStickyAssignor(AbstractPartitionAssignor):
    DEFAULT_GENERATION = _DEFAULT_GENERATION

    def __init__(self) -> None:
        super().__init__()
        self._max_generation = _DEFAULT_GENERATION
        self._partition_movements: _PartitionMovements | None = None
        # Partitions moving between members in this assignment, so the cooperative assignor can hold them
        # back for a second rebalance; None when the general algorithm ran (then computed afterwards).
        self.partitions_transferring_ownership: dict[TopicPartition, str] | None = {}

    @abc.abstractmethod
    def member_data(self, subscription: Subscription) -> MemberData:
        """The member's previous partitions and generation, as this assignor encodes them."""

    def assign_partitions(
        self, partitions_per_topic: Mapping[str, list[PartitionInfo]], subscriptions: Mapping[str, Subscription]
    ) -> dict[str, list[TopicPartition]]:
        consumer_to_owned_partitions: dict[str, list[TopicPartition]] = {}
        partitions_with_multiple_previous_owners: set[TopicPartition] = set()
        all_partitions = [p for infos in partitions_per_topic.values() for p in infos]
        rack_info = _RackInfo(self, all_partitions, subscriptions)
        builder: _AbstractAssignmentBuilder
        if self._all_subscriptions_equal(
            set(partitions_per_topic),
            subscriptions,
            consumer_to_owned_partitions,
            partitions_with_multiple_previous_owners,
        ):
            _log.debug(
                "Detected that all consumers were subscribed to same set of topics, invoking the optimized "
                "assignment algorithm"
            )
            self.partitions_transferring_ownership = {}
            builder = _ConstrainedAssignmentBuilder(
                self,
                partitions_per_topic,
                rack_info,
                consumer_to_owned_partitions,
                partitions_with_multiple_previous_owners,
            )
        else:
            _log.debug(
                "Detected that not all consumers were subscribed to same set of topics, falling back to the general "
                "case assignment algorithm"
            )
            # None tells the cooperative assignor to work out the transfers itself.
            self.partitions_transferring_ownership = None
            builder = _GeneralAssignmentBuilder(
                self, partitions_per_topic, rack_info, consumer_to_owned_partitions, subscriptions
            )
        return builder.build()

    def assign_counts(
        self, partitions_per_topic: Mapping[str, int], subscriptions: Mapping[str, Subscription]
    ) -> dict[str, list[TopicPartition]]:
        return self.assign_partitions(self.partition_infos_without_racks(partitions_per_topic), subscriptions)

    def max_generation(self) -> int:
        return self._max_generation

    def is_sticky(self) -> bool:
        assert self._partition_movements is not None
        return self._partition_movements.is_sticky()

    def _all_subscriptions_equal(
        self,
        all_topics: set[str],
        subscriptions: Mapping[str, Subscription],
        consumer_to_owned_partitions: dict[str, list[TopicPartition]],
        partitions_with_multiple_previous_owners: set[TopicPartition],
    ) -> bool:
        """Whether all members subscribe to the same topics; also fills each member's valid owned partitions
        (resolving partitions claimed by several members by generation)."""
        is_all_subscriptions_equal = True
        subscribed_topics: set[str] = set()
        all_previous_partitions_to_owner: dict[TopicPartition, str] = {}
        for consumer, subscription in subscriptions.items():
            if not subscribed_topics:
                subscribed_topics.update(subscription.topics)
            elif is_all_subscriptions_equal and not (
                len(subscription.topics) == len(subscribed_topics) and subscribed_topics.issuperset(subscription.topics)
            ):
                is_all_subscriptions_equal = False

            member_data = self.member_data(subscription)
            member_generation = _DEFAULT_GENERATION if member_data.generation is None else member_data.generation
            self._max_generation = max(self._max_generation, member_generation)
            owned_partitions: list[TopicPartition] = []
            consumer_to_owned_partitions[consumer] = owned_partitions
            for tp in member_data.partitions:
                if tp.topic not in all_topics:
                    continue
                other_consumer = all_previous_partitions_to_owner.get(tp)
                if other_consumer is None:
                    owned_partitions.append(tp)
                    all_previous_partitions_to_owner[tp] = consumer
                    continue
                other_generation_id = subscriptions[other_consumer].generation_id
                other_member_generation = _DEFAULT_GENERATION if other_generation_id is None else other_generation_id
                if member_generation == other_member_generation:
                    _log.error(
                        "Found multiple consumers %s and %s claiming the same TopicPartition %s in the same "
                        "generation %s, this will be invalidated and removed from their previous assignment.",
                        consumer,
                        other_consumer,
                        tp,
                        member_generation,
                    )
                    partitions_with_multiple_previous_owners.add(tp)
                    _remove(consumer_to_owned_partitions[other_consumer], tp)
                    all_previous_partitions_to_owner[tp] = consumer
                elif member_generation > other_member_generation:
                    owned_partitions.append(tp)
                    _remove(consumer_to_owned_partitions[other_consumer], tp)
                    all_previous_partitions_to_owner[tp] = consumer
                    _log.warning(
                        "Consumer %s in generation %s and consumer %s in generation %s claiming the same "
                        "TopicPartition %s in different generations. The topic partition will be assigned to the "
                        "member with the higher generation %s.",
                        consumer,
                        member_generation,
                        other_consumer,
                        other_member_generation,
                        tp,
                        member_generation,
                    )
                else:
                    _log.warning(
                        "Consumer %s in generation %s and consumer %s in generation %s claiming the same "
                        "TopicPartition %s in different generations. The topic partition will be assigned to the "
                        "member with the higher generation %s.",
                        consumer,
                        member_generation,
                        other_consumer,
                        other_member_generation,
                        tp,
                        other_member_generation,
                    )
        return is_all_subscriptions_equal


def _remove(items: list[TopicPartition], tp: TopicPartition) -> None:
    try:
        items.remove(tp)
    except ValueError:
        pass


class _AbstractAssignmentBuilder(abc.ABC):
    def __init__(
        self,
        assignor: AbstractStickyAssignor,
        partitions_per_topic: Mapping[str, list[PartitionInfo]],
        rack_info: _RackInfo,
        current_assignment: dict[str, list[TopicPartition]],
    ) -> None:
        self.assignor = assignor
        self.partitions_per_topic = partitions_per_topic
        self.current_assignment = current_assignment
        self.rack_info = rack_info
        self.total_partitions_count = sum(len(p) for p in partitions_per_topic.values())

    @abc.abstractmethod
    def build(self) -> dict[str, list[TopicPartition]]: ...

    def get_all_topic_partitions(self, sorted_all_topics: list[str]) -> list[TopicPartition]:
        return [
            TopicPartition(p.topic, p.partition)
            for topic in sorted_all_topics
            for p in self.partitions_per_topic[topic]
        ]


class _ConstrainedAssignmentBuilder(_AbstractAssignmentBuilder):
    """All members subscribe to the same topics: each keeps up to its quota of owned partitions, the rest are
    dealt round-robin (within racks first when rack-aware)."""

    def __init__(
        self,
        assignor: AbstractStickyAssignor,
        partitions_per_topic: Mapping[str, list[PartitionInfo]],
        rack_info: _RackInfo,
        consumer_to_owned_partitions: dict[str, list[TopicPartition]],
        partitions_with_multiple_previous_owners: set[TopicPartition],
    ) -> None:
        super().__init__(assignor, partitions_per_topic, rack_info, consumer_to_owned_partitions)
        self.partitions_with_multiple_previous_owners = partitions_with_multiple_previous_owners
        self.maybe_revoked_partitions: dict[TopicPartition, str] = {}
        # Members that may still get partitions: under the minimum quota, or exactly at it.
        self.unfilled_members_with_under_min_quota_partitions: list[str] = []
        self.unfilled_members_with_exactly_min_quota_partitions: list[str] = []
        number_of_consumers = len(consumer_to_owned_partitions)
        self.min_quota = math.floor(self.total_partitions_count / number_of_consumers)
        self.max_quota = math.ceil(self.total_partitions_count / number_of_consumers)
        # How many members get max_quota partitions (0 when min_quota == max_quota), and how many have so far.
        self.expected_num_members_with_over_min_quota_partitions = self.total_partitions_count % number_of_consumers
        self.current_num_members_with_over_min_quota_partitions = 0
        self.assignment: dict[str, list[TopicPartition]] = {c: [] for c in consumer_to_owned_partitions}
        self.assigned_partitions: list[TopicPartition] = []

    def build(self) -> dict[str, list[TopicPartition]]:
        if _log.isEnabledFor(logging.DEBUG):
            _log.debug(
                "Performing constrained assign with partitionsPerTopic: %s, currentAssignment: %s, rackInfo %s.",
                dict(self.partitions_per_topic),
                self.current_assignment,
                self.rack_info,
            )
        self._assign_owned_partitions()
        unassigned_partitions = self._get_unassigned_partitions(self.assigned_partitions)
        if _log.isEnabledFor(logging.DEBUG):
            _log.debug(
                "After reassigning previously owned partitions, unfilled members: %s, unassigned partitions: %s, "
                "current assignment: %s",
                self.unfilled_members_with_under_min_quota_partitions,
                unassigned_partitions,
                self.assignment,
            )
        self.unfilled_members_with_under_min_quota_partitions.sort()
        self.unfilled_members_with_exactly_min_quota_partitions.sort()
        unassigned_partitions = self.rack_info.sort_partitions_by_rack_consumers(unassigned_partitions)
        self._assign_rack_aware_round_robin(unassigned_partitions)
        self._assign_round_robin(unassigned_partitions)
        self._verify_unfilled_members()
        _log.info("Final assignment of partitions to consumers: \n%s", self.assignment)
        return self.assignment

    def _assign_owned_partitions(self) -> None:
        for consumer, owned in self.current_assignment.items():
            owned_partitions: list[TopicPartition] = []
            for tp in owned:
                if self.rack_info.racks_mismatch(consumer, tp):
                    self.maybe_revoked_partitions[tp] = consumer
                else:
                    owned_partitions.append(tp)
            owned_partitions.sort(key=lambda tp: (tp.partition, tp.topic))
            consumer_assignment = self.assignment[consumer]
            for doubly_claimed in self.partitions_with_multiple_previous_owners:
                if doubly_claimed in owned_partitions:
                    _log.error(
                        "Found partition %s still claimed as owned by consumer %s, despite being claimed by multiple "
                        "consumers already in the same generation. Removing it from the ownedPartitions",
                        doubly_claimed,
                        consumer,
                    )
                    owned_partitions.remove(doubly_claimed)
            if len(owned_partitions) < self.min_quota:
                # Keeps everything it owns and waits for more.
                consumer_assignment.extend(owned_partitions)
                self.assigned_partitions.extend(owned_partitions)
                self.unfilled_members_with_under_min_quota_partitions.append(consumer)
            elif (
                len(owned_partitions) >= self.max_quota
                and self.current_num_members_with_over_min_quota_partitions
                < self.expected_num_members_with_over_min_quota_partitions
            ):
                # Keeps max_quota; the rest may be revoked.
                self.current_num_members_with_over_min_quota_partitions += 1
                if (
                    self.current_num_members_with_over_min_quota_partitions
                    == self.expected_num_members_with_over_min_quota_partitions
                ):
                    self.unfilled_members_with_exactly_min_quota_partitions.clear()
                kept = owned_partitions[: self.max_quota]
                consumer_assignment.extend(kept)
                self.assigned_partitions.extend(kept)
                for tp in owned_partitions[self.max_quota :]:
                    self.maybe_revoked_partitions[tp] = consumer
            else:
                # Keeps min_quota; may later get one more.
                kept = owned_partitions[: self.min_quota]
                consumer_assignment.extend(kept)
                self.assigned_partitions.extend(kept)
                for tp in owned_partitions[self.min_quota :]:
                    self.maybe_revoked_partitions[tp] = consumer
                if (
                    self.current_num_members_with_over_min_quota_partitions
                    < self.expected_num_members_with_over_min_quota_partitions
                ):
                    self.unfilled_members_with_exactly_min_quota_partitions.append(consumer)

    def _assign_rack_aware_round_robin(self, unassigned_partitions: list[TopicPartition]) -> None:
        if not self.rack_info.consumer_racks:
            return
        under = self.unfilled_members_with_under_min_quota_partitions
        exactly = self.unfilled_members_with_exactly_min_quota_partitions
        next_unfilled_consumer_index = 0
        remaining: list[TopicPartition] = []
        for unassigned_partition in unassigned_partitions:
            consumer: str | None = None
            next_index = self.rack_info.next_rack_consumer(unassigned_partition, under, next_unfilled_consumer_index)
            if next_index >= 0:
                consumer = under[next_index]
                assignment_count = len(self.assignment[consumer]) + 1
                if assignment_count >= self.min_quota:
                    under.remove(consumer)
                    if assignment_count < self.max_quota and (
                        self.current_num_members_with_over_min_quota_partitions
                        < self.expected_num_members_with_over_min_quota_partitions
                    ):
                        exactly.append(consumer)
                else:
                    next_index += 1
                next_unfilled_consumer_index = 0 if not under else next_index % len(under)
            elif exactly:
                first_index = self.rack_info.next_rack_consumer(unassigned_partition, exactly, 0)
                if first_index >= 0:
                    consumer = exactly[first_index]
                    if len(self.assignment[consumer]) + 1 == self.max_quota:
                        del exactly[first_index]
                        self.current_num_members_with_over_min_quota_partitions += 1
                        if (
                            self.current_num_members_with_over_min_quota_partitions
                            == self.expected_num_members_with_over_min_quota_partitions
                        ):
                            exactly.clear()
            if consumer is not None:
                self._assign_new_partition(unassigned_partition, consumer)
            else:
                remaining.append(unassigned_partition)
        unassigned_partitions[:] = remaining

    def _assign_round_robin(self, unassigned_partitions: list[TopicPartition]) -> None:
        under = self.unfilled_members_with_under_min_quota_partitions
        exactly = self.unfilled_members_with_exactly_min_quota_partitions
        # Java iterates over `under` while removing the current member; an index does the same.
        cursor = 0
        for index, unassigned_partition in enumerate(unassigned_partitions):
            if cursor < len(under):
                consumer = under[cursor]
                from_under = True
            else:
                if not under and not exactly:
                    _log.error(
                        "No more unfilled consumers to be assigned. The remaining unassigned partitions are: %s",
                        unassigned_partitions[index:],
                    )
                    raise RuntimeError("No more unfilled consumers to be assigned.")
                if not under:
                    consumer = exactly.pop(0)
                    from_under = False
                else:
                    cursor = 0
                    consumer = under[cursor]
                    from_under = True
            current_assigned_count = self._assign_new_partition(unassigned_partition, consumer)
            if current_assigned_count == self.min_quota:
                if from_under:
                    del under[cursor]
                exactly.append(consumer)
            else:
                if from_under:
                    cursor += 1
                if current_assigned_count == self.max_quota:
                    self.current_num_members_with_over_min_quota_partitions += 1
                    if (
                        self.current_num_members_with_over_min_quota_partitions
                        == self.expected_num_members_with_over_min_quota_partitions
                        and index != len(unassigned_partitions) - 1
                    ):
                        _log.error(
                            "Filled the last member up to maxQuota but still had partitions remaining to assign, will "
                            "continue but this indicates a bug in the assignment."
                        )

    def _assign_new_partition(self, unassigned_partition: TopicPartition, consumer: str) -> int:
        consumer_assignment = self.assignment[consumer]
        consumer_assignment.append(unassigned_partition)
        # Owned partitions were all placed already: this one is new to the consumer, or was claimed by several.
        previous = self.maybe_revoked_partitions.get(unassigned_partition)
        if (previous is not None and previous != consumer) or (
            unassigned_partition in self.partitions_with_multiple_previous_owners
        ):
            transfers = self.assignor.partitions_transferring_ownership
            assert transfers is not None
            transfers[unassigned_partition] = consumer
        return len(consumer_assignment)

    def _verify_unfilled_members(self) -> None:
        under = self.unfilled_members_with_under_min_quota_partitions
        if not under:
            return
        if (
            self.current_num_members_with_over_min_quota_partitions
            != self.expected_num_members_with_over_min_quota_partitions
        ):
            _log.error(
                "Current number of members with more than the minQuota partitions: %s, is less than the expected "
                "number of members with more than the minQuota partitions: %s, and no more partitions to be assigned "
                "to the remaining unfilled consumers: %s",
                self.current_num_members_with_over_min_quota_partitions,
                self.expected_num_members_with_over_min_quota_partitions,
                under,
            )
            raise RuntimeError(
                "We haven't reached the expected number of members with more than the minQuota partitions, but no "
                "more partitions to be assigned"
            )
        for unfilled_member in under:
            assigned_partitions_count = len(self.assignment[unfilled_member])
            if assigned_partitions_count != self.min_quota:
                _log.error(
                    "Consumer: [%s] should have %s partitions, but got %s partitions, and no more partitions to be "
                    "assigned. The remaining unfilled consumers are: %s",
                    unfilled_member,
                    self.min_quota,
                    assigned_partitions_count,
                    under,
                )
                raise RuntimeError(
                    f"Consumer: [{unfilled_member}] doesn't reach minQuota partitions, and no more partitions to be "
                    "assigned"
                )

    def _get_unassigned_partitions(self, assigned_partitions: list[TopicPartition]) -> list[TopicPartition]:
        sorted_all_topics = sorted(self.partitions_per_topic)
        if not assigned_partitions:
            return self.get_all_topic_partitions(sorted_all_topics)
        assigned = set(assigned_partitions)
        return [
            TopicPartition(topic, i)
            for topic in sorted_all_topics
            for i in range(len(self.partitions_per_topic[topic]))
            if TopicPartition(topic, i) not in assigned
        ]


class _GeneralAssignmentBuilder(_AbstractAssignmentBuilder):
    """Members subscribe to different topics: keep valid previous assignments, place the rest on the least
    loaded eligible members, then move partitions while that improves the balance."""

    def __init__(
        self,
        assignor: AbstractStickyAssignor,
        partitions_per_topic: Mapping[str, list[PartitionInfo]],
        rack_info: _RackInfo,
        current_assignment: dict[str, list[TopicPartition]],
        subscriptions: Mapping[str, Subscription],
    ) -> None:
        super().__init__(assignor, partitions_per_topic, rack_info, current_assignment)
        self.subscriptions = subscriptions
        # Every topic -> the consumers subscribed to it; every consumer -> its topics that exist.
        self.topic2_all_potential_consumers: dict[str, list[str]] = {t: [] for t in partitions_per_topic}
        self.consumer2_all_potential_topics: dict[str, list[str]] = {}
        for consumer_id, subscription in subscriptions.items():
            subscribed_topics: list[str] = []
            self.consumer2_all_potential_topics[consumer_id] = subscribed_topics
            for topic in subscription.topics:
                if topic in partitions_per_topic:
                    subscribed_topics.append(topic)
                    self.topic2_all_potential_consumers[topic].append(consumer_id)
            current_assignment.setdefault(consumer_id, [])
        self.current_partition_consumer: dict[TopicPartition, str] = {
            tp: consumer for consumer, tps in current_assignment.items() for tp in tps
        }
        potential = self.topic2_all_potential_consumers
        sorted_all_topics = sorted(potential, key=lambda t: (len(potential[t]), t))
        self.sorted_all_partitions = self.get_all_topic_partitions(sorted_all_topics)
        self.sorted_current_subscriptions = _SortedConsumers(current_assignment)
        self.revocation_required = False

    def build(self) -> dict[str, list[TopicPartition]]:
        if _log.isEnabledFor(logging.DEBUG):
            _log.debug(
                "performing general assign. partitionsPerTopic: %s, subscriptions: %s, currentAssignment: %s, "
                "rackInfo: %s",
                dict(self.partitions_per_topic),
                dict(self.subscriptions),
                self.current_assignment,
                self.rack_info,
            )
        prev_assignment: dict[TopicPartition, _ConsumerGenerationPair] = {}
        self.assignor._partition_movements = _PartitionMovements()
        self._prepopulate_current_assignments(prev_assignment)
        assigned_partitions = self._assign_owned_partitions()
        unassigned_partitions = self._get_unassigned_partitions(assigned_partitions)
        _log.debug("unassigned Partitions: %s", unassigned_partitions)
        self.sorted_current_subscriptions.add_all(self.current_assignment)
        self._balance(prev_assignment, unassigned_partitions)
        _log.info("Final assignment of partitions to consumers: \n%s", self.current_assignment)
        return self.current_assignment

    def _assign_owned_partitions(self) -> list[TopicPartition]:
        assigned_partitions: list[TopicPartition] = []
        for consumer in list(self.current_assignment):
            partitions = self.current_assignment[consumer]
            consumer_subscription = self.subscriptions.get(consumer)
            if consumer_subscription is None:
                # A former member that has left: drop its assignment.
                for tp in partitions:
                    self.current_partition_consumer.pop(tp, None)
                del self.current_assignment[consumer]
                continue
            kept: list[TopicPartition] = []
            for partition in partitions:
                if partition.topic not in self.topic2_all_potential_consumers:
                    # The topic no longer exists.
                    self.current_partition_consumer.pop(partition, None)
                elif partition.topic not in consumer_subscription.topics or self.rack_info.racks_mismatch(
                    consumer, partition
                ):
                    # No longer subscribed, or on the wrong rack: must be revoked.
                    self.revocation_required = True
                else:
                    kept.append(partition)
                    assigned_partitions.append(partition)
            partitions[:] = kept
        return assigned_partitions

    def _get_unassigned_partitions(self, sorted_assigned_partitions: list[TopicPartition]) -> list[TopicPartition]:
        if not sorted_assigned_partitions:
            return self.sorted_all_partitions
        assigned = set(sorted_assigned_partitions)
        return [tp for tp in self.sorted_all_partitions if tp not in assigned]

    @staticmethod
    def _update_prev_assignment(
        prev_assignment: dict[TopicPartition, _ConsumerGenerationPair],
        partitions: list[TopicPartition],
        consumer: str,
        generation: int,
    ) -> None:
        for partition in partitions:
            existing = prev_assignment.get(partition)
            # Only the latest previous owner is kept.
            if existing is None or generation > existing.generation:
                prev_assignment[partition] = _ConsumerGenerationPair(consumer, generation)

    def _prepopulate_current_assignments(self, prev_assignment: dict[TopicPartition, _ConsumerGenerationPair]) -> None:
        max_generation = self.assignor._max_generation
        for consumer, subscription in self.subscriptions.items():
            member_data = self.assignor.member_data(subscription)
            if member_data.generation is not None and member_data.generation < max_generation:
                self._update_prev_assignment(prev_assignment, member_data.partitions, consumer, member_data.generation)
            elif member_data.generation is None and max_generation > _DEFAULT_GENERATION:
                self._update_prev_assignment(prev_assignment, member_data.partitions, consumer, _DEFAULT_GENERATION)

    def _is_balanced(self) -> bool:
        sorted_subs = self.sorted_current_subscriptions
        minimum = len(self.current_assignment[sorted_subs.first()])
        maximum = len(self.current_assignment[sorted_subs.last()])
        if minimum >= maximum - 1:
            return True
        all_partitions: dict[TopicPartition, str] = {}
        for consumer, tps in self.current_assignment.items():
            for tp in tps:
                if tp in all_partitions:
                    _log.error("%s is assigned to more than one consumer.", tp)
                all_partitions[tp] = consumer
        # A consumer that could take more must not be able to take any partition without breaking balance.
        for consumer in sorted_subs:
            consumer_partitions = self.current_assignment[consumer]
            consumer_partition_count = len(consumer_partitions)
            all_subscribed_topics = self.consumer2_all_potential_topics[consumer]
            if consumer_partition_count == self._get_max_assignment_size(all_subscribed_topics):
                continue
            owned = set(consumer_partitions)
            for topic in all_subscribed_topics:
                for i in range(len(self.partitions_per_topic[topic])):
                    tp = TopicPartition(topic, i)
                    if tp not in owned:
                        other_consumer = all_partitions.get(tp)
                        if other_consumer is None:
                            continue
                        if consumer_partition_count + 1 < len(self.current_assignment[other_consumer]):
                            _log.debug(
                                "%s can be moved from consumer %s to consumer %s for a more balanced assignment.",
                                tp,
                                other_consumer,
                                consumer,
                            )
                            return False
        return True

    def _get_max_assignment_size(self, all_subscribed_topics: list[str]) -> int:
        if len(all_subscribed_topics) == len(self.partitions_per_topic):
            return self.total_partitions_count
        return sum(len(self.partitions_per_topic[t]) for t in all_subscribed_topics)

    @staticmethod
    def _get_balance_score(assignment: Mapping[str, list[TopicPartition]]) -> int:
        sizes = [len(tps) for tps in assignment.values()]
        score = 0
        for i, size in enumerate(sizes):
            for other in sizes[i + 1 :]:
                score += abs(size - other)
        return score

    def _maybe_assign_partition(self, partition: TopicPartition, rack_info: _RackInfo | None) -> bool:
        for consumer in self.sorted_current_subscriptions:
            if partition.topic in self.consumer2_all_potential_topics[consumer] and (
                rack_info is None or not rack_info.racks_mismatch(consumer, partition)
            ):
                self.sorted_current_subscriptions.remove(consumer)
                self.current_assignment[consumer].append(partition)
                self.current_partition_consumer[partition] = consumer
                self.sorted_current_subscriptions.add(consumer)
                return True
        return False

    def _maybe_assign(
        self, unassigned_partitions: list[TopicPartition], rack_info: _RackInfo | None, remove_assigned: bool
    ) -> None:
        remaining: list[TopicPartition] = []
        for partition in unassigned_partitions:
            if not self.topic2_all_potential_consumers[partition.topic]:
                remaining.append(partition)
                continue
            if not (self._maybe_assign_partition(partition, rack_info) and remove_assigned):
                remaining.append(partition)
        if remove_assigned:
            unassigned_partitions[:] = remaining

    def _can_topic_participate_in_reassignment(self, topic: str) -> bool:
        return len(self.topic2_all_potential_consumers[topic]) >= 2

    def _can_consumer_participate_in_reassignment(self, consumer: str) -> bool:
        current_partitions = self.current_assignment[consumer]
        current_assignment_size = len(current_partitions)
        max_assignment_size = self._get_max_assignment_size(self.consumer2_all_potential_topics[consumer])
        if current_assignment_size > max_assignment_size:
            _log.error("The consumer %s is assigned more partitions than the maximum possible.", consumer)
        if current_assignment_size < max_assignment_size:
            return True
        return any(self._can_topic_participate_in_reassignment(tp.topic) for tp in current_partitions)

    def _balance(
        self,
        prev_assignment: dict[TopicPartition, _ConsumerGenerationPair],
        unassigned_partitions: list[TopicPartition],
    ) -> None:
        initializing = not self.current_assignment[self.sorted_current_subscriptions.last()]
        # First within racks, then the rest regardless of racks.
        partitions_to_assign = unassigned_partitions
        if self.rack_info.consumer_racks:
            partitions_to_assign = list(unassigned_partitions)
            self._maybe_assign(partitions_to_assign, self.rack_info, True)
        self._maybe_assign(partitions_to_assign, None, False)

        # Only partitions with two or more potential consumers can move.
        fixed_partitions: set[TopicPartition] = set()
        for topic in self.topic2_all_potential_consumers:
            if not self._can_topic_participate_in_reassignment(topic):
                fixed_partitions.update(TopicPartition(topic, i) for i in range(len(self.partitions_per_topic[topic])))
        self.sorted_all_partitions = [tp for tp in self.sorted_all_partitions if tp not in fixed_partitions]
        unassigned_partitions = [tp for tp in unassigned_partitions if tp not in fixed_partitions]

        # Consumers that cannot take part are set aside.
        fixed_assignments: dict[str, list[TopicPartition]] = {}
        for consumer in list(self.consumer2_all_potential_topics):
            if not self._can_consumer_participate_in_reassignment(consumer):
                self.sorted_current_subscriptions.remove(consumer)
                fixed_assignments[consumer] = self.current_assignment.pop(consumer)

        pre_balance_assignment = {c: list(tps) for c, tps in self.current_assignment.items()}
        pre_balance_partition_consumers = dict(self.current_partition_consumer)

        # Without revocations forced by subscription changes, first try moving only newly added partitions.
        if not self.revocation_required:
            self._perform_reassignments(unassigned_partitions, prev_assignment)
        reassignment_performed = self._perform_reassignments(self.sorted_all_partitions, prev_assignment)

        # Keep the result only if it is more balanced than before.
        if (
            not initializing
            and reassignment_performed
            and self._get_balance_score(self.current_assignment) >= self._get_balance_score(pre_balance_assignment)
        ):
            self.current_assignment.clear()
            for c, tps in pre_balance_assignment.items():
                self.current_assignment[c] = list(tps)
            self.current_partition_consumer.clear()
            self.current_partition_consumer.update(pre_balance_partition_consumers)

        for consumer, tps in fixed_assignments.items():
            self.current_assignment[consumer] = tps
            self.sorted_current_subscriptions.add(consumer)

    def _perform_reassignments(
        self,
        reassignable_partitions: list[TopicPartition],
        prev_assignment: dict[TopicPartition, _ConsumerGenerationPair],
    ) -> bool:
        reassignment_performed = False
        while True:
            modified = False
            for partition in reassignable_partitions:
                if self._is_balanced():
                    break
                if len(self.topic2_all_potential_consumers[partition.topic]) <= 1:
                    _log.error("Expected more than one potential consumer for partition '%s'", partition)
                consumer = self.current_partition_consumer.get(partition)
                if consumer is None:
                    _log.error("Expected partition '%s' to be assigned to a consumer", partition)
                    continue
                prev = prev_assignment.get(partition)
                if prev is not None and len(self.current_assignment[consumer]) > (
                    len(self.current_assignment[prev.consumer]) + 1
                ):
                    self._reassign_partition_to(partition, prev.consumer)
                    reassignment_performed = True
                    modified = True
                    continue
                # A better-suited consumer, within the rack if possible.
                consumer_rack = self.rack_info.consumer_racks.get(consumer)
                partition_racks = self.rack_info.partition_racks.get(partition, set())
                found_rack_consumer = False
                if consumer_rack is not None and partition_racks and consumer_rack in partition_racks:
                    for other_consumer in self.topic2_all_potential_consumers[partition.topic]:
                        other_rack = self.rack_info.consumer_racks.get(other_consumer)
                        if other_rack is None or other_rack not in partition_racks:
                            continue
                        if len(self.current_assignment[consumer]) > len(self.current_assignment[other_consumer]) + 1:
                            self._reassign_partition(partition)
                            reassignment_performed = True
                            modified = True
                            found_rack_consumer = True
                            break
                if not found_rack_consumer:
                    for other_consumer in self.topic2_all_potential_consumers[partition.topic]:
                        if len(self.current_assignment[consumer]) > len(self.current_assignment[other_consumer]) + 1:
                            self._reassign_partition(partition)
                            reassignment_performed = True
                            modified = True
                            break
            if not modified:
                break
        return reassignment_performed

    def _reassign_partition(self, partition: TopicPartition) -> None:
        new_consumer = None
        for another_consumer in self.sorted_current_subscriptions:
            if partition.topic in self.consumer2_all_potential_topics[another_consumer]:
                new_consumer = another_consumer
                break
        assert new_consumer is not None
        self._reassign_partition_to(partition, new_consumer)

    def _reassign_partition_to(self, partition: TopicPartition, new_consumer: str) -> None:
        consumer = self.current_partition_consumer[partition]
        movements = self.assignor._partition_movements
        assert movements is not None
        partition_to_be_moved = movements.get_the_actual_partition_to_be_moved(partition, consumer, new_consumer)
        self._process_partition_movement(partition_to_be_moved, new_consumer)

    def _process_partition_movement(self, partition: TopicPartition, new_consumer: str) -> None:
        old_consumer = self.current_partition_consumer[partition]
        self.sorted_current_subscriptions.remove(old_consumer)
        self.sorted_current_subscriptions.remove(new_consumer)
        movements = self.assignor._partition_movements
        assert movements is not None
        movements.move_partition(partition, old_consumer, new_consumer)
        self.current_assignment[old_consumer].remove(partition)
        self.current_assignment[new_consumer].append(partition)
        self.current_partition_consumer[partition] = new_consumer
        self.sorted_current_subscriptions.add(new_consumer)
        self.sorted_current_subscriptions.add(old_consumer)
