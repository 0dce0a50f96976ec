"""Port of connector/kafka-0-10-sql/src/main/scala/org/apache/spark/sql/kafka010/KafkaOffsetRangeLimit.scala (Spark 4).

Where a read starts or ends: the earliest or latest offsets, offsets given per partition (-2 and -1 standing for
earliest and latest), timestamps given per partition, or one timestamp for every partition.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass

from kafka.common.topic_partition import TopicPartition

__all__ = [
    "EARLIEST",
    "LATEST",
    "EarliestOffsetRangeLimit",
    "GlobalTimestampRangeLimit",
    "KafkaOffsetRangeLimit",
    "LatestOffsetRangeLimit",
    "SpecificOffsetRangeLimit",
    "SpecificTimestampRangeLimit",
    "StrategyOnNoMatchStartingOffset",
]

#: The offset that stands for "the latest offset" in a JSON of partition offsets.
LATEST = -1
#: The offset that stands for "the earliest offset" in a JSON of partition offsets.
EARLIEST = -2


class StrategyOnNoMatchStartingOffset(enum.Enum):
    """What a starting timestamp that matches no record resolves to: an error, or the latest offset."""

    ERROR = "ERROR"
    LATEST = "LATEST"


class KafkaOffsetRangeLimit:
    """The base of the five kinds of limit."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class EarliestOffsetRangeLimit(KafkaOffsetRangeLimit):
    def __str__(self) -> str:
        return "EarliestOffsetRangeLimit"


@dataclass(frozen=True, slots=True)
class LatestOffsetRangeLimit(KafkaOffsetRangeLimit):
    def __str__(self) -> str:
        return "LatestOffsetRangeLimit"


@dataclass(frozen=True, slots=True)
class SpecificOffsetRangeLimit(KafkaOffsetRangeLimit):
    """An offset per partition; -2 (EARLIEST) and -1 (LATEST) are resolved when the read is planned."""

    partition_offsets: Mapping[TopicPartition, int]


@dataclass(frozen=True, slots=True)
class SpecificTimestampRangeLimit(KafkaOffsetRangeLimit):
    """A timestamp (ms) per partition: the read starts or ends at the first offset at or after it."""

    topic_timestamps: Mapping[TopicPartition, int]
    strategy_on_no_matching_starting_offset: StrategyOnNoMatchStartingOffset


@dataclass(frozen=True, slots=True)
class GlobalTimestampRangeLimit(KafkaOffsetRangeLimit):
    """One timestamp (ms) for every partition."""

    timestamp: int
    strategy_on_no_matching_starting_offset: StrategyOnNoMatchStartingOffset
