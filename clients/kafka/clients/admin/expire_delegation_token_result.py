"""Port of clients/src/main/java/org/apache/kafka/clients/admin/ExpireDelegationTokenResult.java (Kafka 3.7)."""

from __future__ import annotations

from kafka.common.kafka_future import KafkaFuture

__all__ = ["ExpireDelegationTokenResult"]


class ExpireDelegationTokenResult:
    def __init__(self, expiry_timestamp: KafkaFuture[int]) -> None:
        self._expiry_timestamp = expiry_timestamp

    def expiry_timestamp(self) -> KafkaFuture[int]:
        """The token's expiry timestamp after the call (ms since the epoch)."""
        return self._expiry_timestamp
