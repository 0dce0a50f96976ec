"""Port of clients/src/main/java/org/apache/kafka/clients/admin/NewPartitionReassignment.java (Kafka 3.7).

The replicas a partition is to be reassigned to (alterPartitionReassignments).
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["NewPartitionReassignment"]


class NewPartitionReassignment:
    """A target replica list, never empty."""

    __slots__ = ("_target_replicas",)

    def __init__(self, target_replicas: Iterable[int] | None) -> None:
        replicas = [] if target_replicas is None else list(target_replicas)
        if not replicas:
            raise ValueError("Cannot create a new partition reassignment without any replicas")
        self._target_replicas = tuple(replicas)

    @property
    def target_replicas(self) -> list[int]:
        return list(self._target_replicas)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, NewPartitionReassignment) and other._target_replicas == self._target_replicas

    def __hash__(self) -> int:
        return hash(self._target_replicas)

    def __repr__(self) -> str:
        return f"NewPartitionReassignment(targetReplicas={list(self._target_replicas)})"
