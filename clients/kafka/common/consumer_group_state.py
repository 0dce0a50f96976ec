"""Port of clients/src/main/java/org/apache/kafka/common/ConsumerGroupState.java (Kafka 3.7).

The states of a classic consumer group as the broker names them in ListGroups and DescribeGroups.
"""

from __future__ import annotations

from kafka.common.utils.state_enum import StateEnum

__all__ = ["ConsumerGroupState"]


class ConsumerGroupState(StateEnum):
    """A group's state; the value is the name on the wire (and what str() gives, as Java's toString)."""

    UNKNOWN = "Unknown"
    PREPARING_REBALANCE = "PreparingRebalance"
    COMPLETING_REBALANCE = "CompletingRebalance"
    STABLE = "Stable"
    DEAD = "Dead"
    EMPTY = "Empty"
