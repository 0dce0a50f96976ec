"""Port of clients/src/main/java/org/apache/kafka/clients/consumer/ConsumerRecords.java (Kafka 3.7).

What one `KafkaConsumer.poll` returns: the fetched records grouped by partition, iterable as a whole,
per partition or per topic.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from itertools import chain
from typing import Any, Generic, TypeVar

from kafka.clients.consumer.consumer_record import ConsumerRecord
from kafka.common.topic_partition import TopicPartition

K = TypeVar("K")
V = TypeVar("V")

__all__ = ["ConsumerRecords"]


class ConsumerRecords(Generic[K, V]):
    """Records by partition, in fetch order within each partition.

    # PORT: `len(records)` is Java's count(); `records.records(tp_or_topic)` covers both of Java's overloads.
    """

    __slots__ = ("_records",)

    EMPTY: ConsumerRecords[Any, Any]

    def __init__(self, records: Mapping[TopicPartition, Sequence[ConsumerRecord[K, V]]]) -> None:
        self._records = records

    def records(self, partition_or_topic: TopicPartition | str) -> list[ConsumerRecord[K, V]]:
        """The records of one partition, or of every partition of one topic."""
        if isinstance(partition_or_topic, TopicPartition):
            return list(self._records.get(partition_or_topic, ()))
        if partition_or_topic is None:
            raise ValueError("Topic must be non-null.")
        result: list[ConsumerRecord[K, V]] = []
        for tp, recs in self._records.items():
            if tp.topic == partition_or_topic:
                result.extend(recs)
        return result

    def partitions(self) -> frozenset[TopicPartition]:
        """The partitions that have records in this batch."""
        return frozenset(self._records)

    def __iter__(self) -> Iterator[ConsumerRecord[K, V]]:
        return chain.from_iterable(self._records.values())

    def count(self) -> int:
        return sum(len(recs) for recs in self._records.values())

    def __len__(self) -> int:
        return self.count()

    def is_empty(self) -> bool:
        return not self._records

    def __bool__(self) -> bool:
        return bool(self._records)

    @staticmethod
    def empty() -> ConsumerRecords[Any, Any]:
        return ConsumerRecords.EMPTY

    def __repr__(self) -> str:
        return f"ConsumerRecords({dict(self._records)!r})"


ConsumerRecords.EMPTY = ConsumerRecords({})
