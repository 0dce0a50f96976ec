"""Port of clients/src/main/java/org/apache/kafka/clients/admin/DeleteTopicsResult.java (Kafka 3.7).

The futures of deleteTopics: one per topic, by name or by id (whichever the call named them by).
"""

from __future__ import annotations

from collections.abc import Mapping

from kafka.common.kafka_future import KafkaFuture
from kafka.common.protocol.types import Uuid

__all__ = ["DeleteTopicsResult"]


class DeleteTopicsResult:
    def __init__(
        self,
        topic_id_futures: Mapping[Uuid, KafkaFuture[None]] | None,
        name_futures: Mapping[str, KafkaFuture[None]] | None,
    ) -> None:
        if topic_id_futures is not None and name_futures is not None:
            raise ValueError("topicIdFutures and nameFutures cannot both be specified.")
        if topic_id_futures is None and name_futures is None:
            raise ValueError("topicIdFutures and nameFutures cannot both be null.")
        self._topic_id_futures = None if topic_id_futures is None else dict(topic_id_futures)
        self._name_futures = None if name_futures is None else dict(name_futures)

    @staticmethod
    def of_topic_ids(topic_id_futures: Mapping[Uuid, KafkaFuture[None]]) -> DeleteTopicsResult:
        return DeleteTopicsResult(topic_id_futures, None)

    @staticmethod
    def of_topic_names(name_futures: Mapping[str, KafkaFuture[None]]) -> DeleteTopicsResult:
        return DeleteTopicsResult(None, name_futures)

    def topic_id_values(self) -> dict[Uuid, KafkaFuture[None]] | None:
        return self._topic_id_futures

    def topic_name_values(self) -> dict[str, KafkaFuture[None]] | None:
        return self._name_futures

    def values(self) -> dict[str, KafkaFuture[None]] | None:
        """Deprecated in Java: the futures by name (None when the topics were named by id)."""
        return self._name_futures

    def all(self) -> KafkaFuture[None]:
        if self._topic_id_futures is None:
            assert self._name_futures is not None
            return KafkaFuture.all_of(self._name_futures.values())
        return KafkaFuture.all_of(self._topic_id_futures.values())
