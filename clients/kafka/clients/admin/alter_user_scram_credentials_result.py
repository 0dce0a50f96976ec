"""Port of clients/src/main/java/org/apache/kafka/clients/admin/AlterUserScramCredentialsResult.java (Kafka 3.7).

One future per user altered; all() fails with the first failure.
"""

from __future__ import annotations

from kafka.common.kafka_future import KafkaFuture

__all__ = ["AlterUserScramCredentialsResult"]


class AlterUserScramCredentialsResult:
    def __init__(self, futures: dict[str, KafkaFuture[None]]) -> None:
        self._futures = futures

    def values(self) -> dict[str, KafkaFuture[None]]:
        return self._futures

    def all(self) -> KafkaFuture[None]:
        return KafkaFuture.all_of(*self._futures.values())
