"""Port of clients/src/main/java/org/apache/kafka/clients/admin/AlterConfigsResult.java (Kafka 3.7).

The futures of alterConfigs and incrementalAlterConfigs: one per resource.
"""

from __future__ import annotations

from collections.abc import Mapping

from kafka.common.config.config_resource import ConfigResource
from kafka.common.kafka_future import KafkaFuture

__all__ = ["AlterConfigsResult"]


class AlterConfigsResult:
    def __init__(self, futures: Mapping[ConfigResource, KafkaFuture[None]]) -> None:
        self._futures = dict(futures)

    def values(self) -> dict[ConfigResource, KafkaFuture[None]]:
        return self._futures

    def all(self) -> KafkaFuture[None]:
        return KafkaFuture.all_of(self._futures.values())
