"""Port of clients/src/main/java/org/apache/kafka/clients/consumer/ConsumerRebalanceListener.java (Kafka 3.7).

Callbacks a subscribing application can register to act when partitions are taken away (revoked or
lost) and when new ones are assigned, e.g. to commit offsets or to store state. They run on the thread
that calls `poll` (or `close`/`unsubscribe`).
"""

from __future__ import annotations

import abc
from collections.abc import Collection

from kafka.common.topic_partition import TopicPartition

__all__ = ["ConsumerRebalanceListener"]


class ConsumerRebalanceListener(abc.ABC):
    @abc.abstractmethod
    def on_partitions_revoked(self, partitions: Collection[TopicPartition]) -> None:
        """Called before partitions this consumer owned go to another member (the consumer may still commit)."""

    @abc.abstractmethod
    def on_partitions_assigned(self, partitions: Collection[TopicPartition]) -> None:
        """Called after a rebalance with the partitions newly given to this consumer."""

    def on_partitions_lost(self, partitions: Collection[TopicPartition]) -> None:
        """Called when partitions were already taken by others (the member fell out of the group); by
        default the same as a revocation."""
        self.on_partitions_revoked(partitions)
