"""Port of clients/src/main/java/org/apache/kafka/clients/consumer/CooperativeStickyAssignor.java (Kafka 3.7).

The "cooperative-sticky" assignor: the sticky algorithm under the COOPERATIVE protocol (KIP-429). Members
keep their partitions across rebalances and report them as owned partitions; a partition that must move
to another member is first left out of the new owner's assignment, so the old owner revokes it and
rejoins, and the follow-up rebalance hands it over. The generation travels in the subscription (v2+) or,
for older members, in a 4-byte user data field.
"""

from __future__ import annotations

import struct
from collections.abc import Mapping

from kafka.clients.consumer.consumer_group_metadata import ConsumerGroupMetadata
from kafka.clients.consumer.consumer_partition_assignor import Assignment, RebalanceProtocol, Subscription
from kafka.clients.consumer.internals.abstract_sticky_assignor import AbstractStickyAssignor, MemberData
from kafka.common.partition_info import PartitionInfo
from kafka.common.topic_partition import TopicPartition

__all__ = ["CooperativeStickyAssignor"]

_INT32 = struct.Struct(">i")


class CooperativeStickyAssignor(AbstractStickyAssignor):
    COOPERATIVE_STICKY_ASSIGNOR_NAME = "cooperative-sticky"

    def __init__(self) -> None:
        super().__init__()
        self._generation = self.DEFAULT_GENERATION

    def name(self) -> str:
        return self.COOPERATIVE_STICKY_ASSIGNOR_NAME

    def supported_protocols(self) -> list[RebalanceProtocol]:
        return [RebalanceProtocol.COOPERATIVE, RebalanceProtocol.EAGER]

    def on_assignment(self, assignment: Assignment, metadata: ConsumerGroupMetadata) -> None:
        self._generation = metadata.generation_id

    def subscription_user_data(self, topics: set[str]) -> bytes | None:
        return _INT32.pack(self._generation)

    def member_data(self, subscription: Subscription) -> MemberData:
        # From ConsumerProtocolSubscription v2 the generation is a field of its own.
        if subscription.generation_id is not None:
            return MemberData(list(subscription.owned_partitions), subscription.generation_id)
        buffer = subscription.user_data
        encoded_generation: int | None
        if buffer is None:
            encoded_generation = None
        else:
            try:
                (encoded_generation,) = _INT32.unpack_from(buffer, 0)
            except struct.error:
                encoded_generation = self.DEFAULT_GENERATION
        return MemberData(list(subscription.owned_partitions), encoded_generation, subscription.rack_id)

    def assign_partitions(
        self, partitions_per_topic: Mapping[str, list[PartitionInfo]], subscriptions: Mapping[str, Subscription]
    ) -> dict[str, list[TopicPartition]]:
        assignments = super().assign_partitions(partitions_per_topic, subscriptions)
        transferring = self.partitions_transferring_ownership
        if transferring is None:
            transferring = self._compute_partitions_transferring_ownership(subscriptions, assignments)
        self._adjust_assignment(assignments, transferring)
        return assignments

    @staticmethod
    def _adjust_assignment(
        assignments: dict[str, list[TopicPartition]], partitions_transferring_ownership: Mapping[TopicPartition, str]
    ) -> None:
        # A partition still owned by another member is held back until that member has revoked it.
        for partition, consumer in partitions_transferring_ownership.items():
            assigned = assignments[consumer]
            if partition in assigned:
                assigned.remove(partition)

    @staticmethod
    def _compute_partitions_transferring_ownership(
        subscriptions: Mapping[str, Subscription], assignments: Mapping[str, list[TopicPartition]]
    ) -> dict[TopicPartition, str]:
        all_added_partitions: dict[TopicPartition, str] = {}
        all_revoked_partitions: set[TopicPartition] = set()
        for consumer, assigned_partitions in assignments.items():
            owned_partitions = subscriptions[consumer].owned_partitions
            owned_set = set(owned_partitions)
            for tp in assigned_partitions:
                if tp not in owned_set:
                    all_added_partitions[tp] = consumer
            assigned_set = set(assigned_partitions)
            for tp in owned_partitions:
                if tp not in assigned_set:
                    all_revoked_partitions.add(tp)
        return {tp: c for tp, c in all_added_partitions.items() if tp in all_revoked_partitions}
