"""Port of clients/src/main/java/org/apache/kafka/clients/admin/ListTopicsResult.java (Kafka 3.7).

The future of listTopics: the TopicListings by name.
"""

from __future__ import annotations

from kafka.clients.admin.topic_listing import TopicListing
from kafka.common.kafka_future import KafkaFuture

__all__ = ["ListTopicsResult"]


class ListTopicsResult:
    def __init__(self, future: KafkaFuture[dict[str, TopicListing]]) -> None:
        self._future = future

    def names_to_listings(self) -> KafkaFuture[dict[str, TopicListing]]:
        return self._future

    def listings(self) -> KafkaFuture[list[TopicListing]]:
        return self._future.then_apply(lambda m: list(m.values()))

    def names(self) -> KafkaFuture[set[str]]:
        return self._future.then_apply(lambda m: set(m.keys()))
