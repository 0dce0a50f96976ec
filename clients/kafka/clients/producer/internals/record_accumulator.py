"""Port of clients/src/main/java/org/apache/kafka/clients/producer/internals/RecordAccumulator.java (Kafka 3.7).

Where `send` puts records and the Sender takes them from: a deque of ProducerBatches per partition.
Appends go to the last batch of the partition's deque or start a new one (with memory from the
BufferPool); the Sender asks which leaders have sendable data (`ready`: a full batch, linger.ms
passed, a flush, memory pressure, closing) and drains up to max.request.size per node (`drain`),
rotating over partitions so none starves. Retries go back to the head of their deque, in sequence
order for idempotent producers; batches past delivery.timeout.ms are expired.

Locking: each deque has its own lock (Java synchronizes on the deque); the partitioner state is
read before taking it and re-checked under it. `muted`, the drain indexes and the expiry time are
touched only by the Sender thread. Lock order: deque lock, then TransactionManager lock; the
BufferPool's lock is never taken while a deque lock is held.

Its gauges (waiting-threads, buffer-total-bytes, buffer-available-bytes) are registered when a Metrics is given
(# PORT: Java takes the Metrics and metric group after the partitioner config; here they are trailing keywords).
"""

from __future__ import annotations

import threading
from abc import abstractmethod
from collections import deque
from collections.abc import Callable, Collection, Iterable, Sequence
from typing import TYPE_CHECKING, TypeGuard

from kafka.clients import common_client_configs
from kafka.clients.producer.callback import Callback
from kafka.clients.producer.internals.built_in_partitioner import BuiltInPartitioner, StickyPartitionInfo
from kafka.clients.producer.internals.incomplete_batches import IncompleteBatches
from kafka.clients.producer.internals.producer_batch import (
    ProducerBatch,
    append_to_batch,
    register_accumulator,
    register_append_result,
)
from kafka.clients.producer.record_metadata import RecordMetadata
from kafka.common.errors import KafkaException, UnsupportedVersionException
from kafka.common.metrics.internals.metric_functions import MeasurableFn
from kafka.common.record.abstract_records import AbstractRecords
from kafka.common.record.compression_ratio_estimator import CompressionRatioEstimator
from kafka.common.record.compression_type import CompressionType
from kafka.common.record.memory_records import MemoryRecords
from kafka.common.record.memory_records_builder import MemoryRecordsBuilder
from kafka.common.record.record import EMPTY_HEADERS
from kafka.common.record.record_batch import MAGIC_VALUE_V2, NO_SEQUENCE
from kafka.common.record.timestamp_type import TimestampType
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.exponential_backoff import ExponentialBackoff
from kafka.common.utils.log_context import LogContext
from kafka.common.utils.time import Time

if TYPE_CHECKING:
    from kafka.clients.api_versions import ApiVersions
    from kafka.clients.metadata_snapshot import MetadataSnapshot
    from kafka.clients.producer.internals.buffer_pool import BufferPool, ByteBuffer
    from kafka.clients.producer.internals.future_record_metadata import FutureRecordMetadata
    from kafka.clients.producer.internals.produce_request_result import ProduceRequestResult
    from kafka.clients.producer.internals.transaction_manager import TransactionManager
    from kafka.common.cluster import Cluster
    from kafka.common.metrics.metrics import Metrics
    from kafka.common.node import Node
    from kafka.common.record.record_header import Header

__all__ = [
    "AppendCallbacks",
    "NodeLatencyStats",
    "PartitionerConfig",
    "ReadyCheckResult",
    "RecordAccumulator",
    "RecordAppendResult",
    "append_to_partition",
]

_LONG_MAX = 2**63 - 1


class PartitionerConfig:
    """Adaptive partitioning switches of the built-in partitioner."""

    __slots__ = ("enable_adaptive_partitioning", "partition_availability_timeout_ms")

    def __init__(self, enable_adaptive_partitioning: bool = False, partition_availability_timeout_ms: int = 0) -> None:
        self.enable_adaptive_partitioning = enable_adaptive_partitioning
        self.partition_availability_timeout_ms = partition_availability_timeout_ms


class RecordAppendResult:
    """What `append` did: the record's future, whether its batch is now full or new, and how many bytes it took.

    `abort_for_new_batch` asks the caller to call the custom partitioner's on_new_batch and append again.
    """

    __slots__ = ("abort_for_new_batch", "appended_bytes", "batch_is_full", "future", "new_batch_created")

    def __init__(
        self,
        future: FutureRecordMetadata | None,
        batch_is_full: bool,
        new_batch_created: bool,
        abort_for_new_batch: bool,
        appended_bytes: int,
    ) -> None:
        self.future = future
        self.batch_is_full = batch_is_full
        self.new_batch_created = new_batch_created
        self.abort_for_new_batch = abort_for_new_batch
        self.appended_bytes = appended_bytes


def _append_to_last_batch_python(
    dq: deque[ProducerBatch],
    timestamp: int,
    key: bytes | None,
    value: bytes | None,
    headers: Sequence[Header],
    callbacks: Callback | None,
    now_ms: int,
) -> RecordAppendResult | None:
    """The record appended to the partition's last batch, answered as append answers; None when it does not fit."""
    last = dq[-1]
    appended = append_to_batch(last, timestamp, key, value, headers, callbacks, now_ms)
    if appended is None:
        return None
    future, last_is_full = appended
    return RecordAppendResult(future, len(dq) > 1 or last_is_full, False, False, last.last_appended_bytes)


