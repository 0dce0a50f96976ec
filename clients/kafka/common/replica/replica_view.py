"""Port of clients/src/main/java/org/apache/kafka/common/replica/ReplicaView.java (Kafka 2.8).

What a ReplicaSelector sees of one replica of a partition: its endpoint, its log end offset, and how long ago it
was last caught up to the high watermark (always 0 for the leader).
"""

from __future__ import annotations

from dataclasses import dataclass

from kafka.common.node import Node


@dataclass(frozen=True, slots=True)
class ReplicaView:
    """Java's ReplicaView.DefaultReplicaView (the interface has no other implementation)."""

    endpoint: Node
    log_end_offset: int
    time_since_last_caught_up_ms: int

    @staticmethod
    def comparator_key(replica: ReplicaView) -> tuple[int, int, int]:
        """ReplicaView.comparator() as a sort key: the most caught-up replica sorts last (highest log end offset,
        then the shortest time since it was caught up, then the highest broker id)."""
        return (replica.log_end_offset, -replica.time_since_last_caught_up_ms, replica.endpoint.id)

    def __str__(self) -> str:
        return (
            f"DefaultReplicaView{{endpoint={self.endpoint}, logEndOffset={self.log_end_offset}, "
            f"timeSinceLastCaughtUpMs={self.time_since_last_caught_up_ms}}}"
        )
