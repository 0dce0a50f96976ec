"""Port of clients/src/main/java/org/apache/kafka/common/record/RecordsUtil.java (Kafka 3.7).

Down-conversion: rewriting batches into an older record format for a consumer that asked for it
(Fetch versions before 4 read magic 0/1 only).
"""

from __future__ import annotations

import time as _time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from kafka.common.errors import UnsupportedCompressionTypeException
from kafka.common.record.compression_type import CompressionType
from kafka.common.record.converted_records import ConvertedRecords
from kafka.common.record.memory_records_builder import MemoryRecordsBuilder
from kafka.common.record.record_batch import MAGIC_VALUE_V1, MAGIC_VALUE_V2, NO_TIMESTAMP, RecordBatch
from kafka.common.record.record_validation_stats import RecordValidationStats
from kafka.common.record.timestamp_type import TimestampType

if TYPE_CHECKING:
    from kafka.common.record.memory_records import MemoryRecords
    from kafka.common.record.record import Record


class Time(Protocol):
    """The part of Kafka's Time this module needs."""

    def nanoseconds(self) -> int:
        """A monotonic clock in nanoseconds."""
        ...


class _SystemTime:
    def nanoseconds(self) -> int:
        return _time.monotonic_ns()


@dataclass(slots=True)
class _RecordBatchAndRecords:
    batch: RecordBatch
    records: list[Record] | None
    base_offset: int | None


def down_convert(
    batches: Iterable[RecordBatch], to_magic: int, first_offset: int, time: Time | None = None
) -> ConvertedRecords[MemoryRecords]:
    """Convert `batches` to `to_magic`, keeping batches that already have it or an older magic.

    Control batches are dropped below magic 2; zstd batches cannot go below magic 2
    (UnsupportedCompressionTypeException). Uncompressed records before `first_offset` are dropped.
    """
    from kafka.common.record.memory_records import MemoryRecords

    clock: Time = time if time is not None else _SystemTime()
    start_nanos = clock.nanoseconds()
    pending: list[_RecordBatchAndRecords] = []
    for batch in batches:
        if to_magic < MAGIC_VALUE_V2:
            if batch.is_control_batch():
                continue
            if batch.compression_type() is CompressionType.ZSTD:
                raise UnsupportedCompressionTypeException(
                    "Down-conversion of zstandard-compressed batches is not supported"
                )
        if batch.magic() <= to_magic:
            pending.append(_RecordBatchAndRecords(batch, None, None))
            continue
        records = [
            record
            for record in batch
            if to_magic > MAGIC_VALUE_V1 or batch.is_compressed() or record.offset() >= first_offset
        ]
        if not records:
            continue
        if batch.magic() >= MAGIC_VALUE_V2 and to_magic >= MAGIC_VALUE_V2:
            base_offset = batch.base_offset()
        else:
            base_offset = records[0].offset()
        pending.append(_RecordBatchAndRecords(batch, records, base_offset))

    out = bytearray()
    temporary_memory_bytes = 0
    num_records_converted = 0
    for item in pending:
        temporary_memory_bytes += item.batch.size_in_bytes()
        if item.batch.magic() <= to_magic:
            item.batch.write_to(out)
        else:
            builder = _convert_record_batch(to_magic, item)
            out += builder.buffer()
            temporary_memory_bytes += builder.uncompressed_bytes_written()
            num_records_converted += builder.num_records()
    stats = RecordValidationStats(temporary_memory_bytes, num_records_converted, clock.nanoseconds() - start_nanos)
    return ConvertedRecords(MemoryRecords.readable_records(out), stats)


def _convert_record_batch(magic: int, item: _RecordBatchAndRecords) -> MemoryRecordsBuilder:
    batch = item.batch
    timestamp_type = batch.timestamp_type()
    log_append_time = batch.max_timestamp() if timestamp_type is TimestampType.LOG_APPEND_TIME else NO_TIMESTAMP
    assert item.base_offset is not None and item.records is not None
    builder = MemoryRecordsBuilder(
        magic=magic,
        compression_type=batch.compression_type(),
        timestamp_type=timestamp_type,
        base_offset=item.base_offset,
        log_append_time=log_append_time,
    )
    for record in item.records:
        if magic > MAGIC_VALUE_V1:
            builder.append_record(record)
        else:
            builder.append_with_offset(record.offset(), record.timestamp(), record.key(), record.value())
    builder.close()
    return builder


class RecordsUtil:
    """Java's static holder; the function is also available at module level."""

    down_convert = staticmethod(down_convert)
