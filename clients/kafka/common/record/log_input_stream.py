"""Port of clients/src/main/java/org/apache/kafka/common/record/LogInputStream.java (Kafka 3.7)."""

from __future__ import annotations

from typing import Protocol, TypeVar

from kafka.common.record.record_batch import RecordBatch

T_co = TypeVar("T_co", bound=RecordBatch, covariant=True)


class LogInputStream(Protocol[T_co]):
    """A source of record batches read one at a time, reading only what each batch needs."""

    def next_batch(self) -> T_co | None:
        """The next batch, or None when no complete batch remains.

        Raises CorruptRecordException when the next batch's size or magic is invalid.
        """
        ...
