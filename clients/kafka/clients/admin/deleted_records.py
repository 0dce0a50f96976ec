"""Port of clients/src/main/java/org/apache/kafka/clients/admin/DeletedRecords.java (Kafka 3.7).

The outcome of deleteRecords for a partition: its new low watermark (log start offset).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["DeletedRecords"]


@dataclass(frozen=True, slots=True)
class DeletedRecords:
    low_watermark: int
