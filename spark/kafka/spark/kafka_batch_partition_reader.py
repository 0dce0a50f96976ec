"""Port of connector/kafka-0-10-sql/src/main/scala/org/apache/spark/sql/kafka010/KafkaBatchPartitionReader.scala
(Spark 4).

A Spark task's share of a Kafka read: one partition's offset range (KafkaBatchInputPartition, pickled to the
executor), read by KafkaBatchPartitionReader into Arrow batches. Batch queries and micro-batches share it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from pyspark.sql.datasource import InputPartition

from kafka.spark.kafka_offset_range_calculator import KafkaOffsetRange

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = ["MAX_RECORDS_PER_ARROW_BATCH", "KafkaBatchInputPartition", "KafkaBatchPartitionReader"]

#: Records gathered into one Arrow batch (Spark's spark.sql.execution.arrow.maxRecordsPerBatch default).
MAX_RECORDS_PER_ARROW_BATCH = 10_000


class KafkaBatchInputPartition(InputPartition):
    """What an executor needs to read one offset range: picklable, no live objects."""

    def __init__(
        self,
        offset_range: KafkaOffsetRange,
        executor_kafka_params: Mapping[str, Any],
        poll_timeout_ms: int,
        fail_on_data_loss: bool,
        include_headers: bool,
    ) -> None:
        super().__init__(offset_range)
        self.offset_range = offset_range
        self.executor_kafka_params = dict(executor_kafka_params)
        self.poll_timeout_ms = poll_timeout_ms
        self.fail_on_data_loss = fail_on_data_loss
        self.include_headers = include_headers

    def __repr__(self) -> str:
        r = self.offset_range
        return f"KafkaBatchInputPartition({r.topic_partition}, {r.from_offset}, {r.until_offset})"


class KafkaBatchPartitionReader:
    """Reads one KafkaBatchInputPartition."""

    def __init__(self, partition: KafkaBatchInputPartition) -> None:
        self.partition = partition
        self.offset_range = partition.offset_range

    def batches(self) -> Iterator[pa.RecordBatch]:
        # The consumer is imported here, on the executor: the driver's processes that plan a read (the streaming
        # source's runner among them, a fresh process per query) only make partitions.
        from kafka.spark.consumer.kafka_data_consumer import KafkaDataConsumer
        from kafka.spark.kafka_record_to_row_converter import to_record_batch

        r = self.offset_range
        if r.from_offset >= r.until_offset:
            return
        include_headers = self.partition.include_headers
        consumer = KafkaDataConsumer.acquire(r.topic_partition, self.partition.executor_kafka_params)
        try:
            for columns, rows in consumer.get_column_batches(
                r.from_offset,
                r.until_offset,
                self.partition.poll_timeout_ms,
                self.partition.fail_on_data_loss,
                include_headers,
                MAX_RECORDS_PER_ARROW_BATCH,
            ):
                yield to_record_batch(r.topic, r.partition, columns, rows, include_headers)
        finally:
            consumer.release()
