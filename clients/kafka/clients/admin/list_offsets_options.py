"""Port of clients/src/main/java/org/apache/kafka/clients/admin/ListOffsetsOptions.java (Kafka 3.7).

Options of listOffsets: the isolation level (READ_COMMITTED answers with the last stable offset rather than
the high watermark for the latest offset).
"""

from __future__ import annotations

from kafka.clients.admin.abstract_options import AbstractOptions
from kafka.common.isolation_level import IsolationLevel

__all__ = ["ListOffsetsOptions"]


class ListOffsetsOptions(AbstractOptions):
    """Options of listOffsets."""

    def __init__(
        self, isolation_level: IsolationLevel = IsolationLevel.READ_UNCOMMITTED, timeout_ms: int | None = None
    ) -> None:
        super().__init__(timeout_ms)
        self._isolation_level = isolation_level

    def isolation_level(self) -> IsolationLevel:
        return self._isolation_level
