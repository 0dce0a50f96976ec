"""Port of connector/kafka-0-10-sql/src/main/scala/org/apache/spark/sql/kafka010/KafkaOffsetRangeCalculator.scala
(Spark 4).

Splits the offset ranges of a batch into Spark tasks: one task per partition with data; with
`maxRecordsPerPartition`, ranges cut into pieces of at most that many offsets; with `minPartitions` above the number
of ranges, large ranges divided in proportion to their size so that there are about `minPartitions` tasks.

# PORT: no preferred executor locations. Spark pins a partition's tasks to one executor so that its cached
consumer is reused; PySpark's Python data sources cannot name task locations.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from kafka.common.topic_partition import TopicPartition

__all__ = ["KafkaOffsetRange", "KafkaOffsetRangeCalculator"]


@dataclass(frozen=True, slots=True)
class KafkaOffsetRange:
    """The offsets [from_offset, until_offset) of one partition."""

    topic_partition: TopicPartition
    from_offset: int
    until_offset: int

    @property
    def topic(self) -> str:
        return self.topic_partition.topic

    @property
    def partition(self) -> int:
        return self.topic_partition.partition

    @property
    def size(self) -> int:
        """Offsets in the range; an estimate of its records (compaction and transaction markers leave gaps)."""
        return self.until_offset - self.from_offset


class KafkaOffsetRangeCalculator:
    def __init__(self, min_partitions: int | None, max_records_per_partition: int | None = None) -> None:
        if min_partitions is not None and min_partitions <= 0:
            raise ValueError("requirement failed")
        self.min_partitions = min_partitions
        self.max_records_per_partition = max_records_per_partition

    def get_ranges(self, ranges: Sequence[KafkaOffsetRange]) -> list[KafkaOffsetRange]:
        """The ranges to read as tasks; empty and negative ranges are dropped.

        maxRecordsPerPartition first cuts every range into pieces of at most that many offsets; if that leaves
        fewer than minPartitions ranges, the large ones are then split in proportion to their size."""
        offset_ranges = [r for r in ranges if r.size > 0]
        max_records = self.max_records_per_partition
        if max_records is not None:
            offset_ranges = [part for r in offset_ranges for part in _divide(r, -(-r.size // max_records))]
        min_partitions = self.min_partitions
        if min_partitions is None or len(offset_ranges) >= min_partitions:
            return offset_ranges
        total_size = sum(r.size for r in offset_ranges)
        # Ranges that would get one part are left whole and out of the proportional split of the others.
        unsplit = [_part_count(r.size, total_size, min_partitions) == 1 for r in offset_ranges]
        split_total_size = total_size - sum(r.size for r, whole in zip(offset_ranges, unsplit) if whole)
        split_min_partitions = max(min_partitions - sum(unsplit), 1)
        result: list[KafkaOffsetRange] = []
        for r, whole in zip(offset_ranges, unsplit):
            parts = 1 if whole else _part_count(r.size, split_total_size, split_min_partitions)
            result.extend(_divide(r, parts))
        return [r for r in result if r.size > 0]


def _divide(r: KafkaOffsetRange, parts: int) -> list[KafkaOffsetRange]:
    """`r` cut into `parts` consecutive ranges of nearly equal size (the last ones take the remainder)."""
    result: list[KafkaOffsetRange] = []
    remaining = r.size
    start = r.from_offset
    for part in range(parts):
        this_part = remaining // (parts - part)
        remaining -= this_part
        end = min(start + this_part, r.until_offset)
        result.append(KafkaOffsetRange(r.topic_partition, start, end))
        start = end
    return result


def _part_count(size: int, total_size: int, min_parts: int) -> int:
    # Scala's math.round rounds half up (floor(x + 0.5)), unlike Python's round.
    return max(math.floor(size / total_size * min_parts + 0.5), 1)