# PORT: with the optional compiled module, the append to the last batch and its RecordAppendResult are made by one
# call of it (append_to_last_batch); without it (or with KAFKA_PORT_PURE_PYTHON_WRITER=1), by the function above.
_append_to_last_batch: Callable[..., RecordAppendResult | None] = (
    register_append_result(RecordAppendResult) or _append_to_last_batch_python
)


class AppendCallbacks(Callback):
    """The callback given to `append`, which is also told the partition chosen (Java's AppendCallbacks)."""

    @abstractmethod
    def set_partition(self, partition: int) -> None:
        """The partition the record goes to, once known."""


class ReadyCheckResult:
    """Leaders with sendable data, how long until more may be ready, and topics whose leader is unknown."""

    __slots__ = ("next_ready_check_delay_ms", "ready_nodes", "unknown_leader_topics")

    def __init__(self, ready_nodes: set[Node], next_ready_check_delay_ms: int, unknown_leader_topics: set[str]) -> None:
        self.ready_nodes = ready_nodes
        self.next_ready_check_delay_ms = next_ready_check_delay_ms
        self.unknown_leader_topics = unknown_leader_topics


class NodeLatencyStats:
    """When a node last had data ready, and when it could last be drained (partition.availability.timeout.ms)."""

    __slots__ = ("drain_time_ms", "ready_time_ms")

    def __init__(self, now_ms: int) -> None:
        self.ready_time_ms = now_ms
        self.drain_time_ms = now_ms


class _BatchDeque(deque[ProducerBatch]):
    """A partition's batches with the lock that guards them (Java locks the deque object itself)."""

    def __init__(self) -> None:
        super().__init__()
        self.lock = threading.Lock()


class _TopicInfo:
    __slots__ = ("batches", "built_in_partitioner")

    def __init__(self, log_context: LogContext, topic: str, sticky_batch_size: int) -> None:
        self.batches: dict[int, _BatchDeque] = {}
        self.built_in_partitioner = BuiltInPartitioner(log_context, topic, sticky_batch_size)


