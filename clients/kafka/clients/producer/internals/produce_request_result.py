"""Port of clients/src/main/java/org/apache/kafka/clients/producer/internals/ProduceRequestResult.java (Kafka 3.7).

The shared outcome of one ProducerBatch: set once by the I/O thread (base offset, log append time,
per-record errors), then released to every waiting FutureRecordMetadata of the batch.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from kafka.clients.producer.record_metadata import RecordMetadata
from kafka.common.record.record_batch import NO_TIMESTAMP
from kafka.common.topic_partition import TopicPartition

__all__ = ["ProduceRequestResult"]


class ProduceRequestResult:
    """A latch with the batch's result behind it."""

    __slots__ = ("_base_offset", "_errors_by_index", "_latch", "_log_append_time", "_topic_partition")

    def __init__(self, topic_partition: TopicPartition) -> None:
        self._latch = threading.Event()
        self._topic_partition = topic_partition
        self._base_offset: int | None = None
        self._log_append_time = NO_TIMESTAMP
        self._errors_by_index: Callable[[int], BaseException | None] | None = None

    def set(
        self, base_offset: int, log_append_time: int, errors_by_index: Callable[[int], BaseException | None] | None
    ) -> None:
        """Records the result; `errors_by_index` maps a record's index in the batch to its error (None: success)."""
        self._base_offset = base_offset
        self._log_append_time = log_append_time
        self._errors_by_index = errors_by_index

    def done(self) -> None:
        """Releases the waiters; `set` must have been called."""
        if self._base_offset is None:
            raise RuntimeError("The method `set` must be invoked before this method.")
        self._latch.set()

    def await_(self, timeout_ms: int | None = None) -> bool:
        """Waits until done, at most `timeout_ms` (forever when None); True if done."""
        return self._latch.wait(None if timeout_ms is None else max(0, timeout_ms) / 1000)

    def base_offset(self) -> int:
        assert self._base_offset is not None
        return self._base_offset

    def record_metadata(
        self, batch_index: int, create_timestamp: int, serialized_key_size: int, serialized_value_size: int
    ) -> RecordMetadata:
        """The RecordMetadata of the record at `batch_index` of a successful batch (the log append time, when the
        topic uses it, stands for the create time).

        # PORT: FutureRecordMetadata.value() reads the result field by field in Java; here it asks for the
        metadata in one call, which the producer's I/O thread makes for every record.
        """
        base_offset = self._base_offset
        assert base_offset is not None
        log_append_time = self._log_append_time
        return RecordMetadata(
            self._topic_partition,
            base_offset,
            batch_index,
            create_timestamp if log_append_time == NO_TIMESTAMP else log_append_time,
            serialized_key_size,
            serialized_value_size,
        )

    def has_log_append_time(self) -> bool:
        return self._log_append_time != NO_TIMESTAMP

    def log_append_time(self) -> int:
        return self._log_append_time

    def error(self, batch_index: int) -> BaseException | None:
        """The error of the record at `batch_index`, or None when it succeeded."""
        errors_by_index = self._errors_by_index
        return None if errors_by_index is None else errors_by_index(batch_index)

    def topic_partition(self) -> TopicPartition:
        return self._topic_partition

    def completed(self) -> bool:
        return self._latch.is_set()
