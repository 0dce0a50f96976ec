"""Port of clients/src/main/java/org/apache/kafka/clients/admin/OffsetSpec.java (Kafka 3.7).

Which offset listOffsets looks up for a partition: the earliest, the latest, the first at or after a timestamp,
or the one with the largest timestamp.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["EarliestSpec", "LatestSpec", "MaxTimestampSpec", "OffsetSpec", "TimestampSpec"]


class OffsetSpec:
    """The base of the four specs; build them with the static methods."""

    __slots__ = ()

    @staticmethod
    def latest() -> OffsetSpec:
        """The offset the next record will get (the high watermark, or the last stable offset)."""
        return LatestSpec()

    @staticmethod
    def earliest() -> OffsetSpec:
        """The log start offset."""
        return EarliestSpec()

    @staticmethod
    def for_timestamp(timestamp: int) -> OffsetSpec:
        """The first offset whose timestamp is at or after `timestamp` (ms since the epoch)."""
        return TimestampSpec(timestamp)

    @staticmethod
    def max_timestamp() -> OffsetSpec:
        """The offset of the record with the largest timestamp (ListOffsets v7+)."""
        return MaxTimestampSpec()

    def __eq__(self, other: object) -> bool:
        return type(self) is type(other)

    def __hash__(self) -> int:
        return hash(type(self))

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class EarliestSpec(OffsetSpec):
    __slots__ = ()


class LatestSpec(OffsetSpec):
    __slots__ = ()


class MaxTimestampSpec(OffsetSpec):
    __slots__ = ()


@dataclass(frozen=True, slots=True, eq=True)
class TimestampSpec(OffsetSpec):
    timestamp: int
