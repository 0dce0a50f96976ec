"""Port of core/src/main/scala/kafka/server/DelayedOperationKey.scala (Kafka 2.8).

Keys under which purgatories watch delayed operations; `key_label` names the key in metrics and logs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple, Protocol

if TYPE_CHECKING:
    from kafka.common.topic_partition import TopicPartition


class DelayedOperationKey(Protocol):
    """What every key offers: a label (keys must also be hashable and comparable by value)."""

    @property
    def key_label(self) -> str: ...


GLOBAL_LABEL = "All"


class TopicPartitionOperationKey(NamedTuple):
    """Key of delayed produce and fetch operations: one partition.

    # PORT: a named tuple, as TopicPartition is, not a frozen dataclass: every Produce and Fetch builds one per
    partition and the purgatory hashes and compares it in its watcher maps (a frozen dataclass's construction, hash
    and equality are Python calls, a tuple's run in C). Equality is by value as Kafka's case class; it also equals a
    TopicPartition or a plain tuple with the same topic and partition, which nothing here relies on (each purgatory
    holds one kind of key).
    """

    topic: str
    partition: int

    @property
    def key_label(self) -> str:
        return f"{self.topic}-{self.partition}"

    @classmethod
    def of(cls, topic_partition: TopicPartition) -> TopicPartitionOperationKey:
        """From a TopicPartition (the companion's `apply(topicPartition)`)."""
        return cls(topic_partition.topic, topic_partition.partition)


@dataclass(frozen=True, slots=True)
class MemberKey:
    """Key of delayed heartbeats: one member of one group."""

    group_id: str
    consumer_id: str

    @property
    def key_label(self) -> str:
        return f"{self.group_id}-{self.consumer_id}"


@dataclass(frozen=True, slots=True)
class GroupJoinKey:
    """Key of delayed joins (rebalances): one group."""

    group_id: str

    @property
    def key_label(self) -> str:
        return f"join-{self.group_id}"


@dataclass(frozen=True, slots=True)
class GroupSyncKey:
    """Key of delayed syncs: one group (distinct from its join key in the shared Rebalance purgatory)."""

    group_id: str

    @property
    def key_label(self) -> str:
        return f"sync-{self.group_id}"


@dataclass(frozen=True, slots=True)
class TopicKey:
    """Key of delayed topic operations (create, delete): one topic."""

    topic: str

    @property
    def key_label(self) -> str:
        return self.topic
