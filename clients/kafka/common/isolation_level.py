"""Port of clients/src/main/java/org/apache/kafka/common/IsolationLevel.java (Kafka 2.8).

Which records a fetch or a ListOffsets request may see: all of them, or only those of committed
transactions (up to the last stable offset).

# PORT: an IntEnum, so the id read off the wire compares equal to the member.
"""

from __future__ import annotations

import enum

__all__ = ["IsolationLevel"]


class IsolationLevel(enum.IntEnum):
    READ_UNCOMMITTED = 0
    READ_COMMITTED = 1

    @classmethod
    def for_id(cls, id: int) -> IsolationLevel:
        try:
            return cls(id)
        except ValueError:
            raise ValueError(f"Unknown isolation level {id}") from None
