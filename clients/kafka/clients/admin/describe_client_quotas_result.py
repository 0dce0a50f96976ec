"""Port of clients/src/main/java/org/apache/kafka/clients/admin/DescribeClientQuotasResult.java (Kafka 3.7).

The future of describeClientQuotas: the matching entities and their quota values.
"""

from __future__ import annotations

from kafka.common.kafka_future import KafkaFuture
from kafka.common.quota.client_quota_entity import ClientQuotaEntity

__all__ = ["DescribeClientQuotasResult"]


class DescribeClientQuotasResult:
    def __init__(self, entities: KafkaFuture[dict[ClientQuotaEntity, dict[str, float]]]) -> None:
        self._entities = entities

    def entities(self) -> KafkaFuture[dict[ClientQuotaEntity, dict[str, float]]]:
        return self._entities
