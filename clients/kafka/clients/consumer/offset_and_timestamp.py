"""Port of clients/src/main/java/org/apache/kafka/clients/consumer/OffsetAndTimestamp.java (Kafka 3.7).

What `KafkaConsumer.offsets_for_times` finds for a partition: the first offset whose timestamp is at
least the one asked for, that record's timestamp and its leader epoch.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["OffsetAndTimestamp"]


@dataclass(frozen=True, slots=True)
class OffsetAndTimestamp:
    offset: int
    timestamp: int
    leader_epoch: int | None = None

    def __post_init__(self) -> None:
        if self.offset < 0:
            raise ValueError("Invalid negative offset")
        if self.timestamp < 0:
            raise ValueError("Invalid negative timestamp")

    def __repr__(self) -> str:
        epoch = "null" if self.leader_epoch is None else self.leader_epoch
        return f"(timestamp={self.timestamp}, leaderEpoch={epoch}, offset={self.offset})"
