"""Port of connector/kafka-0-10-sql/src/main/scala/org/apache/spark/sql/kafka010/consumer/KafkaDataConsumer.scala
(Spark 4).

Reads the records of one partition's offset range [from, until) on an executor, with the project's KafkaConsumer
(assigned the partition, positioned with seek), and detects the records lost under a running query: an offset
that is out of range (deleted by retention or DeleteRecords) or a gap before the partition's log start. With
failOnDataLoss the read fails with KAFKA_DATA_LOSS.COULD_NOT_READ_OFFSET_RANGE; without it, the lost offsets are
skipped with a warning. Gaps above the log start (compacted records, transaction markers, aborted records under
read_committed) are not losses and are skipped quietly.

# PORT: Spark hands out one record per call and asks the broker for the partition's earliest and latest offsets
after every poll; in Python that per-record path and the two extra requests per poll would cost more than the
fetch itself. Here records come out as Arrow columns, several polls at a time (`get_column_batches`, with the
consumer's columnar poll, KafkaConsumer.poll_columns), and the available range is asked for only when a poll
returns nothing or starts past the requested offset, the only cases where Spark's checks use it. The consumer is
not pooled across tasks (Spark caches one per executor, partition and group).
"""

from __future__ import annotations

import bisect
import logging
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from kafka.clients.consumer.internals.fetched_batch_decoder import RecordColumns
from kafka.clients.consumer.kafka_consumer import KafkaConsumer
from kafka.clients.consumer.offset_out_of_range_exception import OffsetOutOfRangeException
from kafka.common.serialization.byte_array_deserializer import ByteArrayDeserializer
from kafka.common.topic_partition import TopicPartition
from kafka.spark import kafka_exceptions
from kafka.spark.kafka_exceptions import IllegalStateException, TimeoutException

__all__ = ["UNKNOWN_OFFSET", "AvailableOffsetRange", "InternalKafkaConsumer", "KafkaDataConsumer"]

log = logging.getLogger("org.apache.spark.sql.kafka010.consumer.KafkaDataConsumer")

UNKNOWN_OFFSET = -2


@dataclass(frozen=True, slots=True)
class AvailableOffsetRange:
    earliest: int
    latest: int

    def __str__(self) -> str:
        return f"AvailableOffsetRange({self.earliest},{self.latest})"


class InternalKafkaConsumer:
    """A KafkaConsumer assigned one partition."""

    def __init__(self, topic_partition: TopicPartition, kafka_params: Mapping[str, Any]) -> None:
        self.topic_partition = topic_partition
        self.kafka_params = dict(kafka_params)
        self.group_id: str | None = self.kafka_params.get("group.id")
        self._consumer: KafkaConsumer[bytes, bytes] = KafkaConsumer(
            self.kafka_params, ByteArrayDeserializer(), ByteArrayDeserializer()
        )
        self._consumer.assign([topic_partition])
        self._position: int | None = None

    def fetch(self, offset: int, poll_timeout_ms: int, columns: RecordColumns, max_records: int) -> tuple[int, int]:
        """Appends the records of one poll from `offset` to `columns` (whole batches, until `max_records`); returns
        how many and the position after them. Raises OffsetOutOfRangeException."""
        if self._position != offset:
            # Seeking only when the position differs keeps the consumer's prefetched records.
            self._consumer.seek(self.topic_partition, offset)
        self._position = None
        rows = self._consumer.poll_columns(poll_timeout_ms, columns, max_records)
        position = self._consumer.position(self.topic_partition)
        self._position = position
        return rows, position

    def get_available_offset_range(self) -> AvailableOffsetRange:
        tps = [self.topic_partition]
        earliest = self._consumer.beginning_offsets(tps)[self.topic_partition]
        latest = self._consumer.end_offsets(tps)[self.topic_partition]
        return AvailableOffsetRange(earliest, latest)

    def close(self) -> None:
        # PORT: Spark pools its consumers and seldom closes one; here every task closes its own. A close that waits
        # sends the fetch session's closing request behind the prefetch the consumer has in flight past the range
        # (a long poll at the log end, fetch.max.wait.ms), so each task would idle that long at its end. Without a
        # wait the broker drops the session by itself (its fetch session cache evicts it).
        self._consumer.close(0)


