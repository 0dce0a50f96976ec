"""Port of clients/src/main/java/org/apache/kafka/clients/admin/CreateDelegationTokenResult.java (Kafka 3.7)."""

from __future__ import annotations

from kafka.common.kafka_future import KafkaFuture
from kafka.common.security.token.delegation import DelegationToken

__all__ = ["CreateDelegationTokenResult"]


class CreateDelegationTokenResult:
    def __init__(self, delegation_token: KafkaFuture[DelegationToken]) -> None:
        self._delegation_token = delegation_token

    def delegation_token(self) -> KafkaFuture[DelegationToken]:
        return self._delegation_token
