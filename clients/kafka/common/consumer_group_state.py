"""Port of clients/src/main/java/org/apache/kafka/common/ConsumerGroupState.java (Kafka 3.7).

The states of a classic consumer group as the broker names them in ListGroups and DescribeGroups.
"""

from __future__ import annotations

import enum

__all__ = ["ConsumerGroupState"]


class ConsumerGroupState(enum.Enum):
    """A group's state; the value is the name on the wire (and what str() gives, as Java's toString)."""

    UNKNOWN = "Unknown"
    PREPARING_REBALANCE = "PreparingRebalance"
    COMPLETING_REBALANCE = "CompletingRebalance"
    STABLE = "Stable"
    DEAD = "Dead"
    EMPTY = "Empty"

    @classmethod
    def parse(cls, name: str) -> ConsumerGroupState:
        """The state with this wire name; UNKNOWN for any name the client does not know."""
        try:
            return cls(name)
        except ValueError:
            return cls.UNKNOWN

    def __str__(self) -> str:
        return str(self.value)
