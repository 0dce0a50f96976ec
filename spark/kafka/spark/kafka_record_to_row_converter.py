"""Port of connector/kafka-0-10-sql/src/main/scala/org/apache/spark/sql/kafka010/KafkaRecordToRowConverter.scala
(Spark 4).

The source's schema (`key binary, value binary, topic string, partition int, offset bigint, timestamp timestamp,
timestampType int`, and `headers array<struct<key: string, value: binary>>` with includeHeaders) and the
conversion of fetched records into rows of it.

# PORT: rows go to Spark as Arrow record batches, not as UnsafeRows; their Arrow schema is PySpark's own conversion of
the Spark schema, which the engine checks. The consumer's columnar fetch (KafkaConsumer.poll_columns) lays the records
out in Arrow's buffers already: the batch's columns are made from those buffers (`pa.Array.from_buffers`), with no
Python object per row.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pyarrow as pa
    from pyspark.sql.types import StructType

    from kafka.clients.consumer.internals.fetched_batch_decoder import RecordColumns

__all__ = ["arrow_schema", "kafka_schema", "to_record_batch"]


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
    topic: str, partition: int, columns: RecordColumns, rows: int, include_headers: bool
) -> pa.RecordBatch:
    """The first `rows` rows of one partition's fetched columns as an Arrow batch of the source's schema (a record
    without headers has null headers, as in Spark). The batch shares the columns' buffers: they must not change
    afterwards."""
    import pyarrow as pa
    import pyarrow.compute as pc

    schema = arrow_schema(include_headers)
    buffer = pa.py_buffer
    timestamps_ms = pa.Array.from_buffers(pa.int64(), rows, [None, buffer(columns.timestamps)])
    arrays: list[Any] = [
        pa.Array.from_buffers(
            pa.binary(),
            rows,
            [buffer(columns.key_validity), buffer(columns.key_offsets), buffer(columns.key_data)],
        ),
        pa.Array.from_buffers(
            pa.binary(),
            rows,
            [buffer(columns.value_validity), buffer(columns.value_offsets), buffer(columns.value_data)],
        ),
        pa.repeat(pa.scalar(topic, pa.string()), rows),
        pa.repeat(pa.scalar(partition, pa.int32()), rows),
        pa.Array.from_buffers(pa.int64(), rows, [None, buffer(columns.offsets)]),
        pc.multiply(timestamps_ms, 1000).cast(schema.field("timestamp").type),
        pa.Array.from_buffers(pa.int8(), rows, [None, buffer(columns.timestamp_types)]).cast(pa.int32()),
    ]
    if include_headers:
        header_type = schema.field("headers").type
        headers = columns.headers
        if any(row < rows for row in headers):
            arrays.append(pa.array([headers.get(row) for row in range(rows)], header_type))
        else:
            arrays.append(pa.nulls(rows, header_type))
    return pa.RecordBatch.from_arrays(arrays, schema=schema)
