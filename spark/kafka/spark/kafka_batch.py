"""Port of connector/kafka-0-10-sql/src/main/scala/org/apache/spark/sql/kafka010/KafkaBatch.scala (Spark 4).

A batch query (`spark.read`): plans one task per partition's offset range between the starting and ending limits,
resolved on the driver when the query runs, and reads each range on an executor.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING

from pyspark.sql.datasource import DataSourceReader, InputPartition

from kafka.spark.consumer_strategy import ConsumerStrategy
from kafka.spark.kafka_batch_partition_reader import KafkaBatchInputPartition, KafkaBatchPartitionReader
from kafka.spark.kafka_offset_range_limit import (
    EarliestOffsetRangeLimit,
    KafkaOffsetRangeLimit,
    LatestOffsetRangeLimit,
)

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = ["KafkaBatch"]


class KafkaBatch(DataSourceReader):
    def __init__(
        self,
        strategy: ConsumerStrategy,
        source_options: Mapping[str, str],
        specified_kafka_params: Mapping[str, str],
        fail_on_data_loss: bool,
        starting_offsets: KafkaOffsetRangeLimit,
        ending_offsets: KafkaOffsetRangeLimit,
        include_headers: bool,
    ) -> None:
        from kafka.spark.kafka_source_provider import poll_timeout_ms

        assert not isinstance(starting_offsets, LatestOffsetRangeLimit), (
            "Starting offset not allowed to be set to latest offsets."
        )
        assert not isinstance(ending_offsets, EarliestOffsetRangeLimit), (
            "Ending offset not allowed to be set to earliest offsets."
        )
        self.strategy = strategy
        self.source_options = dict(source_options)
        self.specified_kafka_params = dict(specified_kafka_params)
        self.fail_on_data_loss = fail_on_data_loss
        self.starting_offsets = starting_offsets
        self.ending_offsets = ending_offsets
        self.include_headers = include_headers
        self.poll_timeout_ms = poll_timeout_ms(self.source_options)

    def partitions(self) -> Sequence[InputPartition]:
        """plan_input_partitions: the offset ranges, resolved now with a short-lived admin client."""
        from kafka.spark.kafka_offset_reader import build
        from kafka.spark.kafka_source_provider import (
            batch_unique_group_id,
            kafka_params_for_driver,
            kafka_params_for_executors,
        )

        unique_group_id = batch_unique_group_id(self.source_options)
        offset_reader = build(
            self.strategy,
            kafka_params_for_driver(self.specified_kafka_params),
            self.source_options,
            f"{unique_group_id}-driver",
        )
        try:
            offset_ranges = offset_reader.get_offset_ranges_from_unresolved_offsets(
                self.starting_offsets, self.ending_offsets
            )
        finally:
            offset_reader.close()
        executor_kafka_params = kafka_params_for_executors(self.specified_kafka_params, unique_group_id)
        return [
            KafkaBatchInputPartition(
                r, executor_kafka_params, self.poll_timeout_ms, self.fail_on_data_loss, self.include_headers
            )
            for r in offset_ranges
        ]

    def read(self, partition: InputPartition) -> Iterator[pa.RecordBatch]:
        assert isinstance(partition, KafkaBatchInputPartition)
        return KafkaBatchPartitionReader(partition).batches()

    def __str__(self) -> str:
        return f"KafkaBatch(strategy={self.strategy}, start={self.starting_offsets}, end={self.ending_offsets})"
