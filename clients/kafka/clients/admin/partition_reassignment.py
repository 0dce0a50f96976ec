"""Port of clients/src/main/java/org/apache/kafka/clients/admin/PartitionReassignment.java (Kafka 3.7).

An ongoing reassignment of one partition (listPartitionReassignments): every replica it has now, the replicas
being added and those being removed.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["PartitionReassignment"]


@dataclass(frozen=True, slots=True)
class PartitionReassignment:
    replicas: tuple[int, ...]
    adding_replicas: tuple[int, ...]
    removing_replicas: tuple[int, ...]

    def __str__(self) -> str:
        return (
            f"PartitionReassignment(replicas={_java_list(self.replicas)}, "
            f"addingReplicas={_java_list(self.adding_replicas)}, "
            f"removingReplicas={_java_list(self.removing_replicas)})"
        )


def _java_list(values: tuple[int, ...]) -> str:
    """A List<Integer> as Java's toString writes it."""
    return "[" + ", ".join(str(v) for v in values) + "]"
