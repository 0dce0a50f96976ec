"""Port of clients/src/main/java/org/apache/kafka/clients/admin/DescribeConsumerGroupsResult.java (Kafka 3.7).

The futures of describeConsumerGroups: one ConsumerGroupDescription per group.
"""

from __future__ import annotations

from collections.abc import Mapping

from kafka.clients.admin._results import all_values
from kafka.clients.admin.consumer_group_description import ConsumerGroupDescription
from kafka.common.kafka_future import KafkaFuture

__all__ = ["DescribeConsumerGroupsResult"]


class DescribeConsumerGroupsResult:
    def __init__(self, futures: Mapping[str, KafkaFuture[ConsumerGroupDescription]]) -> None:
        self._futures = dict(futures)

    def described_groups(self) -> dict[str, KafkaFuture[ConsumerGroupDescription]]:
        return dict(self._futures)

    def all(self) -> KafkaFuture[dict[str, ConsumerGroupDescription]]:
        return all_values(self._futures)
