"""Port of clients/src/main/java/org/apache/kafka/clients/admin/TopicListing.java (Kafka 3.7).

One topic of listTopics: name, id and whether it is internal.
"""

from __future__ import annotations

from dataclasses import dataclass

from kafka.common.protocol.types import ZERO_UUID, Uuid

__all__ = ["TopicListing"]


@dataclass(frozen=True, slots=True)
class TopicListing:
    name: str
    topic_id: Uuid = ZERO_UUID
    is_internal: bool = False

    def __str__(self) -> str:
        return f"(name={self.name}, topicId={self.topic_id}, internal={str(self.is_internal).lower()})"
