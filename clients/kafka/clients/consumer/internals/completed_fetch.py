"""Port of clients/src/main/java/org/apache/kafka/clients/consumer/internals/CompletedFetch.java (Kafka 3.7).

The data of one partition from one fetch response, read lazily into ConsumerRecords as the application
polls. Batches are checked (check.crcs), records before the fetch offset skipped (a batch may start
earlier), control records never returned; with read_committed, batches of aborted transactions (known from
the response's aborted-transaction list and the ABORT markers) are skipped. A record that fails to
deserialize is kept, so the same error comes again until the application seeks past it.

# PORT: records are decompressed without Java's reusable buffers. A batch's
records are decoded together when the first of them is needed (fetched_batch_decoder) rather than one at a
time; they are still deserialized one at a time, as they are returned, and none at all with
ByteArrayDeserializer for key and value (which would return the decoded bytes as they are).
"""

from __future__ import annotations

import heapq
from collections.abc import Iterator
from typing import Any, TypeGuard, TypeVar

from kafka.clients.consumer.consumer_record import ConsumerRecord
from kafka.clients.consumer.internals.deserializers import Deserializers
from kafka.clients.consumer.internals.fetch_config import FetchConfig
from kafka.clients.consumer.internals.fetch_metrics_aggregator import FetchMetricsAggregator
from kafka.clients.consumer.internals.fetched_batch_decoder import (
    V2_BATCH_HEADER,
    RecordColumns,
    decode_default_batch,
    decode_generic_batch,
)
from kafka.clients.consumer.internals.subscription_state import SubscriptionState
from kafka.common.errors import (
    CorruptRecordException,
    KafkaException,
    RecordDeserializationException,
    SerializationException,
)
from kafka.common.isolation_level import IsolationLevel
from kafka.common.record.control_record_type import ControlRecordType
from kafka.common.record.default_record_batch import CONTROL_FLAG_MASK, RECORD_BATCH_OVERHEAD, DefaultRecordBatch
from kafka.common.record.record import Record
from kafka.common.record.record_batch import MAGIC_VALUE_V2, NO_PARTITION_LEADER_EPOCH, NO_PRODUCER_ID, RecordBatch
from kafka.common.record.records import LOG_OVERHEAD
from kafka.common.requests.fetch_response import FetchResponse
from kafka.common.serialization.byte_array_deserializer import ByteArrayDeserializer
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.log_context import LogContext

K = TypeVar("K")
V = TypeVar("V")

__all__ = ["CompletedFetch"]


_V2_HEADER = V2_BATCH_HEADER
_RECORD_BATCH_OVERHEAD = RECORD_BATCH_OVERHEAD
_CONTROL_FLAG_MASK = CONTROL_FLAG_MASK
_READ_COMMITTED = IsolationLevel.READ_COMMITTED


def _maybe_leader_epoch(leader_epoch: int) -> int | None:
    return None if leader_epoch == NO_PARTITION_LEADER_EPOCH else leader_epoch


def _is_decodable_default_batch(batch: RecordBatch) -> TypeGuard[DefaultRecordBatch]:
    """A v2 batch the batch decoders read (at least a header long, a non-negative count)."""
    return (
        isinstance(batch, DefaultRecordBatch)
        and len(batch.buffer()) >= DefaultRecordBatch.RECORD_BATCH_OVERHEAD
        and batch.count() >= 0
    )