class RecordAccumulator:
    """The queues of batches between `send` and the Sender."""

    def __init__(
        self,
        log_context: LogContext,
        batch_size: int,
        compression: CompressionType,
        linger_ms: int,
        retry_backoff_ms: int,
        retry_backoff_max_ms: int,
        delivery_timeout_ms: int,
        partitioner_config: PartitionerConfig | None,
        time: Time,
        api_versions: ApiVersions,
        transaction_manager: TransactionManager | None,
        buffer_pool: BufferPool,
        *,
        metrics: Metrics | None = None,
        metric_grp_name: str = "producer-metrics",
    ) -> None:
        self._log_context = log_context
        self._log = log_context.logger("org.apache.kafka.clients.producer.internals.RecordAccumulator")
        self._closed = False
        self._counters_lock = threading.Lock()
        self._flushes_in_progress = 0
        # Java's AtomicInteger appendsInProgress as a list with one entry per append under way: list.append and
        # list.pop are atomic, so appends count themselves without taking a lock.
        self._appends_in_progress: list[None] = []
        self._batch_size = batch_size
        self._compression = compression
        self._linger_ms = linger_ms
        self._retry_backoff = ExponentialBackoff(
            retry_backoff_ms,
            common_client_configs.RETRY_BACKOFF_EXP_BASE,
            retry_backoff_max_ms,
            common_client_configs.RETRY_BACKOFF_JITTER,
        )
        self._delivery_timeout_ms = delivery_timeout_ms
        partitioner_config = partitioner_config or PartitionerConfig()
        self._enable_adaptive_partitioning = partitioner_config.enable_adaptive_partitioning
        self._partition_availability_timeout_ms = partitioner_config.partition_availability_timeout_ms
        self._free = buffer_pool
        self._time = time
        self._api_versions = api_versions
        # Copy-on-write maps in Java: replaced or extended under _maps_lock, read without it.
        self._maps_lock = threading.Lock()
        self._topic_info_map: dict[str, _TopicInfo] = {}
        self._node_stats: dict[int, NodeLatencyStats] = {}
        self._incomplete = IncompleteBatches()
        # Only the Sender thread touches these.
        self._muted: set[TopicPartition] = set()
        self._nodes_drain_index: dict[str, int] = {}
        self._transaction_manager = transaction_manager
        self._next_batch_expiry_time_ms = _LONG_MAX
        if metrics is not None:
            self._register_metrics(metrics, metric_grp_name)

    def _register_metrics(self, metrics: Metrics, metric_grp_name: str) -> None:
        free = self._free
        metrics.add_metric(
            metrics.metric_name(
                "waiting-threads",
                metric_grp_name,
                "The number of user threads blocked waiting for buffer memory to enqueue their records",
            ),
            MeasurableFn(lambda config, now: free.queued()),
        )
        metrics.add_metric(
            metrics.metric_name(
                "buffer-total-bytes",
                metric_grp_name,
                "The maximum amount of buffer memory the client can use (whether or not it is currently used).",
            ),
            MeasurableFn(lambda config, now: free.total_memory()),
        )
        metrics.add_metric(
            metrics.metric_name(
                "buffer-available-bytes",
                metric_grp_name,
                "The total amount of buffer memory that is not being used (either unallocated or in the free list).",
            ),
            MeasurableFn(lambda config, now: free.available_memory()),
        )

    # ---- appending -------------------------------------------------------------------------------

    def _topic_info(self, topic: str) -> _TopicInfo:
        topic_info = self._topic_info_map.get(topic)
        if topic_info is None:
            with self._maps_lock:
                topic_info = self._topic_info_map.get(topic)
                if topic_info is None:
                    topic_info = _TopicInfo(self._log_context, topic, self._batch_size)
                    self._topic_info_map[topic] = topic_info
        return topic_info

    @staticmethod
    def _deque_of(topic_info: _TopicInfo, partition: int) -> _BatchDeque:
        dq = topic_info.batches.get(partition)
        if dq is None:
            dq = topic_info.batches.setdefault(partition, _BatchDeque())
        return dq

    def _partition_changed(
        self,
        topic: str,
        topic_info: _TopicInfo,
        partition_info: StickyPartitionInfo | None,
        dq: _BatchDeque,
        now_ms: int,
        cluster: Cluster,
    ) -> bool:
        """Under the deque lock: whether another thread moved the sticky partition since we peeked it."""
        partitioner = topic_info.built_in_partitioner
        if partitioner.is_partition_changed(partition_info):
            if self._log.is_trace_enabled():
                assert partition_info is not None
                self._log.trace(
                    f"Partition {partition_info.partition()} for topic {topic} switched by a concurrent append, "
                    "retrying"
                )
            return True
        # A switch may have been held back while the last batch was incomplete; do it now if all are full.
        if self._all_batches_full(dq):
            partitioner.update_partition_info(partition_info, 0, cluster, True)
            if partitioner.is_partition_changed(partition_info):
                if self._log.is_trace_enabled():
                    assert partition_info is not None
                    self._log.trace(
                        f"Completed previously disabled switch for topic {topic} partition "
                        f"{partition_info.partition()}, retrying"
                    )
                return True
        return False

    def append(
        self,
        topic: str,
        partition: int,
        timestamp: int,
        key: bytes | None,
        value: bytes | None,
        headers: Sequence[Header] | None,
        callbacks: Callback | None,
        max_time_to_block: int,
        abort_on_new_batch: bool,
        now_ms: int,
        cluster: Cluster,
    ) -> RecordAppendResult:
        """Adds a record to the partition's last batch or a new one, blocking up to `max_time_to_block` for memory.

        `partition` -1 (RecordMetadata.UNKNOWN_PARTITION) lets the built-in partitioner choose; the choice is
        reported through `callbacks.set_partition`.
        """
        topic_info = self._topic_info_map.get(topic)
        if topic_info is None:
            topic_info = self._topic_info(topic)
        partitioner = topic_info.built_in_partitioner
        # Counted so that abort_incomplete_batches() does not miss a batch being created right now.
        self._appends_in_progress.append(None)
        buffer: ByteBuffer | None = None
        if headers is None:
            headers = EMPTY_HEADERS
        # The partition slot of a registered class set directly (register_partition_setter), other AppendCallbacks
        # told through their set_partition, other callbacks not told: this runs for every record sent.
        set_partition_slot = _PARTITION_SETTERS.get(type(callbacks))
        set_partition: Callable[[int], None] | None = None
        if set_partition_slot is None:
            append_callbacks = _APPEND_CALLBACKS_TYPES.get(type(callbacks))
            if append_callbacks is None:
                append_callbacks = _is_append_callbacks(callbacks)
            if append_callbacks:
                set_partition = callbacks.set_partition  # type: ignore[union-attr]
        try:
            while True:
                # Peek the sticky partition without the deque lock; re-checked under it.
                partition_info: StickyPartitionInfo | None
                if partition == RecordMetadata.UNKNOWN_PARTITION:
                    # peek_current_partition_info and partition(), read directly once a sticky partition exists.
                    partition_info = partitioner.sticky_partition_info
                    if partition_info is None:
                        partition_info = partitioner.peek_current_partition_info(cluster)
                    effective_partition = partition_info.index
                else:
                    partition_info = None
                    effective_partition = partition
                if set_partition_slot is not None:
                    set_partition_slot(callbacks, effective_partition)
                elif set_partition is not None:
                    set_partition(effective_partition)
                dq = topic_info.batches.get(effective_partition)
                if dq is None:
                    dq = self._deque_of(topic_info, effective_partition)
                # The lock's acquire and release rather than `with`: the context manager's calls cost about twice
                # as much, on every record sent.
                lock = dq.lock
                lock.acquire()
                try:
                    # Without a sticky partition nothing can have changed (the check is then a no-op); with one, the
                    # check has nothing to do while it is current and its last batch has room. Whether that batch
                    # has room is what the append finds out: when it has none, the check runs after it (below).
                    if (
                        partition_info is not None
                        # is_partition_changed, read directly.
                        and (not dq or partitioner.sticky_partition_info is not partition_info)
                        and self._partition_changed(topic, topic_info, partition_info, dq, now_ms, cluster)
                    ):
                        continue
                    # _try_append, written out here for the common case of a record that fits the last batch.
                    if self._closed:
                        raise KafkaException("Producer closed while send in progress")
                    if dq:
                        result = _append_to_last_batch(dq, timestamp, key, value, headers, callbacks, now_ms)
                        if result is not None:
                            if partition_info is not None:
                                appended_bytes = result.appended_bytes
                                produced_bytes = partition_info.produced_bytes + appended_bytes
                                if produced_bytes < partitioner.sticky_batch_size:
                                    # update_partition_info's common case, written out: below the sticky batch
                                    # size it only counts the bytes.
                                    partition_info.produced_bytes = produced_bytes
                                else:
                                    # Hold back a partition switch while the last batch (the only one that can
                                    # have room) is still filling.
                                    partitioner.update_partition_info(
                                        partition_info,
                                        appended_bytes,
                                        cluster,
                                        result.batch_is_full if len(dq) == 1 else dq[-1].is_full(),
                                    )
                            return result
                        dq[-1].close_for_record_appends()
                        # The last batch is full: a switch held back while it was filling may happen now.
                        if partition_info is not None and self._partition_changed(
                            topic, topic_info, partition_info, dq, now_ms, cluster
                        ):
                            continue
                finally:
                    lock.release()
                # No batch to append to: a new one is needed.
                if abort_on_new_batch:
                    return RecordAppendResult(None, False, False, True, 0)
                if buffer is None:
                    max_usable_magic = self._api_versions.max_usable_produce_magic()
                    size = max(
                        self._batch_size,
                        AbstractRecords.estimate_size_in_bytes_upper_bound(
                            max_usable_magic, self._compression, key, value, headers
                        ),
                    )
                    if self._log.is_trace_enabled():
                        self._log.trace(
                            f"Allocating a new {size} byte message buffer for topic {topic} partition {partition} "
                            f"with remaining timeout {max_time_to_block}ms"
                        )
                    # May block while the buffer memory is exhausted.
                    buffer = self._free.allocate(size, max_time_to_block)
                    now_ms = self._time.milliseconds()
                with dq.lock:
                    if self._partition_changed(topic, topic_info, partition_info, dq, now_ms, cluster):
                        continue
                    append_result = self._append_new_batch(
                        topic, effective_partition, dq, timestamp, key, value, headers, callbacks, buffer, now_ms
                    )
                    if append_result.new_batch_created:
                        # The batch owns the buffer now.
                        buffer = None
                    enable_switch = self._all_batches_full(dq)
                    topic_info.built_in_partitioner.update_partition_info(
                        partition_info, append_result.appended_bytes, cluster, enable_switch
                    )
                    return append_result
        finally:
            if buffer is not None:
                self._free.deallocate(buffer)
            self._appends_in_progress.pop()

    def _append_new_batch(
        self,
        topic: str,
        partition: int,
        dq: _BatchDeque,
        timestamp: int,
        key: bytes | None,
        value: bytes | None,
        headers: Sequence[Header],
        callbacks: Callback | None,
        buffer: ByteBuffer,
        now_ms: int,
    ) -> RecordAppendResult:
        assert partition != RecordMetadata.UNKNOWN_PARTITION
        append_result = self._try_append(timestamp, key, value, headers, callbacks, dq, now_ms)
        if append_result is not None:
            # Another thread made a batch while we waited for memory: use it, and return our buffer.
            return append_result
        records_builder = self._records_builder(buffer, self._api_versions.max_usable_produce_magic())
        batch = ProducerBatch(TopicPartition(topic, partition), records_builder, now_ms, buffer=buffer)
        future = batch.try_append(timestamp, key, value, headers, callbacks, now_ms)
        if future is None:
            raise RuntimeError("a new batch must take its first record")
        dq.append(batch)
        self._incomplete.add(batch)
        return RecordAppendResult(future, len(dq) > 1 or batch.is_full(), True, False, batch.estimated_size_in_bytes())

    def _records_builder(self, buffer: ByteBuffer, max_usable_magic: int) -> MemoryRecordsBuilder:
        if self._transaction_manager is not None and max_usable_magic < MAGIC_VALUE_V2:
            raise UnsupportedVersionException(
                "Attempting to use idempotence with a broker which does not support the required message format "
                "(v2). The broker must be version 0.11 or later."
            )
        return MemoryRecords.builder(
            self._compression, TimestampType.CREATE_TIME, 0, magic=max_usable_magic, write_limit=buffer.capacity()
        )

    @staticmethod
    def _all_batches_full(dq: deque[ProducerBatch]) -> bool:
        # Only the last batch can still have room.
        return not dq or dq[-1].is_full()

    def _try_append(
        self,
        timestamp: int,
        key: bytes | None,
        value: bytes | None,
        headers: Sequence[Header],
        callback: Callback | None,
        dq: _BatchDeque,
        now_ms: int,
    ) -> RecordAppendResult | None:
        if self._closed:
            raise KafkaException("Producer closed while send in progress")
        if not dq:
            return None
        last = dq[-1]
        initial_bytes = last.estimated_size_in_bytes()
        future = last.try_append(timestamp, key, value, headers, callback, now_ms)
        if future is None:
            last.close_for_record_appends()
            return None
        appended_bytes = last.estimated_size_in_bytes() - initial_bytes
        return RecordAppendResult(future, len(dq) > 1 or last.is_full(), False, False, appended_bytes)

    def _is_muted(self, tp: TopicPartition) -> bool:
        return tp in self._muted

    # ---- expiry ----------------------------------------------------------------------------------

    def reset_next_batch_expiry_time(self) -> None:
        self._next_batch_expiry_time_ms = _LONG_MAX

    def maybe_update_next_batch_expiry_time(self, batch: ProducerBatch) -> None:
        expiry = batch.created_ms + self._delivery_timeout_ms
        if expiry <= _LONG_MAX:
            self._next_batch_expiry_time_ms = min(self._next_batch_expiry_time_ms, expiry)
        else:
            self._log.warn(
                "Skipping next batch expiry time update due to addition overflow: "
                f"batch.createMs={batch.created_ms}, deliveryTimeoutMs={self._delivery_timeout_ms}"
            )

    def expired_batches(self, now: int) -> list[ProducerBatch]:
        """Removes and returns the queued batches older than delivery.timeout.ms (oldest first per partition)."""
        expired: list[ProducerBatch] = []
        for topic_info in list(self._topic_info_map.values()):
            for dq in list(topic_info.batches.values()):
                with dq.lock:
                    while dq:
                        batch = dq[0]
                        if batch.has_reached_delivery_timeout(self._delivery_timeout_ms, now):
                            dq.popleft()
                            batch.abort_record_appends()
                            expired.append(batch)
                        else:
                            self.maybe_update_next_batch_expiry_time(batch)
                            break
        return expired

    def get_delivery_timeout_ms(self) -> int:
        return self._delivery_timeout_ms

    # ---- retries and splits ----------------------------------------------------------------------

    def reenqueue(self, batch: ProducerBatch, now: int) -> None:
        """Puts a batch back at the head of its deque for a retry (in sequence order when idempotent)."""
        batch.reenqueued(now)
        dq = self._get_or_create_deque(batch.topic_partition)
        with dq.lock:
            if self._transaction_manager is not None:
                self._insert_in_sequence_order(dq, batch)
            else:
                dq.appendleft(batch)

    def split_and_reenqueue(self, big_batch: ProducerBatch) -> int:
        """Splits a batch the broker found too large and queues the pieces at the head of the deque."""
        # Estimate conservatively from now on, so that splits stay rare.
        CompressionRatioEstimator.set_estimation(
            big_batch.topic_partition.topic, self._compression, max(1.0, big_batch.compression_ratio())
        )
        dq = big_batch.split(self._batch_size)
        num_split_batches = len(dq)
        partition_dequeue = self._get_or_create_deque(big_batch.topic_partition)
        while dq:
            batch = dq.pop()
            self._incomplete.add(batch)
            # The pieces count as never tried.
            with partition_dequeue.lock:
                if self._transaction_manager is not None:
                    # They already carry sequences, so track them as in flight.
                    self._transaction_manager.add_in_flight_batch(batch)
                    self._insert_in_sequence_order(partition_dequeue, batch)
                else:
                    partition_dequeue.appendleft(batch)
        return num_split_batches

    def _insert_in_sequence_order(self, dq: _BatchDeque, batch: ProducerBatch) -> None:
        """Re-queues a retried batch ahead of later sequences, behind earlier ones, so sequences leave in order."""
        if batch.base_sequence() == NO_SEQUENCE:
            raise RuntimeError(
                "Trying to re-enqueue a batch which doesn't have a sequence even though idempotency is enabled."
            )
        tm = self._transaction_manager
        assert tm is not None
        if not tm.has_inflight_batches(batch.topic_partition):
            raise RuntimeError(
                "We are re-enqueueing a batch which is not tracked as part of the in flight requests. "
                f"batch.topicPartition: {batch.topic_partition}; batch.baseSequence: {batch.base_sequence()}"
            )
        first_batch_in_queue = dq[0] if dq else None
        if (
            first_batch_in_queue is not None
            and first_batch_in_queue.has_sequence()
            and first_batch_in_queue.base_sequence() < batch.base_sequence()
        ):
            # Retries of several in-flight requests come back one by one: walk past the earlier sequences.
            ordered_batches: list[ProducerBatch] = []
            while dq and dq[0].has_sequence() and dq[0].base_sequence() < batch.base_sequence():
                ordered_batches.append(dq.popleft())
            self._log.debug(
                f"Reordered incoming batch with sequence {batch.base_sequence()} for partition "
                f"{batch.topic_partition}. It was placed in the queue at position {len(ordered_batches)}"
            )
            dq.appendleft(batch)
            for earlier in reversed(ordered_batches):
                dq.appendleft(earlier)
        else:
            dq.appendleft(batch)

    # ---- readiness -------------------------------------------------------------------------------

    def _batch_ready(
        self,
        exhausted: bool,
        part: TopicPartition,
        leader: Node,
        waited_time_ms: int,
        backing_off: bool,
        backoff_attempts: int,
        full: bool,
        next_ready_check_delay_ms: int,
        ready_nodes: set[Node],
    ) -> int:
        if leader not in ready_nodes and not self._is_muted(part):
            time_to_wait_ms = (
                self._retry_backoff.backoff(backoff_attempts - 1 if backoff_attempts > 0 else 0)
                if backing_off
                else self._linger_ms
            )
            expired = waited_time_ms >= time_to_wait_ms
            tm = self._transaction_manager
            transaction_completing = tm is not None and tm.is_completing()
            sendable = (
                full or expired or exhausted or self._closed or self.flush_in_progress() or transaction_completing
            )
            if sendable and not backing_off:
                ready_nodes.add(leader)
            else:
                time_left_ms = max(time_to_wait_ms - waited_time_ms, 0)
                # Conservative: the Sender wakes up, finds nothing more and sleeps again.
                next_ready_check_delay_ms = min(time_left_ms, next_ready_check_delay_ms)
        return next_ready_check_delay_ms

    def _partition_ready(
        self,
        metadata_snapshot: MetadataSnapshot,
        now_ms: int,
        topic: str,
        topic_info: _TopicInfo,
        next_ready_check_delay_ms: int,
        ready_nodes: set[Node],
        unknown_leader_topics: set[str],
    ) -> int:
        batches = list(topic_info.batches.items())
        cluster = metadata_snapshot.cluster()
        queue_sizes: list[int] | None = None
        partition_ids: list[int] | None = None
        # Adaptive partitioning needs a deque for every partition of the topic to weigh them all.
        if self._enable_adaptive_partitioning and len(batches) >= len(cluster.partitions_for_topic(topic)):
            queue_sizes = [0] * len(batches)
            partition_ids = [0] * len(batches)
        queue_sizes_index = -1
        exhausted = self._free.queued() > 0
        for partition, dq in batches:
            part = TopicPartition(topic, partition)
            leader = cluster.leader_for(part)
            if leader is not None and queue_sizes is not None:
                assert partition_ids is not None
                queue_sizes_index += 1
                partition_ids[queue_sizes_index] = part.partition
            leader_epoch = metadata_snapshot.leader_epoch_for(part)
            # Keep the locked part minimal: appends on the caller's threads wait on this lock.
            with dq.lock:
                if not dq:
                    continue
                batch = dq[0]
                waited_time_ms = batch.waited_time_ms(now_ms)
                batch.maybe_update_leader_epoch(leader_epoch)
                backing_off = self._should_backoff(
                    batch.has_leader_changed_for_the_ongoing_retry(), batch, waited_time_ms
                )
                backoff_attempts = batch.attempts()
                deque_size = len(dq)
                full = deque_size > 1 or batch.is_full()
            if leader is None:
                # Data waits for a partition whose leader is unknown: the Sender refreshes metadata.
                unknown_leader_topics.add(part.topic)
            else:
                if queue_sizes is not None:
                    queue_sizes[queue_sizes_index] = deque_size
                if self._partition_availability_timeout_ms > 0:
                    # Leave out partitions whose leader has not been drainable for too long.
                    node_latency_stats = self._node_stats.get(leader.id)
                    if node_latency_stats is not None:
                        ready_time_ms = node_latency_stats.ready_time_ms
                        if ready_time_ms - node_latency_stats.drain_time_ms > self._partition_availability_timeout_ms:
                            queue_sizes_index -= 1
                next_ready_check_delay_ms = self._batch_ready(
                    exhausted,
                    part,
                    leader,
                    waited_time_ms,
                    backing_off,
                    backoff_attempts,
                    full,
                    next_ready_check_delay_ms,
                    ready_nodes,
                )
        topic_info.built_in_partitioner.update_partition_load_stats(queue_sizes, partition_ids, queue_sizes_index + 1)
        return next_ready_check_delay_ms

    def ready(self, metadata_snapshot: MetadataSnapshot, now_ms: int) -> ReadyCheckResult:
        """The leaders of partitions with sendable data, the delay until the next check, and leaderless topics."""
        ready_nodes: set[Node] = set()
        next_ready_check_delay_ms = _LONG_MAX
        unknown_leader_topics: set[str] = set()
        for topic, topic_info in list(self._topic_info_map.items()):
            next_ready_check_delay_ms = self._partition_ready(
                metadata_snapshot,
                now_ms,
                topic,
                topic_info,
                next_ready_check_delay_ms,
                ready_nodes,
                unknown_leader_topics,
            )
        return ReadyCheckResult(ready_nodes, next_ready_check_delay_ms, unknown_leader_topics)

    def has_undrained(self) -> bool:
        """Whether any batch is still queued."""
        for topic_info in list(self._topic_info_map.values()):
            for dq in list(topic_info.batches.values()):
                with dq.lock:
                    if dq:
                        return True
        return False

    def _should_backoff(self, has_leader_changed: bool, batch: ProducerBatch, waited_time_ms: int) -> bool:
        should_wait_more = batch.attempts() > 0 and waited_time_ms < self._retry_backoff.backoff(batch.attempts() - 1)
        should_backoff = not has_leader_changed and should_wait_more
        if self._log.is_trace_enabled():
            if should_backoff:
                self._log.trace(f"For {batch}, will backoff")
            else:
                self._log.trace(
                    f"For {batch}, will not backoff, shouldWaitMore {str(should_wait_more).lower()}, "
                    f"hasLeaderChanged {str(has_leader_changed).lower()}"
                )
        elif has_leader_changed and self._log.is_debug_enabled():
            self._log.debug(f"For {batch}, leader has changed, hence skipping backoff.")
        return should_backoff

    # ---- draining --------------------------------------------------------------------------------

    def _should_stop_drain_batches_for_partition(self, first: ProducerBatch, tp: TopicPartition) -> bool:
        tm = self._transaction_manager
        if tm is None:
            return False
        if not tm.is_send_to_partition_allowed(tp):
            return True
        producer_id_and_epoch = tm.producer_id_and_epoch()
        if not producer_id_and_epoch.is_valid():
            # No producer id yet (or being reset): wait for InitProducerId.
            return True
        if not first.has_sequence():
            if tm.has_inflight_batches(tp) and tm.has_stale_producer_id_and_epoch(tp):
                # A first batch of a new epoch must wait for the old epoch's batches to complete.
                return True
            if tm.has_unresolved_sequence(first.topic_partition):
                # Sequences of expired in-flight batches are not known to be written or lost yet.
                return True
        first_in_flight_sequence = tm.first_in_flight_sequence(first.topic_partition)
        if (
            first_in_flight_sequence != NO_SEQUENCE
            and first.has_sequence()
            and first.base_sequence() != first_in_flight_sequence
        ):
            # A retry: only the earliest in-flight batch may go, one request at a time.
            return True
        return False

    def _drain_batches_for_one_node(
        self, metadata_snapshot: MetadataSnapshot, node: Node, max_size: int, now: int
    ) -> list[ProducerBatch]:
        size = 0
        parts = metadata_snapshot.cluster().partitions_for_node(node.id)
        ready: list[ProducerBatch] = []
        if not parts:
            return ready
        # Each node keeps its own rotating start so that no partition starves.
        node_id = node.id_string
        drain_index = self._nodes_drain_index.setdefault(node_id, 0)
        start = drain_index = drain_index % len(parts)
        while True:
            part = parts[drain_index]
            tp = TopicPartition(part.topic, part.partition)
            self._nodes_drain_index[node_id] = drain_index
            drain_index = (drain_index + 1) % len(parts)
            # Only partitions without a batch in flight (when ordering is guaranteed).
            dq = None if self._is_muted(tp) else self.get_deque(tp)
            if dq is not None:
                batch, stop = self._poll_drainable_batch(
                    dq, tp, metadata_snapshot.leader_epoch_for(tp), size, max_size, bool(ready), now
                )
                if stop:
                    break
                if batch is not None:
                    # Building (and compressing) happens outside the lock.
                    batch.close()
                    size += batch.records().size_in_bytes()
                    ready.append(batch)
                    batch.drained(now)
            if start == drain_index:
                break
        return ready

    def _poll_drainable_batch(
        self,
        dq: _BatchDeque,
        tp: TopicPartition,
        leader_epoch: int | None,
        size: int,
        max_size: int,
        have_ready: bool,
        now: int,
    ) -> tuple[ProducerBatch | None, bool]:
        """The partition's first batch if it may go in this request, and whether draining the node must stop."""
        with dq.lock:
            first = dq[0] if dq else None
            if first is None:
                return None, False
            first.maybe_update_leader_epoch(leader_epoch)
            # Not while its retry backoff runs.
            if self._should_backoff(first.has_leader_changed_for_the_ongoing_retry(), first, first.waited_time_ms(now)):
                return None, False
            if size + first.estimated_size_in_bytes() > max_size and have_ready:
                # A single batch larger than the request size (compression) still goes, alone, in a later request.
                return None, True
            if self._should_stop_drain_batches_for_partition(first, tp):
                return None, True
            batch = dq.popleft()
            tm = self._transaction_manager
            if tm is not None and not batch.has_sequence():
                producer_id_and_epoch = tm.producer_id_and_epoch()
                # A new epoch restarts the partition's sequences once its in-flight batches are done (which
                # _should_stop_drain_batches_for_partition made sure of).
                tm.maybe_update_producer_id_and_epoch(batch.topic_partition)
                # Sequences are given out here and never changed afterwards: an attempt may have been written,
                # and a new sequence for it would make a duplicate.
                batch.set_producer_state(
                    producer_id_and_epoch, tm.sequence_number(batch.topic_partition), tm.is_transactional()
                )
                tm.increment_sequence_number(batch.topic_partition, batch.record_count)
                self._log.debug(
                    f"Assigned producerId {producer_id_and_epoch.producer_id} and producerEpoch "
                    f"{producer_id_and_epoch.epoch} to batch with base sequence {batch.base_sequence()} being sent "
                    f"to partition {tp}"
                )
                tm.add_in_flight_batch(batch)
            return batch, False

    def drain(
        self, metadata_snapshot: MetadataSnapshot, nodes: Collection[Node], max_size: int, now: int
    ) -> dict[int, list[ProducerBatch]]:
        """For each node, batches of the partitions it leads, up to `max_size` bytes per node."""
        if not nodes:
            return {}
        return {node.id: self._drain_batches_for_one_node(metadata_snapshot, node, max_size, now) for node in nodes}

    def update_node_latency_stats(self, node_id: int, now_ms: int, can_drain: bool) -> None:
        """Notes that `node_id` had data ready (and, if `can_drain`, could take it) at `now_ms`."""
        if self._partition_availability_timeout_ms <= 0:
            return
        stats = self._node_stats.get(node_id)
        if stats is None:
            with self._maps_lock:
                stats = self._node_stats.setdefault(node_id, NodeLatencyStats(now_ms))
        # The drain time first, so that a concurrent reader never sees ready - drain jump up by mistake.
        if can_drain:
            stats.drain_time_ms = now_ms
        stats.ready_time_ms = now_ms

    def get_node_latency_stats(self, node_id: int) -> NodeLatencyStats | None:
        return self._node_stats.get(node_id)

    def get_built_in_partitioner(self, topic: str) -> BuiltInPartitioner:
        return self._topic_info_map[topic].built_in_partitioner

    def next_expiry_time_ms(self) -> int:
        return self._next_batch_expiry_time_ms

    def get_deque(self, tp: TopicPartition) -> _BatchDeque | None:
        topic_info = self._topic_info_map.get(tp.topic)
        if topic_info is None:
            return None
        return topic_info.batches.get(tp.partition)

    def _get_or_create_deque(self, tp: TopicPartition) -> _BatchDeque:
        return self._deque_of(self._topic_info(tp.topic), tp.partition)

    def deallocate(self, batch: ProducerBatch) -> None:
        """Forgets a completed batch and returns its memory (split batches were never charged to the pool)."""
        self._incomplete.remove(batch)
        if not batch.is_split_batch():
            self._free.deallocate(batch.buffer(), batch.initial_capacity())

    def buffer_pool_available_memory(self) -> int:
        return self._free.available_memory()

    # ---- flush and close -------------------------------------------------------------------------

    def flush_in_progress(self) -> bool:
        return self._flushes_in_progress > 0

    def begin_flush(self) -> None:
        """Makes every batch sendable at once until the matching await_flush_completion returns."""
        with self._counters_lock:
            self._flushes_in_progress += 1

    def _appends_in_progress_now(self) -> bool:
        return len(self._appends_in_progress) > 0

    def await_flush_completion(self, timeout_ms: int | None = None) -> bool:
        """Waits for every batch incomplete when called; True when all completed (within `timeout_ms`)."""
        try:
            # Only the results: holding the batches would keep their records alive.
            results: Iterable[ProduceRequestResult] = self._incomplete.request_results()
            if timeout_ms is None:
                for result in results:
                    result.await_()
                return True
            deadline = self._time.milliseconds() + timeout_ms
            for result in results:
                if not result.await_(max(0, deadline - self._time.milliseconds())):
                    return False
            return True
        finally:
            with self._counters_lock:
                self._flushes_in_progress -= 1

    def has_incomplete(self) -> bool:
        return not self._incomplete.is_empty()

    def abort_incomplete_batches(self) -> None:
        """Fails every queued and in-flight batch (forced close), including any an appending thread adds now."""
        while True:
            self._abort_batches()
            if not self._appends_in_progress_now():
                break
        # Appenders now see `closed`; one last pass catches a batch the last of them may have added.
        self._abort_batches()
        with self._maps_lock:
            self._topic_info_map.clear()

    def _abort_batches(self) -> None:
        self.abort_batches(KafkaException("Producer is closed forcefully."))

    def abort_batches(self, reason: BaseException) -> None:
        for batch in self._incomplete.copy_all():
            dq = self.get_deque(batch.topic_partition)
            if dq is not None:
                with dq.lock:
                    batch.abort_record_appends()
                    _remove_from(dq, batch)
            else:
                batch.abort_record_appends()
            batch.abort(reason)
            self.deallocate(batch)

    def abort_undrained_batches(self, reason: BaseException) -> None:
        """Fails the batches not yet sent (transactional abort)."""
        for batch in self._incomplete.copy_all():
            dq = self.get_deque(batch.topic_partition)
            aborted = False
            if dq is None:
                continue
            with dq.lock:
                tm = self._transaction_manager
                if (tm is not None and not batch.has_sequence()) or (tm is None and not batch.is_closed()):
                    aborted = True
                    batch.abort_record_appends()
                    _remove_from(dq, batch)
            if aborted:
                batch.abort(reason)
                self.deallocate(batch)

    def mute_partition(self, tp: TopicPartition) -> None:
        self._muted.add(tp)

    def unmute_partition(self, tp: TopicPartition) -> None:
        self._muted.discard(tp)

    def close(self) -> None:
        """Refuses further appends and wakes threads blocked on memory (they fail)."""
        self._closed = True
        self._free.close()


