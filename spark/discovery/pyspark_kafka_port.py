"""PySpark's discovery hook for the `kafka-port` data source.

PySpark imports every top-level module whose name starts with `pyspark_` and registers its `DefaultSource`
under `DefaultSource.name()`. This module must import cleanly wherever PySpark looks (a failed import breaks the
lookup of every Python data source), so it imports nothing but the provider.
"""

from kafka.spark.kafka_source_provider import KafkaSourceProvider as DefaultSource

__all__ = ["DefaultSource"]
