"""Port of clients/src/main/java/org/apache/kafka/common/record/AbstractRecords.java (Kafka 3.7).

What MemoryRecords and FileRecords share: record iteration across batches and size estimates.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Generic, TypeVar

from kafka.common.record.compression_type import CompressionType
from kafka.common.record.default_record_batch import RECORD_BATCH_OVERHEAD, DefaultRecordBatch
from kafka.common.record.legacy_record import LegacyRecord
from kafka.common.record.record_batch import MAGIC_VALUE_V1, MAGIC_VALUE_V2, RecordBatch
from kafka.common.record.records import LOG_OVERHEAD, Records

if TYPE_CHECKING:
    from kafka.common.record.record import Record
    from kafka.common.record.record_header import Header
    from kafka.common.record.simple_record import SimpleRecord

Buffer = bytes | bytearray | memoryview
T = TypeVar("T")


class IterableView(Generic[T]):
    """A re-iterable view: each `iter()` calls the factory for a fresh iterator (Java's Iterable)."""

    __slots__ = ("_factory",)

    def __init__(self, factory: Callable[[], Iterator[T]]) -> None:
        self._factory = factory

    def __iter__(self) -> Iterator[T]:
        return self._factory()


def _records_iterator(batches: Iterable[RecordBatch]) -> Iterator[Record]:
    for batch in batches:
        yield from batch


class AbstractRecords(Records):
    """Record iteration over batches, and the static size estimators."""

    __slots__ = ()

    def has_matching_magic(self, magic: int) -> bool:
        """True when every batch has exactly `magic`."""
        return all(batch.magic() == magic for batch in self.batches())

    def first_batch(self) -> RecordBatch | None:
        """The first batch, or None."""
        return next(iter(self.batches()), None)

    def last_batch(self) -> RecordBatch | None:
        """The last batch, or None (reads every batch prefix)."""
        last = None
        for batch in self.batches():
            last = batch
        return last

    def records(self) -> Iterable[Record]:
        """Every record of every batch (re-iterable)."""
        return IterableView(lambda: _records_iterator(self.batches()))

    @staticmethod
    def estimate_size_in_bytes(
        magic: int, base_offset: int, compression_type: CompressionType, records: Iterable[Record]
    ) -> int:
        """Estimated size of `records` written in one batch of `magic`."""
        size = 0
        if magic <= MAGIC_VALUE_V1:
            for record in records:
                size += LOG_OVERHEAD + LegacyRecord.record_size_of(magic, record.key(), record.value())
        else:
            size = DefaultRecordBatch.size_in_bytes_of_records(base_offset, records)
        return AbstractRecords._estimate_compressed_size_in_bytes(size, compression_type)

    @staticmethod
    def estimate_size_in_bytes_of_simple_records(
        magic: int, compression_type: CompressionType, records: Iterable[SimpleRecord]
    ) -> int:
        """Estimated size of `records` written at consecutive offsets in one batch of `magic`."""
        size = 0
        if magic <= MAGIC_VALUE_V1:
            for record in records:
                size += LOG_OVERHEAD + LegacyRecord.record_size_of(magic, record.key(), record.value())
        else:
            size = DefaultRecordBatch.size_in_bytes_of_simple_records(records)
        return AbstractRecords._estimate_compressed_size_in_bytes(size, compression_type)

    @staticmethod
    def _estimate_compressed_size_in_bytes(size: int, compression_type: CompressionType) -> int:
        if compression_type is CompressionType.NONE:
            return size
        return min(max(size // 2, 1024), 1 << 16)

    @staticmethod
    def estimate_size_in_bytes_upper_bound(
        magic: int,
        compression_type: CompressionType,
        key: Buffer | None,
        value: Buffer | None,
        headers: Sequence[Header],
    ) -> int:
        """An upper bound on the size of a batch of `magic` holding just this record."""
        if magic >= MAGIC_VALUE_V2:
            return DefaultRecordBatch.estimate_batch_size_upper_bound(key, value, headers)
        if compression_type is not CompressionType.NONE:
            return LOG_OVERHEAD + LegacyRecord.record_overhead(magic) + LegacyRecord.record_size_of(magic, key, value)
        return LOG_OVERHEAD + LegacyRecord.record_size_of(magic, key, value)

    @staticmethod
    def record_batch_header_size_in_bytes(magic: int, compression_type: CompressionType) -> int:
        """Bytes a batch of `magic` spends before its (possibly compressed) records."""
        if magic > MAGIC_VALUE_V1:
            return RECORD_BATCH_OVERHEAD
        if compression_type is not CompressionType.NONE:
            return LOG_OVERHEAD + LegacyRecord.record_overhead(magic)
        return 0
