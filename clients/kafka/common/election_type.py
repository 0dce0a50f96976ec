"""Port of clients/src/main/java/org/apache/kafka/common/ElectionType.java (Kafka 3.7).

The kinds of leader election an ElectLeaders request can ask for.
"""

from __future__ import annotations

import enum

__all__ = ["ElectionType"]


class ElectionType(enum.Enum):
    """PREFERRED: move leadership to the first live in-sync replica of the assignment. UNCLEAN: elect any live
    replica when no in-sync one is left. The value is the wire byte."""

    PREFERRED = 0
    UNCLEAN = 1

    @classmethod
    def value_of(cls, value: int) -> ElectionType:
        """The election type with wire value `value`; ValueError for any other."""
        try:
            return cls(value)
        except ValueError:
            raise ValueError(f"Value {value} must be one of {[e.value for e in cls]}") from None
