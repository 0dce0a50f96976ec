"""Port of clients/src/main/java/org/apache/kafka/clients/producer/internals/TransactionManager.java (Kafka 3.7).

The producer's idempotence state: the producer id and epoch from InitProducerId, per-partition
sequence numbers, the in-flight batches of each partition in sequence order, and the recovery rules
of Java 3.7's idempotent producer (bump the epoch locally and restart a partition's sequences after
OUT_OF_ORDER_SEQUENCE_NUMBER or UNKNOWN_PRODUCER_ID, resolve the sequences of expired batches).

# PORT: only the idempotent producer is ported. Transactions (transactional.id, AddPartitionsToTxn,
EndTxn, TxnOffsetCommit, FindCoordinator for the transaction coordinator) are not: KafkaProducer
refuses a transactional.id with a ConfigException, and the transactional methods here raise as Java
does on a non-transactional producer. The state machine, request queue and handlers keep Java's shape
so that transactions can be added without reshaping the class.
"""

from __future__ import annotations

import heapq
import itertools
import threading
from abc import ABC, abstractmethod
from enum import Enum
from typing import TYPE_CHECKING, Any

from kafka.clients.producer.internals.transactional_request_result import TransactionalRequestResult
from kafka.clients.producer.internals.txn_partition_entry import NO_LAST_ACKED_SEQUENCE_NUMBER
from kafka.clients.producer.internals.txn_partition_map import TxnPartitionMap
from kafka.common.errors import (
    AuthenticationException,
    ClusterAuthorizationException,
    InvalidProducerEpochException,
    KafkaException,
    OutOfOrderSequenceException,
    ProducerFencedException,
    RetriableException,
    TransactionalIdAuthorizationException,
    UnknownProducerIdException,
    UnsupportedVersionException,
)
from kafka.common.message import InitProducerIdRequestData
from kafka.common.protocol.errors import Errors
from kafka.common.record.record_batch import NO_SEQUENCE
from kafka.common.requests.abstract_request import DataBuilder
from kafka.common.requests.init_producer_id_request import InitProducerIdRequest
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.log_context import LogContext
from kafka.common.utils.producer_id_and_epoch import ProducerIdAndEpoch

if TYPE_CHECKING:
    from kafka.clients.api_versions import ApiVersions
    from kafka.clients.client_response import ClientResponse
    from kafka.clients.producer.internals.producer_batch import ProducerBatch
    from kafka.common.node import Node
    from kafka.common.requests.abstract_request import Builder
    from kafka.common.requests.abstract_response import AbstractResponse
    from kafka.common.requests.produce_response import PartitionResponse

__all__ = ["State", "TransactionManager", "TxnRequestHandler"]

_NO_INFLIGHT_REQUEST_CORRELATION_ID = -1
_SHORT_MAX = 2**15 - 1
_INT_MAX = 2**31 - 1


class State(Enum):
    UNINITIALIZED = "UNINITIALIZED"
    INITIALIZING = "INITIALIZING"
    READY = "READY"
    IN_TRANSACTION = "IN_TRANSACTION"
    COMMITTING_TRANSACTION = "COMMITTING_TRANSACTION"
    ABORTING_TRANSACTION = "ABORTING_TRANSACTION"
    ABORTABLE_ERROR = "ABORTABLE_ERROR"
    FATAL_ERROR = "FATAL_ERROR"

    def is_transition_valid(self, source: State, target: State) -> bool:
        if target is State.UNINITIALIZED:
            return source in (State.READY, State.ABORTABLE_ERROR)
        if target is State.INITIALIZING:
            return source in (State.UNINITIALIZED, State.ABORTING_TRANSACTION)
        if target is State.READY:
            return source in (State.INITIALIZING, State.COMMITTING_TRANSACTION, State.ABORTING_TRANSACTION)
        if target is State.IN_TRANSACTION:
            return source is State.READY
        if target is State.COMMITTING_TRANSACTION:
            return source is State.IN_TRANSACTION
        if target is State.ABORTING_TRANSACTION:
            return source in (State.IN_TRANSACTION, State.ABORTABLE_ERROR)
        if target is State.ABORTABLE_ERROR:
            return source in (
                State.IN_TRANSACTION,
                State.COMMITTING_TRANSACTION,
                State.ABORTABLE_ERROR,
                State.INITIALIZING,
            )
        # Any state may become FATAL_ERROR, and nothing leaves it.
        return True

    def __str__(self) -> str:
        return self.value


