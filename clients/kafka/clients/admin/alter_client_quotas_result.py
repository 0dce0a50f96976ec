"""Port of clients/src/main/java/org/apache/kafka/clients/admin/AlterClientQuotasResult.java (Kafka 3.7).

The futures of alterClientQuotas: one per entity.
"""

from __future__ import annotations

from collections.abc import Mapping

from kafka.common.kafka_future import KafkaFuture
from kafka.common.quota.client_quota_entity import ClientQuotaEntity

__all__ = ["AlterClientQuotasResult"]


class AlterClientQuotasResult:
    def __init__(self, futures: Mapping[ClientQuotaEntity, KafkaFuture[None]]) -> None:
        self._futures = dict(futures)

    def values(self) -> dict[ClientQuotaEntity, KafkaFuture[None]]:
        return dict(self._futures)

    def all(self) -> KafkaFuture[None]:
        """Completes when every entity's alteration succeeded; fails with the first failure otherwise."""
        return KafkaFuture.all_of(self._futures.values())
