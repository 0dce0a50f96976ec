"""Port of clients/src/main/java/org/apache/kafka/common/replica/PartitionView.java (Kafka 2.8)."""

from __future__ import annotations

from dataclasses import dataclass

from kafka.common.replica.replica_view import ReplicaView


@dataclass(frozen=True, slots=True)
class PartitionView:
    """Java's PartitionView.DefaultPartitionView: the partition's replicas (the leader among them) and its leader."""

    replicas: frozenset[ReplicaView]
    leader: ReplicaView

    def __str__(self) -> str:
        replicas = ", ".join(str(r) for r in self.replicas)
        return f"DefaultPartitionView{{replicas=[{replicas}], leader={self.leader}}}"
