"""Port of clients/src/main/java/org/apache/kafka/clients/admin/NewPartitions.java (Kafka 3.7).

How createPartitions grows a topic: the new total partition count, and optionally the replica assignment of
each new partition.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["NewPartitions"]


class NewPartitions:
    """The new partition count of a topic, with optional broker ids for each added partition."""

    __slots__ = ("_total_count", "_new_assignments")

    def __init__(self, total_count: int, new_assignments: Sequence[Sequence[int]] | None = None) -> None:
        self._total_count = total_count
        self._new_assignments = None if new_assignments is None else [list(a) for a in new_assignments]

    @staticmethod
    def increase_to(total_count: int, new_assignments: Sequence[Sequence[int]] | None = None) -> NewPartitions:
        """Grow the topic to `total_count` partitions; `new_assignments` lists, for each added partition, the
        brokers of its replicas (the first is the preferred leader); None lets the controller choose."""
        return NewPartitions(total_count, new_assignments)

    @property
    def total_count(self) -> int:
        return self._total_count

    @property
    def assignments(self) -> list[list[int]] | None:
        return None if self._new_assignments is None else [list(a) for a in self._new_assignments]

    def __str__(self) -> str:
        return f"(totalCount={self._total_count}, newAssignments={self._new_assignments})"

    __repr__ = __str__
