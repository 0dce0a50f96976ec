"""Port of clients/src/main/java/org/apache/kafka/clients/producer/internals/ProducerBatch.java (Kafka 3.7).

A batch of records for one partition, built while the accumulator fills it and sent in one produce
request. It holds each record's future and callback, completes them all when the broker answers (or
the batch fails or expires), and can split itself into smaller batches after MESSAGE_TOO_LARGE.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable, Sequence
from enum import Enum
from typing import TYPE_CHECKING, Any, TypeVar, cast

from kafka.clients.producer.internals.future_record_metadata import FutureRecordMetadata
from kafka.clients.producer.internals.produce_request_result import ProduceRequestResult
from kafka.clients.producer.record_metadata import RecordMetadata
from kafka.common.errors import RecordBatchTooLargeException
from kafka.common.record import default_record
from kafka.common.record.abstract_records import AbstractRecords
from kafka.common.record.compression_ratio_estimator import CompressionRatioEstimator
from kafka.common.record.compression_type import CompressionType
from kafka.common.record.memory_records import MemoryRecords
from kafka.common.record.memory_records_builder import MemoryRecordsBuilder
from kafka.common.record.record_batch import MAGIC_VALUE_V2, NO_SEQUENCE, NO_TIMESTAMP
from kafka.common.record.timestamp_type import TimestampType
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.log_context import LogContext
from kafka.common.utils.producer_id_and_epoch import ProducerIdAndEpoch
from kafka.common.utils.time import Time

if TYPE_CHECKING:
    from kafka.clients.producer.callback import Callback
    from kafka.clients.producer.internals.buffer_pool import ByteBuffer
    from kafka.common.record.record import Record
    from kafka.common.record.record_header import Header

__all__ = ["FinalState", "ProducerBatch", "append_to_batch"]

Buffer = bytes | bytearray | memoryview

_log = LogContext().logger("org.apache.kafka.clients.producer.internals.ProducerBatch")

#: ProduceResponse.INVALID_OFFSET
_INVALID_OFFSET = -1

_T = TypeVar("_T")


class FinalState(Enum):
    ABORTED = "ABORTED"
    FAILED = "FAILED"
    SUCCEEDED = "SUCCEEDED"

    def __str__(self) -> str:
        return self.value


class ProducerBatch:
    """One partition's records on their way to the broker.

    Appends happen under the accumulator's lock of the partition's deque; completion happens on the I/O
    thread. The final state is set once (compare-and-set under a small lock, as Java's AtomicReference).
    """

    def __init__(
        self,
        tp: TopicPartition,
        records_builder: MemoryRecordsBuilder,
        created_ms: int,
        is_split_batch: bool = False,
        buffer: ByteBuffer | None = None,
    ) -> None:
        self.created_ms = created_ms
        self._last_attempt_ms = created_ms
        self._records_builder = records_builder
        self.topic_partition = tp
        self._last_append_time = created_ms
        self.produce_future = ProduceRequestResult(tp)
        # Java's thunks (each record's callback and future), as two lists side by side: one allocation less per
        # record on the producer's hot path.
        self._callbacks: list[Callback | None] = []
        self._futures: list[FutureRecordMetadata] = []
        self._attempts = 0
        self._is_split_batch = is_split_batch
        self._final_state: FinalState | None = None
        self._state_lock = threading.Lock()
        self.record_count = 0
        self.last_appended_bytes = 0
        # PORT: no maxRecordSize. Java raises it on every append to the record's size upper bound (key, value and
        # headers lengths plus worst-case overheads, not the encoded size), read only by record-size-avg/max.
        # MemoryRecordsBuilder keeps no per-batch maximum, so it would take a computation per record on the append
        # path; those two metrics are registered but stay unrecorded.
        self._drained_ms = 0
        self._retry = False
        self._reopened = False
        self._current_leader_epoch: int | None = None
        self._attempts_when_leader_last_changed = 0
        # PORT: the pool's buffer token, so that the accumulator can give it back (Java reads it off the builder).
        self._buffer = buffer
        self._initial_capacity = buffer.capacity() if buffer is not None else 0
        compression_ratio_estimation = CompressionRatioEstimator.estimation(
            tp.topic, records_builder.compression_type()
        )
        records_builder.set_estimated_compression_ratio(compression_ratio_estimation)

    # ---- leader epoch tracking (KIP-951) ---------------------------------------------------------

    def maybe_update_leader_epoch(self, latest_leader_epoch: int | None) -> None:
        """Notes a newer leader epoch of the partition, and the attempt at which it was first seen."""
        if latest_leader_epoch is not None and (
            self._current_leader_epoch is None or self._current_leader_epoch < latest_leader_epoch
        ):
            if _log.is_trace_enabled():
                _log.trace(
                    f"For {self}, leader will be updated, currentLeaderEpoch: {self._current_leader_epoch}, "
                    f"attemptsWhenLeaderLastChanged:{self._attempts_when_leader_last_changed}, "
                    f"latestLeaderEpoch: {latest_leader_epoch}, current attempt: {self._attempts}"
                )
            self._attempts_when_leader_last_changed = self.attempts()
            self._current_leader_epoch = latest_leader_epoch
        elif _log.is_trace_enabled():
            _log.trace(
                f"For {self}, leader wasn't updated, currentLeaderEpoch: {self._current_leader_epoch}, "
                f"attemptsWhenLeaderLastChanged:{self._attempts_when_leader_last_changed}, "
                f"latestLeaderEpoch: {latest_leader_epoch}, current attempt: {self._attempts}"
            )

    def has_leader_changed_for_the_ongoing_retry(self) -> bool:
        """True when this is a retry and the leader changed since the previous attempt (no backoff then)."""
        attempts = self.attempts()
        if attempts < 1:
            return False
        return attempts == self._attempts_when_leader_last_changed

    # ---- appending -------------------------------------------------------------------------------

    def try_append(
        self,
        timestamp: int,
        key: bytes | None,
        value: bytes | None,
        headers: Sequence[Header],
        callback: Callback | None,
        now: int,
    ) -> FutureRecordMetadata | None:
        """Appends a record if it fits, returning its future; None when the batch has no room.

        # PORT: also sets `last_appended_bytes`, how much estimated_size_in_bytes() grew: the accumulator reads
        it where Java calls estimatedSizeInBytes before and after the append.
        """
        appended_bytes = self._records_builder.append_if_room_sized(timestamp, key, value, headers)
        if appended_bytes < 0:
            return None
        self.last_appended_bytes = appended_bytes
        self._last_append_time = now
        record_count = self.record_count
        future = FutureRecordMetadata(
            self.produce_future,
            record_count,
            timestamp,
            -1 if key is None else len(key),
            -1 if value is None else len(value),
            Time.SYSTEM,
        )
        # Every future is kept: a split re-points them at the records' new batches.
        self._callbacks.append(callback)
        self._futures.append(future)
        self.record_count = record_count + 1
        return future

    def _try_append_for_split(
        self,
        timestamp: int,
        key: Buffer | None,
        value: Buffer | None,
        headers: Sequence[Header],
        callback: Callback | None,
        original_future: FutureRecordMetadata,
    ) -> bool:
        builder = self._records_builder
        if not builder.has_room_for(timestamp, key, value, headers):
            return False
        builder.append(timestamp, key, value, headers)
        future = FutureRecordMetadata(
            self.produce_future,
            self.record_count,
            timestamp,
            -1 if key is None else len(key),
            -1 if value is None else len(value),
            Time.SYSTEM,
        )
        original_future.chain(future)
        self._callbacks.append(callback)
        self._futures.append(original_future)
        self.record_count += 1
        return True

    # ---- completion ------------------------------------------------------------------------------

    def abort(self, exception: BaseException) -> None:
        """Fails every record with `exception` without the batch having been answered."""
        with self._state_lock:
            if self._final_state is not None:
                raise RuntimeError(f"Batch has already been completed in final state {self._final_state}")
            self._final_state = FinalState.ABORTED
        if _log.is_trace_enabled():
            _log.trace(f"Aborting batch for partition {self.topic_partition}", exception)
        self._complete_future_and_fire_callbacks(_INVALID_OFFSET, NO_TIMESTAMP, lambda _index: exception)

    def is_done(self) -> bool:
        return self.final_state() is not None

    def complete(self, base_offset: int, log_append_time: int) -> bool:
        """Completes the batch successfully; False when it was already completed."""
        return self._done(base_offset, log_append_time, None, None)

    def complete_exceptionally(
        self, top_level_exception: BaseException, record_exceptions: Callable[[int], BaseException]
    ) -> bool:
        """Fails the batch; `record_exceptions` gives each record's error by index. False if already done."""
        if top_level_exception is None or record_exceptions is None:
            raise ValueError("exceptions must not be null")
        return self._done(_INVALID_OFFSET, NO_TIMESTAMP, top_level_exception, record_exceptions)

    def _done(
        self,
        base_offset: int,
        log_append_time: int,
        top_level_exception: BaseException | None,
        record_exceptions: Callable[[int], BaseException] | None,
    ) -> bool:
        try_final_state = FinalState.SUCCEEDED if top_level_exception is None else FinalState.FAILED
        if _log.is_trace_enabled():
            if try_final_state is FinalState.SUCCEEDED:
                _log.trace(f"Successfully produced messages to {self.topic_partition} with base offset {base_offset}.")
            else:
                _log.trace(
                    f"Failed to produce messages to {self.topic_partition} with base offset {base_offset}.",
                    top_level_exception,
                )
        with self._state_lock:
            current = self._final_state
            if current is None:
                self._final_state = try_final_state
        if current is None:
            self._complete_future_and_fire_callbacks(base_offset, log_append_time, record_exceptions)
            return True
        if current is not FinalState.SUCCEEDED:
            if try_final_state is FinalState.SUCCEEDED:
                _log.debug(
                    f"ProduceResponse returned {try_final_state} for {self.topic_partition} after batch with base "
                    f"offset {base_offset} had already been {current}."
                )
            else:
                _log.debug(
                    f"Ignored state transition {current} -> {try_final_state} for {self.topic_partition} batch with "
                    f"base offset {base_offset}"
                )
        else:
            raise RuntimeError(f"A {current} batch must not attempt another state change to {try_final_state}")
        return False

    def _complete_future_and_fire_callbacks(
        self, base_offset: int, log_append_time: int, record_exceptions: Callable[[int], BaseException] | None
    ) -> None:
        # The result is set before the callbacks run, since they read the futures.
        self.produce_future.set(base_offset, log_append_time, record_exceptions)
        if record_exceptions is None:
            if _fire_callbacks is not None:
                _fire_callbacks(
                    self._callbacks,
                    self._futures,
                    self.produce_future,
                    self.topic_partition,
                    base_offset,
                    log_append_time,
                    self._log_callback_error,
                )
                self.produce_future.done()
                return
            for callback, future in zip(self._callbacks, self._futures):
                if callback is not None:
                    try:
                        callback.on_completion(future.value(), None)
                    except Exception as e:
                        self._log_callback_error(e)
        else:
            for i, callback in enumerate(self._callbacks):
                if callback is not None:
                    try:
                        callback.on_completion(None, record_exceptions(i))
                    except Exception as e:
                        self._log_callback_error(e)
        self.produce_future.done()

    def _log_callback_error(self, e: Exception) -> None:
        _log.error(f"Error executing user-provided callback on message for topic-partition '{self.topic_partition}'", e)

    # ---- splitting -------------------------------------------------------------------------------

    def split(self, split_batch_size: int) -> deque[ProducerBatch]:
        """New batches of at most `split_batch_size` bytes holding this batch's records (and futures)."""
        batches: deque[ProducerBatch] = deque()
        memory_records = self._records_builder.build()
        record_batches = list(memory_records.batches())
        if not record_batches:
            raise RuntimeError("Cannot split an empty producer batch.")
        record_batch = record_batches[0]
        if record_batch.magic() < MAGIC_VALUE_V2 and not record_batch.is_compressed():
            raise ValueError("Batch splitting cannot be used with non-compressed messages with version v0 and v1")
        if len(record_batches) > 1:
            raise ValueError("A producer batch should only have one record batch.")
        thunks = zip(self._callbacks, self._futures)
        # Split batches keep the original creation time and are sized at batch.size at least.
        batch: ProducerBatch | None = None
        for record in record_batch:
            callback, future = next(thunks)
            if batch is None:
                batch = self._create_batch_off_accumulator_for_record(record, split_batch_size)
            # A new batch always takes its first record.
            if not batch._try_append_for_split(
                record.timestamp(), record.key(), record.value(), record.headers(), callback, future
            ):
                batches.append(batch)
                batch.close_for_record_appends()
                batch = self._create_batch_off_accumulator_for_record(record, split_batch_size)
                batch._try_append_for_split(
                    record.timestamp(), record.key(), record.value(), record.headers(), callback, future
                )
        if batch is not None:
            batches.append(batch)
            batch.close_for_record_appends()
        self.produce_future.set(_INVALID_OFFSET, NO_TIMESTAMP, lambda _index: RecordBatchTooLargeException())
        self.produce_future.done()
        if self.has_sequence():
            sequence = self.base_sequence()
            producer_id_and_epoch = ProducerIdAndEpoch(self.producer_id(), self.producer_epoch())
            for new_batch in batches:
                new_batch.set_producer_state(producer_id_and_epoch, sequence, self.is_transactional())
                sequence += new_batch.record_count
        return batches

    def _create_batch_off_accumulator_for_record(self, record: Record, batch_size: int) -> ProducerBatch:
        initial_size = max(
            AbstractRecords.estimate_size_in_bytes_upper_bound(
                self.magic(), self._records_builder.compression_type(), record.key(), record.value(), record.headers()
            ),
            batch_size,
        )
        # Producer state is set when the new batch is drained, as for any batch.
        builder = MemoryRecords.builder(
            self._records_builder.compression_type(),
            TimestampType.CREATE_TIME,
            0,
            magic=self.magic(),
            write_limit=initial_size,
        )
        return ProducerBatch(self.topic_partition, builder, self.created_ms, True)

    def is_compressed(self) -> bool:
        return self._records_builder.compression_type() is not CompressionType.NONE

    def __repr__(self) -> str:
        return f"ProducerBatch(topicPartition={self.topic_partition}, recordCount={self.record_count})"

    # ---- timing and retries ----------------------------------------------------------------------

    def has_reached_delivery_timeout(self, delivery_timeout_ms: int, now: int) -> bool:
        return delivery_timeout_ms <= now - self.created_ms

    def final_state(self) -> FinalState | None:
        return self._final_state

    def attempts(self) -> int:
        return self._attempts

    def reenqueued(self, now: int) -> None:
        """Counts an attempt as the batch goes back into the accumulator for a retry."""
        self._attempts += 1
        self._last_attempt_ms = max(self._last_append_time, now)
        self._last_append_time = max(self._last_append_time, now)
        self._retry = True

    def queue_time_ms(self) -> int:
        return self._drained_ms - self.created_ms

    def waited_time_ms(self, now_ms: int) -> int:
        return max(0, now_ms - self._last_attempt_ms)

    def drained(self, now_ms: int) -> None:
        self._drained_ms = max(self._drained_ms, now_ms)

    def is_split_batch(self) -> bool:
        return self._is_split_batch

    def in_retry(self) -> bool:
        return self._retry

    # ---- the records -----------------------------------------------------------------------------

    def records(self) -> MemoryRecords:
        return self._records_builder.build()

    def estimated_size_in_bytes(self) -> int:
        return self._records_builder.estimated_size_in_bytes()

    def compression_ratio(self) -> float:
        return self._records_builder.compression_ratio()

    def is_full(self) -> bool:
        return self._records_builder.is_full()

    def set_producer_state(
        self, producer_id_and_epoch: ProducerIdAndEpoch, base_sequence: int, is_transactional: bool
    ) -> None:
        self._records_builder.set_producer_state(
            producer_id_and_epoch.producer_id, producer_id_and_epoch.epoch, base_sequence, is_transactional
        )

    def reset_producer_state(self, producer_id_and_epoch: ProducerIdAndEpoch, base_sequence: int) -> None:
        """Rewrites the producer id, epoch and base sequence of an already built batch (epoch bump, retries)."""
        _log.info(
            f"Resetting sequence number of batch with current sequence {self.base_sequence()} for partition "
            f"{self.topic_partition} to {base_sequence}"
        )
        self._reopened = True
        self._records_builder.reopen_and_rewrite_producer_state(
            producer_id_and_epoch.producer_id, producer_id_and_epoch.epoch, base_sequence, self.is_transactional()
        )

    def close_for_record_appends(self) -> None:
        self._records_builder.close_for_record_appends()

    def close(self) -> None:
        """Builds the batch (compressing it) and feeds the observed compression ratio back to the estimator."""
        self._records_builder.close()
        if not self._records_builder.is_control_batch():
            CompressionRatioEstimator.update_estimation(
                self.topic_partition.topic,
                self._records_builder.compression_type(),
                self._records_builder.compression_ratio(),
            )
        self._reopened = False

    def abort_record_appends(self) -> None:
        """Discards the records of a batch that will not be sent."""
        # PORT: once built, the builder's bytes are shared with the (possibly in-flight) request, and our
        # builder cannot shrink them then; a built batch is simply left as it is, nothing reads it again.
        if self._records_builder.is_closed():
            return
        self._records_builder.abort()

    def is_closed(self) -> bool:
        return self._records_builder.is_closed()

    def buffer(self) -> ByteBuffer | None:
        """The pool buffer charged for this batch (None for split batches, which are outside the pool)."""
        return self._buffer

    def initial_capacity(self) -> int:
        return self._initial_capacity

    def is_writable(self) -> bool:
        return not self._records_builder.is_closed()

    def magic(self) -> int:
        return self._records_builder.magic()

    def producer_id(self) -> int:
        return self._records_builder.producer_id()

    def producer_epoch(self) -> int:
        return self._records_builder.producer_epoch()

    def base_sequence(self) -> int:
        return self._records_builder.base_sequence()

    def last_sequence(self) -> int:
        return self._records_builder.base_sequence() + self._records_builder.num_records() - 1

    def has_sequence(self) -> bool:
        return self.base_sequence() != NO_SEQUENCE

    def is_transactional(self) -> bool:
        return self._records_builder.is_transactional()

    def sequence_has_been_reset(self) -> bool:
        return self._reopened

    def current_leader_epoch(self) -> int | None:
        return self._current_leader_epoch

    def attempts_when_leader_last_changed(self) -> int:
        return self._attempts_when_leader_last_changed


def _append_to_batch_python(
    batch: ProducerBatch,
    timestamp: int,
    key: bytes | None,
    value: bytes | None,
    headers: Sequence[Header],
    callback: Callback | None,
    now: int,
) -> tuple[FutureRecordMetadata, bool] | None:
    """`batch.try_append`, with whether the batch is full afterwards; None when the record does not fit."""
    future = batch.try_append(timestamp, key, value, headers, callback, now)
    if future is None:
        return None
    return future, batch.is_full()


def _load_compiled_append() -> tuple[
    Callable[..., tuple[FutureRecordMetadata, bool] | None], Callable[..., None] | None
]:
    # PORT: the accumulator's append to a partition's open batch, in C where the optional extension
    # kafka.common.record._default_record_writer is built (and KAFKA_PORT_PURE_PYTHON_WRITER=1 is not set): for a
    # record without headers going to an open, uncompressed v2 batch that already has records, one call writes the
    # record (the compiled writer's bytes), updates the builder's counters as MemoryRecordsBuilder.append_if_room_sized
    # does and the batch's as try_append does, and makes the record's FutureRecordMetadata; every other case is handed
    # to _append_to_batch_python, which is also what runs without the extension. The tests run both.
    # A successful batch's callbacks are fired by the same module's fire_callbacks: the loop of
    # _complete_future_and_fire_callbacks, with each record's RecordMetadata made as FutureRecordMetadata.value makes
    # it (fields set directly, for the futures of this batch that are not chained to a split batch's).
    if default_record._compiled_write_record is None:
        return _append_to_batch_python, None
    from kafka.common.record import _default_record_writer  # type: ignore[attr-defined]

    module: Any = _default_record_writer
    module.register_producer_batch(
        _append_to_batch_python, FutureRecordMetadata, CompressionType.NONE, Time.SYSTEM, RecordMetadata
    )
    return module.append_to_batch, module.fire_callbacks


def register_append_result(append_result_type: type) -> Callable[..., Any] | None:
    """The compiled module's append_to_last_batch(dq, timestamp, key, value, headers, callback, now), answering with
    instances of `append_result_type` (RecordAccumulator's RecordAppendResult, whose five slots it sets); None without
    the extension (or with KAFKA_PORT_PURE_PYTHON_WRITER=1)."""
    if _fire_callbacks is None:
        return None
    from kafka.common.record import _default_record_writer  # type: ignore[attr-defined]

    module: Any = _default_record_writer
    module.register_append_result(append_result_type)
    return cast(Callable[..., Any], module.append_to_last_batch)


def register_accumulator(topic_info_type: type, partition_info_type: type) -> Callable[..., Any] | None:
    """The compiled module's append_to_partition(accumulator, topic, partition, timestamp, key, value, headers,
    callbacks, now, cluster): RecordAccumulator.append's common case (an existing partition deque whose last batch
    takes the record), answering with a RecordAppendResult, or None when append itself is to be called. It reads the
    slots of RecordAccumulator's `topic_info_type` (`batches`, `built_in_partitioner`) and of the partitioner's
    `partition_info_type` (`index`, `produced_bytes`). None without the extension (or with
    KAFKA_PORT_PURE_PYTHON_WRITER=1)."""
    if _fire_callbacks is None:
        return None
    from kafka.common.record import _default_record_writer  # type: ignore[attr-defined]

    module: Any = _default_record_writer
    module.register_accumulator(topic_info_type, partition_info_type)
    return cast(Callable[..., Any], module.append_to_partition)


def register_send(callback_types: dict[type, bool], sent_empty_headers: object, record_size_margin: int) -> Any:
    """The compiled module's send_common(producer, record, callback): KafkaProducer.send's common case in one call
    (a record without key, partition or headers; see the module), answering the record's future, or None when send's
    Python is to run. `callback_types` says which classes are known Callbacks, `sent_empty_headers` is what a sent
    record's never-asked-for headers become, `record_size_margin` how far below max.request.size a record needs no
    exact size check. None without the extension (or with KAFKA_PORT_PURE_PYTHON_WRITER=1)."""
    if _fire_callbacks is None:
        return None
    from kafka.common.record import _default_record_writer  # type: ignore[attr-defined]

    module: Any = _default_record_writer
    module.register_send(callback_types, sent_empty_headers, record_size_margin)
    return module.send_common


def register_append_callbacks(append_callbacks_type: _T) -> _T:
    """Lets the compiled loop over a batch's callbacks call the user's callback of an AppendCallbacks of this class
    (slots `_interceptors` and `_user_callback`) directly when it has no interceptors: its on_completion would only
    pass the metadata on.

    Returns how to make one, `(user_callback, interceptors, topic, record_partition)`: the class itself, or the
    compiled module's new_append_callbacks, which sets the class's six slots (`_interceptors`, `_user_callback`,
    `_topic`, `_record_partition`, `_partition` -1, `_topic_partition` None) as its __init__ does, without the call.
    """
    if _fire_callbacks is None:
        return append_callbacks_type
    from kafka.common.record import _default_record_writer  # type: ignore[attr-defined]

    module: Any = _default_record_writer
    module.register_append_callbacks(append_callbacks_type)
    return cast(_T, module.new_append_callbacks)


#: append_to_batch(batch, timestamp, key, value, headers, callback, now): appends the record to the batch and returns
#: (its future, whether the batch is now full), or None when it does not fit (the batch is left unchanged).
append_to_batch: Callable[..., tuple[FutureRecordMetadata, bool] | None]
_fire_callbacks: Callable[..., None] | None
append_to_batch, _fire_callbacks = _load_compiled_append()
