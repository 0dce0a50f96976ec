"""Port of connector/kafka-0-10-sql/src/main/scala/org/apache/spark/sql/kafka010/KafkaRecordToRowConverter.scala
(Spark 4).

The source's schema (`key binary, value binary, topic string, partition int, offset bigint, timestamp timestamp,
timestampType int`, and `headers array<struct<key: string, value: binary>>` with includeHeaders) and the
conversion of fetched records into rows of it.

# PORT: rows go to Spark as Arrow record batches (one per poll's worth of records, columns built at once), not
as UnsafeRows; their Arrow schema is PySpark's own conversion of the Spark schema, which the engine checks.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from functools import cache
from operator import attrgetter
from typing import TYPE_CHECKING, Any

from kafka.clients.consumer.consumer_record import ConsumerRecord
from kafka.clients.consumer.internals import fetched_batch_decoder

if TYPE_CHECKING:
    import pyarrow as pa
    from pyspark.sql.types import StructType

__all__ = ["arrow_schema", "kafka_schema", "to_record_batch"]

# The records' slots, read directly: the public properties add a call per record and column (a tenth of the
# conversion's cost with 100 B records).
_KEY = attrgetter("_key")
_VALUE = attrgetter("_value")
_OFFSET = attrgetter("_offset")
_TIMESTAMP = attrgetter("_timestamp")
_TIMESTAMP_TYPE = attrgetter("_timestamp_type")


def kafka_schema(include_headers: bool) -> StructType:
    """The schema of the rows the source reads."""
    from pyspark.sql.types import (
        ArrayType,
        BinaryType,
        IntegerType,
        LongType,
        StringType,
        StructField,
        StructType,
        TimestampType,
    )

    fields = [
        StructField("key", BinaryType()),
        StructField("value", BinaryType()),
        StructField("topic", StringType()),
        StructField("partition", IntegerType()),
        StructField("offset", LongType()),
        StructField("timestamp", TimestampType()),
        StructField("timestampType", IntegerType()),
    ]
    if include_headers:
        header = StructType([StructField("key", StringType()), StructField("value", BinaryType())])
        fields.append(StructField("headers", ArrayType(header)))
    return StructType(fields)


@cache
def arrow_schema(include_headers: bool) -> pa.Schema:
    """The Arrow schema PySpark expects of the batches (timestamps as `timestamp[us, tz=UTC]`)."""
    from pyspark.sql.pandas.types import to_arrow_schema

    return to_arrow_schema(kafka_schema(include_headers), timezone="UTC")


def to_record_batch(
    topic: str, partition: int, records: Sequence[ConsumerRecord[bytes, bytes]], include_headers: bool
) -> pa.RecordBatch:
    """The records of one partition as an Arrow batch of the source's schema (a record without headers has null
    headers, as in Spark)."""
    import pyarrow as pa

    schema = arrow_schema(include_headers)
    n = len(records)
    columns = _compiled_columns(records)
    if columns is not None:
        offsets, timestamps, keys, values, timestamp_type = columns
        if timestamp_type is not None:
            return _record_batch(
                schema,
                topic,
                partition,
                n,
                pa.Array.from_buffers(pa.int64(), n, [None, pa.py_buffer(offsets)]),
                pa.Array.from_buffers(pa.int64(), n, [None, pa.py_buffer(timestamps)]),
                pa.repeat(pa.scalar(timestamp_type.id, pa.int32()), n),
                _binary_array(n, keys),
                _binary_array(n, values),
                records if include_headers else None,
            )
    timestamps_ms = pa.array(list(map(_TIMESTAMP, records)), pa.int64())
    timestamp_types = set(map(_TIMESTAMP_TYPE, records))
    if len(timestamp_types) == 1:  # the usual case: one timestamp type for the whole topic
        timestamp_type_column = pa.repeat(pa.scalar(timestamp_types.pop().id, pa.int32()), n)
    else:
        timestamp_type_column = pa.array([t.id for t in map(_TIMESTAMP_TYPE, records)], pa.int32())
    return _record_batch(
        schema,
        topic,
        partition,
        n,
        pa.array(list(map(_OFFSET, records)), pa.int64()),
        timestamps_ms,
        timestamp_type_column,
        pa.array(list(map(_KEY, records)), pa.binary()),
        pa.array(list(map(_VALUE, records)), pa.binary()),
        records if include_headers else None,
    )


def _record_batch(
    schema: pa.Schema,
    topic: str,
    partition: int,
    n: int,
    offsets: pa.Array,
    timestamps_ms: pa.Array,
    timestamp_types: pa.Array,
    keys: pa.Array,
    values: pa.Array,
    records_for_headers: Sequence[ConsumerRecord[bytes, bytes]] | None,
) -> pa.RecordBatch:
    import pyarrow as pa
    import pyarrow.compute as pc

    columns: list[Any] = [
        keys,
        values,
        pa.repeat(pa.scalar(topic, pa.string()), n),
        pa.repeat(pa.scalar(partition, pa.int32()), n),
        offsets,
        pc.multiply(timestamps_ms, 1000).cast(schema.field("timestamp").type),
        timestamp_types,
    ]
    if records_for_headers is not None:
        columns.append(
            pa.array(
                [[(h.key(), h.value()) for h in r.headers] or None for r in records_for_headers],
                schema.field("headers").type,
            )
        )
    return pa.RecordBatch.from_arrays(columns, schema=schema)


def _binary_array(n: int, column: tuple[bytes | None, bytes, bytes, int]) -> pa.Array:
    import pyarrow as pa

    validity, offsets, data, null_count = column
    buffers = [None if validity is None else pa.py_buffer(validity), pa.py_buffer(offsets), pa.py_buffer(data)]
    return pa.Array.from_buffers(pa.binary(), n, buffers, null_count=null_count)


def _compiled_columns(records: Sequence[ConsumerRecord[bytes, bytes]]) -> tuple[Any, ...] | None:
    """The offset, timestamp, key and value columns of `records` in Arrow's layout, built by the consumer's
    optional compiled module (record_columns), or None: then they are built here from the records' slots."""
    if _RECORD_COLUMNS is None or not isinstance(records, list):
        return None
    try:
        columns: tuple[Any, ...] = _RECORD_COLUMNS(records, ConsumerRecord)
    except (TypeError, OverflowError):
        return None
    return columns


def _load_record_columns() -> Callable[..., tuple[Any, ...]] | None:
    # Arrow's buffers are little-endian, as the module writes them only where the machine is.
    if fetched_batch_decoder._compiled_decode_records is None or sys.byteorder != "little":
        return None
    try:
        from kafka.clients.consumer.internals import _fetched_batch_decoder  # type: ignore[attr-defined]
    except ImportError:
        return None
    record_columns: Callable[..., tuple[Any, ...]] = _fetched_batch_decoder.record_columns
    return record_columns


_RECORD_COLUMNS = _load_record_columns()