class Priority(Enum):
    """The order pending requests are sent in."""

    FIND_COORDINATOR = 0
    INIT_PRODUCER_ID = 1
    ADD_PARTITIONS_OR_OFFSETS = 2
    END_TXN = 3
    EPOCH_BUMP = 4


class TransactionManager:
    """Idempotence (and, later, transaction) state shared by KafkaProducer, RecordAccumulator and Sender.

    Java's synchronized methods hold `_lock` (reentrant). Lock order: an accumulator deque lock may be held
    when this lock is taken, never the other way round.
    """

    def __init__(
        self,
        log_context: LogContext,
        transactional_id: str | None,
        transaction_timeout_ms: int,
        retry_backoff_ms: int,
        api_versions: ApiVersions,
    ) -> None:
        self._lock = threading.RLock()
        self._producer_id_and_epoch = ProducerIdAndEpoch.NONE
        self._transactional_id = transactional_id
        self._log = log_context.logger("org.apache.kafka.clients.producer.internals.TransactionManager")
        self._transaction_timeout_ms = transaction_timeout_ms
        self._transaction_coordinator: Node | None = None
        self._consumer_group_coordinator: Node | None = None
        self._new_partitions_in_transaction: set[TopicPartition] = set()
        self._pending_partitions_in_transaction: set[TopicPartition] = set()
        self._partitions_in_transaction: set[TopicPartition] = set()
        self._should_poison_state_on_invalid_transition = threading.local()
        self._pending_requests: list[tuple[int, int, TxnRequestHandler]] = []
        self._request_order = itertools.count()
        # A partition whose batch expired after being sent is "unresolved" until later batches show whether
        # it was written; the value is the sequence just after the expired batch.
        self._partitions_with_unresolved_sequences: dict[TopicPartition, int] = {}
        # Partitions whose in-flight sequences are rewritten when the epoch is bumped.
        self._partitions_to_rewrite_sequences: set[TopicPartition] = set()
        self._retry_backoff_ms = retry_backoff_ms
        self._txn_partition_map = TxnPartitionMap(log_context)
        self._api_versions = api_versions
        self._in_flight_request_correlation_id = _NO_INFLIGHT_REQUEST_CORRELATION_ID
        self._coordinator_supports_bumping_epoch = False
        self._current_state = State.UNINITIALIZED
        self._last_error: BaseException | None = None
        self._transaction_started = False
        self._epoch_bump_required = False

    def set_poison_state_on_invalid_transition(self, should_poison_state: bool) -> None:
        """Makes an invalid transition on the calling thread (the Sender's) fatal instead of just raising."""
        self._should_poison_state_on_invalid_transition.value = should_poison_state

    def _poison_on_invalid_transition(self) -> bool:
        return bool(getattr(self._should_poison_state_on_invalid_transition, "value", False))

    # ---- transactional API (not ported: see the module docstring) ---------------------------------

    def initialize_transactions(self) -> TransactionalRequestResult:
        with self._lock:
            self._ensure_transactional()
            raise UnsupportedVersionException("Transactions are not supported by this producer yet")

    def begin_transaction(self) -> None:
        with self._lock:
            self._ensure_transactional()

    def begin_commit(self) -> TransactionalRequestResult:
        with self._lock:
            self._ensure_transactional()
            raise UnsupportedVersionException("Transactions are not supported by this producer yet")

    def begin_abort(self) -> TransactionalRequestResult:
        with self._lock:
            self._ensure_transactional()
            raise UnsupportedVersionException("Transactions are not supported by this producer yet")

    def send_offsets_to_transaction(self, offsets: Any, group_metadata: Any) -> TransactionalRequestResult:
        with self._lock:
            self._ensure_transactional()
            raise UnsupportedVersionException("Transactions are not supported by this producer yet")

    def maybe_add_partition(self, topic_partition: TopicPartition) -> None:
        """Called for every record appended; only a transactional producer has anything to do."""
        if not self.is_partition_check_needed():
            # The idempotent producer's common case, without taking the lock for every record.
            return
        with self._lock:
            self._maybe_fail_with_error()
            if self.is_transactional():
                raise UnsupportedVersionException("Transactions are not supported by this producer yet")

    def is_partition_check_needed(self) -> bool:
        """Whether maybe_add_partition has anything to do: a transaction to add to, or an error to raise.

        # PORT: lets `send` skip building the record's TopicPartition for an idempotent producer.
        """
        return self.is_transactional() or self._current_state in (State.ABORTABLE_ERROR, State.FATAL_ERROR)

    # ---- state ----------------------------------------------------------------------------------

    def last_error(self) -> BaseException | None:
        return self._last_error

    def is_send_to_partition_allowed(self, tp: TopicPartition) -> bool:
        with self._lock:
            if self.has_fatal_error():
                return False
            return not self.is_transactional() or tp in self._partitions_in_transaction

    def transactional_id(self) -> str | None:
        return self._transactional_id

    def has_producer_id(self) -> bool:
        return self._producer_id_and_epoch.is_valid()

    def is_transactional(self) -> bool:
        return self._transactional_id is not None

    def has_partitions_to_add(self) -> bool:
        with self._lock:
            return bool(self._new_partitions_in_transaction or self._pending_partitions_in_transaction)

    def is_completing(self) -> bool:
        with self._lock:
            return self._current_state in (State.COMMITTING_TRANSACTION, State.ABORTING_TRANSACTION)

    def has_error(self) -> bool:
        with self._lock:
            return self._current_state in (State.ABORTABLE_ERROR, State.FATAL_ERROR)

    def is_aborting(self) -> bool:
        with self._lock:
            return self._current_state is State.ABORTING_TRANSACTION

    def transition_to_abortable_error(self, exception: BaseException) -> None:
        with self._lock:
            if self._current_state is State.ABORTING_TRANSACTION:
                self._log.debug(
                    "Skipping transition to abortable error state since the transaction is already being "
                    "aborted. Underlying exception: ",
                    exception,
                )
                return
            self._log.info(f"Transiting to abortable error state due to {_exc_str(exception)}")
            self._transition_to(State.ABORTABLE_ERROR, exception)

    def transition_to_fatal_error(self, exception: BaseException) -> None:
        with self._lock:
            self._log.info(f"Transiting to fatal error state due to {_exc_str(exception)}")
            self._transition_to(State.FATAL_ERROR, exception)

    def producer_id_and_epoch(self) -> ProducerIdAndEpoch:
        return self._producer_id_and_epoch

    def maybe_update_producer_id_and_epoch(self, topic_partition: TopicPartition) -> None:
        """Restarts a partition's sequences at 0 under the current id/epoch once its older batches are done."""
        with self._lock:
            if self.has_fatal_error():
                self._log.debug(
                    "Ignoring producer ID and epoch update request since the producer is in fatal error state"
                )
                return
            if self.has_stale_producer_id_and_epoch(topic_partition) and not self.has_inflight_batches(topic_partition):
                self._txn_partition_map.start_sequences_at_beginning(topic_partition, self._producer_id_and_epoch)
                self._log.debug(
                    f"ProducerId of partition {topic_partition} set to {self._producer_id_and_epoch.producer_id} "
                    f"with epoch {self._producer_id_and_epoch.epoch}. Reinitialize sequence at beginning."
                )

    def _set_producer_id_and_epoch(self, producer_id_and_epoch: ProducerIdAndEpoch) -> None:
        self._log.info(
            f"ProducerId set to {producer_id_and_epoch.producer_id} with epoch {producer_id_and_epoch.epoch}"
        )
        self._producer_id_and_epoch = producer_id_and_epoch

    def _reset_idempotent_producer_id(self) -> None:
        if self.is_transactional():
            raise RuntimeError(
                "Cannot reset producer state for a transactional producer. You must either abort the ongoing "
                "transaction or reinitialize the transactional producer instead"
            )
        self._log.debug(
            f"Resetting idempotent producer ID. ID and epoch before reset are {self._producer_id_and_epoch}"
        )
        self._set_producer_id_and_epoch(ProducerIdAndEpoch.NONE)
        self._transition_to(State.UNINITIALIZED)

    def _reset_sequence_for_partition(self, topic_partition: TopicPartition) -> None:
        self._txn_partition_map.remove(topic_partition)
        self._partitions_with_unresolved_sequences.pop(topic_partition, None)

    def _reset_sequence_numbers(self) -> None:
        self._txn_partition_map.reset()
        self._partitions_with_unresolved_sequences.clear()

    def request_epoch_bump_for_partition(self, tp: TopicPartition) -> None:
        with self._lock:
            self._epoch_bump_required = True
            self._partitions_to_rewrite_sequences.add(tp)

    def _bump_idempotent_producer_epoch(self) -> None:
        if self._producer_id_and_epoch.epoch == _SHORT_MAX:
            # The epoch cannot grow further: get a new producer id instead.
            self._reset_idempotent_producer_id()
        else:
            self._set_producer_id_and_epoch(
                ProducerIdAndEpoch(self._producer_id_and_epoch.producer_id, self._producer_id_and_epoch.epoch + 1)
            )
            self._log.debug(
                f"Incremented producer epoch, current producer ID and epoch are now {self._producer_id_and_epoch}"
            )
        # The partitions that asked for the bump restart their in-flight sequences under the new epoch.
        for topic_partition in self._partitions_to_rewrite_sequences:
            self._txn_partition_map.start_sequences_at_beginning(topic_partition, self._producer_id_and_epoch)
            self._partitions_with_unresolved_sequences.pop(topic_partition, None)
        self._partitions_to_rewrite_sequences.clear()
        self._epoch_bump_required = False

    def bump_idempotent_epoch_and_reset_id_if_needed(self) -> None:
        """Run by the Sender each loop: bumps the epoch when asked to, and queues InitProducerId when there is no id."""
        with self._lock:
            if not self.is_transactional():
                if self._epoch_bump_required:
                    self._bump_idempotent_producer_epoch()
                if self._current_state is not State.INITIALIZING and not self.has_producer_id():
                    self._transition_to(State.INITIALIZING)
                    request_data = InitProducerIdRequestData(transactional_id=None, transaction_timeout_ms=_INT_MAX)
                    handler = InitProducerIdHandler(self, DataBuilder(InitProducerIdRequest, request_data), False)
                    self._enqueue_request(handler)

    # ---- sequences ------------------------------------------------------------------------------

    def sequence_number(self, topic_partition: TopicPartition) -> int:
        with self._lock:
            return self._txn_partition_map.get_or_create(topic_partition).next_sequence()

    def producer_id_and_epoch_for(self, topic_partition: TopicPartition) -> ProducerIdAndEpoch:
        """Java's producerIdAndEpoch(TopicPartition): the id/epoch the partition's sequences belong to."""
        with self._lock:
            return self._txn_partition_map.get_or_create(topic_partition).producer_id_and_epoch()

    def increment_sequence_number(self, topic_partition: TopicPartition, increment: int) -> None:
        with self._lock:
            self._txn_partition_map.get(topic_partition).increment_sequence(increment)

    def add_in_flight_batch(self, batch: ProducerBatch) -> None:
        with self._lock:
            if not batch.has_sequence():
                raise RuntimeError(f"Can't track batch for partition {batch.topic_partition} when sequence is not set.")
            self._txn_partition_map.get(batch.topic_partition).add_inflight_batch(batch)

    def first_in_flight_sequence(self, topic_partition: TopicPartition) -> int:
        """The base sequence of the partition's earliest in-flight batch, or -1."""
        with self._lock:
            if not self.has_inflight_batches(topic_partition):
                return NO_SEQUENCE
            batch = self.next_batch_by_sequence(topic_partition)
            return NO_SEQUENCE if batch is None else batch.base_sequence()

    def next_batch_by_sequence(self, topic_partition: TopicPartition) -> ProducerBatch | None:
        with self._lock:
            return self._txn_partition_map.next_batch_by_sequence(topic_partition)

    def remove_in_flight_batch(self, batch: ProducerBatch) -> None:
        with self._lock:
            if self.has_inflight_batches(batch.topic_partition):
                self._txn_partition_map.remove_in_flight_batch(batch)

    def _maybe_update_last_acked_sequence(self, topic_partition: TopicPartition, sequence: int) -> int:
        return self._txn_partition_map.maybe_update_last_acked_sequence(topic_partition, sequence)

    def last_acked_sequence(self, topic_partition: TopicPartition) -> int | None:
        with self._lock:
            return self._txn_partition_map.last_acked_sequence(topic_partition)

    def last_acked_offset(self, topic_partition: TopicPartition) -> int | None:
        with self._lock:
            return self._txn_partition_map.last_acked_offset(topic_partition)

    def _update_last_acked_offset(self, response: PartitionResponse, batch: ProducerBatch) -> None:
        if response.base_offset == -1:
            return
        last_offset = response.base_offset + batch.record_count - 1
        self._txn_partition_map.update_last_acked_offset(batch.topic_partition, self.is_transactional(), last_offset)

    def handle_completed_batch(self, batch: ProducerBatch, response: PartitionResponse) -> None:
        with self._lock:
            last_acked_sequence = self._maybe_update_last_acked_sequence(batch.topic_partition, batch.last_sequence())
            self._log.debug(
                f"ProducerId: {batch.producer_id()}; Set last ack'd sequence number for topic-partition "
                f"{batch.topic_partition} to {last_acked_sequence}"
            )
            self._update_last_acked_offset(response, batch)
            self.remove_in_flight_batch(batch)

    def transition_to_uninitialized(self, exception: BaseException) -> None:
        with self._lock:
            self._transition_to(State.UNINITIALIZED)
            self._last_error = None

    def maybe_transition_to_error_state(self, exception: BaseException) -> None:
        with self._lock:
            if isinstance(
                exception,
                ClusterAuthorizationException
                | TransactionalIdAuthorizationException
                | ProducerFencedException
                | UnsupportedVersionException,
            ):
                self.transition_to_fatal_error(exception)
            elif self.is_transactional():
                if self.can_bump_epoch() and not self.is_completing():
                    self._epoch_bump_required = True
                self.transition_to_abortable_error(exception)

    def handle_failed_batch(
        self, batch: ProducerBatch, exception: BaseException, adjust_sequence_numbers: bool
    ) -> None:
        with self._lock:
            self.maybe_transition_to_error_state(exception)
            self.remove_in_flight_batch(batch)
            if self.has_fatal_error():
                self._log.debug(
                    f"Ignoring batch {batch} with producer id {batch.producer_id()}, epoch {batch.producer_epoch()}, "
                    f"and sequence number {batch.base_sequence()} since the producer is already in fatal error state",
                    exception,
                )
                return
            if isinstance(exception, OutOfOrderSequenceException) and not self.is_transactional():
                self._log.error(
                    f"The broker returned {_exc_str(exception)} for topic-partition {batch.topic_partition} with "
                    f"producerId {batch.producer_id()}, epoch {batch.producer_epoch()}, and sequence number "
                    f"{batch.base_sequence()}"
                )
                # A gap in the log: restart the partition's sequences under a bumped epoch.
                self.request_epoch_bump_for_partition(batch.topic_partition)
            elif isinstance(exception, UnknownProducerIdException):
                # The broker lost this producer's state and will take sequence 0 again.
                self._reset_sequence_for_partition(batch.topic_partition)
            elif adjust_sequence_numbers:
                if not self.is_transactional():
                    self.request_epoch_bump_for_partition(batch.topic_partition)
                else:
                    self._txn_partition_map.adjust_sequences_due_to_failed_batch(batch)

    def has_inflight_batches(self, topic_partition: TopicPartition) -> bool:
        with self._lock:
            return self._txn_partition_map.get_or_create(topic_partition).has_inflight_batches()

    def has_stale_producer_id_and_epoch(self, topic_partition: TopicPartition) -> bool:
        with self._lock:
            return (
                self._producer_id_and_epoch
                != self._txn_partition_map.get_or_create(topic_partition).producer_id_and_epoch()
            )

    def has_unresolved_sequences(self) -> bool:
        with self._lock:
            return bool(self._partitions_with_unresolved_sequences)

    def has_unresolved_sequence(self, topic_partition: TopicPartition) -> bool:
        with self._lock:
            return topic_partition in self._partitions_with_unresolved_sequences

    def mark_sequence_unresolved(self, batch: ProducerBatch) -> None:
        with self._lock:
            next_sequence = batch.last_sequence() + 1
            current = self._partitions_with_unresolved_sequences.get(batch.topic_partition)
            self._partitions_with_unresolved_sequences[batch.topic_partition] = (
                next_sequence if current is None else max(current, next_sequence)
            )
            self._log.debug(
                f"Marking partition {batch.topic_partition} unresolved with next sequence number "
                f"{self._partitions_with_unresolved_sequences[batch.topic_partition]}"
            )

    def maybe_resolve_sequences(self) -> None:
        """Once an unresolved partition has nothing in flight: resolved if the acks caught up, else bump the epoch."""
        with self._lock:
            for topic_partition in list(self._partitions_with_unresolved_sequences):
                if self.has_inflight_batches(topic_partition):
                    continue
                if self._is_next_sequence(topic_partition, self.sequence_number(topic_partition)):
                    # Later batches succeeded, so the expired one was written.
                    del self._partitions_with_unresolved_sequences[topic_partition]
                    continue
                if self.is_transactional():
                    unacked_messages_err = (
                        "The client hasn't received acknowledgment for some previously sent messages and can no "
                        "longer retry them. "
                    )
                    if self.can_bump_epoch():
                        self._epoch_bump_required = True
                        self.transition_to_abortable_error(
                            KafkaException(unacked_messages_err + "It is safe to abort the transaction and continue.")
                        )
                    else:
                        self.transition_to_fatal_error(
                            KafkaException(unacked_messages_err + "It isn't safe to continue.")
                        )
                else:
                    last_acked = self.last_acked_sequence(topic_partition)
                    self._log.info(
                        f"No inflight batches remaining for {topic_partition}, last ack'd sequence for partition is "
                        f"{NO_LAST_ACKED_SEQUENCE_NUMBER if last_acked is None else last_acked}, next sequence is "
                        f"{self.sequence_number(topic_partition)}. Going to bump epoch and reset sequence numbers."
                    )
                    self.request_epoch_bump_for_partition(topic_partition)
                del self._partitions_with_unresolved_sequences[topic_partition]

    def _is_next_sequence(self, topic_partition: TopicPartition, sequence: int) -> bool:
        last_acked = self.last_acked_sequence(topic_partition)
        return sequence - (NO_LAST_ACKED_SEQUENCE_NUMBER if last_acked is None else last_acked) == 1

    def _is_next_sequence_for_unresolved_partition(self, topic_partition: TopicPartition, sequence: int) -> bool:
        return (
            self.has_unresolved_sequence(topic_partition)
            and sequence == self._partitions_with_unresolved_sequences[topic_partition]
        )

    # ---- the request queue ----------------------------------------------------------------------

    def next_request(self, has_incomplete_batches: bool) -> TxnRequestHandler | None:
        """The next request to send, or None."""
        with self._lock:
            if not self._pending_requests:
                return None
            next_request_handler = self._pending_requests[0][2]
            if next_request_handler.is_end_txn() and has_incomplete_batches:
                return None
            heapq.heappop(self._pending_requests)
            if self._maybe_terminate_request_with_error(next_request_handler):
                self._log.trace(
                    f"Not sending transactional request {next_request_handler.request_builder()} because we are "
                    "in an error state"
                )
                return None
            self._log.trace(f"Request {next_request_handler.request_builder()} dequeued for sending")
            return next_request_handler

    def retry(self, request: TxnRequestHandler) -> None:
        with self._lock:
            request.set_retry()
            self._enqueue_request(request)

    def authentication_failed(self, e: AuthenticationException) -> None:
        with self._lock:
            for _, _, request in self._pending_requests:
                request.fatal_error(e)

    def fail_pending_requests(self, exception: BaseException) -> None:
        with self._lock:
            for _, _, handler in list(self._pending_requests):
                handler.abortable_error(exception)

    def close(self) -> None:
        """Fails every pending request: the producer is closing forcefully."""
        with self._lock:
            shutdown_exception = KafkaException("The producer closed forcefully")
            for _, _, handler in list(self._pending_requests):
                handler.fatal_error(shutdown_exception)

    def coordinator(self, coordinator_type: Any) -> Node | None:
        return self._transaction_coordinator

    def set_in_flight_correlation_id(self, correlation_id: int) -> None:
        self._in_flight_request_correlation_id = correlation_id

    def _clear_in_flight_correlation_id(self) -> None:
        self._in_flight_request_correlation_id = _NO_INFLIGHT_REQUEST_CORRELATION_ID

    def has_in_flight_request(self) -> bool:
        return self._in_flight_request_correlation_id != _NO_INFLIGHT_REQUEST_CORRELATION_ID

    def in_flight_request_correlation_id(self) -> int:
        return self._in_flight_request_correlation_id

    def has_fatal_error(self) -> bool:
        return self._current_state is State.FATAL_ERROR

    def has_abortable_error(self) -> bool:
        return self._current_state is State.ABORTABLE_ERROR

    def has_pending_requests(self) -> bool:
        with self._lock:
            return bool(self._pending_requests)

    def has_ongoing_transaction(self) -> bool:
        with self._lock:
            return self._current_state is State.IN_TRANSACTION or self.is_completing() or self.has_abortable_error()

    def can_retry(self, response: PartitionResponse, batch: ProducerBatch) -> bool:
        """Whether a failed produce of `batch` is retried (and whether the epoch must be bumped first)."""
        with self._lock:
            error = response.error
            # The broker lost this producer's state (retention, or a new leader without it).
            if error is Errors.UNKNOWN_PRODUCER_ID:
                if response.log_start_offset == -1:
                    # The answer cannot tell yet (the partition moved meanwhile): retry until it can.
                    return True
                if batch.sequence_has_been_reset():
                    # A batch renumbered after an earlier UNKNOWN_PRODUCER_ID: its answer is stale, retry.
                    return True
                last_acked_offset = self.last_acked_offset(batch.topic_partition)
                if (NO_LAST_ACKED_SEQUENCE_NUMBER if last_acked_offset is None else last_acked_offset) < (
                    response.log_start_offset
                ):
                    # Everything acknowledged was deleted from the log: the state loss is expected.
                    if self.is_transactional():
                        self._txn_partition_map.start_sequences_at_beginning(
                            batch.topic_partition, self._producer_id_and_epoch
                        )
                    else:
                        self.request_epoch_bump_for_partition(batch.topic_partition)
                    return True
                if not self.is_transactional():
                    # The idempotent producer always retries it, under a bumped epoch.
                    self.request_epoch_bump_for_partition(batch.topic_partition)
                    return True
            elif error is Errors.OUT_OF_ORDER_SEQUENCE_NUMBER:
                if not self.has_unresolved_sequence(batch.topic_partition) and (
                    batch.sequence_has_been_reset()
                    or not self._is_next_sequence(batch.topic_partition, batch.base_sequence())
                ):
                    # Not the next batch after the last acknowledged one: an earlier batch failed, retry in order.
                    return True
                if not self.is_transactional():
                    # A real gap (or the batch right after an unresolved one): bump the epoch and retry.
                    if not self.has_unresolved_sequence(
                        batch.topic_partition
                    ) or self._is_next_sequence_for_unresolved_partition(batch.topic_partition, batch.base_sequence()):
                        self.request_epoch_bump_for_partition(batch.topic_partition)
                    return True
            return isinstance(error.exception(), RetriableException)

    def is_ready(self) -> bool:
        with self._lock:
            return self.is_transactional() and self._current_state is State.READY

    def is_initializing(self) -> bool:
        with self._lock:
            return self.is_transactional() and self._current_state is State.INITIALIZING

    def current_state(self) -> State:
        return self._current_state

    def handle_coordinator_ready(self) -> None:
        self._coordinator_supports_bumping_epoch = False

    def _transition_to(self, target: State, error: BaseException | None = None) -> None:
        current = self._current_state
        if not current.is_transition_valid(current, target):
            id_string = "" if self._transactional_id is None else f"TransactionalId {self._transactional_id}: "
            message = f"{id_string}Invalid transition attempted from state {current.value} to state {target.value}"
            if self._poison_on_invalid_transition():
                self._current_state = State.FATAL_ERROR
                self._last_error = RuntimeError(message)
                raise self._last_error
            raise RuntimeError(message)
        if target in (State.FATAL_ERROR, State.ABORTABLE_ERROR):
            if error is None:
                raise ValueError(f"Cannot transition to {target} with a null exception")
            self._last_error = error
        else:
            self._last_error = None
        if self._last_error is not None:
            self._log.debug(f"Transition from state {current} to error state {target}", self._last_error)
        else:
            self._log.debug(f"Transition from state {current} to {target}")
        self._current_state = target

    def _ensure_transactional(self) -> None:
        if not self.is_transactional():
            raise RuntimeError("Transactional method invoked on a non-transactional producer.")

    def _maybe_fail_with_error(self) -> None:
        if not self.has_error():
            return
        last_error = self._last_error
        if isinstance(last_error, ProducerFencedException):
            raise ProducerFencedException(
                f"Producer with transactionalId '{self._transactional_id}' and {self._producer_id_and_epoch} has "
                "been fenced by another producer with the same transactionalId"
            )
        if isinstance(last_error, InvalidProducerEpochException):
            raise InvalidProducerEpochException(
                f"Producer with transactionalId '{self._transactional_id}' and {self._producer_id_and_epoch} "
                "attempted to produce with an old epoch"
            )
        if isinstance(last_error, RuntimeError):
            raise RuntimeError(
                f"Producer with transactionalId '{self._transactional_id}' and {self._producer_id_and_epoch} cannot "
                "execute transactional method because of previous invalid state transition attempt"
            ) from last_error
        raise KafkaException("Cannot execute transactional method because we are in an error state") from last_error

    def _maybe_terminate_request_with_error(self, request_handler: TxnRequestHandler) -> bool:
        if self.has_error():
            assert self._last_error is not None
            request_handler.fail(self._last_error)
            return True
        return False

    def _enqueue_request(self, request_handler: TxnRequestHandler) -> None:
        self._log.debug(f"Enqueuing transactional request {request_handler.request_builder()}")
        heapq.heappush(
            self._pending_requests, (request_handler.priority().value, next(self._request_order), request_handler)
        )

    def can_bump_epoch(self) -> bool:
        if not self.is_transactional():
            return True
        return self._coordinator_supports_bumping_epoch

    # Used by the handlers.
    def _handle_init_producer_id_success(self, producer_id_and_epoch: ProducerIdAndEpoch, is_epoch_bump: bool) -> None:
        self._set_producer_id_and_epoch(producer_id_and_epoch)
        self._transition_to(State.READY)
        self._last_error = None
        if is_epoch_bump:
            self._reset_sequence_numbers()


