"""Port of clients/src/main/java/org/apache/kafka/clients/admin/CreatePartitionsResult.java (Kafka 3.7).

The futures of createPartitions: one per topic.
"""

from __future__ import annotations

from collections.abc import Mapping

from kafka.common.kafka_future import KafkaFuture

__all__ = ["CreatePartitionsResult"]


class CreatePartitionsResult:
    def __init__(self, values: Mapping[str, KafkaFuture[None]]) -> None:
        self._values = dict(values)

    def values(self) -> dict[str, KafkaFuture[None]]:
        return self._values

    def all(self) -> KafkaFuture[None]:
        return KafkaFuture.all_of(self._values.values())
