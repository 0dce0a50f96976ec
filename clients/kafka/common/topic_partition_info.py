"""Port of clients/src/main/java/org/apache/kafka/common/TopicPartitionInfo.java (Kafka 3.7).

One partition of a TopicDescription: its number, its leader (None when it has none) and its replica and
in-sync replica nodes.
"""

from __future__ import annotations

from dataclasses import dataclass

from kafka.common.node import Node

__all__ = ["TopicPartitionInfo"]


@dataclass(frozen=True, slots=True)
class TopicPartitionInfo:
    """A partition's number, leader, replicas and ISR (tuples: Java's lists are unmodifiable)."""

    partition: int
    leader: Node | None
    replicas: tuple[Node, ...]
    isr: tuple[Node, ...]

    def __init__(
        self,
        partition: int,
        leader: Node | None,
        replicas: list[Node] | tuple[Node, ...],
        isr: list[Node] | tuple[Node, ...],
    ) -> None:
        object.__setattr__(self, "partition", partition)
        object.__setattr__(self, "leader", leader)
        object.__setattr__(self, "replicas", tuple(replicas))
        object.__setattr__(self, "isr", tuple(isr))

    def __str__(self) -> str:
        leader = "null" if self.leader is None else str(self.leader)
        return (
            f"(partition={self.partition}, leader={leader}, replicas={', '.join(map(str, self.replicas))}, "
            f"isr={', '.join(map(str, self.isr))})"
        )
