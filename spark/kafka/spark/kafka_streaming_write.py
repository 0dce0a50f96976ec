"""Port of connector/kafka-0-10-sql/src/main/scala/org/apache/spark/sql/kafka010/KafkaStreamingWrite.scala
(Spark 4).

A streaming write (`df.writeStream.format("kafka-port")`): each micro-batch's tasks send their rows; Spark's sink
is at-least-once (a replayed batch writes its rows again). With exactlyOnce=true each task writes its share of a
batch in a Kafka transaction that also records the batch id (KafkaTransactionalWriteTask), so that a replayed
batch adds nothing.

# PORT: Spark's sink supports complete mode by ignoring the truncation it asks for; so does this one (the
`overwrite` flag PySpark passes for complete mode is ignored).
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from pyspark.sql.datasource import DataSourceStreamArrowWriter, WriterCommitMessage

from kafka.spark.kafka_write_task import KafkaTransactionalWriteTask, KafkaWriteTask, WriteStats

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = ["KafkaStreamingWrite"]

log = logging.getLogger("org.apache.spark.sql.kafka010.KafkaStreamingWrite")


class KafkaStreamingWrite(DataSourceStreamArrowWriter):
    def __init__(
        self, topic: str | None, producer_params: Mapping[str, Any], exactly_once: bool, transactional_id_prefix: str
    ) -> None:
        self.topic = topic
        self.producer_params = dict(producer_params)
        self.exactly_once = exactly_once
        self.transactional_id_prefix = transactional_id_prefix

    def write(self, iterator: Iterator[pa.RecordBatch]) -> WriterCommitMessage:
        if self.exactly_once:
            from pyspark import TaskContext

            context = TaskContext.get()
            assert context is not None, "a streaming write runs in a Spark task"
            query_id = context.getLocalProperty("sql.streaming.queryId")
            batch_id = context.getLocalProperty("streaming.sql.batchId")
            assert query_id is not None and batch_id is not None, "a streaming write knows its query and batch"
            transactional_id = f"{self.transactional_id_prefix}-{query_id}-{context.partitionId()}"
            return KafkaTransactionalWriteTask(
                self.producer_params, self.topic, transactional_id, int(batch_id)
            ).execute(iterator)
        task = KafkaWriteTask(self.producer_params, self.topic)
        try:
            task.execute(iterator)
        finally:
            task.close()
        return WriteStats(task.records)

    def commit(self, messages: list[WriterCommitMessage | None], batchId: int) -> None:
        stats = [m for m in messages if isinstance(m, WriteStats)]
        skipped = sum(1 for m in stats if m.skipped_replay)
        log.info(
            "Committed batch %d: %d records%s",
            batchId,
            sum(m.records for m in stats),
            f" ({skipped} tasks found the batch already written)" if skipped else "",
        )

    def abort(self, messages: list[WriterCommitMessage | None], batchId: int) -> None:
        log.warning("Aborting batch %d", batchId)
