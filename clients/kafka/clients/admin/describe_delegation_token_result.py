"""Port of clients/src/main/java/org/apache/kafka/clients/admin/DescribeDelegationTokenResult.java (Kafka 3.7)."""

from __future__ import annotations

from kafka.common.kafka_future import KafkaFuture
from kafka.common.security.token.delegation import DelegationToken

__all__ = ["DescribeDelegationTokenResult"]


class DescribeDelegationTokenResult:
    def __init__(self, delegation_tokens: KafkaFuture[list[DelegationToken]]) -> None:
        self._delegation_tokens = delegation_tokens

    def delegation_tokens(self) -> KafkaFuture[list[DelegationToken]]:
        return self._delegation_tokens
