"""Port of connector/kafka-0-10-sql/src/main/scala/org/apache/spark/sql/kafka010/KafkaBatchWrite.scala and
KafkaDataWriter.scala (Spark 4).

A batch write (`df.write.format("kafka-port")`): each task sends its rows with a KafkaWriteTask; nothing is
committed on the driver. With exactlyOnce=true each task's rows go in one Kafka transaction (all or none of them
visible to read_committed consumers); a batch job has no batch id, so a retried task writes its rows again.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from pyspark.sql.datasource import DataSourceArrowWriter, WriterCommitMessage

from kafka.spark.kafka_write_task import KafkaTransactionalWriteTask, KafkaWriteTask, WriteStats

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = ["KafkaBatchWrite"]

log = logging.getLogger("org.apache.spark.sql.kafka010.KafkaBatchWrite")


def partition_id() -> int:
    from pyspark import TaskContext

    context = TaskContext.get()
    return 0 if context is None else context.partitionId()


class KafkaBatchWrite(DataSourceArrowWriter):
    def __init__(
        self, topic: str | None, producer_params: Mapping[str, Any], exactly_once: bool, transactional_id_prefix: str
    ) -> None:
        self.topic = topic
        self.producer_params = dict(producer_params)
        self.exactly_once = exactly_once
        # One id per job: the tasks of a batch job have no batch id to find a previous attempt's writes by.
        self.transactional_id_prefix = f"{transactional_id_prefix}-{uuid.uuid4()}"

    def write(self, iterator: Iterator[pa.RecordBatch]) -> WriterCommitMessage:
        if self.exactly_once:
            transactional_id = f"{self.transactional_id_prefix}-{partition_id()}"
            return KafkaTransactionalWriteTask(self.producer_params, self.topic, transactional_id, 0).execute(iterator)
        task = KafkaWriteTask(self.producer_params, self.topic)
        try:
            task.execute(iterator)
        finally:
            task.close()
        return WriteStats(task.records)

    def commit(self, messages: list[WriterCommitMessage | None]) -> None:
        written = sum(m.records for m in messages if isinstance(m, WriteStats))
        log.info("Data source write committed: %d records", written)

    def abort(self, messages: list[WriterCommitMessage | None]) -> None:
        log.warning("Data source write aborted")