class TxnRequestHandler(ABC):
    """A request the TransactionManager sends (through the Sender), and what to do with its response."""

    def __init__(self, manager: TransactionManager, operation: str) -> None:
        self._manager = manager
        self.result = TransactionalRequestResult(operation)
        self._is_retry = False

    def fatal_error(self, e: BaseException) -> None:
        self.result.fail(e)
        self._manager.transition_to_fatal_error(e)

    def abortable_error(self, e: BaseException) -> None:
        self.result.fail(e)
        self._manager.transition_to_abortable_error(e)

    def fail(self, e: BaseException) -> None:
        self.result.fail(e)

    def reenqueue(self) -> None:
        with self._manager._lock:
            self._is_retry = True
            self._manager._enqueue_request(self)

    def retry_backoff_ms(self) -> int:
        return self._manager._retry_backoff_ms

    def __call__(self, response: ClientResponse) -> None:
        self.on_complete(response)

    def on_complete(self, response: ClientResponse) -> None:
        manager = self._manager
        if response.request_header.correlation_id != manager.in_flight_request_correlation_id():
            self.fatal_error(RuntimeError("Detected more than one in-flight transactional request."))
            return
        manager._clear_in_flight_correlation_id()
        if response.was_disconnected:
            manager._log.debug(f"Disconnected from {response.destination}. Will retry.")
            self.reenqueue()
        elif response.version_mismatch is not None:
            self.fatal_error(response.version_mismatch)
        elif response.has_response:
            body = response.response_body
            assert body is not None
            if manager._log.is_trace_enabled():
                manager._log.trace(f"Received transactional response {body} for request {self.request_builder()}")
            with manager._lock:
                self.handle_response(body)
        else:
            self.fatal_error(KafkaException("Could not execute transactional request for unknown reasons"))

    def needs_coordinator(self) -> bool:
        return self.coordinator_type() is not None

    def coordinator_type(self) -> Any:
        """The coordinator the request goes to; None: any broker (least loaded)."""
        return None

    def set_retry(self) -> None:
        self._is_retry = True

    def is_retry(self) -> bool:
        return self._is_retry

    def is_end_txn(self) -> bool:
        return False

    @abstractmethod
    def request_builder(self) -> Builder[Any]: ...

    @abstractmethod
    def handle_response(self, response_body: AbstractResponse) -> None: ...

    @abstractmethod
    def priority(self) -> Priority: ...


