"""Port of clients/src/main/java/org/apache/kafka/clients/admin/CreateTopicsResult.java (Kafka 3.7).

The futures of createTopics, one per topic; each holds what the controller reported of the new topic (id,
partition count, replication factor and configs, CreateTopics v5+).

# PORT: result accessors are methods, as in Java (they hand out futures, some derived on each call).
"""

from __future__ import annotations

from collections.abc import Mapping

from kafka.clients.admin.config import Config
from kafka.common.errors import ApiException
from kafka.common.kafka_future import KafkaFuture
from kafka.common.protocol.types import ZERO_UUID, Uuid

__all__ = ["UNKNOWN", "CreateTopicsResult", "TopicMetadataAndConfig"]

# What the counts are when the broker did not report them (CreateTopics before v5).
UNKNOWN = -1


class TopicMetadataAndConfig:
    """The created topic's id, partition count, replication factor and configs; or the error that kept the
    broker from reporting them (raised by each accessor)."""

    __slots__ = ("_exception", "_topic_id", "_num_partitions", "_replication_factor", "_config")

    def __init__(
        self,
        topic_id: Uuid | ApiException,
        num_partitions: int = UNKNOWN,
        replication_factor: int = UNKNOWN,
        config: Config | None = None,
    ) -> None:
        """# PORT: Java's two constructors: `TopicMetadataAndConfig(topic_id, num_partitions, replication_factor,
        config)` or `TopicMetadataAndConfig(exception)`."""
        if isinstance(topic_id, ApiException):
            self._exception: ApiException | None = topic_id
            self._topic_id = ZERO_UUID
            self._num_partitions = UNKNOWN
            self._replication_factor = UNKNOWN
            self._config: Config | None = None
        else:
            self._exception = None
            self._topic_id = topic_id
            self._num_partitions = num_partitions
            self._replication_factor = replication_factor
            self._config = config

    def _ensure_success(self) -> None:
        if self._exception is not None:
            raise self._exception

    def topic_id(self) -> Uuid:
        self._ensure_success()
        return self._topic_id

    def num_partitions(self) -> int:
        self._ensure_success()
        return self._num_partitions

    def replication_factor(self) -> int:
        self._ensure_success()
        return self._replication_factor

    def config(self) -> Config | None:
        self._ensure_success()
        return self._config


class CreateTopicsResult:
    def __init__(self, futures: Mapping[str, KafkaFuture[TopicMetadataAndConfig]]) -> None:
        self._futures = dict(futures)

    def values(self) -> dict[str, KafkaFuture[None]]:
        """A future per topic that completes (with None) when the topic is created, or fails."""
        return {topic: f.then_apply(lambda _v: None) for topic, f in self._futures.items()}

    def all(self) -> KafkaFuture[None]:
        """Completes when every topic is created; fails if any creation failed."""
        return KafkaFuture.all_of(self._futures.values())

    def config(self, topic: str) -> KafkaFuture[Config | None]:
        return self._futures[topic].then_apply(TopicMetadataAndConfig.config)

    def topic_id(self, topic: str) -> KafkaFuture[Uuid]:
        return self._futures[topic].then_apply(TopicMetadataAndConfig.topic_id)

    def num_partitions(self, topic: str) -> KafkaFuture[int]:
        return self._futures[topic].then_apply(TopicMetadataAndConfig.num_partitions)

    def replication_factor(self, topic: str) -> KafkaFuture[int]:
        return self._futures[topic].then_apply(TopicMetadataAndConfig.replication_factor)
