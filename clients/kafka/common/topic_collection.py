"""Port of clients/src/main/java/org/apache/kafka/common/TopicCollection.java (Kafka 3.7).

The topics an admin call acts on, named either by topic id or by topic name.
"""

from __future__ import annotations

from collections.abc import Iterable

from kafka.common.protocol.types import Uuid

__all__ = ["TopicCollection", "TopicIdCollection", "TopicNameCollection"]


class TopicCollection:
    """Topics by id (TopicIdCollection) or by name (TopicNameCollection)."""

    __slots__ = ()

    @staticmethod
    def of_topic_ids(topics: Iterable[Uuid]) -> TopicIdCollection:
        return TopicIdCollection(topics)

    @staticmethod
    def of_topic_names(topics: Iterable[str]) -> TopicNameCollection:
        return TopicNameCollection(topics)


class TopicIdCollection(TopicCollection):
    __slots__ = ("_topic_ids",)

    def __init__(self, topic_ids: Iterable[Uuid]) -> None:
        self._topic_ids = tuple(topic_ids)

    @property
    def topic_ids(self) -> tuple[Uuid, ...]:
        return self._topic_ids


class TopicNameCollection(TopicCollection):
    __slots__ = ("_topic_names",)

    def __init__(self, topic_names: Iterable[str]) -> None:
        self._topic_names = tuple(topic_names)

    @property
    def topic_names(self) -> tuple[str, ...]:
        return self._topic_names