class CompletedFetch:
    def __init__(
        self,
        log_context: LogContext,
        subscriptions: SubscriptionState,
        partition: TopicPartition,
        partition_data: Any,
        fetch_offset: int,
        request_version: int,
        metric_aggregator: FetchMetricsAggregator | None = None,
    ) -> None:
        """`metric_aggregator` gets the bytes and records read once the fetch is drained.

        # PORT: Java also takes a decompression BufferSupplier; the aggregator comes last and may be left out."""
        self._log = log_context.logger("org.apache.kafka.clients.consumer.internals.CompletedFetch")
        self._subscriptions = subscriptions
        self.partition = partition
        self.partition_data = partition_data
        self.request_version = request_version
        self._metric_aggregator = metric_aggregator
        self._batches: Iterator[RecordBatch] = iter(FetchResponse.records_or_fail(partition_data).batches())
        self._next_fetch_offset = fetch_offset
        self._last_epoch: int | None = None
        self._aborted_producer_ids: set[int] = set()
        self._aborted_transactions = self._init_aborted_transactions(partition_data)
        self._records_read = 0
        self._bytes_read = 0
        self._current_batch: RecordBatch | None = None
        # The current batch's records, decoded (raw bytes as key and value), the next one to return, the error
        # met after them, and the batch's size (counted once its first record is returned).
        self._pending: list[ConsumerRecord[bytes, bytes]] = []
        self._pending_index = 0
        self._pending_error: BaseException | None = None
        self._pending_bytes = 0
        self._cached_record_exception: BaseException | None = None
        self._corrupt_last_record = False
        self._is_consumed = False
        self._initialized = False

    def next_fetch_offset(self) -> int:
        return self._next_fetch_offset

    def last_epoch(self) -> int | None:
        return self._last_epoch

    def is_initialized(self) -> bool:
        return self._initialized

    def set_initialized(self) -> None:
        self._initialized = True

    def is_consumed(self) -> bool:
        return self._is_consumed

    def drain(self) -> None:
        """Marks the fetch consumed (nothing more is returned from it)."""
        if not self._is_consumed:
            self._pending = []
            self._pending_index = 0
            self._pending_error = None
            self._cached_record_exception = None
            self._is_consumed = True
            if self._metric_aggregator is not None:
                self._metric_aggregator.record(self.partition, self._bytes_read, self._records_read)
            # A partition that returned data goes to the end of the fetch order, keeping partitions of a topic
            # together.
            if self._bytes_read > 0:
                self._subscriptions.move_partition_to_end(self.partition)

    def _maybe_ensure_valid_batch(self, fetch_config: FetchConfig, batch: RecordBatch) -> None:
        if fetch_config.check_crcs and batch.magic() >= MAGIC_VALUE_V2:
            try:
                batch.ensure_valid()
            except CorruptRecordException as e:
                raise KafkaException(
                    f"Record batch for partition {self.partition} at offset {batch.base_offset()} is invalid, "
                    f"cause: {e}"
                ) from None

    def _maybe_ensure_valid_record(self, fetch_config: FetchConfig, record: Record) -> None:
        if fetch_config.check_crcs:
            try:
                record.ensure_valid()
            except CorruptRecordException as e:
                raise KafkaException(
                    f"Record for partition {self.partition} at offset {record.offset()} is invalid, cause: {e}"
                ) from None

    def _next_batch(self, fetch_config: FetchConfig) -> bool:
        """Moves to the next batch with records to return, decoding them; False (and drained) at the end.

        # PORT: Java pulls records one at a time; here the records of a batch are decoded together
        (fetched_batch_decoder), which returns the same records and meets the same errors at the same records.
        """
        while True:
            batch = self._next_fetchable_batch(fetch_config)
            if batch is None:
                return False
            self._decode_batch(fetch_config, batch)
            if self._pending or self._pending_error is not None:
                return True

    def _next_fetchable_batch(self, fetch_config: FetchConfig) -> RecordBatch | None:
        """The next batch whose records may be returned (checked, not aborted, not a control batch; the position
        moved past the others), or None (and drained) at the end."""
        while True:
            batch = next(self._batches, None)
            if batch is None:
                # v2 batches keep their last offset even when compaction removed the last records: the next
                # fetch starts after the batch, not inside it again.
                if self._current_batch is not None:
                    self._next_fetch_offset = self._current_batch.next_offset()
                self.drain()
                return None
            self._current_batch = batch
            if batch.__class__ is DefaultRecordBatch:
                # The common batch (v2, whole, not a control batch, not transactional under read_committed, its
                # CRC right when checked) from one read of its header: the checks below would pass it unchanged.
                buffer = batch.buffer()
                if len(buffer) >= _RECORD_BATCH_OVERHEAD:
                    _, length, epoch, magic, crc, attributes, _, _, _, producer_id, _, _, _ = _V2_HEADER.unpack_from(
                        buffer, 0
                    )
                    if (
                        magic >= MAGIC_VALUE_V2
                        and length + LOG_OVERHEAD >= _RECORD_BATCH_OVERHEAD
                        and not attributes & _CONTROL_FLAG_MASK
                        and (producer_id <= NO_PRODUCER_ID or fetch_config.isolation_level is not _READ_COMMITTED)
                        and (not fetch_config.check_crcs or crc == batch.compute_checksum())
                    ):
                        self._last_epoch = None if epoch == NO_PARTITION_LEADER_EPOCH else epoch
                        return batch
            self._last_epoch = _maybe_leader_epoch(batch.partition_leader_epoch())
            self._maybe_ensure_valid_batch(fetch_config, batch)
            if fetch_config.isolation_level is IsolationLevel.READ_COMMITTED and batch.has_producer_id():
                # Transactions aborted that began at or before this batch's end mark their producers.
                self._consume_aborted_transactions_up_to(batch.last_offset())
                producer_id = batch.producer_id()
                if self._contains_abort_marker(batch):
                    self._aborted_producer_ids.discard(producer_id)
                elif self._is_batch_aborted(batch):
                    self._log.debug(
                        f"Skipping aborted record batch from partition {self.partition} with producerId "
                        f"{producer_id} and offsets {batch.base_offset()} to {batch.last_offset()}"
                    )
                    self._next_fetch_offset = batch.next_offset()
                    continue
            if batch.is_control_batch():
                # Control records are not returned; the position moves past them.
                for record in batch.streaming_iterator():
                    if record.offset() >= self._next_fetch_offset:
                        self._maybe_ensure_valid_record(fetch_config, record)
                        self._next_fetch_offset = record.offset() + 1
                continue
            return batch

    def _decode_batch(self, fetch_config: FetchConfig, batch: RecordBatch) -> None:
        """Decodes a batch's records into the pending list (and the error met after them)."""
        tp = self.partition
        if _is_decodable_default_batch(batch):
            pending, error = decode_default_batch(batch, tp.topic, tp.partition, self._next_fetch_offset)
        else:
            pending, error = decode_generic_batch(
                batch, tp.topic, tp.partition, self._next_fetch_offset, fetch_config.check_crcs
            )
        self._pending = pending
        self._pending_index = 0
        self._pending_error = error
        self._pending_bytes = batch.size_in_bytes()

    def fetch_records(
        self, fetch_config: FetchConfig, deserializers: Deserializers[K, V], max_records: int
    ) -> list[ConsumerRecord[K, V]]:
        """Up to `max_records` records. An error on the first record is raised (again on every call until the
        application seeks past it); after some records it ends the batch early and comes on the next call."""
        if self._corrupt_last_record:
            raise KafkaException(
                f"Received exception when fetching the next record from {self.partition}. If needed, please seek past "
                "the record to continue consumption."
            ) from self._cached_record_exception
        if self._is_consumed:
            return []
        records: list[ConsumerRecord[K, V]] = []
        remaining = max_records
        # ByteArrayDeserializer returns the bytes it is given: the decoded records are returned as they are.
        identity = (
            type(deserializers.key_deserializer) is ByteArrayDeserializer
            and type(deserializers.value_deserializer) is ByteArrayDeserializer
        )
        try:
            while remaining > 0:
                pending = self._pending
                index = self._pending_index
                # After a deserialization error the index has stayed on the record: it is deserialized again.
                if index >= len(pending):
                    self._corrupt_last_record = True
                    error = self._pending_error
                    if error is not None:
                        self._pending_error = None
                        raise error
                    if not self._next_batch(fetch_config):
                        self._corrupt_last_record = False
                        break
                    self._corrupt_last_record = False
                    continue
                stop = min(len(pending), index + remaining)
                if index == 0 and self._pending_bytes:
                    self._bytes_read += self._pending_bytes
                    self._pending_bytes = 0
                if identity:
                    chunk: list[Any] = pending if index == 0 and stop == len(pending) else pending[index:stop]
                    records.extend(chunk)
                    self._pending_index = stop
                    self._records_read += stop - index
                    remaining -= stop - index
                    self._next_fetch_offset = chunk[-1].offset + 1
                else:
                    for raw in pending[index:stop]:
                        records.append(self.parse_record(deserializers, raw))
                        self._pending_index += 1
                        self._records_read += 1
                        remaining -= 1
                        self._next_fetch_offset = raw.offset + 1
                        # A deserialization that failed before and now succeeded lets the application move on.
                        self._cached_record_exception = None
        except SerializationException as se:
            self._cached_record_exception = se
            if not records:
                raise
        except KafkaException as e:
            self._cached_record_exception = e
            if not records:
                raise KafkaException(
                    f"Received exception when fetching the next record from {self.partition}. If needed, please seek "
                    "past the record to continue consumption."
                ) from e
        return records

    def fetch_columns(self, fetch_config: FetchConfig, columns: RecordColumns, max_records: int) -> int:
        """Appends this fetch's next records to `columns` and returns how many: whole batches, until at least
        `max_records` are appended or the fetch is drained. Keys and values are the records' bytes.

        # PORT: no Java counterpart (KafkaConsumer.poll_columns). The batches are chosen, checked and skipped
        exactly as for fetch_records (check.crcs, control batches, aborted transactions, offsets before the
        position) and the position moves the same way; an error after some records ends the call early and is
        raised on the next one, as fetch_records does."""
        if self._corrupt_last_record:
            raise KafkaException(
                f"Received exception when fetching the next record from {self.partition}. If needed, please seek past "
                "the record to continue consumption."
            ) from self._cached_record_exception
        if self._is_consumed:
            return 0
        appended = 0
        try:
            while appended < max_records:
                pending = self._pending
                index = self._pending_index
                if index >= len(pending):
                    self._corrupt_last_record = True
                    error = self._pending_error
                    if error is not None:
                        self._pending_error = None
                        raise error
                    batch = self._next_fetchable_batch(fetch_config)
                    if batch is None:
                        self._corrupt_last_record = False
                        break
                    rows = (
                        columns.decode_batch(batch, self._next_fetch_offset)
                        if _is_decodable_default_batch(batch)
                        else None
                    )
                    self._corrupt_last_record = False
                    if rows is None:
                        # Not common records only: decoded record by record, then appended below.
                        self._decode_batch(fetch_config, batch)
                    elif rows:
                        self._bytes_read += batch.size_in_bytes()
                        self._records_read += rows
                        appended += rows
                        self._next_fetch_offset = columns.last_offset() + 1
                    continue
                if index == 0 and self._pending_bytes:
                    self._bytes_read += self._pending_bytes
                    self._pending_bytes = 0
                chunk = pending[index:]
                columns.append_records(chunk)
                self._pending_index = len(pending)
                self._records_read += len(chunk)
                appended += len(chunk)
                self._next_fetch_offset = chunk[-1].offset + 1
        except KafkaException as e:
            self._cached_record_exception = e
            if not appended:
                raise KafkaException(
                    f"Received exception when fetching the next record from {self.partition}. If needed, please seek "
                    "past the record to continue consumption."
                ) from e
        return appended

    def parse_record(
        self, deserializers: Deserializers[K, V], raw: ConsumerRecord[bytes, bytes]
    ) -> ConsumerRecord[K, V]:
        """The record with its key and value deserialized.

        # PORT: Java's parseRecord(deserializers, partition, leaderEpoch, timestampType, Record); the decoded
        record already carries the partition, leader epoch and timestamp type."""
        partition = self.partition
        try:
            headers = raw.headers
            key_bytes = raw.key
            key = (
                None
                if key_bytes is None
                else deserializers.key_deserializer.deserialize_with_headers(partition.topic, headers, key_bytes)
            )
            value_bytes = raw.value
            value = (
                None
                if value_bytes is None
                else deserializers.value_deserializer.deserialize_with_headers(partition.topic, headers, value_bytes)
            )
            return ConsumerRecord(
                partition.topic,
                partition.partition,
                raw.offset,
                key,
                value,
                timestamp=raw.timestamp,
                timestamp_type=raw.timestamp_type,
                serialized_key_size=raw.serialized_key_size,
                serialized_value_size=raw.serialized_value_size,
                headers=headers,
                leader_epoch=raw.leader_epoch,
            )
        except Exception as e:
            self._log.error(f"Deserializers with error: {deserializers}")
            raise RecordDeserializationException(
                partition,
                raw.offset,
                f"Error deserializing key/value for partition {partition} at offset {raw.offset}. If needed, "
                "please seek past the record to continue consumption.",
                e,
            ) from e

    def _consume_aborted_transactions_up_to(self, offset: int) -> None:
        heap = self._aborted_transactions
        if heap is None:
            return
        while heap and heap[0][0] <= offset:
            _, _, aborted = heapq.heappop(heap)
            self._aborted_producer_ids.add(aborted.producer_id)

    def _is_batch_aborted(self, batch: RecordBatch) -> bool:
        return batch.is_transactional() and batch.producer_id() in self._aborted_producer_ids

    @staticmethod
    def _init_aborted_transactions(partition: Any) -> list[tuple[int, int, Any]] | None:
        aborted = partition.aborted_transactions
        if not aborted:
            return None
        # A min-heap by first offset (the index breaks ties).
        heap = [(t.first_offset, i, t) for i, t in enumerate(aborted)]
        heapq.heapify(heap)
        return heap

    @staticmethod
    def _contains_abort_marker(batch: RecordBatch) -> bool:
        if not batch.is_control_batch():
            return False
        first_record = next(iter(batch), None)
        if first_record is None:
            return False
        return ControlRecordType.parse(first_record.key()) is ControlRecordType.ABORT
