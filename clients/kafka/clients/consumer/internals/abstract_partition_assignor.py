"""Port of clients/src/main/java/org/apache/kafka/clients/consumer/internals/AbstractPartitionAssignor.java (Kafka 3.7).

The base of the built-in assignors: it collects the partitions of every subscribed topic from the
cluster metadata (topics without metadata are skipped), hands them to `assign_partitions`, and wraps the
result in Assignments without user data. Also decides when rack-aware assignment is worth doing
(KIP-881) and orders members (static members first, by instance id; then dynamic ones by member id).
"""

from __future__ import annotations

import abc
import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TypeVar

from kafka.clients.consumer.consumer_partition_assignor import (
    Assignment,
    ConsumerPartitionAssignor,
    GroupAssignment,
    GroupSubscription,
    Subscription,
)
from kafka.common.cluster import Cluster
from kafka.common.node import Node
from kafka.common.partition_info import PartitionInfo
from kafka.common.topic_partition import TopicPartition

__all__ = ["AbstractPartitionAssignor", "MemberInfo"]

_log = logging.getLogger("org.apache.kafka.clients.consumer.internals.AbstractPartitionAssignor")

K = TypeVar("K")
T = TypeVar("T")


@dataclass(frozen=True, eq=False)
class MemberInfo:
    """A member as the assignors order it: static members (by group.instance.id) before dynamic ones (by
    member id). Equal and hashed by member id alone, as Java's."""

    member_id: str
    group_instance_id: str | None = None
    rack_id: str | None = field(default=None)

    def _sort_key(self) -> tuple[int, str]:
        if self.group_instance_id is not None:
            return (0, self.group_instance_id)
        return (1, self.member_id)

    def __lt__(self, other: MemberInfo) -> bool:
        return self._sort_key() < other._sort_key()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, MemberInfo) and self.member_id == other.member_id

    def __hash__(self) -> int:
        return hash(self.member_id)

    def __str__(self) -> str:
        instance = "{}" if self.group_instance_id is None else self.group_instance_id
        return f"MemberInfo [member.id: {self.member_id}, group.instance.id: {instance}]"


class AbstractPartitionAssignor(ConsumerPartitionAssignor):
    """Assignors that only need partition counts (or partition infos) and subscriptions."""

    def __init__(self) -> None:
        # Used only by tests, to check rack-aware assignment when every rack has every partition.
        self.prefer_rack_aware_logic = False

    @abc.abstractmethod
    def assign_counts(
        self, partitions_per_topic: Mapping[str, int], subscriptions: Mapping[str, Subscription]
    ) -> dict[str, list[TopicPartition]]:
        """The assignment from partition counts per topic.

        # PORT: Java overloads `assign` (cluster+group subscription, or counts+subscriptions); the counts form is
        `assign_counts` here."""

    def assign_partitions(
        self, partitions_per_topic: Mapping[str, list[PartitionInfo]], subscriptions: Mapping[str, Subscription]
    ) -> dict[str, list[TopicPartition]]:
        counts = {topic: len(partitions) for topic, partitions in partitions_per_topic.items()}
        return self.assign_counts(counts, subscriptions)

    def assign(self, metadata: Cluster, group_subscription: GroupSubscription) -> GroupAssignment:
        subscriptions = group_subscription.group_subscription()
        all_subscribed_topics: set[str] = set()
        for subscription in subscriptions.values():
            all_subscribed_topics.update(subscription.topics)
        partitions_per_topic: dict[str, list[PartitionInfo]] = {}
        for topic in all_subscribed_topics:
            partitions = metadata.partitions_for_topic(topic)
            if partitions:
                partitions_per_topic[topic] = sorted(partitions, key=lambda p: p.partition)
            else:
                _log.debug("Skipping assignment for topic %s since no metadata is available", topic)
        raw_assignments = self.assign_partitions(partitions_per_topic, subscriptions)
        # No user data: just wrap the partition lists.
        return GroupAssignment({member: Assignment(parts) for member, parts in raw_assignments.items()})

    @staticmethod
    def put(map_: dict[K, list[T]], key: K, value: T) -> None:
        map_.setdefault(key, []).append(value)

    @staticmethod
    def partitions(topic: str, num_partitions: int) -> list[TopicPartition]:
        return [TopicPartition(topic, i) for i in range(num_partitions)]

    @staticmethod
    def partition_infos_without_racks(partitions_per_topic: Mapping[str, int]) -> dict[str, list[PartitionInfo]]:
        no_nodes = [Node.no_node()]
        return {
            topic: [PartitionInfo(topic, i, Node.no_node(), no_nodes, no_nodes) for i in range(count)]
            for topic, count in partitions_per_topic.items()
        }

    def use_rack_aware_assignment(
        self,
        consumer_racks: set[str],
        partition_racks: set[str],
        racks_per_partition: Mapping[TopicPartition, set[str]],
    ) -> bool:
        """Rack-aware assignment applies when some consumer's rack hosts replicas, and (unless a test forces
        it) when partitions do not all have replicas on every rack."""
        if not consumer_racks or consumer_racks.isdisjoint(partition_racks):
            return False
        if self.prefer_rack_aware_logic:
            return True
        return not all(racks == partition_racks for racks in racks_per_partition.values())
