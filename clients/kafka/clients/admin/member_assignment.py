"""Port of clients/src/main/java/org/apache/kafka/clients/admin/MemberAssignment.java (Kafka 3.7).

The partitions assigned to one member of a consumer group.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from kafka.common.topic_partition import TopicPartition

__all__ = ["MemberAssignment"]


@dataclass(frozen=True, slots=True)
class MemberAssignment:
    topic_partitions: frozenset[TopicPartition]

    def __init__(self, topic_partitions: Iterable[TopicPartition] = ()) -> None:
        object.__setattr__(self, "topic_partitions", frozenset(topic_partitions))

    def __str__(self) -> str:
        return f"(topicPartitions={','.join(str(tp) for tp in sorted(self.topic_partitions))})"
