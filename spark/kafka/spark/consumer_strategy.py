"""Port of connector/kafka-0-10-sql/src/main/scala/org/apache/spark/sql/kafka010/ConsumerStrategy.scala (Spark 4).

Which partitions a query reads: a fixed list of partitions (`assign`), every partition of a list of topics
(`subscribe`), or every partition of the topics whose names match a regular expression (`subscribePattern`).
The driver resolves them with an admin client, before each micro-batch, so that partitions and topics added while
a query runs are picked up.
"""

from __future__ import annotations

import abc
import logging
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from kafka.clients.admin.admin import Admin
from kafka.common.topic_partition import TopicPartition

__all__ = ["AssignStrategy", "ConsumerStrategy", "SubscribePatternStrategy", "SubscribeStrategy"]

log = logging.getLogger("org.apache.spark.sql.kafka010.ConsumerStrategy")


class ConsumerStrategy(abc.ABC):
    """How the partitions to read are found."""

    def create_admin(self, kafka_params: Mapping[str, Any]) -> Admin:
        """An admin client configured by the driver's Kafka parameters (keys that are not admin configs are unused)."""
        return Admin.create(dict(kafka_params))

    @abc.abstractmethod
    def assigned_topic_partitions(self, admin: Admin) -> set[TopicPartition]:
        """The partitions to read now."""

    @staticmethod
    def retrieve_all_partitions(admin: Admin, topics: Iterable[str]) -> set[TopicPartition]:
        topics = set(topics)
        if not topics:
            return set()
        descriptions = admin.describe_topics(topics).all_topic_names().get()
        return {
            TopicPartition(topic, info.partition)
            for topic, description in descriptions.items()
            if not description.is_internal
            for info in description.partitions
        }


@dataclass(frozen=True)
class AssignStrategy(ConsumerStrategy):
    """A fixed set of partitions (those of them that exist)."""

    partitions: tuple[TopicPartition, ...]

    def assigned_topic_partitions(self, admin: Admin) -> set[TopicPartition]:
        topics = {tp.topic for tp in self.partitions}
        wanted = set(self.partitions)
        return {tp for tp in self.retrieve_all_partitions(admin, topics) if tp in wanted}

    def __str__(self) -> str:
        return f"Assign[{', '.join(map(str, self.partitions))}]"


@dataclass(frozen=True)
class SubscribeStrategy(ConsumerStrategy):
    """Every partition of a fixed list of topics."""

    topics: tuple[str, ...]

    def assigned_topic_partitions(self, admin: Admin) -> set[TopicPartition]:
        return self.retrieve_all_partitions(admin, self.topics)

    def __str__(self) -> str:
        return f"Subscribe[{', '.join(self.topics)}]"


@dataclass(frozen=True)
class SubscribePatternStrategy(ConsumerStrategy):
    """Every partition of the (non-internal) topics whose name contains a match of the pattern.

    # PORT: Java regular expressions are read as Python's `re`; `findFirstIn` is `re.search`.
    """

    topic_pattern: str

    def assigned_topic_partitions(self, admin: Admin) -> set[TopicPartition]:
        regex = re.compile(self.topic_pattern)
        names = [listing.name for listing in admin.list_topics().listings().get() if regex.search(listing.name)]
        log.debug("Topics matching %s: %s", self.topic_pattern, names)
        return self.retrieve_all_partitions(admin, names)

    def __str__(self) -> str:
        return f"SubscribePattern[{self.topic_pattern}]"