_APPEND_CALLBACKS_TYPES: dict[type, bool] = {}
_PARTITION_SETTERS: dict[type, Callable[[object, int], None]] = {}


def register_partition_setter(append_callbacks_type: type, setter: Callable[[object, int], None]) -> None:
    """`setter(callbacks, partition)` does what set_partition does for instances of exactly this AppendCallbacks
    class (its slot's setter, say): append then calls it instead of the method, without a Python call."""
    _PARTITION_SETTERS[append_callbacks_type] = setter


#: PORT: with the optional compiled module, append_to_partition(accumulator, topic, partition, timestamp, key, value,
#: headers, callbacks, now_ms, cluster) is `accumulator.append`'s common case in one call (a record without headers,
#: with KafkaProducer's AppendCallbacks, going to an existing partition deque whose last batch takes it: the same
#: steps, counts, lock and checks as append), answering with the RecordAppendResult, or None having changed nothing
#: but the callbacks' partition, which append then sets again: the caller then calls append. None without the
#: extension (or with KAFKA_PORT_PURE_PYTHON_WRITER=1): the caller calls append. The tests run both and compare.
append_to_partition: Callable[..., RecordAppendResult | None] | None = register_accumulator(
    _TopicInfo, StickyPartitionInfo
)


def _is_append_callbacks(callbacks: object) -> TypeGuard[AppendCallbacks]:
    """isinstance(callbacks, AppendCallbacks), remembered per class: the ABC check is slow for every record."""
    kind = type(callbacks)
    known = _APPEND_CALLBACKS_TYPES.get(kind)
    if known is None:
        known = _APPEND_CALLBACKS_TYPES[kind] = isinstance(callbacks, AppendCallbacks)
    return known


def _remove_from(dq: deque[ProducerBatch], batch: ProducerBatch) -> None:
    # Java's Deque.remove(Object) compares by identity for batches (no equals override).
    for i, b in enumerate(dq):
        if b is batch:
            del dq[i]
            return
