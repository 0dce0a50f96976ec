"""Port of clients/src/main/java/org/apache/kafka/clients/admin/DescribeLogDirsResult.java (Kafka 3.7).

The futures of describeLogDirs: for each broker, its log directories by path.

# PORT: Java's deprecated values() and all(), which convert to DescribeLogDirsResponse.LogDirInfo, are left out;
descriptions() and all_descriptions() are the API.
"""

from __future__ import annotations

from collections.abc import Mapping

from kafka.clients.admin._results import all_values
from kafka.clients.admin.log_dir_description import LogDirDescription
from kafka.common.kafka_future import KafkaFuture

__all__ = ["DescribeLogDirsResult"]


class DescribeLogDirsResult:
    def __init__(self, futures: Mapping[int, KafkaFuture[dict[str, LogDirDescription]]]) -> None:
        self._futures = dict(futures)

    def descriptions(self) -> dict[int, KafkaFuture[dict[str, LogDirDescription]]]:
        return self._futures

    def all_descriptions(self) -> KafkaFuture[dict[int, dict[str, LogDirDescription]]]:
        return all_values(self._futures)
