"""Port of clients/src/main/java/org/apache/kafka/clients/consumer/RoundRobinAssignor.java (Kafka 3.7).

The "roundrobin" assignor: all partitions of all subscribed topics, sorted by topic then partition, are
dealt to the members (in MemberInfo order) in turn, skipping members not subscribed to a partition's
topic.
"""

from __future__ import annotations

from collections.abc import Mapping

from kafka.clients.consumer.consumer_partition_assignor import Subscription
from kafka.clients.consumer.internals.abstract_partition_assignor import AbstractPartitionAssignor, MemberInfo
from kafka.common.topic_partition import TopicPartition

__all__ = ["RoundRobinAssignor"]


class RoundRobinAssignor(AbstractPartitionAssignor):
    ROUNDROBIN_ASSIGNOR_NAME = "roundrobin"

    def name(self) -> str:
        return self.ROUNDROBIN_ASSIGNOR_NAME

    def assign_counts(
        self, partitions_per_topic: Mapping[str, int], subscriptions: Mapping[str, Subscription]
    ) -> dict[str, list[TopicPartition]]:
        assignment: dict[str, list[TopicPartition]] = {}
        members: list[MemberInfo] = []
        for member_id, subscription in subscriptions.items():
            assignment[member_id] = []
            members.append(MemberInfo(member_id, subscription.group_instance_id))
        members.sort()
        if not members:
            return assignment
        position = 0
        for partition in self._all_partitions_sorted(partitions_per_topic, subscriptions):
            # Java's CircularIterator: skip members not subscribed to the topic.
            while partition.topic not in subscriptions[members[position].member_id].topics:
                position = (position + 1) % len(members)
            assignment[members[position].member_id].append(partition)
            position = (position + 1) % len(members)
        return assignment

    @staticmethod
    def _all_partitions_sorted(
        partitions_per_topic: Mapping[str, int], subscriptions: Mapping[str, Subscription]
    ) -> list[TopicPartition]:
        topics = sorted({topic for s in subscriptions.values() for topic in s.topics})
        all_partitions: list[TopicPartition] = []
        for topic in topics:
            count = partitions_per_topic.get(topic)
            if count is not None:
                all_partitions.extend(AbstractPartitionAssignor.partitions(topic, count))
        return all_partitions
