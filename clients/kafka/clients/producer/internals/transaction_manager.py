"""Port of clients/src/main/java/org/apache/kafka/clients/producer/internals/TransactionManager.java (Kafka 3.7).

The state a producer shares between the application's threads and its Sender: the producer id and epoch,
per-partition sequence numbers and in-flight batches (idempotence), and, for a transactional producer, the
transaction itself. The application moves the state machine (init_transactions, begin_transaction,
send_offsets_to_transaction, commit/abort); the Sender sends the queued requests one at a time, in priority
order (FindCoordinator, InitProducerId, AddPartitionsToTxn/AddOffsetsToTxn/TxnOffsetCommit, EndTxn, then an
epoch bump), each to the coordinator it needs, looking that coordinator up again when it moved.

Errors are abortable (the application aborts and goes on with a new transaction; with InitProducerId v3+
the epoch is bumped after the abort, KIP-360) or fatal (fencing by a newer producer with the same
transactional id, authorization, an invalid state: the producer can only be closed).
"""

from __future__ import annotations

import heapq
import itertools
import threading
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any

from kafka.clients.consumer.commit_failed_exception import CommitFailedException
from kafka.clients.producer.internals.transactional_request_result import TransactionalRequestResult
from kafka.clients.producer.internals.txn_partition_entry import NO_LAST_ACKED_SEQUENCE_NUMBER
from kafka.clients.producer.internals.txn_partition_map import TxnPartitionMap
from kafka.common.errors import (
    AuthenticationException,
    ClusterAuthorizationException,
    GroupAuthorizationException,
    InvalidPidMappingException,
    InvalidProducerEpochException,
    KafkaException,
    OutOfOrderSequenceException,
    ProducerFencedException,
    RetriableException,
    TopicAuthorizationException,
    TransactionalIdAuthorizationException,
    UnknownProducerIdException,
    UnsupportedVersionException,
)
from kafka.common.message import (
    AddOffsetsToTxnRequestData,
    EndTxnRequestData,
    FindCoordinatorRequestData,
    InitProducerIdRequestData,
)
from kafka.common.node import Node
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.record.record_batch import NO_SEQUENCE
from kafka.common.requests.abstract_request import DataBuilder
from kafka.common.requests.add_offsets_to_txn_request import AddOffsetsToTxnRequest
from kafka.common.requests.add_partitions_to_txn_request import AddPartitionsToTxnRequestBuilder
from kafka.common.requests.add_partitions_to_txn_response import V3_AND_BELOW_TXN_ID, AddPartitionsToTxnResponse
from kafka.common.requests.end_txn_request import EndTxnRequest
from kafka.common.requests.find_coordinator_request import CoordinatorType, FindCoordinatorRequestBuilder
from kafka.common.requests.find_coordinator_response import FindCoordinatorResponse
from kafka.common.requests.init_producer_id_request import InitProducerIdRequest
from kafka.common.requests.transaction_result import TransactionResult
from kafka.common.requests.txn_offset_commit_request import CommittedOffset, TxnOffsetCommitRequestBuilder
from kafka.common.requests.txn_offset_commit_response import TxnOffsetCommitResponse
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.log_context import LogContext
from kafka.common.utils.producer_id_and_epoch import ProducerIdAndEpoch

if TYPE_CHECKING:
    from kafka.clients.api_versions import ApiVersions
    from kafka.clients.client_response import ClientResponse
    from kafka.clients.consumer.consumer_group_metadata import ConsumerGroupMetadata
    from kafka.clients.consumer.offset_and_metadata import OffsetAndMetadata
    from kafka.clients.producer.internals.producer_batch import ProducerBatch
    from kafka.common.requests.abstract_request import Builder
    from kafka.common.requests.abstract_response import AbstractResponse
    from kafka.common.requests.produce_response import PartitionResponse

__all__ = ["State", "TransactionManager", "TxnRequestHandler"]

_NO_INFLIGHT_REQUEST_CORRELATION_ID = -1
_SHORT_MAX = 2**15 - 1
_INT_MAX = 2**31 - 1
# The backoff of the first AddPartitionsToTxn of a transaction after CONCURRENT_TRANSACTIONS: the previous
# transaction is most likely completing and will be done soon.
_ADD_PARTITIONS_RETRY_BACKOFF_MS = 20


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


@dataclass(frozen=True, slots=True)
class _PendingStateTransition:
    """A transactional call that timed out in the application: the same call may wait for its result again."""

    result: TransactionalRequestResult
    state: State
    operation: str


#: The error states, as one constant: looking the members up on the Enum class costs more than the check itself
#: (is_partition_check_needed runs for every record sent).
_ERROR_STATES = (State.ABORTABLE_ERROR, State.FATAL_ERROR)


