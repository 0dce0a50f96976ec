"""Port of clients/src/main/java/org/apache/kafka/clients/admin/DescribeTopicsResult.java (Kafka 3.7).

The futures of describeTopics: one TopicDescription per topic, by name or by id.
"""

from __future__ import annotations

from collections.abc import Mapping

from kafka.clients.admin._results import all_values
from kafka.clients.admin.topic_description import TopicDescription
from kafka.common.kafka_future import KafkaFuture
from kafka.common.protocol.types import Uuid

__all__ = ["DescribeTopicsResult"]


class DescribeTopicsResult:
    def __init__(
        self,
        topic_id_futures: Mapping[Uuid, KafkaFuture[TopicDescription]] | None,
        name_futures: Mapping[str, KafkaFuture[TopicDescription]] | None,
    ) -> None:
        if topic_id_futures is not None and name_futures is not None:
            raise ValueError("topicIdFutures and nameFutures cannot both be specified.")
        if topic_id_futures is None and name_futures is None:
            raise ValueError("topicIdFutures and nameFutures cannot both be null.")
        self._topic_id_futures = None if topic_id_futures is None else dict(topic_id_futures)
        self._name_futures = None if name_futures is None else dict(name_futures)

    @staticmethod
    def of_topic_ids(topic_id_futures: Mapping[Uuid, KafkaFuture[TopicDescription]]) -> DescribeTopicsResult:
        return DescribeTopicsResult(topic_id_futures, None)

    @staticmethod
    def of_topic_names(name_futures: Mapping[str, KafkaFuture[TopicDescription]]) -> DescribeTopicsResult:
        return DescribeTopicsResult(None, name_futures)

    def topic_id_values(self) -> dict[Uuid, KafkaFuture[TopicDescription]] | None:
        return self._topic_id_futures

    def topic_name_values(self) -> dict[str, KafkaFuture[TopicDescription]] | None:
        return self._name_futures

    def values(self) -> dict[str, KafkaFuture[TopicDescription]] | None:
        """Deprecated in Java: the futures by name."""
        return self._name_futures

    def all(self) -> KafkaFuture[dict[str, TopicDescription]]:
        """Deprecated in Java: all_topic_names()."""
        return self.all_topic_names()

    def all_topic_names(self) -> KafkaFuture[dict[str, TopicDescription]]:
        if self._name_futures is None:
            raise ValueError("The topics were described by id: use all_topic_ids()")
        return all_values(self._name_futures)

    def all_topic_ids(self) -> KafkaFuture[dict[Uuid, TopicDescription]]:
        if self._topic_id_futures is None:
            raise ValueError("The topics were described by name: use all_topic_names()")
        return all_values(self._topic_id_futures)
