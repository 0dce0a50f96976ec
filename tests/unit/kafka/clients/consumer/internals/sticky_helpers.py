"""The fixture of the sticky assignor tests (after Java's AbstractStickyAssignorTest and its StickyAssignorTest
and CooperativeStickyAssignorTest subclasses): subscriptions in each ConsumerProtocolSubscription version, and
the validity check, which for the cooperative assignor first plays the follow-up rebalances."""

from __future__ import annotations

from kafka.clients.consumer.consumer_group_metadata import ConsumerGroupMetadata
from kafka.clients.consumer.consumer_partition_assignor import Assignment, Subscription
from kafka.clients.consumer.cooperative_sticky_assignor import CooperativeStickyAssignor
from kafka.clients.consumer.internals.abstract_sticky_assignor import AbstractStickyAssignor, MemberData
from kafka.clients.consumer.sticky_assignor import StickyAssignor
from kafka.common.partition_info import PartitionInfo
from kafka.common.topic_partition import TopicPartition
from tests.unit.kafka.clients.consumer.internals.assignor_helpers import (
    ALL_RACKS,
    RackConfig,
    partition_infos,
    verify_validity_and_balance,
)

GROUP_ID = "group"
GENERATION_ID = 1


class StickyContext:
    def __init__(self, cooperative: bool, rack_config: RackConfig = RackConfig.NO_CONSUMER_RACK) -> None:
        self.cooperative = cooperative
        self.assignor: AbstractStickyAssignor = CooperativeStickyAssignor() if cooperative else StickyAssignor()
        self.replication_factor = 3
        self.num_broker_racks = 3 if rack_config is not RackConfig.NO_BROKER_RACK else 0
        self.has_consumer_rack = rack_config is not RackConfig.NO_CONSUMER_RACK
        self.assignor.prefer_rack_aware_logic = True
        self._next_partition_index = 0

    def infos(self, topic: str, n: int) -> list[PartitionInfo]:
        index = self._next_partition_index
        self._next_partition_index += 1
        return partition_infos(topic, n, self.replication_factor, self.num_broker_racks, index)

    def rack(self, index: int) -> str | None:
        num_racks = self.num_broker_racks if self.num_broker_racks > 0 else len(ALL_RACKS)
        return ALL_RACKS[index % num_racks] if self.has_consumer_rack and index >= 0 else None

    def subscription(self, topics: list[str], index: int) -> Subscription:
        return Subscription(list(topics), None, [], -1, self.rack(index))

    def v0(
        self, topics: list[str], partitions: list[TopicPartition], generation: int, index: int
    ) -> Subscription | None:
        if self.cooperative:
            return None  # the cooperative assignor needs v1+
        data = StickyAssignor.serialize_topic_partition_assignment(MemberData(list(partitions), generation))
        return Subscription(list(topics), data, [], -1, self.rack(index))

    def v1(self, topics: list[str], partitions: list[TopicPartition], generation: int, index: int) -> Subscription:
        if self.cooperative:
            self.assignor.on_assignment(
                Assignment(list(partitions)), ConsumerGroupMetadata(GROUP_ID, generation, "consumer1", None)
            )
            return Subscription(list(topics), self.assignor.subscription_user_data(set(topics)), list(partitions), -1)
        data = StickyAssignor.serialize_topic_partition_assignment(MemberData(list(partitions), generation))
        return Subscription(list(topics), data, list(partitions), -1)

    def v2(self, topics: list[str], partitions: list[TopicPartition], generation: int, index: int) -> Subscription:
        if self.cooperative:
            return Subscription(
                list(topics),
                self.assignor.subscription_user_data(set(topics)),
                list(partitions),
                generation,
                self.rack(index),
            )
        data = StickyAssignor.serialize_topic_partition_assignment(MemberData(list(partitions), generation))
        return Subscription(list(topics), data, list(partitions), generation, None)

    def assign(
        self, partitions_per_topic: dict[str, list[PartitionInfo]], subscriptions: dict[str, Subscription]
    ) -> dict[str, list[TopicPartition]]:
        return self.assignor.assign_partitions(partitions_per_topic, subscriptions)

    def verify(
        self,
        subscriptions: dict[str, Subscription],
        assignments: dict[str, list[TopicPartition]],
        partitions_per_topic: dict[str, list[PartitionInfo]],
    ) -> None:
        """For the cooperative assignor, first plays the follow-up rebalances until nothing is revoked (no
        partition may be given away and taken in the same rebalance); then checks validity and balance."""
        if self.cooperative:
            rebalances = 0
            while _verify_cooperative_validity(subscriptions, assignments):
                for consumer, partitions in assignments.items():
                    old = subscriptions[consumer]
                    index = ALL_RACKS.index(old.rack_id) if old.rack_id is not None else -1
                    subscriptions[consumer] = self.v2(old.topics, partitions, GENERATION_ID, index)
                new = self.assign(partitions_per_topic, subscriptions)
                assignments.clear()
                assignments.update(new)
                rebalances += 1
                assert rebalances <= 4
        verify_validity_and_balance(subscriptions, assignments)


def _verify_cooperative_validity(
    subscriptions: dict[str, Subscription], assignments: dict[str, list[TopicPartition]]
) -> bool:
    added: set[TopicPartition] = set()
    revoked: set[TopicPartition] = set()
    for consumer, assigned in assignments.items():
        owned = subscriptions[consumer].owned_partitions
        revoked |= set(owned) - set(assigned)
        added |= set(assigned) - set(owned)
    assert not added & revoked, f"partitions assigned while still being revoked: {added & revoked}"
    return bool(revoked)
