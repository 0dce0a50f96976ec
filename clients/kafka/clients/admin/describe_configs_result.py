"""Port of clients/src/main/java/org/apache/kafka/clients/admin/DescribeConfigsResult.java (Kafka 3.7).

The futures of describeConfigs: one Config per resource.
"""

from __future__ import annotations

from collections.abc import Mapping

from kafka.clients.admin._results import all_values
from kafka.clients.admin.config import Config
from kafka.common.config.config_resource import ConfigResource
from kafka.common.kafka_future import KafkaFuture

__all__ = ["DescribeConfigsResult"]


class DescribeConfigsResult:
    def __init__(self, futures: Mapping[ConfigResource, KafkaFuture[Config]]) -> None:
        self._futures = dict(futures)

    def values(self) -> dict[ConfigResource, KafkaFuture[Config]]:
        return self._futures

    def all(self) -> KafkaFuture[dict[ConfigResource, Config]]:
        return all_values(self._futures)
