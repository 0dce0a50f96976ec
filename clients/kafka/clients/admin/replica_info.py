"""Port of clients/src/main/java/org/apache/kafka/clients/admin/ReplicaInfo.java (Kafka 3.7).

One replica in a log directory: its size, how far it lags the high watermark (or, for a future replica, the
current one), and whether it is a future replica being moved there.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["ReplicaInfo"]


@dataclass(frozen=True, slots=True)
class ReplicaInfo:
    size: int
    offset_lag: int
    is_future: bool

    def __str__(self) -> str:
        return f"ReplicaInfo(size={self.size}, offsetLag={self.offset_lag}, isFuture={str(self.is_future).lower()})"
