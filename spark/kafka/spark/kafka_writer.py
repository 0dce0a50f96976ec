"""Port of connector/kafka-0-10-sql/src/main/scala/org/apache/spark/sql/kafka010/KafkaWriter.scala (Spark 4).

The columns a DataFrame written to Kafka may have and their types: `value` (string or binary, required), `key`
(string or binary), `topic` (string; required unless the `topic` option is given, which takes precedence),
`headers` (array<struct<key: string, value: binary>>), `partition` (int) and `timestamp` (timestamp or double
seconds). `validate_query` refuses other types with Spark's messages.
"""

from __future__ import annotations

from pyspark.sql.types import (
    ArrayType,
    BinaryType,
    DataType,
    DoubleType,
    IntegerType,
    StringType,
    StructField,
    StructType,
    TimestampType,
)

from kafka.spark.kafka_exceptions import IllegalStateException

__all__ = [
    "HEADERS_ATTRIBUTE_NAME",
    "KEY_ATTRIBUTE_NAME",
    "PARTITION_ATTRIBUTE_NAME",
    "TIMESTAMP_ATTRIBUTE_NAME",
    "TOPIC_ATTRIBUTE_NAME",
    "VALUE_ATTRIBUTE_NAME",
    "AnalysisException",
    "validate_query",
]

TOPIC_ATTRIBUTE_NAME = "topic"
KEY_ATTRIBUTE_NAME = "key"
VALUE_ATTRIBUTE_NAME = "value"
HEADERS_ATTRIBUTE_NAME = "headers"
PARTITION_ATTRIBUTE_NAME = "partition"
TIMESTAMP_ATTRIBUTE_NAME = "timestamp"

HEADERS_TYPE = ArrayType(StructType([StructField("key", StringType()), StructField("value", BinaryType())]))


class AnalysisException(ValueError):
    """A query Spark refuses before running it (Spark's AnalysisException)."""


def _same_type(a: DataType, b: DataType) -> bool:
    # Spark's DataTypeUtils.sameType: equal ignoring nullability.
    if isinstance(a, ArrayType) and isinstance(b, ArrayType):
        return _same_type(a.elementType, b.elementType)
    if isinstance(a, StructType) and isinstance(b, StructType):
        return len(a.fields) == len(b.fields) and all(
            fa.name == fb.name and _same_type(fa.dataType, fb.dataType) for fa, fb in zip(a.fields, b.fields)
        )
    return a == b


def _check(schema: StructType, name: str, desired: list[DataType], required_message: str | None) -> None:
    field = next((f for f in schema.fields if f.name == name), None)
    if field is None:
        if required_message is not None:
            raise IllegalStateException(required_message)
        return
    if not any(_same_type(d, field.dataType) for d in desired):
        raise IllegalStateException(
            f"{name} attribute unsupported type {field.dataType.simpleString()}. {name} must be a(n) "
            f"{' or '.join(d.simpleString() for d in desired)}"
        )


def validate_query(schema: StructType, topic: str | None) -> None:
    """Raises AnalysisException when the columns cannot be written to Kafka."""
    try:
        if topic is None:
            _check(
                schema,
                TOPIC_ATTRIBUTE_NAME,
                [StringType()],
                f"topic option required when no '{TOPIC_ATTRIBUTE_NAME}' attribute is present. Use the topic option "
                "for setting a topic.",
            )
        _check(schema, KEY_ATTRIBUTE_NAME, [StringType(), BinaryType()], None)
        _check(
            schema,
            VALUE_ATTRIBUTE_NAME,
            [StringType(), BinaryType()],
            f"Required attribute '{VALUE_ATTRIBUTE_NAME}' not found",
        )
        _check(schema, HEADERS_ATTRIBUTE_NAME, [HEADERS_TYPE], None)
        _check(schema, PARTITION_ATTRIBUTE_NAME, [IntegerType()], None)
        _check(schema, TIMESTAMP_ATTRIBUTE_NAME, [DoubleType(), TimestampType()], None)
    except IllegalStateException as e:
        raise AnalysisException(str(e)) from None
