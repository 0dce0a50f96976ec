"""Port of clients/src/main/java/org/apache/kafka/clients/consumer/GroupProtocol.java (Kafka 3.7).

The group membership protocol a consumer speaks (group.protocol): the classic JoinGroup/SyncGroup
protocol, or KIP-848's ConsumerGroupHeartbeat protocol.
"""

from __future__ import annotations

import enum

__all__ = ["GroupProtocol"]


class GroupProtocol(enum.Enum):
    CLASSIC = "CLASSIC"
    CONSUMER = "CONSUMER"

    @classmethod
    def of(cls, name: str) -> GroupProtocol:
        return cls[name.upper()]
