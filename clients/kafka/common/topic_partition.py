"""Port of clients/src/main/java/org/apache/kafka/common/TopicPartition.java (Kafka 2.8).

A topic name and a partition number: the key of almost every map in the broker.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True, order=True)
class TopicPartition:
    """Names one partition of one topic; prints as `topic-partition`, as Java's toString does.

    # PORT: Java caches its hash code in a mutable field; a frozen dataclass hashes the
    (topic, partition) tuple, which gives the same equality semantics. `order=True` sorts by
    topic then partition, which Kafka gets from explicit comparators where it needs an order.
    """

    topic: str
    partition: int

    def __str__(self) -> str:
        return f"{self.topic}-{self.partition}"
