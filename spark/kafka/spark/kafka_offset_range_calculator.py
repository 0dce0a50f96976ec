"""Port of connector/kafka-0-10-sql/src/main/scala/org/apache/spark/sql/kafka010/KafkaOffsetRangeCalculator.scala
(Spark 4).

Splits the offset ranges of a batch into Spark tasks: one task per partition with data, or, with `minPartitions`
above the number of partitions, large ranges divided in proportion to their size so that there are about
`minPartitions` tasks.

# PORT: no preferred executor locations. Spark pins a partition's tasks to one executor so that its cached
consumer is reused; PySpark's Python data sources cannot name task locations.
"""

from __future__ import annotations

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
    def __init__(self, min_partitions: int | None) -> None:
        if min_partitions is not None and min_partitions <= 0:
            raise ValueError("requirement failed")
        self.min_partitions = min_partitions

    def get_ranges(self, ranges: Sequence[KafkaOffsetRange]) -> list[KafkaOffsetRange]:
        """The ranges to read as tasks; empty and negative ranges are dropped."""
        offset_ranges = [r for r in ranges if r.size > 0]
        min_partitions = self.min_partitions
        if min_partitions is None or len(offset_ranges) >= min_partitions:
            return offset_ranges
        total_size = sum(r.size for r in offset_ranges)
        # Ranges that would get one part are left whole and out of the proportional split of the others.
        unsplit = [r for r in offset_ranges if _part_count(r.size, total_size, min_partitions) == 1]
        unsplit_tps = {r.topic_partition for r in unsplit}
        split_total_size = total_size - sum(r.size for r in unsplit)
        split_min_partitions = max(min_partitions - len(unsplit), 1)
        result: list[KafkaOffsetRange] = []
        for r in offset_ranges:
            parts = (
                1 if r.topic_partition in unsplit_tps else _part_count(r.size, split_total_size, split_min_partitions)
            )
            remaining = r.size
            start = r.from_offset
            for part in range(parts):
                this_part = remaining // (parts - part)
                remaining -= this_part
                end = min(start + this_part, r.until_offset)
                result.append(KafkaOffsetRange(r.topic_partition, start, end))
                start = end
        return [r for r in result if r.size > 0]


def _part_count(size: int, total_size: int, min_parts: int) -> int:
    # Scala's math.round rounds half up (floor(x + 0.5)), unlike Python's round.
    import math

    return max(math.floor(size / total_size * min_parts + 0.5), 1)
