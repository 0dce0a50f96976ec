"""Port of clients/src/main/java/org/apache/kafka/common/record/RecordValidationStats.java (Kafka 3.7).

Counters of the work done converting or validating records, reported in broker metrics.
"""

from __future__ import annotations

from typing import ClassVar


class RecordValidationStats:
    """Temporary memory used, records converted and time spent (nanoseconds)."""

    __slots__ = ("_conversion_time_nanos", "_num_records_converted", "_temporary_memory_bytes")

    EMPTY: ClassVar[RecordValidationStats]

    def __init__(self, temporary_memory_bytes: int = 0, num_records_converted: int = 0, conversion_time_nanos: int = 0):
        self._temporary_memory_bytes = temporary_memory_bytes
        self._num_records_converted = num_records_converted
        self._conversion_time_nanos = conversion_time_nanos

    def add(self, stats: RecordValidationStats) -> None:
        """Accumulate `stats` into this one."""
        self._temporary_memory_bytes += stats._temporary_memory_bytes
        self._num_records_converted += stats._num_records_converted
        self._conversion_time_nanos += stats._conversion_time_nanos

    def temporary_memory_bytes(self) -> int:
        """Bytes of temporary buffers used."""
        return self._temporary_memory_bytes

    def num_records_converted(self) -> int:
        """Records converted to another format."""
        return self._num_records_converted

    def conversion_time_nanos(self) -> int:
        """Time spent converting."""
        return self._conversion_time_nanos

    def __repr__(self) -> str:
        return (
            f"RecordValidationStats(temporaryMemoryBytes={self._temporary_memory_bytes}, "
            f"numRecordsConverted={self._num_records_converted}, conversionTimeNanos={self._conversion_time_nanos})"
        )


RecordValidationStats.EMPTY = RecordValidationStats()
