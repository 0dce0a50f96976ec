"""Port of connector/kafka-0-10-sql/src/main/scala/org/apache/spark/sql/kafka010/KafkaWriteTask.scala (Spark 4).

Writes one Spark task's rows to Kafka: KafkaRowWriter turns each row (from the Arrow batches PySpark hands the
writer) into a ProducerRecord and sends it, keeping the first send error; KafkaWriteTask sends through the
process's pooled producer and flushes at the end (at-least-once: a retried task or replayed batch sends its rows
again). KafkaTransactionalWriteTask is the exactly-once variant (option exactlyOnce=true, not in Spark): see its
docstring.
"""

from __future__ import annotations

import itertools
import logging
from collections.abc import Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

from pyspark.sql.datasource import WriterCommitMessage

from kafka.clients.consumer.offset_and_metadata import OffsetAndMetadata
from kafka.clients.producer.callback import Callback
from kafka.clients.producer.kafka_producer import KafkaProducer
from kafka.clients.producer.producer_record import ProducerRecord
from kafka.clients.producer.record_metadata import RecordMetadata
from kafka.common.topic_partition import TopicPartition
from kafka.spark import kafka_exceptions
from kafka.spark.kafka_writer import (
    HEADERS_ATTRIBUTE_NAME,
    KEY_ATTRIBUTE_NAME,
    PARTITION_ATTRIBUTE_NAME,
    TIMESTAMP_ATTRIBUTE_NAME,
    TOPIC_ATTRIBUTE_NAME,
    VALUE_ATTRIBUTE_NAME,
)
from kafka.spark.producer import cached_kafka_producer

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = ["KafkaRowWriter", "KafkaTransactionalWriteTask", "KafkaWriteTask", "WriteStats"]

log = logging.getLogger("org.apache.spark.sql.kafka010.KafkaWriteTask")

_MICROS_BY_UNIT = {"s": 1_000_000, "ms": 1000, "us": 1, "ns": 0}


def _binary_column(batch: pa.RecordBatch, name: str) -> list[bytes | None]:
    import pyarrow as pa

    index = batch.schema.get_field_index(name)
    if index < 0:
        return [None] * batch.num_rows
    column = batch.column(index)
    if pa.types.is_string(column.type) or pa.types.is_large_string(column.type):
        return [None if s is None else s.encode() for s in column.to_pylist()]
    return list(column.to_pylist())