class KafkaDataConsumer:
    """Reads offset ranges of one partition; `release` closes its consumer."""

    def __init__(self, topic_partition: TopicPartition, kafka_params: Mapping[str, Any]) -> None:
        self.topic_partition = topic_partition
        self.kafka_params = dict(kafka_params)
        self.group_id: str | None = self.kafka_params.get("group.id")
        self._consumer: InternalKafkaConsumer | None = None
        self.offset_out_of_range = 0
        self.data_loss = 0
        self.total_records_read = 0
        self.num_polls = 0

    @staticmethod
    def acquire(topic_partition: TopicPartition, kafka_params: Mapping[str, Any]) -> KafkaDataConsumer:
        return KafkaDataConsumer(topic_partition, kafka_params)

    def _get_or_retrieve_consumer(self) -> InternalKafkaConsumer:
        if self._consumer is None:
            self._consumer = InternalKafkaConsumer(self.topic_partition, self.kafka_params)
        return self._consumer

    def _release_consumer(self) -> None:
        if self._consumer is not None:
            self._consumer.close()
            self._consumer = None

    def release(self) -> None:
        log.info(
            "From Kafka topicPartition=%s groupId=%s read %d records through %d polls",
            self.topic_partition,
            self.group_id,
            self.total_records_read,
            self.num_polls,
        )
        self._release_consumer()

    def get_column_batches(
        self,
        offset: int,
        until_offset: int,
        poll_timeout_ms: int,
        fail_on_data_loss: bool,
        include_headers: bool,
        batch_rows: int,
    ) -> Iterator[tuple[RecordColumns, int]]:
        """The records of [offset, until_offset) in offset order as columns, about `batch_rows` rows at a time:
        (columns, rows), the columns' first `rows` rows (never none) being the range's; a yielded RecordColumns is
        not touched again."""
        if offset >= until_offset:
            raise ValueError(
                f"requirement failed: offset must always be less than untilOffset [offset: {offset}, "
                f"untilOffset: {until_offset}]"
            )
        tp = self.topic_partition
        columns = RecordColumns(include_headers)
        to_fetch = offset
        while to_fetch < until_offset:
            consumer = self._get_or_retrieve_consumer()
            before = len(columns)
            try:
                rows, offset_after_poll = consumer.fetch(to_fetch, poll_timeout_ms, columns, batch_rows - before)
                self.num_polls += 1
                if not rows:
                    available = consumer.get_available_offset_range()
                    if to_fetch < available.earliest or to_fetch >= available.latest:
                        raise OffsetOutOfRangeException({tp: to_fetch})
                    if offset_after_poll == to_fetch:
                        raise TimeoutException(
                            f"Cannot fetch record for offset {to_fetch} in {poll_timeout_ms} milliseconds"
                        )
                    # Only invisible records (transaction markers, aborted records) in [to_fetch, position).
                    to_fetch = offset_after_poll
                    continue
            except OffsetOutOfRangeException as e:
                # A fresh consumer drops whatever state the old one had.
                self._release_consumer()
                if fail_on_data_loss:
                    self.data_loss += 1
                    raise kafka_exceptions.could_not_read_offset_range(to_fetch, until_offset, tp, self.group_id) from e
                self._log_on_data_loss(f"Cannot fetch offset {to_fetch}", e)
                old = to_fetch
                to_fetch = self._get_earliest_available_offset_between(to_fetch, until_offset)
                if to_fetch == UNKNOWN_OFFSET:
                    self.offset_out_of_range += until_offset - old
                    break
                self.offset_out_of_range += to_fetch - old
                continue
            first = columns.offset_at(before)
            if first < to_fetch:
                raise IllegalStateException(f"Tried to fetch {to_fetch} but the returned record offset was {first}")
            if first > to_fetch:
                available = consumer.get_available_offset_range()
                if available.earliest > to_fetch:
                    # Records below the log start are gone: lost, not merely invisible.
                    if fail_on_data_loss:
                        self.data_loss += 1
                        raise kafka_exceptions.could_not_read_offset_range(to_fetch, first, tp, self.group_id)
                    self._log_on_data_loss(f"Skip missing records in [{to_fetch}, {min(first, until_offset)})")
            end = len(columns)
            if columns.last_offset() >= until_offset:
                # The last batch goes past the range: its rows from until_offset on are left out.
                end = bisect.bisect_left(range(before, end), until_offset, key=columns.offset_at) + before
                self.total_records_read += end - before
                if end:
                    yield columns, end
                return
            self.total_records_read += end - before
            to_fetch = offset_after_poll
            if end >= batch_rows:
                yield columns, end
                columns = RecordColumns(include_headers)
        if len(columns):
            yield columns, len(columns)

    def _get_earliest_available_offset_between(self, offset: int, until_offset: int) -> int:
        """The first available offset in [offset, until_offset), or UNKNOWN_OFFSET when none is."""
        available = self._get_or_retrieve_consumer().get_available_offset_range()
        log.warning("Some data may be lost. Recovering from the earliest offset: %d", available.earliest)
        if offset >= available.latest or available.earliest >= until_offset:
            log.warning(
                "The current available offset range is %s.\n Offset %d is out of range, and records in [%d, %d) "
                "will be\n skipped %s",
                available,
                offset,
                offset,
                until_offset,
                self._additional_warning_message(),
            )
            return UNKNOWN_OFFSET
        if offset >= available.earliest:
            log.warning(
                "Found a disappeared offset %d. Some data may be lost %s", offset, self._additional_warning_message()
            )
            return offset
        log.warning(
            "The current available offset range is %s.\n Offset %d is out of range, and records in [%d, %d) will "
            "be\n skipped %s",
            available,
            offset,
            offset,
            available.earliest,
            self._additional_warning_message(),
        )
        return available.earliest

    def _additional_warning_message(self) -> str:
        from kafka.spark.kafka_source_provider import INSTRUCTION_FOR_FAIL_ON_DATA_LOSS_FALSE

        where = f"(GroupId: {self.group_id}, TopicPartition: {self.topic_partition})"
        return f"{where}. {INSTRUCTION_FOR_FAIL_ON_DATA_LOSS_FALSE}"

    def _log_on_data_loss(self, message: str, cause: BaseException | None = None) -> None:
        self.data_loss += 1
        log.warning("%s %s", message, self._additional_warning_message(), exc_info=cause)
