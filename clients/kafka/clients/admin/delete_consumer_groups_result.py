"""Port of clients/src/main/java/org/apache/kafka/clients/admin/DeleteConsumerGroupsResult.java (Kafka 3.7).

The futures of deleteConsumerGroups: one per group.
"""

from __future__ import annotations

from collections.abc import Mapping

from kafka.common.kafka_future import KafkaFuture

__all__ = ["DeleteConsumerGroupsResult"]


class DeleteConsumerGroupsResult:
    def __init__(self, futures: Mapping[str, KafkaFuture[None]]) -> None:
        self._futures = dict(futures)

    def deleted_groups(self) -> dict[str, KafkaFuture[None]]:
        return dict(self._futures)

    def all(self) -> KafkaFuture[None]:
        return KafkaFuture.all_of(self._futures.values())
