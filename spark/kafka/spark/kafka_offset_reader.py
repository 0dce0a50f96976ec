"""Port of connector/kafka-0-10-sql/src/main/scala/org/apache/spark/sql/kafka010/KafkaOffsetReader.scala (Spark 4).

Builds the driver's offset reader.

# PORT: Spark has two readers behind this trait, one on an admin client (its default) and one on a consumer
(spark.sql.streaming.kafka.useDeprecatedOffsetFetching); only the admin one is ported, and `build` returns it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kafka.spark.consumer_strategy import ConsumerStrategy
from kafka.spark.kafka_offset_reader_admin import KafkaOffsetReaderAdmin

__all__ = ["KafkaOffsetReader", "build"]

KafkaOffsetReader = KafkaOffsetReaderAdmin


def build(
    consumer_strategy: ConsumerStrategy,
    driver_kafka_params: Mapping[str, Any],
    reader_options: Mapping[str, str],
    driver_group_id_prefix: str,
) -> KafkaOffsetReaderAdmin:
    return KafkaOffsetReaderAdmin(consumer_strategy, driver_kafka_params, reader_options, driver_group_id_prefix)
