"""The `kafka-port` data source for PySpark: Spark's Kafka source (options, schema and offset semantics of
connector/kafka-0-10-sql) on the project's own clients.

Installing the project is enough: PySpark finds the source through the `pyspark_kafka_port` module, so
`spark.read.format("kafka-port")` works in any session whose Python workers can import the project.
`register(spark)` registers it by hand where that discovery is off.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

__all__ = ["register"]


def register(spark: SparkSession) -> None:
    """Registers the `kafka-port` data source in `spark`."""
    from kafka.spark.kafka_source_provider import KafkaSourceProvider

    spark.dataSource.register(KafkaSourceProvider)
