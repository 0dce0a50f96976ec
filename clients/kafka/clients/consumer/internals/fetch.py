"""Port of clients/src/main/java/org/apache/kafka/clients/consumer/internals/Fetch.java (Kafka 3.7).

The records collected for one poll, by partition, and whether some position advanced (a poll that only
skipped aborted or control records still returns, with no records).
"""

from __future__ import annotations

from typing import Generic, TypeVar

from kafka.clients.consumer.consumer_record import ConsumerRecord
from kafka.common.topic_partition import TopicPartition

K = TypeVar("K")
V = TypeVar("V")

__all__ = ["Fetch"]


class Fetch(Generic[K, V]):
    __slots__ = ("_records", "_position_advanced", "_num_records")

    def __init__(
        self, records: dict[TopicPartition, list[ConsumerRecord[K, V]]], position_advanced: bool, num_records: int
    ) -> None:
        self._records = records
        self._position_advanced = position_advanced
        self._num_records = num_records

    @classmethod
    def empty(cls) -> Fetch[K, V]:
        return cls({}, False, 0)

    @classmethod
    def for_partition(
        cls, partition: TopicPartition, records: list[ConsumerRecord[K, V]], position_advanced: bool
    ) -> Fetch[K, V]:
        return cls({partition: records} if records else {}, position_advanced, len(records))

    def add(self, fetch: Fetch[K, V]) -> None:
        for partition, part_records in fetch._records.items():
            self._num_records += len(part_records)
            current = self._records.get(partition)
            # Rare (one fetch per partition at a time), but possible around leader changes.
            self._records[partition] = part_records if current is None else current + part_records
        self._position_advanced |= fetch._position_advanced

    def records(self) -> dict[TopicPartition, list[ConsumerRecord[K, V]]]:
        return dict(self._records)

    def position_advanced(self) -> bool:
        return self._position_advanced

    def num_records(self) -> int:
        return self._num_records

    def is_empty(self) -> bool:
        return self._num_records == 0 and not self._position_advanced