def _timestamps_ms(batch: pa.RecordBatch) -> list[int | None]:
    """The timestamp column in ms, as Spark casts it (microseconds divided by 1000, rounding toward zero)."""
    import pyarrow as pa

    index = batch.schema.get_field_index(TIMESTAMP_ATTRIBUTE_NAME)
    if index < 0:
        return [None] * batch.num_rows
    column = batch.column(index)
    micros: list[int | None]
    if pa.types.is_timestamp(column.type):
        raw = column.cast(pa.int64()).to_pylist()
        unit = column.type.unit
        if unit == "ns":
            micros = [None if v is None else int(v / 1000) for v in raw]
        else:
            micros = [None if v is None else v * _MICROS_BY_UNIT[unit] for v in raw]
    else:  # double seconds
        micros = [None if v is None else int(v * 1_000_000) for v in column.to_pylist()]
    return [None if m is None else int(m / 1000) if m < 0 else m // 1000 for m in micros]


class WriteStats(WriterCommitMessage):
    """What a task wrote, for the driver: its record count, and whether it found its batch already committed."""

    def __init__(self, records: int, skipped_replay: bool = False) -> None:
        self.records = records
        self.skipped_replay = skipped_replay


class _KeepFirstError(Callback):
    """The send callback of a KafkaRowWriter: keeps the first failed send's error."""

    __slots__ = ("_writer",)

    def __init__(self, writer: KafkaRowWriter) -> None:
        self._writer = writer

    def on_completion(self, metadata: RecordMetadata | None, exception: BaseException | None) -> None:
        if exception is not None and self._writer.failed_write is None:
            self._writer.failed_write = exception


class KafkaRowWriter:
    """Turns rows into records and sends them; the first failed send is raised by `check_for_errors`."""

    def __init__(self, topic: str | None) -> None:
        self.topic = topic
        self.failed_write: BaseException | None = None
        self.records = 0
        self.topics: set[str] = set()

    def records_of(self, batch: pa.RecordBatch) -> Iterator[ProducerRecord[bytes, bytes]]:
        n = batch.num_rows
        names = batch.schema.names
        if self.topic is not None:
            topics: list[str | None] = [self.topic] * n
        else:
            topics = batch.column(names.index(TOPIC_ATTRIBUTE_NAME)).to_pylist()
        keys = _binary_column(batch, KEY_ATTRIBUTE_NAME)
        values = _binary_column(batch, VALUE_ATTRIBUTE_NAME)
        partitions: list[int | None] = (
            batch.column(names.index(PARTITION_ATTRIBUTE_NAME)).to_pylist()
            if PARTITION_ATTRIBUTE_NAME in names
            else [None] * n
        )
        timestamps = _timestamps_ms(batch)
        headers: list[Any] = (
            batch.column(names.index(HEADERS_ATTRIBUTE_NAME)).to_pylist()
            if HEADERS_ATTRIBUTE_NAME in names
            else [None] * n
        )
        for topic, key, value, partition, timestamp, header_list in zip(
            topics, keys, values, partitions, timestamps, headers
        ):
            if topic is None:
                raise kafka_exceptions.null_topic_in_data()
            yield ProducerRecord(
                topic,
                value,
                key=key,
                partition=partition,
                timestamp=timestamp,
                headers=None if header_list is None else [(h["key"], h["value"]) for h in header_list],
            )

    def send_batches(self, batches: Iterable[pa.RecordBatch], producer: KafkaProducer[bytes, bytes]) -> None:
        # One Callback for every record: a function would be wrapped in one per record by the producer.
        callback = _KeepFirstError(self)
        for batch in batches:
            for record in self.records_of(batch):
                if self.failed_write is not None:
                    return
                producer.send(record, callback)
                self.topics.add(record.topic)
                self.records += 1

    def check_for_errors(self) -> None:
        if self.failed_write is not None:
            raise self.failed_write


class KafkaWriteTask(KafkaRowWriter):
    """At-least-once: the rows are sent through the process's pooled producer and flushed."""

    def __init__(self, producer_configuration: Mapping[str, Any], topic: str | None) -> None:
        super().__init__(topic)
        self.producer_configuration = dict(producer_configuration)
        self.producer: KafkaProducer[bytes, bytes] | None = None

    def execute(self, batches: Iterable[pa.RecordBatch]) -> None:
        self.producer = cached_kafka_producer.acquire(self.producer_configuration)
        self.send_batches(batches, self.producer)

    def close(self) -> None:
        try:
            self.check_for_errors()
            if self.producer is not None:
                self.producer.flush()
                self.check_for_errors()
        except BaseException:
            # A producer that failed may be in any state: the next task gets a new one.
            cached_kafka_producer.invalidate(self.producer_configuration)
            raise
        finally:
            self.producer = None


class KafkaTransactionalWriteTask(KafkaRowWriter):
    """Exactly-once: one Kafka transaction per task and micro-batch, with the batch id committed in it.

    The task's producer has the transactional id `{prefix}-{queryId}-{partitionId}`, the same for the task of that
    partition in every batch and after every restart (Spark keeps the query id in the checkpoint), so that
    `init_transactions` fences an earlier attempt and completes the transaction it left. In the transaction, next
    to the rows, the task commits the offset `batchId + 1` for partition 0 of each topic it wrote to, in the
    consumer group named like the transactional id (TxnOffsetCommit): the group's offsets say which batch the task
    last committed, atomically with its rows. A task that finds its batch already committed there (Spark replays
    a batch whose commit it did not record; a retried task whose first attempt committed) writes nothing.

    Each task's transaction commits on its own, when the task ends: read_committed consumers see a batch's
    records per task, before Spark records the batch as committed, never twice. Replays must give each task the
    same rows, as Spark's replay of a deterministic query does (same offsets, same partitioning).
    """

    def __init__(
        self,
        producer_configuration: Mapping[str, Any],
        topic: str | None,
        transactional_id: str,
        batch_id: int,
    ) -> None:
        super().__init__(topic)
        self.producer_configuration = {
            **producer_configuration,
            "transactional.id": transactional_id,
            "enable.idempotence": "true",
            "acks": "all",
        }
        self.transactional_id = transactional_id
        self.batch_id = batch_id
        self.skipped_replay = False

    def last_committed_batch(self) -> int:
        """The highest batch id this task's group has committed (-1 for none), stable offsets only."""
        from kafka.clients.admin.admin import Admin
        from kafka.clients.admin.admin_client_config import AdminClientConfig
        from kafka.clients.admin.list_consumer_group_offsets_options import ListConsumerGroupOffsetsOptions

        known = AdminClientConfig.CONFIG.names()
        admin = Admin.create({k: v for k, v in self.producer_configuration.items() if k in known})
        try:
            options = ListConsumerGroupOffsetsOptions(require_stable=True)
            offsets = admin.list_consumer_group_offsets(self.transactional_id, options)
            committed = offsets.partitions_to_offset_and_metadata().get()
        finally:
            admin.close()
        marks = [o.offset - 1 for o in committed.values() if o is not None]
        return max(marks, default=-1)

    def execute(self, batches: Iterable[pa.RecordBatch]) -> WriteStats:
        iterator = iter(batches)
        first = next(iterator, None)
        if first is None:
            return WriteStats(0)
        producer = cached_kafka_producer.new_producer(self.producer_configuration)
        try:
            # Fences an earlier attempt and completes its transaction before the group's offsets are read.
            producer.init_transactions()
            last = self.last_committed_batch()
            if last >= self.batch_id:
                log.info(
                    "Batch %d of %s was committed (last committed batch %d): writing nothing",
                    self.batch_id,
                    self.transactional_id,
                    last,
                )
                self.skipped_replay = True
                for _ in iterator:
                    pass
                return WriteStats(0, skipped_replay=True)
            producer.begin_transaction()
            try:
                self.send_batches(itertools.chain([first], iterator), producer)
                producer.flush()
                self.check_for_errors()
                marker = OffsetAndMetadata(self.batch_id + 1, f"kafka-port batch {self.batch_id}")
                producer.send_offsets_to_transaction(
                    {TopicPartition(t, 0): marker for t in sorted(self.topics)}, self.transactional_id
                )
                producer.commit_transaction()
            except BaseException:
                try:
                    producer.abort_transaction()
                except Exception:
                    log.warning("Could not abort the transaction of %s", self.transactional_id, exc_info=True)
                raise
            return WriteStats(self.records)
        finally:
            producer.close()
