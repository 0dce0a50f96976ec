"""Port of clients/src/main/java/org/apache/kafka/common/record/RecordVersion.java (Kafka 3.7).

The on-disk and on-wire record format versions, which are the batch magic values.
"""

from __future__ import annotations

from enum import IntEnum


class RecordVersion(IntEnum):
    """Record format version; the member's value is the magic byte."""

    V0 = 0
    V1 = 1
    V2 = 2

    def precedes(self, other: RecordVersion) -> bool:
        """True when this version is older than `other`."""
        return self.value < other.value

    @staticmethod
    def lookup(value: int) -> RecordVersion:
        """The version for magic `value`; ValueError for an unknown one."""
        if value < 0 or value > 2:
            raise ValueError(f"Unknown record version: {value}")
        return RecordVersion(value)

    @staticmethod
    def current() -> RecordVersion:
        """The newest record format."""
        return RecordVersion.V2