class TransactionManager:
    """Idempotence and transaction state shared by KafkaProducer, RecordAccumulator and Sender.

    Java's synchronized methods hold `_lock` (reentrant). Lock order: an accumulator deque lock may be held
    when this lock is taken, never the other way round.

    An invalid transition raises RuntimeError (Java's IllegalStateException) and leaves the state as it was on
    the application's threads; on the Sender's thread it also makes the state FATAL_ERROR.
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
        self._pending_txn_offset_commits: dict[TopicPartition, CommittedOffset] = {}
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
        # is_partition_check_needed's answer, kept beside the state it depends on (send reads it for every record).
        self.partition_check_needed = transactional_id is not None
        self._last_error: BaseException | None = None
        self._transaction_started = False
        self._epoch_bump_required = False
        self._pending_transition: _PendingStateTransition | None = None

    def set_poison_state_on_invalid_transition(self, should_poison_state: bool) -> None:
        """Makes an invalid transition on the calling thread (the Sender's) fatal instead of just raising."""
        self._should_poison_state_on_invalid_transition.value = should_poison_state

    def _poison_on_invalid_transition(self) -> bool:
        return bool(getattr(self._should_poison_state_on_invalid_transition, "value", False))

    # ---- transactional API ----------------------------------------------------------------------

    def initialize_transactions(
        self, producer_id_and_epoch: ProducerIdAndEpoch = ProducerIdAndEpoch.NONE
    ) -> TransactionalRequestResult:
        """Queues InitProducerId: the first one (from init_transactions), or an epoch bump with the current id."""
        with self._lock:
            self._maybe_fail_with_error()
            is_epoch_bump = producer_id_and_epoch is not ProducerIdAndEpoch.NONE

            def send_init_producer_id() -> TransactionalRequestResult:
                # An epoch bump moves the state when its EndTxn completes.
                if not is_epoch_bump:
                    self._transition_to(State.INITIALIZING)
                    self._log.info("Invoking InitProducerId for the first time in order to acquire a producer ID")
                else:
                    self._log.info(
                        f"Invoking InitProducerId with current producer ID and epoch {producer_id_and_epoch} in "
                        "order to bump the epoch"
                    )
                request_data = InitProducerIdRequestData(
                    transactional_id=self._transactional_id,
                    transaction_timeout_ms=self._transaction_timeout_ms,
                    producer_id=producer_id_and_epoch.producer_id,
                    producer_epoch=producer_id_and_epoch.epoch,
                )
                handler = InitProducerIdHandler(self, DataBuilder(InitProducerIdRequest, request_data), is_epoch_bump)
                self._enqueue_request(handler)
                return handler.result

            return self._handle_cached_transaction_request_result(
                send_init_producer_id, State.INITIALIZING, "initTransactions"
            )

    def begin_transaction(self) -> None:
        with self._lock:
            self._ensure_transactional()
            self._throw_if_pending_state("beginTransaction")
            self._maybe_fail_with_error()
            self._transition_to(State.IN_TRANSACTION)

    def begin_commit(self) -> TransactionalRequestResult:
        with self._lock:

            def commit() -> TransactionalRequestResult:
                self._maybe_fail_with_error()
                self._transition_to(State.COMMITTING_TRANSACTION)
                return self._begin_completing_transaction(TransactionResult.COMMIT)

            return self._handle_cached_transaction_request_result(
                commit, State.COMMITTING_TRANSACTION, "commitTransaction"
            )

    def begin_abort(self) -> TransactionalRequestResult:
        with self._lock:

            def abort() -> TransactionalRequestResult:
                # An abortable error is what abort is for; any other error is raised.
                if self._current_state is not State.ABORTABLE_ERROR:
                    self._maybe_fail_with_error()
                self._transition_to(State.ABORTING_TRANSACTION)
                # Partitions not added yet need not be: their batches are aborted.
                self._new_partitions_in_transaction.clear()
                return self._begin_completing_transaction(TransactionResult.ABORT)

            return self._handle_cached_transaction_request_result(abort, State.ABORTING_TRANSACTION, "abortTransaction")

    def _begin_completing_transaction(self, transaction_result: TransactionResult) -> TransactionalRequestResult:
        if self._new_partitions_in_transaction:
            self._enqueue_request(self._add_partitions_to_transaction_handler())
        # After INVALID_PRODUCER_ID_MAPPING the coordinator refuses EndTxn: go straight to the epoch bump.
        # Otherwise the transaction ends first, since InitProducerId alone would fence this producer.
        if not isinstance(self._last_error, InvalidPidMappingException):
            request_data = EndTxnRequestData(
                transactional_id=self._transactional_id,
                producer_id=self._producer_id_and_epoch.producer_id,
                producer_epoch=self._producer_id_and_epoch.epoch,
                committed=transaction_result.id,
            )
            handler = EndTxnHandler(self, DataBuilder(EndTxnRequest, request_data))
            self._enqueue_request(handler)
            if not self._epoch_bump_required:
                return handler.result
        return self.initialize_transactions(self._producer_id_and_epoch)

    def send_offsets_to_transaction(
        self, offsets: Mapping[TopicPartition, OffsetAndMetadata], group_metadata: ConsumerGroupMetadata
    ) -> TransactionalRequestResult:
        """Queues AddOffsetsToTxn for the group; its TxnOffsetCommit follows once the coordinator accepted it."""
        with self._lock:
            self._ensure_transactional()
            self._throw_if_pending_state("sendOffsetsToTransaction")
            self._maybe_fail_with_error()
            if self._current_state is not State.IN_TRANSACTION:
                raise RuntimeError(
                    f"Cannot send offsets if a transaction is not in progress (currentState= {self._current_state})"
                )
            self._log.debug(
                f"Begin adding offsets {_java_map(offsets)} for consumer group {group_metadata} to transaction"
            )
            request_data = AddOffsetsToTxnRequestData(
                transactional_id=self._transactional_id,
                producer_id=self._producer_id_and_epoch.producer_id,
                producer_epoch=self._producer_id_and_epoch.epoch,
                group_id=group_metadata.group_id,
            )
            handler = AddOffsetsToTxnHandler(
                self, DataBuilder(AddOffsetsToTxnRequest, request_data), dict(offsets), group_metadata
            )
            self._enqueue_request(handler)
            return handler.result

    def maybe_add_partition(self, topic_partition: TopicPartition) -> None:
        """Called for every record appended: a transactional producer adds the partition to its transaction."""
        if not self.is_partition_check_needed():
            # The idempotent producer's common case, without taking the lock for every record.
            return
        with self._lock:
            self._maybe_fail_with_error()
            self._throw_if_pending_state("send")
            if not self.is_transactional():
                return
            if not self.has_producer_id():
                raise RuntimeError(
                    f"Cannot add partition {topic_partition} to transaction before completing a call to "
                    "initTransactions"
                )
            if self._current_state is not State.IN_TRANSACTION:
                raise RuntimeError(
                    f"Cannot add partition {topic_partition} to transaction while in state  {self._current_state}"
                )
            if self.is_partition_added(topic_partition) or self.is_partition_pending_add(topic_partition):
                return
            self._log.debug(f"Begin adding new partition {topic_partition} to transaction")
            self._txn_partition_map.get_or_create(topic_partition)
            self._new_partitions_in_transaction.add(topic_partition)

    def is_partition_check_needed(self) -> bool:
        """Whether maybe_add_partition has anything to do: a transaction to add to, or an error to raise.

        # PORT: lets `send` skip building the record's TopicPartition for an idempotent producer.
        """
        return self.partition_check_needed

    def _set_state(self, state: State) -> None:
        self._current_state = state
        self.partition_check_needed = self._transactional_id is not None or state in _ERROR_STATES

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
            if self._pending_transition is not None:
                self._pending_transition.result.fail(exception)

    def is_partition_added(self, partition: TopicPartition) -> bool:
        with self._lock:
            return partition in self._partitions_in_transaction

    def is_partition_pending_add(self, partition: TopicPartition) -> bool:
        with self._lock:
            return partition in self._new_partitions_in_transaction or partition in (
                self._pending_partitions_in_transaction
            )

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
            if self._pending_transition is not None:
                self._pending_transition.result.fail(exception)
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
        """The next request to send, or None (EndTxn waits until every batch of the transaction is done)."""
        with self._lock:
            if self._new_partitions_in_transaction:
                self._enqueue_request(self._add_partitions_to_transaction_handler())
            if not self._pending_requests:
                return None
            next_request_handler: TxnRequestHandler | None = self._pending_requests[0][2]
            assert next_request_handler is not None
            if next_request_handler.is_end_txn() and has_incomplete_batches:
                return None
            heapq.heappop(self._pending_requests)
            if self._maybe_terminate_request_with_error(next_request_handler):
                self._log.trace(
                    f"Not sending transactional request {next_request_handler.request_builder()} because we are "
                    "in an error state"
                )
                return None
            if next_request_handler.is_end_txn() and not self._transaction_started:
                # Nothing reached the coordinator for this transaction: there is nothing to end there.
                next_request_handler.result.done()
                if self._current_state is not State.FATAL_ERROR:
                    self._log.debug(
                        "Not sending EndTxn for completed transaction since no partitions or offsets were "
                        "successfully added"
                    )
                    self._complete_transaction()
                next_request_handler = heapq.heappop(self._pending_requests)[2] if self._pending_requests else None
            if next_request_handler is not None:
                self._log.trace(f"Request {next_request_handler.request_builder()} dequeued for sending")
            return next_request_handler

    def retry(self, request: TxnRequestHandler) -> None:
        with self._lock:
            request.set_retry()
            self._enqueue_request(request)

    def authentication_failed(self, e: AuthenticationException) -> None:
        with self._lock:
            for _, _, request in list(self._pending_requests):
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
            if self._pending_transition is not None:
                self._pending_transition.result.fail(shutdown_exception)

    def coordinator(self, coordinator_type: CoordinatorType) -> Node | None:
        """The known group or transaction coordinator (None until FindCoordinator found it)."""
        if coordinator_type is CoordinatorType.GROUP:
            return self._consumer_group_coordinator
        if coordinator_type is CoordinatorType.TRANSACTION:
            return self._transaction_coordinator
        raise RuntimeError(f"Received an invalid coordinator type: {coordinator_type}")

    def lookup_coordinator(self, request: TxnRequestHandler) -> None:
        coordinator_type = request.coordinator_type()
        assert coordinator_type is not None
        self._lookup_coordinator(coordinator_type, request.coordinator_key())

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

    def transaction_contains_partition(self, topic_partition: TopicPartition) -> bool:
        with self._lock:
            return topic_partition in self._partitions_in_transaction

    def has_pending_offset_commits(self) -> bool:
        with self._lock:
            return bool(self._pending_txn_offset_commits)

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
        """The transaction coordinator is connected: whether it can bump the epoch (InitProducerId v3+) is known."""
        coordinator = self._transaction_coordinator
        node_api_versions = self._api_versions.get(coordinator.id_string) if coordinator is not None else None
        init_producer_id_version = (
            node_api_versions.api_version(ApiKeys.INIT_PRODUCER_ID) if node_api_versions is not None else None
        )
        self._coordinator_supports_bumping_epoch = (
            init_producer_id_version is not None and init_producer_id_version.max_version >= 3
        )

    def _transition_to(self, target: State, error: BaseException | None = None) -> None:
        current = self._current_state
        if not current.is_transition_valid(current, target):
            id_string = "" if self._transactional_id is None else f"TransactionalId {self._transactional_id}: "
            message = f"{id_string}Invalid transition attempted from state {current.value} to state {target.value}"
            if self._poison_on_invalid_transition():
                self._set_state(State.FATAL_ERROR)
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
        self._set_state(target)

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
            if self.has_abortable_error() and isinstance(request_handler, FindCoordinatorHandler):
                # Finding the coordinator does no harm: the abort will need it.
                return False
            assert self._last_error is not None
            request_handler.fail(self._last_error)
            return True
        return False

    def _enqueue_request(self, request_handler: TxnRequestHandler) -> None:
        self._log.debug(f"Enqueuing transactional request {request_handler.request_builder()}")
        heapq.heappush(
            self._pending_requests, (request_handler.priority().value, next(self._request_order), request_handler)
        )

    def _lookup_coordinator(self, coordinator_type: CoordinatorType, coordinator_key: str | None) -> None:
        if coordinator_type is CoordinatorType.GROUP:
            self._consumer_group_coordinator = None
        elif coordinator_type is CoordinatorType.TRANSACTION:
            self._transaction_coordinator = None
        else:
            raise RuntimeError(f"Invalid coordinator type: {coordinator_type}")
        data = FindCoordinatorRequestData(key_type=coordinator_type.id(), key=coordinator_key)
        self._enqueue_request(FindCoordinatorHandler(self, FindCoordinatorRequestBuilder(data)))

    def _add_partitions_to_transaction_handler(self) -> TxnRequestHandler:
        self._pending_partitions_in_transaction.update(self._new_partitions_in_transaction)
        self._new_partitions_in_transaction.clear()
        assert self._transactional_id is not None
        builder = AddPartitionsToTxnRequestBuilder.for_client(
            self._transactional_id,
            self._producer_id_and_epoch.producer_id,
            self._producer_id_and_epoch.epoch,
            [(tp.topic, tp.partition) for tp in self._pending_partitions_in_transaction],
        )
        return AddPartitionsToTxnHandler(self, builder)

    def _txn_offset_commit_handler(
        self,
        result: TransactionalRequestResult,
        offsets: Mapping[TopicPartition, OffsetAndMetadata],
        group_metadata: ConsumerGroupMetadata,
    ) -> TxnRequestHandler:
        for tp, offset_and_metadata in offsets.items():
            self._pending_txn_offset_commits[tp] = CommittedOffset(
                offset_and_metadata.offset, offset_and_metadata.metadata, offset_and_metadata.leader_epoch
            )
        assert self._transactional_id is not None
        builder = TxnOffsetCommitRequestBuilder(
            self._transactional_id,
            group_metadata.group_id,
            self._producer_id_and_epoch.producer_id,
            self._producer_id_and_epoch.epoch,
            self._pending_txn_offset_commits,
            group_metadata.member_id,
            group_metadata.generation_id,
            group_metadata.group_instance_id,
        )
        return TxnOffsetCommitHandler(self, result, builder)

    def _throw_if_pending_state(self, operation: str) -> None:
        pending = self._pending_transition
        if pending is None:
            return
        if pending.result.is_acked():
            self._pending_transition = None
        else:
            raise RuntimeError(
                f"Cannot attempt operation `{operation}` because the previous call to `{pending.operation}` timed "
                "out and must be retried"
            )

    def _handle_cached_transaction_request_result(
        self, supplier: Callable[[], TransactionalRequestResult], next_state: State, operation: str
    ) -> TransactionalRequestResult:
        """The result of a call the application retries after a timeout, or `supplier()` for a new call."""
        self._ensure_transactional()
        pending = self._pending_transition
        if pending is not None:
            if pending.result.is_acked():
                self._pending_transition = None
            elif next_state is not pending.state:
                raise RuntimeError(
                    f"Cannot attempt operation `{operation}` because the previous call to `{pending.operation}` "
                    "timed out and must be retried"
                )
            else:
                return pending.result
        result = supplier()
        self._pending_transition = _PendingStateTransition(result, next_state, operation)
        return result

    def can_bump_epoch(self) -> bool:
        if not self.is_transactional():
            return True
        return self._coordinator_supports_bumping_epoch

    def _complete_transaction(self) -> None:
        if self._epoch_bump_required:
            self._transition_to(State.INITIALIZING)
        else:
            self._transition_to(State.READY)
        self._last_error = None
        self._epoch_bump_required = False
        self._transaction_started = False
        self._new_partitions_in_transaction.clear()
        self._pending_partitions_in_transaction.clear()
        self._partitions_in_transaction.clear()


class TxnRequestHandler(ABC):
    """A request the TransactionManager sends (through the Sender), and what to do with its response.

    handle_response runs with the manager's lock held.
    """

    def __init__(
        self,
        manager: TransactionManager,
        operation_or_result: str | TransactionalRequestResult,
        builder: Builder[Any],
    ) -> None:
        self._manager = manager
        self._builder = builder
        self.result = (
            operation_or_result
            if isinstance(operation_or_result, TransactionalRequestResult)
            else TransactionalRequestResult(operation_or_result)
        )
        self._is_retry = False

    def fatal_error(self, e: BaseException) -> None:
        self.result.fail(e)
        self._manager.transition_to_fatal_error(e)

    def abortable_error(self, e: BaseException) -> None:
        self.result.fail(e)
        self._manager.transition_to_abortable_error(e)

    def abortable_error_if_possible(self, e: BaseException) -> None:
        """Abortable when the coordinator can bump the epoch after the abort (KIP-360), fatal otherwise."""
        if self._manager.can_bump_epoch():
            self._manager._epoch_bump_required = True
            self.abortable_error(e)
        else:
            self.fatal_error(e)

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
            if self.needs_coordinator():
                coordinator_type = self.coordinator_type()
                assert coordinator_type is not None
                with manager._lock:
                    manager._lookup_coordinator(coordinator_type, self.coordinator_key())
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

    def coordinator_type(self) -> CoordinatorType | None:
        """The coordinator the request goes to; None: any broker (the least loaded one)."""
        return CoordinatorType.TRANSACTION

    def coordinator_key(self) -> str | None:
        return self._manager._transactional_id

    def set_retry(self) -> None:
        self._is_retry = True

    def is_retry(self) -> bool:
        return self._is_retry

    def is_end_txn(self) -> bool:
        return False

    def request_builder(self) -> Builder[Any]:
        return self._builder

    @abstractmethod
    def handle_response(self, response_body: AbstractResponse) -> None: ...

    @abstractmethod
    def priority(self) -> Priority: ...


class InitProducerIdHandler(TxnRequestHandler):
    """InitProducerId: the producer id and epoch (a first one, a fenced-off predecessor's, or a bumped epoch)."""

    def __init__(self, manager: TransactionManager, builder: Builder[Any], is_epoch_bump: bool) -> None:
        super().__init__(manager, "InitProducerId", builder)
        self._is_epoch_bump = is_epoch_bump

    def priority(self) -> Priority:
        return Priority.EPOCH_BUMP if self._is_epoch_bump else Priority.INIT_PRODUCER_ID

    def coordinator_type(self) -> CoordinatorType | None:
        # The idempotent producer asks any broker.
        return CoordinatorType.TRANSACTION if self._manager.is_transactional() else None

    def handle_response(self, response_body: AbstractResponse) -> None:
        manager = self._manager
        data = response_body.data
        error = Errors.for_code(data.error_code)
        if error is Errors.NONE:
            manager._set_producer_id_and_epoch(ProducerIdAndEpoch(data.producer_id, data.producer_epoch))
            manager._transition_to(State.READY)
            manager._last_error = None
            if self._is_epoch_bump:
                manager._reset_sequence_numbers()
            self.result.done()
        elif error in (Errors.NOT_COORDINATOR, Errors.COORDINATOR_NOT_AVAILABLE):
            manager._lookup_coordinator(CoordinatorType.TRANSACTION, manager._transactional_id)
            self.reenqueue()
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
            # An older coordinator answers INVALID_PRODUCER_EPOCH where a newer one says PRODUCER_FENCED.
            self.fatal_error(_exception_of(Errors.PRODUCER_FENCED))
        else:
            self.fatal_error(KafkaException(f"Unexpected error in InitProducerIdResponse; {error.message}"))


class AddPartitionsToTxnHandler(TxnRequestHandler):
    """AddPartitionsToTxn (v0-3): the partitions the transaction writes to; their batches wait for it."""

    def __init__(self, manager: TransactionManager, builder: AddPartitionsToTxnRequestBuilder) -> None:
        super().__init__(manager, "AddPartitionsToTxn", builder)
        self._retry_backoff_ms = manager._retry_backoff_ms

    def priority(self) -> Priority:
        return Priority.ADD_PARTITIONS_OR_OFFSETS

    def handle_response(self, response_body: AbstractResponse) -> None:
        manager = self._manager
        assert isinstance(response_body, AddPartitionsToTxnResponse)
        errors = {
            TopicPartition(topic, partition): error
            for (topic, partition), error in response_body.errors().get(V3_AND_BELOW_TXN_ID, {}).items()
        }
        has_partition_errors = False
        unauthorized_topics: set[str] = set()
        self._retry_backoff_ms = manager._retry_backoff_ms
        for topic_partition, error in errors.items():
            if error is Errors.NONE:
                continue
            if error in (Errors.COORDINATOR_NOT_AVAILABLE, Errors.NOT_COORDINATOR):
                manager._lookup_coordinator(CoordinatorType.TRANSACTION, manager._transactional_id)
                self.reenqueue()
                return
            if error is Errors.CONCURRENT_TRANSACTIONS:
                self._maybe_override_retry_backoff_ms()
                self.reenqueue()
                return
            if isinstance(error.exception(), RetriableException):
                self.reenqueue()
                return
            if error in (Errors.INVALID_PRODUCER_EPOCH, Errors.PRODUCER_FENCED):
                self.fatal_error(_exception_of(Errors.PRODUCER_FENCED))
                return
            if error in (Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED, Errors.INVALID_TXN_STATE):
                self.fatal_error(_exception_of(error))
                return
            if error is Errors.TOPIC_AUTHORIZATION_FAILED:
                unauthorized_topics.add(topic_partition.topic)
            elif error is Errors.OPERATION_NOT_ATTEMPTED:
                manager._log.debug(
                    f"Did not attempt to add partition {topic_partition} to transaction because other partitions "
                    "in the batch had errors."
                )
                has_partition_errors = True
            elif error in (Errors.UNKNOWN_PRODUCER_ID, Errors.INVALID_PRODUCER_ID_MAPPING):
                self.abortable_error_if_possible(_exception_of(error))
                return
            else:
                manager._log.error(f"Could not add partition {topic_partition} due to unexpected error {error.name}")
                has_partition_errors = True
        partitions = set(errors)
        # Out of the pending set whatever the outcome: batches of partitions that were added may go on (and be
        # aborted with the transaction if this failed).
        manager._pending_partitions_in_transaction.difference_update(partitions)
        if unauthorized_topics:
            self.abortable_error(TopicAuthorizationException.for_topics(unauthorized_topics))
        elif has_partition_errors:
            self.abortable_error(
                KafkaException(f"Could not add partitions to transaction due to errors: {_java_map(errors)}")
            )
        else:
            manager._log.debug(f"Successfully added partitions {_java_set(partitions)} to transaction")
            manager._partitions_in_transaction.update(partitions)
            manager._transaction_started = True
            self.result.done()

    def retry_backoff_ms(self) -> int:
        return min(self._manager._retry_backoff_ms, self._retry_backoff_ms)

    def _maybe_override_retry_backoff_ms(self) -> None:
        # Only the transaction's first AddPartitionsToTxn: the previous transaction is likely about to complete.
        if not self._manager._partitions_in_transaction:
            self._retry_backoff_ms = _ADD_PARTITIONS_RETRY_BACKOFF_MS


class FindCoordinatorHandler(TxnRequestHandler):
    """FindCoordinator: the broker coordinating the transactional id, or the group of the offsets."""

    def __init__(self, manager: TransactionManager, builder: FindCoordinatorRequestBuilder) -> None:
        super().__init__(manager, "FindCoordinator", builder)
        self._data: Any = builder.data

    def priority(self) -> Priority:
        return Priority.FIND_COORDINATOR

    def coordinator_type(self) -> CoordinatorType | None:
        return None

    def coordinator_key(self) -> str | None:
        return None

    def handle_response(self, response_body: AbstractResponse) -> None:
        manager = self._manager
        coordinator_type = CoordinatorType.for_id(self._data.key_type)
        assert isinstance(response_body, FindCoordinatorResponse)
        coordinators = response_body.coordinators()
        if len(coordinators) != 1:
            message = "Group coordinator lookup failed: Invalid response containing more than a single coordinator"
            manager._log.error(message)
            self.fatal_error(RuntimeError(message))
            return
        coordinator_data = coordinators[0]
        # Before v4 the response does not repeat the key: it is the request's.
        key = coordinator_data.key
        if key is None:
            key = self._data.key
            if not key and self._data.coordinator_keys:
                key = self._data.coordinator_keys[0]
        error = Errors.for_code(coordinator_data.error_code)
        if error is Errors.NONE:
            node = Node(coordinator_data.node_id, coordinator_data.host, coordinator_data.port)
            if coordinator_type is CoordinatorType.GROUP:
                manager._consumer_group_coordinator = node
            elif coordinator_type is CoordinatorType.TRANSACTION:
                manager._transaction_coordinator = node
            self.result.done()
            manager._log.info(f"Discovered {coordinator_type.name.lower()} coordinator {node}")
        elif isinstance(error.exception(), RetriableException):
            self.reenqueue()
        elif error is Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED:
            self.fatal_error(_exception_of(error))
        elif error is Errors.GROUP_AUTHORIZATION_FAILED:
            self.abortable_error(GroupAuthorizationException.for_group_id(key))
        else:
            self.fatal_error(
                KafkaException(
                    f"Could not find a coordinator with type {coordinator_type.name} with key {key} due to "
                    f"unexpected error: {coordinator_data.error_message}"
                )
            )


class EndTxnHandler(TxnRequestHandler):
    """EndTxn: commit or abort; sent once every batch of the transaction is done."""

    def __init__(self, manager: TransactionManager, builder: DataBuilder[Any]) -> None:
        super().__init__(manager, f"EndTxn({str(bool(builder.data.committed)).lower()})", builder)

    def priority(self) -> Priority:
        return Priority.END_TXN

    def is_end_txn(self) -> bool:
        return True

    def handle_response(self, response_body: AbstractResponse) -> None:
        manager = self._manager
        error = Errors.for_code(response_body.data.error_code)
        if error is Errors.NONE:
            manager._complete_transaction()
            self.result.done()
        elif error in (Errors.COORDINATOR_NOT_AVAILABLE, Errors.NOT_COORDINATOR):
            manager._lookup_coordinator(CoordinatorType.TRANSACTION, manager._transactional_id)
            self.reenqueue()
        elif isinstance(error.exception(), RetriableException):
            self.reenqueue()
        elif error in (Errors.INVALID_PRODUCER_EPOCH, Errors.PRODUCER_FENCED):
            self.fatal_error(_exception_of(Errors.PRODUCER_FENCED))
        elif error in (Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED, Errors.INVALID_TXN_STATE):
            self.fatal_error(_exception_of(error))
        elif error in (Errors.UNKNOWN_PRODUCER_ID, Errors.INVALID_PRODUCER_ID_MAPPING):
            self.abortable_error_if_possible(_exception_of(error))
        else:
            self.fatal_error(KafkaException(f"Unhandled error in EndTxnResponse: {error.message}"))


class AddOffsetsToTxnHandler(TxnRequestHandler):
    """AddOffsetsToTxn: the group's offsets partition joins the transaction; then TxnOffsetCommit."""

    def __init__(
        self,
        manager: TransactionManager,
        builder: DataBuilder[Any],
        offsets: Mapping[TopicPartition, OffsetAndMetadata],
        group_metadata: ConsumerGroupMetadata,
    ) -> None:
        super().__init__(manager, "AddOffsetsToTxn", builder)
        self._data: Any = builder.data
        self._offsets = offsets
        self._group_metadata = group_metadata

    def priority(self) -> Priority:
        return Priority.ADD_PARTITIONS_OR_OFFSETS

    def handle_response(self, response_body: AbstractResponse) -> None:
        manager = self._manager
        error = Errors.for_code(response_body.data.error_code)
        group_id = self._data.group_id
        if error is Errors.NONE:
            manager._log.debug(f"Successfully added partition for consumer group {group_id} to transaction")
            # The caller's result completes with the TxnOffsetCommit.
            manager._enqueue_request(
                manager._txn_offset_commit_handler(self.result, self._offsets, self._group_metadata)
            )
            manager._transaction_started = True
        elif error in (Errors.COORDINATOR_NOT_AVAILABLE, Errors.NOT_COORDINATOR):
            manager._lookup_coordinator(CoordinatorType.TRANSACTION, manager._transactional_id)
            self.reenqueue()
        elif isinstance(error.exception(), RetriableException):
            self.reenqueue()
        elif error in (Errors.UNKNOWN_PRODUCER_ID, Errors.INVALID_PRODUCER_ID_MAPPING):
            self.abortable_error_if_possible(_exception_of(error))
        elif error in (Errors.INVALID_PRODUCER_EPOCH, Errors.PRODUCER_FENCED):
            self.fatal_error(_exception_of(Errors.PRODUCER_FENCED))
        elif error in (Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED, Errors.INVALID_TXN_STATE):
            self.fatal_error(_exception_of(error))
        elif error is Errors.GROUP_AUTHORIZATION_FAILED:
            self.abortable_error(GroupAuthorizationException.for_group_id(group_id))
        else:
            self.fatal_error(KafkaException(f"Unexpected error in AddOffsetsToTxnResponse: {error.message}"))


class TxnOffsetCommitHandler(TxnRequestHandler):
    """TxnOffsetCommit, to the group coordinator: the offsets, committed with the transaction."""

    def __init__(
        self, manager: TransactionManager, result: TransactionalRequestResult, builder: TxnOffsetCommitRequestBuilder
    ) -> None:
        super().__init__(manager, result, builder)
        self._data: Any = builder.data

    def priority(self) -> Priority:
        return Priority.ADD_PARTITIONS_OR_OFFSETS

    def coordinator_type(self) -> CoordinatorType | None:
        return CoordinatorType.GROUP

    def coordinator_key(self) -> str | None:
        return str(self._data.group_id)

    def handle_response(self, response_body: AbstractResponse) -> None:
        manager = self._manager
        group_id = self._data.group_id
        coordinator_reloaded = False
        assert isinstance(response_body, TxnOffsetCommitResponse)
        errors = {
            TopicPartition(topic, partition): error for (topic, partition), error in response_body.errors().items()
        }
        manager._log.debug(f"Received TxnOffsetCommit response for consumer group {group_id}: {_java_map(errors)}")
        for topic_partition, error in errors.items():
            if error is Errors.NONE:
                manager._pending_txn_offset_commits.pop(topic_partition, None)
            elif error in (Errors.COORDINATOR_NOT_AVAILABLE, Errors.NOT_COORDINATOR, Errors.REQUEST_TIMED_OUT):
                if not coordinator_reloaded:
                    coordinator_reloaded = True
                    manager._lookup_coordinator(CoordinatorType.GROUP, group_id)
            elif error in (Errors.UNKNOWN_TOPIC_OR_PARTITION, Errors.COORDINATOR_LOAD_IN_PROGRESS):
                # Retried with the same coordinator.
                continue
            elif error is Errors.GROUP_AUTHORIZATION_FAILED:
                self.abortable_error(GroupAuthorizationException.for_group_id(group_id))
                break
            elif error is Errors.FENCED_INSTANCE_ID:
                self.abortable_error(_exception_of(error))
                break
            elif error in (Errors.UNKNOWN_MEMBER_ID, Errors.ILLEGAL_GENERATION):
                self.abortable_error(
                    CommitFailedException(
                        "Transaction offset Commit failed due to consumer group metadata mismatch: "
                        f"{_exception_of(error)}"
                    )
                )
                break
            elif error in (Errors.INVALID_PRODUCER_EPOCH, Errors.PRODUCER_FENCED):
                self.fatal_error(_exception_of(Errors.PRODUCER_FENCED))
                break
            elif error in (Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED, Errors.UNSUPPORTED_FOR_MESSAGE_FORMAT):
                self.fatal_error(_exception_of(error))
                break
            else:
                self.fatal_error(KafkaException(f"Unexpected error in TxnOffsetCommitResponse: {error.message}"))
                break
        if self.result.is_completed():
            manager._pending_txn_offset_commits.clear()
        elif not manager._pending_txn_offset_commits:
            self.result.done()
        else:
            # The partitions that failed with a retriable error go again.
            self.reenqueue()


def _exception_of(error: Errors) -> BaseException:
    exception = error.exception()
    return exception if exception is not None else KafkaException(error.name)


def _exc_str(e: BaseException) -> str:
    # Java's Throwable.toString: class name, then the message if there is one.
    message = str(e)
    return f"{type(e).__name__}: {message}" if message else type(e).__name__


def _java_map(mapping: Mapping[Any, Any]) -> str:
    # Java's AbstractMap.toString.
    return "{" + ", ".join(f"{k}={v.name if isinstance(v, Errors) else v}" for k, v in mapping.items()) + "}"


def _java_set(items: Any) -> str:
    return "[" + ", ".join(str(i) for i in items) + "]"