class InitProducerIdHandler(TxnRequestHandler):
    """InitProducerId: the idempotent producer's id and epoch."""

    def __init__(self, manager: TransactionManager, builder: Builder[Any], is_epoch_bump: bool) -> None:
        super().__init__(manager, "InitProducerId")
        self._builder = builder
        self._is_epoch_bump = is_epoch_bump

    def request_builder(self) -> Builder[Any]:
        return self._builder

    def priority(self) -> Priority:
        return Priority.EPOCH_BUMP if self._is_epoch_bump else Priority.INIT_PRODUCER_ID

    def handle_response(self, response_body: AbstractResponse) -> None:
        manager = self._manager
        data = response_body.data
        error = Errors.for_code(data.error_code)
        if error is Errors.NONE:
            manager._handle_init_producer_id_success(
                ProducerIdAndEpoch(data.producer_id, data.producer_epoch), self._is_epoch_bump
            )
            self.result.done()
        elif isinstance(error.exception(), RetriableException):
            self.reenqueue()
        elif error in (Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED, Errors.CLUSTER_AUTHORIZATION_FAILED):
            manager._log.info(
                f"Abortable authorization error: {error.message}.  Transition the producer state to "
                f"{State.ABORTABLE_ERROR}"
            )
            exception = _exception_of(error)
            manager._last_error = exception
            self.abortable_error(exception)
        elif error in (Errors.INVALID_PRODUCER_EPOCH, Errors.PRODUCER_FENCED):
            # An old coordinator may still answer INVALID_PRODUCER_EPOCH: the same as PRODUCER_FENCED.
            self.fatal_error(_exception_of(Errors.PRODUCER_FENCED))
        else:
            self.fatal_error(KafkaException(f"Unexpected error in InitProducerIdResponse; {error.message}"))


def _exception_of(error: Errors) -> BaseException:
    exception = error.exception()
    return exception if exception is not None else KafkaException(error.name)


def _exc_str(e: BaseException) -> str:
    # Java's Throwable.toString: class name, then the message if there is one.
    message = str(e)
    return f"{type(e).__name__}: {message}" if message else type(e).__name__
