"""Port of clients/src/main/java/org/apache/kafka/common/record/ConvertedRecords.java (Kafka 3.7)."""

from __future__ import annotations

from typing import Generic, TypeVar

from kafka.common.record.record_validation_stats import RecordValidationStats
from kafka.common.record.records import Records

T = TypeVar("T", bound=Records)


class ConvertedRecords(Generic[T]):
    """Records converted to another format, with the statistics of the conversion."""

    __slots__ = ("_record_validation_stats", "_records")

    def __init__(self, records: T, record_validation_stats: RecordValidationStats) -> None:
        self._records = records
        self._record_validation_stats = record_validation_stats

    def records(self) -> T:
        """The converted records."""
        return self._records

    def record_conversion_stats(self) -> RecordValidationStats:
        """What the conversion cost."""
        return self._record_validation_stats
