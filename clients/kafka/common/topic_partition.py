"""Port of clients/src/main/java/org/apache/kafka/common/TopicPartition.java (Kafka 2.8).

A topic name and a partition number: the key of almost every map in the broker.
"""

from __future__ import annotations

from typing import NamedTuple


class TopicPartition(NamedTuple):
    """Names one partition of one topic; prints as `topic-partition`, as Java's toString does.

    # PORT: a named tuple, not a class with fields: it is the key of almost every per-partition map in the broker
    and the clients, and a tuple's hash and equality run in C (a frozen dataclass's are Python calls, about 0.3 us
    a lookup). Equality is Java's (same topic, same partition; Java caches its hash code in a field). Ordering sorts
    by topic then partition, which Kafka gets from explicit comparators where it needs an order. It also compares
    equal to a plain `(topic, partition)` tuple, which nothing here relies on.
    """

    topic: str
    partition: int

    def __str__(self) -> str:
        return f"{self.topic}-{self.partition}"
