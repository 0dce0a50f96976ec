"""Port of clients/src/main/java/org/apache/kafka/clients/consumer/OffsetResetStrategy.java (Kafka 3.7).

What auto.offset.reset asks for when a partition has no valid position: the latest offset, the earliest,
or an error (none).
"""

from __future__ import annotations

import enum

__all__ = ["OffsetResetStrategy"]


class OffsetResetStrategy(enum.Enum):
    LATEST = "latest"
    EARLIEST = "earliest"
    NONE = "none"

    def __str__(self) -> str:
        return self.value

    @classmethod
    def for_config(cls, value: str) -> OffsetResetStrategy:
        return cls[value.upper()]
