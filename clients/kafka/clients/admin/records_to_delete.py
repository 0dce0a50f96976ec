"""Port of clients/src/main/java/org/apache/kafka/clients/admin/RecordsToDelete.java (Kafka 3.7).

How far deleteRecords deletes a partition: every record before an offset.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["RecordsToDelete"]


@dataclass(frozen=True, slots=True)
class RecordsToDelete:
    offset: int

    @staticmethod
    def before_offset(offset: int) -> RecordsToDelete:
        """Delete the records below `offset` (-1: below the high watermark)."""
        return RecordsToDelete(offset)

    def __str__(self) -> str:
        return f"(beforeOffset = {self.offset})"
